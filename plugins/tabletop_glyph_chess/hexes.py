"""The hex board: spots, their names, the six directions, the players' edges.

Spots are named as a person reads them off the printed board, seen from the
gold player's side: rows ``a`` (gold's edge) to ``m`` (the far edge), and in
each row the spots numbered from the left. The centre is ``g7``.

Internally a spot is an axial coordinate (q, r): r is the row (-R at ``a``),
q runs left to right; spots are indexed row by row from ``a1``.
"""

from __future__ import annotations

import functools

import attrs

#: The six directions, as (dq, dr), by the names used in notation.
DIRECTIONS = {"e": (1, 0), "ne": (0, 1), "nw": (-1, 1), "w": (-1, 0), "sw": (0, -1), "se": (1, -1)}
#: Where players sit, as turns of the board by 60 degrees from gold's edge.
#: Two players sit opposite; three at every other edge, clockwise seen from above
#: with gold at the bottom: silver to gold's left (upper left), bronze upper right.
SEATING = {2: (0, 3), 3: (0, 4, 2)}


def rotate(q: int, r: int, sixths: int) -> tuple[int, int]:
    """(q, r) turned about the centre by ``sixths`` x 60 degrees counter-clockwise."""
    for _ in range(sixths % 6):
        q, r = -r, q + r
    return q, r


# Without slots: attrs gives a slotted class with a cached property a
# ``__getattr__``, which makes every attribute read on the board a slow one
# (the interpreter cannot specialise it), and the rules read it on every move.
@attrs.frozen(eq=False, slots=False)
class HexBoard:
    """A hexagon of hex spots with ``radius`` spots from the centre to an edge
    (a game's board is ``game.geo``): the public helpers for board geometry.

    ``names[spot]`` and ``spot(name)`` convert; ``center``; ``neighbours[spot]``;
    ``rays[spot][direction]`` (or ``line(spot, direction)``): the spots in a
    straight line; ``ray_lists[spot]`` the six rays without names;
    ``step(spot, direction)``, ``beyond(source, spot)``,
    ``direction(source, target)`` (or ``lines_to[source][target]``), ``between(source, target)``,
    ``distance(a, b)``; ``edge(sixths)`` a player's starting edge."""

    radius: int
    coords: tuple[tuple[int, int], ...] = attrs.field(init=False)
    names: tuple[str, ...] = attrs.field(init=False)
    indices: dict[str, int] = attrs.field(init=False)
    at: dict[tuple[int, int], int] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        R = self.radius
        coords, names = [], []
        for r in range(-R, R + 1):
            qmin = max(-R, -R - r)
            for q in range(qmin, min(R, R - r) + 1):
                coords.append((q, r))
                names.append(f"{chr(ord('a') + r + R)}{q - qmin + 1}")
        object.__setattr__(self, "coords", tuple(coords))
        object.__setattr__(self, "names", tuple(names))
        object.__setattr__(self, "indices", {n: i for i, n in enumerate(names)})
        object.__setattr__(self, "at", {c: i for i, c in enumerate(coords)})

    @property
    def size(self) -> int:
        return len(self.coords)

    @property
    def center(self) -> int:
        return self.at[(0, 0)]

    def spot(self, name: str) -> int | None:
        return self.indices.get(name)

    def step(self, spot: int, direction: str) -> int | None:
        """The next spot in ``direction``, or None past the edge."""
        q, r = self.coords[spot]
        dq, dr = DIRECTIONS[direction]
        return self.at.get((q + dq, r + dr))

    def line(self, spot: int, direction: str) -> tuple[int, ...]:
        """The spots in a straight line from ``spot`` (not included) in
        ``direction``, nearest first, to the edge."""
        return self.rays[spot][direction]

    def direction(self, source: int, target: int) -> tuple[str, int] | None:
        """(direction, distance) from ``source`` to ``target`` when they are
        in a straight line, else None."""
        for name, ray in self.rays[source].items():
            if target in ray:
                return name, ray.index(target) + 1
        return None

    def between(self, source: int, target: int) -> tuple[int, ...] | None:
        """The spots strictly between ``source`` and ``target`` in a straight
        line (what a move passes over), or None when not in a line."""
        found = self.direction(source, target)
        if found is None:
            return None
        name, distance = found
        return self.rays[source][name][: distance - 1]

    def distance(self, a: int, b: int) -> int:
        """How many single steps apart ``a`` and ``b`` are."""
        (q, r), (q2, r2) = self.coords[a], self.coords[b]
        return max(abs(q - q2), abs(r - r2), abs(q - q2 + r - r2))

    def beyond(self, source: int, spot: int) -> int | None:
        """The spot past ``spot`` (next to ``source``) in the same straight
        line away from ``source``; None past the edge or when not next to it."""
        for ray in self.rays[source].values():
            if ray[:1] == (spot,):
                return ray[1] if len(ray) > 1 else None
        return None

    @functools.cached_property
    def rays(self) -> tuple[dict[str, tuple[int, ...]], ...]:
        """For each spot, the spots in a straight line in each direction."""
        table = []
        for spot in range(self.size):
            lines = {}
            for name in DIRECTIONS:
                line, here = [], self.step(spot, name)
                while here is not None:
                    line.append(here)
                    here = self.step(here, name)
                lines[name] = tuple(line)
            table.append(lines)
        return tuple(table)

    @functools.cached_property
    def ray_lists(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each spot, its six rays in ``DIRECTIONS`` order (no names)."""
        return tuple(tuple(lines.values()) for lines in self.rays)

    @functools.cached_property
    def lines_to(self) -> tuple[dict[int, tuple[str, int, tuple[int, ...]]], ...]:
        """For each spot, every spot in a straight line from it -> (the
        direction, the distance, the line in that direction): what
        :meth:`direction` finds, looked up."""
        return tuple(
            {spot: (name, i, ray) for name, ray in rays.items() for i, spot in enumerate(ray, start=1)}
            for rays in self.rays
        )

    @functools.cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each spot, the spots next to it (up to six, in ``DIRECTIONS`` order)."""
        return tuple(tuple(r[0] for r in self.rays[s].values() if r) for s in range(self.size))

    def edge(self, sixths: int) -> tuple[int, ...]:
        """The 7 spots of an edge in the middle of that side, left to right as
        the player sitting there sees them; the scepter's spot is the 4th."""
        R = self.radius
        start = (R + 1 - 7) // 2
        gold = [(q, -R) for q in range(start, start + 7)]
        return tuple(self.at[rotate(q, r, sixths)] for q, r in gold)


@functools.lru_cache(maxsize=8)
def board(radius: int) -> HexBoard:
    return HexBoard(radius)
