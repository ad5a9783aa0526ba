"""Glyph Chess's action numbers, for OpenSpiel and PettingZoo (see
``tabletop.model.numbering``).

A decision is spelt in the words of its notation (docs/glyph-chess.md):
``c3-c6 / D2 D3 E`` is the words ``c3 - c6 / D2 D3 E``, ``blaze c3 c4 d4 /
D1 E E`` is ``blaze c3 c4 d4 / D1 E E``. The vocabulary, in this order
after the core's end word (action 0): ``-`` and ``/``; the board's spots in
the board's order (``a1``, ``a2``, ...); the dice ``D1`` to ``D5`` (as many as ``glyph_dice`` says); the
letters ``S I E F N U K M`` (coins, dice faces and pieces); the directions
``e ne nw w sw se``; the spells in force (the official ones, then a
variant's, such as ``push``); ``reroll skip escape stay discard arrange``;
then the players in seat order (the seeress's ``foresee`` names one).
"""

from __future__ import annotations

import re

from tabletop import hookimpl
from tabletop.model.numbering import Numbering

from .hexes import DIRECTIONS
from .pieces import GLYPHS, MINION, SCEPTER

KEYWORDS = ("reroll", "skip", "escape", "stay", "discard", "arrange")
_WORD = re.compile(r"[^\s/-]+|[/-]")


def words(game) -> list[str]:
    return [
        "-",
        "/",
        *game.geo.names,
        *(f"D{n}" for n in range(1, game.dice + 1)),
        *GLYPHS,
        SCEPTER,
        MINION,
        *DIRECTIONS,
        *game.spells,
        *KEYWORDS,
        *game.players,
    ]


def spell(game, decision) -> tuple[str, ...]:
    return tuple(_WORD.findall(game.notate(decision)))


def most_outcomes(game) -> int:
    # A shuffle is one of the 720 orders of six glyph cards; a roll or a draw has fewer.
    return 720


@hookimpl
def register_numberings():
    return [Numbering("glyph-chess", words, spell, most_outcomes)]
