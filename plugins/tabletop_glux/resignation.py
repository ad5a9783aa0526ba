"""Resigning in Glüx: the player's chips stay on the board (and keep
scoring); they place no more, as if excluded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.base.errors import IllegalEventError

from .state import State, evolve, put

if TYPE_CHECKING:
    from .game import Glux


def resign(game: Glux, state: State, player: str) -> State:
    """The state after ``player`` resigns: excluded from placing; if it was
    their turn (to place or to draw), the turn passes on."""
    seat = game.seats[player]
    if not state.began:
        raise IllegalEventError("in Glüx a player may resign once the setup is over and the first player drawn")
    if state.excluded[seat]:
        raise IllegalEventError(f"{player} places no more already")
    excluded = put(state.excluded, seat, True)
    if state.turn != seat:
        return evolve(state, excluded=excluded)
    state = evolve(state, excluded=excluded, drawing=False)
    return evolve(state, turn=game.turns.next(state, seat))
