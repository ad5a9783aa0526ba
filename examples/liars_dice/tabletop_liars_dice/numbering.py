"""Liar's Dice's action numbers, for the OpenSpiel and PettingZoo adapters
(see ``tabletop.numbering``).

Every decision is one word, its notation: the bids in the order the rules
in force rank them, then ``liar``. Action 0 is the core's end word, so
action ``k + 1`` is OpenSpiel's ``liars_dice`` action ``k`` (with the
official order, its ``reset-face``; with ``liars-dice-reset-quantity``, its
``reset-quantity``), and a chance outcome ``i`` is the face ``i + 1`` in
both.
"""

from __future__ import annotations

from tabletop import hookimpl
from tabletop.numbering import Numbering


def words(game) -> list[str]:
    return [*(game.notate(bid) for bid in game.offers[0]), "liar"]


def spell(game, decision) -> tuple[str, ...]:
    return (game.notate(decision),)


def most_outcomes(game) -> int:
    return game.sides  # a die's faces


@hookimpl
def register_numberings():
    return [Numbering("liars-dice", words, spell, most_outcomes)]
