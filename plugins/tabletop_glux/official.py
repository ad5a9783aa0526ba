"""The official rules of Glüx, as the default implementations of its rule hooks."""

from __future__ import annotations

from collections.abc import Mapping

from tabletop import rulehook

from .board import ORTHOGONAL
from .chips import KINDS


@rulehook
def glux_bag(players: int) -> Mapping[str, int]:
    # 24 chips per player: 8 each of 1/6, 2/5 and 3/4.
    return {kind: 8 for kind in KINDS}


@rulehook
def glux_directions() -> tuple[tuple[int, int], ...]:
    # Rule 2: count in a straight horizontal or vertical line, never diagonally.
    return ORTHOGONAL


@rulehook
def glux_score_room(room: str, pips: Mapping[str, int], players: int) -> Mapping[str, int]:
    return rank_room(pips, second_place=players > 2)


def rank_room(pips: Mapping[str, int], second_place: bool) -> dict[str, int]:
    """4 VP for the highest sum; if several tie for it, 4 each and no second
    place; otherwise 2 VP for everyone at the next highest sum."""
    points = {player: 0 for player in pips}
    ranked = sorted({p for p in pips.values() if p > 0}, reverse=True)
    if not ranked:
        return points
    first = [player for player, p in pips.items() if p == ranked[0]]
    for player in first:
        points[player] = 4
    if len(first) == 1 and second_place and len(ranked) > 1:
        for player, p in pips.items():
            if p == ranked[1]:
                points[player] = 2
    return points


@rulehook
def glux_winners(points: Mapping[str, int], middle: Mapping[str, int]) -> tuple[str, ...]:
    # Most VP; a tie goes to the most pips in the middle room; then shared.
    best = max(points.values())
    tied = [p for p, vp in points.items() if vp == best]
    if len(tied) > 1:
        most = max(middle.get(p, 0) for p in tied)
        tied = [p for p in tied if middle.get(p, 0) == most]
    return tuple(tied)
