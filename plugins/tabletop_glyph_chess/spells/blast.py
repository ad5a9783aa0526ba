"""The force mage's master spell, blast: for 1 die showing Force Mage and X
of Force Mage, move X spots in a straight line through any pieces to an empty
spot and kill every enemy piece next to it (killed, not incinerated). It does
not land on a necromancer, so none can escape (FAQ Q9). Its passive (passing
through pieces) is in :mod:`~tabletop_glyph_chess.movement`.

The move asks the movement hooks: ``glyph_may_pass`` for each spot passed
(officially the force mage passes any), ``glyph_may_land`` for the empty spot
it lands on; each kill is ``glyph_strike``."""

from __future__ import annotations

import functools

from ..hexes import HexBoard
from ..kills import relocate, strike
from ..pieces import FORCE_MAGE
from ..state import OVER
from .base import Spell, bounded


def check(game, state, seat, source, spots, target):
    if len(spots) != 1:
        return "blast names the empty spot the force mage moves to", 0
    names = game.geo.names
    for ray in game.geo.ray_lists[source]:
        if spots[0] in ray:
            if state.board[spots[0]] is not None:
                return f"{names[spots[0]]} is not empty", 0
            distance = ray.index(spots[0]) + 1
            for spot in ray[: distance - 1]:
                if not game.may_pass(game=game, state=state, seat=seat, piece=FORCE_MAGE, spot=spot):
                    return f"{names[spot]} is in the way", 0
            if not game.may_land(game=game, state=state, seat=seat, piece=FORCE_MAGE, spot=spots[0]):
                return f"the force mage may not land on {names[spots[0]]}", 0
            return None, distance
    return f"{names[spots[0]]} is not in a straight line from {names[source]}", 0


def effect(game, work, seat, source, spots, target):
    relocate(work, source, spots[0])
    board = work.board
    for spot in game.geo.neighbours[spots[0]]:
        piece = board[spot]
        if piece is not None and piece[0] != seat and work.phase != OVER:
            strike(game, work, spot, False)


@functools.lru_cache(maxsize=8)
def reach_counts(geo: HexBoard) -> tuple[tuple[int, ...], ...]:
    """For each spot, how many of its rays reach each distance (index 0
    unused): the most spots a blast from there can end on that far away."""
    return tuple(
        tuple(sum(len(ray) >= distance for ray in rays) for distance in range(max(map(len, rays)) + 1))
        for rays in geo.ray_lists
    )


def most(ctx):
    # No more spots at each distance than the rays from the spot reach.
    counts = reach_counts(ctx.game.geo)[ctx.source]
    return [(counts[distance], distance) for distance in range(1, min(ctx.budget, len(counts)))]


@bounded(most)
def options(ctx):
    board = ctx.board
    (land_keys, landable), (pass_keys, passable) = ctx.landing(FORCE_MAGE), ctx.passing(FORCE_MAGE)
    for ray in ctx.game.geo.ray_lists[ctx.source]:
        for distance, spot in enumerate(ray[: ctx.budget - 1], start=1):
            if board[spot] is None and landable[land_keys[spot]]:
                yield (spot,), "", distance
            if not passable[pass_keys[spot]]:
                break


def victims(game, state, seat, source, spots, target):
    return game.geo.neighbours[spots[0]]


BLAST = Spell("blast", FORCE_MAGE, "die+x", check, effect, options, "blast c3 f6 / D1 F F F", victims=victims)
