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
from .state import Work

if TYPE_CHECKING:
    from .game import Glux


@rulehook
def glux_stuck(game: Any, state: Any, seat: int) -> Event:
    return Exclude(game.players[seat])


def exclude(game: Glux, work: Work, event: Exclude) -> None:
    """The effect of an exclusion: skipped until the final scoring."""
    seat = game.seats[event.player]
    work.excluded[seat] = True
    work.turn = game.turns.next(work, seat)
