"""The summoner's active spell, march: for X of Summoner, move X minions 1
spot each in the same direction, one at a time in the order given; a minion
blocked by a friendly piece or the edge cannot be named, and is not paid for
(FAQ Q5); a minion landing on an enemy kills it, each landing a separate
attack (FAQ Q16). Minions move no other way.

Each minion's landing asks the movement hook ``glyph_may_land`` (officially:
not on a piece of its own side), on the board as it stands before the march;
a spot left by a minion named before is empty by then, and may be landed on."""

from __future__ import annotations

from ..hexes import DIRECTIONS
from ..pieces import MINION, SUMMONER
from ..state import Step
from .base import Spell, bounded


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
        if to in moved:
            there = moved[to]
            if there is not None and there[0] == seat:
                return f"the minion on {name} is blocked by your piece on {geo.names[to]}", 0
        elif not game.may_land(game=game, state=state, seat=seat, piece=MINION, spot=to):
            there = board[to]
            if there is not None and there[0] == seat:
                return f"the minion on {name} is blocked by your piece on {geo.names[to]}", 0
            return f"the minion on {name} may not land on {geo.names[to]}", 0
        moved[spot], moved[to] = None, piece
    return None, len(spots)


def effect(game, work, seat, source, spots, target):
    step = game.geo.step
    work.steps = [Step(s, step(s, target)) for s in spots]


def orders(game, board, seat, minions, most, landing) -> list[tuple[str, tuple[int, ...]]]:
    """(direction, order) for every order of up to ``most`` of ``minions``
    (their spots) that ``check`` allows: by direction, then by count, then as
    ``permutations`` gives them.

    All step the same way, so no two land on one spot: a minion may follow
    the ones named before it exactly when it stays on the board and it may
    land on the spot ahead (``landing``: (keys, answers), see
    :meth:`~tabletop_glyph_chess.context.Context.landing`), or
    that spot held one of those minions. An order is
    allowed when each of its beginnings is, so each allowed order of
    ``count`` minions is extended by every minion not named yet."""
    found: list = []
    if most < 1 or not minions:
        return found
    rays = game.geo.ray_lists  # each spot's rays in DIRECTIONS order
    keys, landable = landing
    for index, direction in enumerate(DIRECTIONS):
        picks = []  # (spot, the spot ahead, whether that spot is open now)
        for spot in minions:
            ray = rays[spot][index]
            if ray:  # a minion that would leave the board is never named
                picks.append((spot, ray[0], landable[keys[ray[0]]]))
        level = [(spot,) for spot, _, open_ in picks if open_]
        if not level:
            continue  # no order begins: none is allowed
        found += [(direction, order) for order in level]
        for _ in range(1, min(len(picks), most)):
            level = [
                (*order, spot)
                for order in level
                for spot, ahead, open_ in picks
                if spot not in order and (open_ or ahead in order)
            ]
            if not level:
                break
            found += [(direction, order) for order in level]
    return found


def most(ctx):
    # No more orders of X minions than the orders of X of them, each way.
    found, count, minions = [], len(DIRECTIONS), len(ctx.minions)
    for x in range(1, min(minions, ctx.budget) + 1):
        count *= minions - x + 1
        found.append((count, x))
    return found


@bounded(most)
def options(ctx):
    found = orders(ctx.game, ctx.board, ctx.seat, ctx.minions, ctx.budget, ctx.landing(MINION))
    return [(order, direction, len(order)) for direction, order in found]


def victims(game, state, seat, source, spots, target):
    return [game.geo.step(s, target) for s in spots]


MARCH = Spell(
    "march", SUMMONER, "x", check, effect, options, "march c3 ne d3 d4 / U U", argument="direction", victims=victims
)
