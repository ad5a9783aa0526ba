"""Glyph Chess for tabletop: a hex board, wizards, spells paid in coins and shared dice.

The names a house rule needs are exported here (see docs/glyph-chess.md and
docs/hooks.md).
"""

from .events import Cast, Move
from .game import GlyphChess
from .kills import minions_leave, relocate, strike
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
    "ELEMENTALIST",
    "FORCE_MAGE",
    "GLYPHS",
    "ILLUSIONIST",
    "MINION",
    "NECROMANCER",
    "SCEPTER",
    "SEERESS",
    "SUMMONER",
    "Cast",
    "GlyphChess",
    "Move",
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
