"""The illusionist's active spell, swap: for 1 of Illusionist, swap places
with any other friendly piece (scepter, minions, the other illusionist
included). A summoner swapped away takes its minions off the board."""

from __future__ import annotations

from ..kills import minions_leave
from ..pieces import ILLUSIONIST, SUMMONER
from .base import Spell


def check(game, state, seat, source, spots, target):
    if len(spots) != 1:
        return "swap names one friendly piece", 0
    friend = state.board[spots[0]]
    if friend is None or friend[0] != seat or spots[0] == source:
        return f"{game.geo.names[spots[0]]} holds no other piece of yours", 0
    return None, 1


def effect(game, work, seat, source, spots, target):
    board = work.board
    mine, theirs = board[source], board[spots[0]]
    board[source], board[spots[0]] = theirs, mine
    if mine[1] == SUMMONER or theirs[1] == SUMMONER:
        minions_leave(work, seat)  # the summoner left its spot


def options(ctx):
    source = ctx.source
    return [((spot,), "", 1) for spot in ctx.mine if spot != source]


SWAP = Spell("swap", ILLUSIONIST, "item", check, effect, options, "swap c3 e5 / I")
