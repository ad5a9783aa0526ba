"""The spells, one module each. :data:`SPELLS` is the official table, in the
order ``moves`` lists them; the rule hook ``glyph_spells`` gives the table in
force (a variant adds a spell with a wrapper: see docs/glyph-chess.md)."""

from __future__ import annotations

from collections.abc import Mapping

from tabletop import rulehook

from .base import Spell, adjacent_empty, empty_next, pieces_of
from .blast import BLAST
from .blaze import BLAZE
from .foresee import FORESEE
from .march import MARCH
from .replica import REPLICA
from .revive import REVIVE
from .summon import SUMMON
from .swap import SWAP

SPELLS: dict[str, Spell] = {s.name: s for s in (SWAP, REPLICA, FORESEE, BLAZE, BLAST, REVIVE, MARCH, SUMMON)}
#: Spell costs, with the icons the rule book lost restored by RULINGS.
COSTS = {name: spell.cost for name, spell in SPELLS.items()}


@rulehook
def glyph_spells(players: int) -> Mapping[str, Spell]:
    return SPELLS


@rulehook
def glyph_costs() -> Mapping[str, str]:
    return COSTS


@rulehook
def glyph_more_spells(players: int) -> None:
    return None  # the official game adds none: its spells are the table


__all__ = [
    "COSTS",
    "SPELLS",
    "Spell",
    "adjacent_empty",
    "empty_next",
    "glyph_costs",
    "glyph_more_spells",
    "glyph_spells",
    "pieces_of",
]
