"""The official rules of Glyph Chess, as the default implementations of its rule hooks."""

from __future__ import annotations

from collections.abc import Mapping

from tabletop import rulehook

from .pieces import HAND_LIMIT

#: Spell costs, with the icons the rule book lost restored by RULINGS.
COSTS = {
    "swap": "item",  # illusionist, active: 1 of Illusionist
    "replica": "die",  # illusionist, master: 1 die showing Illusionist
    "foresee": "die",  # seeress, master
    "blaze": "die+x",  # elementalist, master: 1 die + X of Elementalist
    "blast": "die+x",  # force mage, master: 1 die + X of Force Mage
    "revive": "die",  # necromancer, master
    "march": "x",  # summoner, active: X of Summoner
    "summon": "die",  # summoner, master
}


@rulehook
def glyph_secret_setup(players: int) -> bool:
    # Standard setup: the glyph cards are shuffled.
    return False


@rulehook
def glyph_costs() -> Mapping[str, str]:
    return COSTS


@rulehook
def glyph_hand_limit(players: int) -> int:
    return HAND_LIMIT
