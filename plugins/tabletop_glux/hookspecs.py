"""Glüx's rule hooks: the points where a variant may change the rules.

The official rules (``official.py``) implement every hook; a variant
overrides one by implementing it too (its result wins, being registered
later) or wraps it (``@rulehook(wrapper=True)``).
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop import rulespec


@rulespec(firstresult=True)
def glux_bag(players: int) -> Mapping[str, int] | None:
    """The chips in each player's bag at setup, by kind (``"1/6"``, ``"2/5"``, ``"3/4"``)."""


@rulespec(firstresult=True)
def glux_directions() -> tuple[tuple[int, int], ...] | None:
    """The directions (column step, row step) in which a placement is counted."""


@rulespec(firstresult=True)
def glux_score_room(room: str, pips: Mapping[str, int], players: int) -> Mapping[str, int] | None:
    """Victory points won in one room. ``pips`` holds every player with more
    than 0 pips there; ``players`` is the number of players in the game."""


@rulespec(firstresult=True)
def glux_winners(points: Mapping[str, int], middle: Mapping[str, int]) -> tuple[str, ...] | None:
    """The winners, given each player's victory points and pips in the middle room."""
