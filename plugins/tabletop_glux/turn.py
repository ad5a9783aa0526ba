"""A turn: 1st phase, place the light chip; 2nd phase, draw a new one.

Rulebook, "Playing the game": beginning with the start player, turns go
clockwise. A player with an empty hand and an empty bag is finished and is
skipped (RULINGS), as is an excluded player.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from tabletop import rulehook

from .chips import KINDS
from .events import Draw
from .state import State, evolve, next_seat, put, take_from_bag

if TYPE_CHECKING:
    from .game import Glux


@rulehook
def glux_turn_order(game: Any, state: Any, seat: int) -> tuple[int, ...]:
    # Clockwise: the next seat first, the player themself last.
    n = len(game.players)
    return tuple((seat + step) % n for step in range(1, n + 1))


@rulehook
def glux_draw_after_placing(game: Any, state: Any, seat: int) -> bool:
    # 2nd phase: draw a new chip, if the bag has any.
    return state.bag_size(seat) > 0


def next_turn(game: Glux, state: State, after: int) -> int | None:
    """The seat that places next after ``after`` (the rules in force), or None."""
    if not game.hooked_turns:
        return next_seat(state.hands, state.excluded, after)
    still = game.rules.glux_still_placing
    for seat in game.rules.glux_turn_order(game=game, state=state, seat=after):
        if still(game=game, state=state, seat=seat):
            return seat
    return None


def apply_draw(game: Glux, state: State, event: Draw) -> State:
    """The chip goes from the bag into the hand; a draw in the 2nd phase ends the turn."""
    seat = game.seats[event.player]
    bags = take_from_bag(state.bags, seat, event.chip)
    hands = put(state.hands, seat, event.chip)
    if not state.drawing:
        return evolve(state, bags=bags, hands=hands)
    if game.hooked_turns:
        after = evolve(state, bags=bags, hands=hands, drawing=False)
        return evolve(after, turn=next_turn(game, after, seat))
    # (Written out in full rather than with evolve(): this runs for every other event.)
    return State(
        state.stacks,
        state.tops,
        bags,
        hands,
        state.started,
        state.option_used,
        state.excluded,
        state.began,
        next_seat(hands, state.excluded, seat),
        False,
        state.memo,
    )


@functools.lru_cache(maxsize=64)
def draw_outcomes(players: tuple[str, ...]) -> tuple[tuple[Draw, ...], ...]:
    """Each seat's possible draws, in ``KINDS`` order (made once per game)."""
    return tuple(tuple(Draw(p, kind) for kind in KINDS) for p in players)
