"""Glyph Chess for tabletop: a hex board, wizards, spells paid in coins and shared dice.

The names a house rule needs are exported here (see docs/glyph-chess.md and
docs/hooks.md).
"""

from .context import Context
from .events import Cast, Discard, Draw, Escape, Glimpse, Move, Pass, Reroll, Roll, Shuffle
from .game import GlyphChess
from .hexes import DIRECTIONS, HexBoard
from .kills import minions_leave, relocate, strike
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
from .spells import Spell, adjacent_empty, empty_next, pieces_of
from .state import State, Step, Work, recall, remember
from .steps import TurnStep

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
    "adjacent_empty",
    "empty_next",
    "minions_leave",
    "pieces_of",
    "recall",
    "relocate",
    "remember",
    "strike",
]
