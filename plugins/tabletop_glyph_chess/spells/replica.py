"""The illusionist's master spell, replica: for 1 die showing Illusionist,
place the other illusionist piece (the REPLICA) on an adjacent empty spot;
only while one is on the board and the other in the spare area. Both are the
real illusionist (FAQ Q7)."""

from __future__ import annotations

from ..pieces import ILLUSIONIST
from .base import Spell, adjacent_empty, pieces_of


def check(game, state, seat, source, spots, target):
    if len(spots) != 1:
        return "replica names one empty spot next to the illusionist", 0
    if len(pieces_of(state, seat, ILLUSIONIST)) != 1:
        return "the replica is on the board already", 0
    return adjacent_empty(game, state, source, spots[0]), 0


def effect(game, work, seat, source, spots, target):
    work.board[spots[0]] = (seat, ILLUSIONIST)


def options(ctx):
    board, illusionist = ctx.board, (ctx.seat, ILLUSIONIST)
    if [board[spot] for spot in ctx.mine].count(illusionist) != 1:
        return []
    return [((spot,), "", 0) for spot in ctx.empty_next(ctx.source)]


REPLICA = Spell("replica", ILLUSIONIST, "die", check, effect, options, "replica c3 d4 / D2")
