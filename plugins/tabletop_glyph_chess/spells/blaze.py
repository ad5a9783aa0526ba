"""The elementalist's master spell, blaze: for 1 die showing Elementalist and
X of Elementalist, X single steps, turning at will, never onto a spot already
passed (its starting spot counts) nor onto its own pieces; every enemy
stepped on is incinerated (each step a separate attack, FAQ Q10). Each step
is a landing: whether the elementalist may step on a spot is the movement
hook ``glyph_may_land`` (officially: not on its own pieces). Its passive
(incinerating instead of killing) is in :mod:`~tabletop_glyph_chess.movement`.

``moves`` lists paths of up to ``LISTED`` steps (there are thousands of
longer ones); longer ones are legal too: :func:`unlisted` counts them (the
action step says how many) and :func:`sample` draws some at random for bots.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

from ..context import Context
from ..hexes import HexBoard
from ..pieces import ELEMENTALIST
from ..state import Step
from .base import Spell, bounded

#: Paths are listed up to this many steps (there are thousands of longer ones).
LISTED = 3
#: Unlisted paths are counted up to this many.
COUNTED = 10_000


def check(game, state, seat, source, spots, target):
    if not spots:
        return "blaze needs a path of at least 1 step (X > 0)", 0
    names, neighbours = game.geo.names, game.geo.neighbours
    seen = {source}
    here = source
    for spot in spots:
        name = names[spot]
        if spot not in neighbours[here]:
            return f"{name} is not next to {names[here]}: the elementalist moves 1 spot at a time", 0
        if spot in seen:
            return f"the path passes {name} twice", 0
        if not game.may_land(game=game, state=state, seat=seat, piece=ELEMENTALIST, spot=spot):
            piece = state.board[spot]
            if piece is not None and piece[0] == seat:
                return f"{name} holds a piece of yours", 0
            return f"the elementalist may not step on {name}", 0
        seen.add(spot)
        here = spot
    return None, len(spots)


def effect(game, work, seat, source, spots, target):
    path = (source, *spots)
    work.steps = [Step(a, b, True) for a, b in zip(path, path[1:])]


def steppable(game, state, seat) -> tuple:
    """(keys, answers): whether the elementalist of ``seat`` may step on a
    spot is ``answers[keys[spot]]`` (the landing rule, see
    :meth:`~tabletop_glyph_chess.context.Context.landing`: the board does not
    change while paths are listed)."""
    return Context(game, state, seat).landing(ELEMENTALIST)


def paths(game, state, seat, source, longest, landing=None) -> Iterator[tuple[int, ...]]:
    """Every path of 1 to ``longest`` steps, depth first; ``landing`` (as
    :func:`steppable` gives it) is asked for when not given."""
    if longest < 1:
        return
    neighbours = game.geo.neighbours
    keys, landable = steppable(game, state, seat) if landing is None else landing
    path: list[int] = []
    seen = {source}
    ahead = [iter(neighbours[source])]  # for each spot of the path, the spots next to it not tried yet
    while ahead:
        for spot in ahead[-1]:
            if spot not in seen and landable[keys[spot]]:
                path.append(spot)
                yield tuple(path)
                if len(path) < longest:
                    seen.add(spot)
                    ahead.append(iter(neighbours[spot]))
                    break
                path.pop()
        else:
            del ahead[-1]
            if path:
                seen.discard(path.pop())


def longest(game, state, seat, source) -> int:
    """The most steps the elementalist on ``source`` can pay for now."""
    ctx = Context(game, state, seat).at(source)
    cost, kind = game.costs.get("blaze", ("die+x", None))
    most = ctx.budget - 1
    while most > 0 and not ctx.ways(cost, most, kind):
        most -= 1
    return most


def unlisted(game, state, seat, source, limit) -> int:
    """How many blaze paths longer than ``LISTED`` steps the elementalist on
    ``source`` could cast now (counted up to ``limit``)."""
    count = 0
    most = longest(game, state, seat, source)
    if most > LISTED:
        for path in paths(game, state, seat, source, most):
            if len(path) > LISTED:
                count += 1
                if count >= limit:
                    return count
    return count


def sample(game, state, seat, source, rng: random.Random, tries: int = 12) -> list[tuple[int, ...]]:
    """Up to ``tries`` random paths longer than ``LISTED`` steps (random walks
    that never pass a spot twice), for a bot to weigh beside the listed ones."""
    most = longest(game, state, seat, source)
    found = []
    if most <= LISTED:
        return found
    neighbours, (keys, landable) = game.geo.neighbours, steppable(game, state, seat)
    for _ in range(tries):
        length = rng.randint(LISTED + 1, most)
        path, seen, here = [], {source}, source
        while len(path) < length:
            steps = [s for s in neighbours[here] if s not in seen and landable[keys[s]]]
            if not steps:
                break
            here = rng.choice(steps)
            seen.add(here)
            path.append(here)
        if len(path) > LISTED:
            found.append(tuple(path))
    return found


@functools.lru_cache(maxsize=8)
def path_counts(geo: HexBoard) -> tuple[tuple[int, ...], ...]:
    """For each spot, how many paths of each number of steps (index 0
    unused, up to ``LISTED``) start there on the empty board: as many as an
    elementalist there could take at most, whatever stands in its way."""
    neighbours = geo.neighbours

    def count(here: int, seen: set[int], counts: list[int], steps: int) -> None:
        for spot in neighbours[here]:
            if spot not in seen:
                counts[steps] += 1
                if steps < LISTED:
                    seen.add(spot)
                    count(spot, seen, counts, steps + 1)
                    seen.discard(spot)

    table = []
    for source in range(geo.size):
        counts = [0] * (LISTED + 1)
        count(source, {source}, counts, 1)
        table.append(tuple(counts))
    return tuple(table)


def most(ctx):
    # No more paths of each length than the empty board has from the spot.
    counts = path_counts(ctx.game.geo)[ctx.source]
    return [(counts[steps], steps) for steps in range(1, min(ctx.budget - 1, LISTED) + 1)]


@bounded(most)
def options(ctx):
    landing = ctx.landing(ELEMENTALIST)
    found = paths(ctx.game, ctx.state, ctx.seat, ctx.source, min(ctx.budget - 1, LISTED), landing)
    return [(path, "", len(path)) for path in found]


def victims(game, state, seat, source, spots, target):
    return spots


BLAZE: Spell = Spell(
    "blaze",
    ELEMENTALIST,
    "die+x",
    check,
    effect,
    options,
    "blaze c3 c4 d4 / D1 E E",
    victims=victims,
    unlisted=unlisted,
    sample=sample,
)
