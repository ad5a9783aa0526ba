"""Glüx's action numbers, for OpenSpiel and PettingZoo (see ``tabletop.model.numbering``).

Every Glüx decision is one word, its notation: ``FACE@SQUARE`` for faces
1 to 6 and the board's squares in the board's order (``a1``, ``b1``, ...),
then ``FACE@start`` for the start-square option. The start chip's face in
setup is written on the start square (``6@a1``), so it shares that word.
With the built-in boards (169 squares) there are 6 x 170 words; action 0 is
the core's end word, so ``1@a1`` is action 1, ``2@a1`` action 2, and so on.
"""

from __future__ import annotations

from tabletop import hookimpl
from tabletop.model.numbering import Numbering

from .chips import MOST_PIPS

FACES = range(1, MOST_PIPS + 1)


def words(game) -> list[str]:
    squares = [*game.board.names, "start"]
    return [f"{face}@{square}" for square in squares for face in FACES]


def spell(game, decision) -> tuple[str, ...]:
    return (game.notate(decision),)


def most_outcomes(game) -> int:
    # A draw picks one of the chip kinds; the start player one of the players.
    return max(len(game.chips.kinds), len(game.players))


@hookimpl
def register_numberings():
    return [Numbering("glux", words, spell, most_outcomes)]
