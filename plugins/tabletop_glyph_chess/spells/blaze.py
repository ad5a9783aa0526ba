"""The elementalist's master spell, blaze: for 1 die showing Elementalist and
X of Elementalist, X single steps, turning at will, never onto a spot already
passed (its starting spot counts) nor onto its own pieces; every enemy
stepped on is incinerated (each step a separate attack, FAQ Q10). Its passive
(incinerating instead of killing) is in :mod:`~tabletop_glyph_chess.movement`.

``moves`` lists paths of up to ``LISTED`` steps; longer ones are legal too,
and :func:`count_paths` says how many there are.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..pieces import ELEMENTALIST
from ..state import Step
from .base import Spell

#: Paths are listed up to this many steps (there are thousands of longer ones).
LISTED = 3


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
        piece = state.board[spot]
        if piece is not None and piece[0] == seat:
            return f"{name} holds a piece of yours", 0
        seen.add(spot)
        here = spot
    return None, len(spots)


def effect(game, work, seat, source, spots, target):
    path = (source, *spots)
    work.steps = [Step(a, b, True) for a, b in zip(path, path[1:])]


def paths(game, state, seat, source, longest) -> Iterator[tuple[int, ...]]:
    """Every path of 1 to ``longest`` steps, depth first."""
    neighbours = game.geo.neighbours
    board = state.board

    def grow(path, seen):
        if path:
            yield tuple(path)
        if len(path) == longest:
            return
        here = path[-1] if path else source
        for spot in neighbours[here]:
            piece = board[spot]
            if spot not in seen and (piece is None or piece[0] != seat):
                seen.add(spot)
                path.append(spot)
                yield from grow(path, seen)
                path.pop()
                seen.discard(spot)

    if longest >= 1:
        yield from grow([], {source})


def count_paths(game, state, seat, source, shortest, longest) -> int:
    """How many paths of ``shortest`` to ``longest`` steps there are."""
    return sum(1 for p in paths(game, state, seat, source, longest) if len(p) >= shortest)


def options(game, state, seat, source, budget):
    for path in paths(game, state, seat, source, min(budget - 1, LISTED)):
        yield path, "", len(path)


def victims(game, state, seat, source, spots, target):
    return spots


BLAZE = Spell("blaze", ELEMENTALIST, "die+x", check, effect, options, "blaze c3 c4 d4 / D1 E E", victims=victims)
