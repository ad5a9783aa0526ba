"""The summoner's master spell, summon: for 1 die showing Summoner, put 1 to
3 minions from the spare area on empty spots next to the summoner; minions on
the board are not moved (FAQ Q12). When the summoner leaves its spot, all its
minions leave the board (the minions' passive, in
:mod:`~tabletop_glyph_chess.kills`)."""

from __future__ import annotations

from itertools import combinations

from ..pieces import MINION, MINIONS, SUMMONER
from .base import Spell, adjacent_empty, pieces_of


def check(game, state, seat, source, spots, target):
    if not 1 <= len(spots) <= 3 or len(set(spots)) != len(spots):
        return "summon names 1 to 3 empty spots next to the summoner", 0
    spare = MINIONS - len(pieces_of(state, seat, MINION))
    if len(spots) > spare:
        return f"only {spare} minion{'s' if spare != 1 else ''} in the spare area", 0
    for spot in spots:
        if problem := adjacent_empty(game, state, source, spot):
            return problem, 0
    return None, 0


def effect(game, work, seat, source, spots, target):
    for spot in spots:
        work.board[spot] = (seat, MINION)


def options(ctx):
    spare = MINIONS - len(ctx.minions)
    if spare:
        empty = ctx.empty_next(ctx.source)
        for count in range(1, min(spare, 3) + 1):
            for spots in combinations(empty, count):
                yield spots, "", 0


SUMMON = Spell("summon", SUMMONER, "die", check, effect, options, "summon c3 d3 d4 / D2")
