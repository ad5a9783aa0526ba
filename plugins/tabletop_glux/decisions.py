"""Decisions a variant adds: a new kind of event with its own notation.

A variant declares its event class with ``Variant(..., events=(Cls,))`` (the
codec then reads and writes it) and implements the hooks below for it: Glüx
asks them for every decision that is not a placement. The official rules add
no decision, so each answers None here ("not mine"), except
``glux_decisions`` which lists nothing. See ``docs/house-rules.md`` for an
example (``glux-redraw``).
"""

from __future__ import annotations

from typing import Any

from tabletop import Event, rulehook

from .memo import remembered
from .state import evolve


@rulehook
def glux_check(game: Any, state: Any, decision: Event) -> str | None:
    return None


@rulehook
def glux_apply(game: Any, state: Any, event: Event) -> Any | None:
    return None


@rulehook
def glux_decisions(game: Any, state: Any, seat: int) -> tuple[Event, ...]:
    return ()


@rulehook
def glux_notate(game: Any, decision: Event) -> str | None:
    return None


@rulehook
def glux_parse(game: Any, text: str, player: str, state: Any) -> Event | None:
    return None


def applied(game: Any, state: Any, event: Event) -> Any:
    """The state after ``event``, a variant's own that no step of the turn
    takes (``glux_apply``, on the plain path only): what the variants
    remember asked first (``glux_memo``), as before a step's effect."""
    memo = remembered(game, state, event)
    if memo is not state.memo:
        state = evolve(state, memo=memo)
    after = game.rules.glux_apply(game=game, state=state, event=event)
    if after is None:
        raise TypeError(f"not a Glüx event: {event!r}")
    return after
