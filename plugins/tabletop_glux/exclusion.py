"""'Important': "In case a player is not able to place their chip according
to these rules, they must place the chip on top of the chip on their start
marker, if that option is still available. If, in this case, the player had
used that option before, they are excluded from the game until the final
scoring."

A player who must place lists only the start-square option when nothing can
be counted (it is one of the legal placements whenever it is open); with
neither, the rules force an ``exclude`` event (RULINGS: derived, not chosen).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop import Event, rulehook

from .events import Exclude
from .state import State, evolve, put

if TYPE_CHECKING:
    from .game import Glux


@rulehook
def glux_stuck(game: Any, state: Any, seat: int) -> Event:
    return Exclude(game.players[seat])


def apply_exclude(game: Glux, state: State, event: Exclude) -> State:
    """Excluded until the final scoring: skipped from now on."""
    seat = game.seats[event.player]
    state = evolve(state, excluded=put(state.excluded, seat, True))
    return evolve(state, turn=game.next_turn(state, seat))
