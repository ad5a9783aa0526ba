"""The summoner's active spell, march: for X of Summoner, move X minions 1
spot each in the same direction, one at a time in the order given; a minion
blocked by a friendly piece or the edge cannot be named, and is not paid for
(FAQ Q5); a minion landing on an enemy kills it, each landing a separate
attack (FAQ Q16). Minions move no other way."""

from __future__ import annotations

from ..hexes import DIRECTIONS
from ..pieces import MINION, SUMMONER
from ..state import Step
from .base import Spell, pieces_of


def check(game, state, seat, source, spots, target):
    if target not in DIRECTIONS:
        return f"march needs a direction ({', '.join(DIRECTIONS)})", 0
    if not spots:
        return "march moves at least 1 minion (X > 0)", 0
    if len(set(spots)) != len(spots):
        return "a minion is named twice", 0
    geo = game.geo
    board = state.board
    moved: dict[int, object] = {}  # spots changed by the minions named before (the board is not copied)
    minion = (seat, MINION)
    for spot in spots:
        piece = moved[spot] if spot in moved else board[spot]
        name = geo.names[spot]
        if piece != minion:
            return f"{name} holds no minion of yours", 0
        to = geo.step(spot, target)
        if to is None:
            return f"the minion on {name} would leave the board", 0
        there = moved[to] if to in moved else board[to]
        if there is not None and there[0] == seat:
            return f"the minion on {name} is blocked by your piece on {geo.names[to]}", 0
        moved[spot], moved[to] = None, piece
    return None, len(spots)


def effect(game, work, seat, source, spots, target):
    step = game.geo.step
    work.steps = [Step(s, step(s, target)) for s in spots]


def orders(game, board, seat, minions, most) -> list[tuple[str, tuple[int, ...]]]:
    """(direction, order) for every order of up to ``most`` of ``minions``
    (their spots) that ``check`` allows: by direction, then by count, then as
    ``permutations`` gives them.

    A minion's march depends only on the minions named before it, so an order
    is allowed exactly when every one of its beginnings is: each allowed
    order of ``count`` minions is extended by every minion not named yet."""
    found: list = []
    if most < 1 or not minions:
        return found
    rays = game.geo.rays
    minion = (seat, MINION)
    for direction in DIRECTIONS:
        # A minion that would leave the board is never named.
        picks = [(spot, ray[0]) for spot in minions if (ray := rays[spot][direction])]
        level = []  # the allowed orders of one count, with the spots each one changed
        for spot, to in picks:
            there = board[to]
            if there is None or there[0] != seat:
                level.append(((spot,), {spot: None, to: minion}))
                found.append((direction, (spot,)))
        for _ in range(1, min(len(picks), most)):
            longer = []
            for order, moved in level:
                for spot, to in picks:
                    if spot in order:
                        continue
                    there = moved[to] if to in moved else board[to]
                    if there is not None and there[0] == seat:
                        continue
                    changed = dict(moved)
                    changed[spot], changed[to] = None, minion
                    longer.append(((*order, spot), changed))
                    found.append((direction, (*order, spot)))
            if not longer:
                break
            level = longer
    return found


def options(game, state, seat, source, budget):
    for direction, order in orders(game, state.board, seat, pieces_of(state, seat, MINION), budget):
        yield order, direction, len(order)


def victims(game, state, seat, source, spots, target):
    return [game.geo.step(s, target) for s in spots]


MARCH = Spell(
    "march", SUMMONER, "x", check, effect, options, "march c3 ne d3 d4 / U U", argument="direction", victims=victims
)
