"""Glyph Chess for tabletop: a hex board, wizards, spells paid in coins and shared dice.

The names a house rule needs are exported here (see docs/glyph-chess.md and
docs/hooks.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.base.lazy import names

if TYPE_CHECKING:
    from .context import Context
    from .events import Cast, Discard, Draw, Escape, Glimpse, Move, Pass, Reroll, Roll, Shuffle
    from .game import GlyphChess
    from .hexes import DIRECTIONS, HexBoard
    from .kills import minions_leave, relocate, strike
    from .offers import Paid, action, offer
    from .payment import COST_KINDS, PAYMENT_TYPES, Payers
    from .pieces import (
        ELEMENTALIST,
        FORCE_MAGE,
        GLYPHS,
        ILLUSIONIST,
        MINION,
        NECROMANCER,
        SCEPTER,
        SEERESS,
        SUMMONER,
    )
    from .spells import Spell, adjacent_empty, bounded, empty_next, pieces_of
    from .state import State, Step, Work, recall, remember
    from .steps import TurnStep

#: Each name and the module it comes from: imported on first use, so that
#: importing a module of the package (``about``, for ``tabletop games``)
#: does not import the whole game.
_FROM = {
    "Context": "context",
    "Cast": "events",
    "Discard": "events",
    "Draw": "events",
    "Escape": "events",
    "Glimpse": "events",
    "Move": "events",
    "Pass": "events",
    "Reroll": "events",
    "Roll": "events",
    "Shuffle": "events",
    "GlyphChess": "game",
    "DIRECTIONS": "hexes",
    "HexBoard": "hexes",
    "minions_leave": "kills",
    "relocate": "kills",
    "strike": "kills",
    "Paid": "offers",
    "action": "offers",
    "offer": "offers",
    "COST_KINDS": "payment",
    "PAYMENT_TYPES": "payment",
    "Payers": "payment",
    "ELEMENTALIST": "pieces",
    "FORCE_MAGE": "pieces",
    "GLYPHS": "pieces",
    "ILLUSIONIST": "pieces",
    "MINION": "pieces",
    "NECROMANCER": "pieces",
    "SCEPTER": "pieces",
    "SEERESS": "pieces",
    "SUMMONER": "pieces",
    "Spell": "spells",
    "adjacent_empty": "spells",
    "bounded": "spells",
    "empty_next": "spells",
    "pieces_of": "spells",
    "State": "state",
    "Step": "state",
    "Work": "state",
    "recall": "state",
    "remember": "state",
    "TurnStep": "steps",
}


__getattr__, __dir__ = names(__name__, _FROM)


__all__ = [
    "COST_KINDS",
    "DIRECTIONS",
    "ELEMENTALIST",
    "FORCE_MAGE",
    "GLYPHS",
    "ILLUSIONIST",
    "MINION",
    "NECROMANCER",
    "PAYMENT_TYPES",
    "SCEPTER",
    "SEERESS",
    "SUMMONER",
    "Cast",
    "Context",
    "Discard",
    "Draw",
    "Escape",
    "Glimpse",
    "GlyphChess",
    "HexBoard",
    "Move",
    "Paid",
    "Pass",
    "Payers",
    "Reroll",
    "Roll",
    "Shuffle",
    "Spell",
    "State",
    "Step",
    "TurnStep",
    "Work",
    "action",
    "adjacent_empty",
    "bounded",
    "empty_next",
    "minions_leave",
    "offer",
    "pieces_of",
    "recall",
    "relocate",
    "remember",
    "strike",
]
