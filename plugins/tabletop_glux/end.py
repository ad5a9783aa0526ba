"""The end of the game: "as soon as no player can draw another light chip
from their bag, or no player is able to place a chip in accordance to the
rules." RULINGS: a player with an empty hand and an empty bag is finished;
the game ends when every player is finished or excluded. Then the final
scoring (``scoring.py``) takes place.
"""

from __future__ import annotations

from typing import Any

from tabletop import rulehook

from .forms import reads


@rulehook
@reads("holding, not excluded")
def glux_still_placing(game: Any, state: Any, seat: int) -> bool:
    return state.hands[seat] is not None and not state.excluded[seat]


@rulehook
@reads("nobody's turn")
def glux_game_over(game: Any, state: Any) -> bool:
    # Whose turn it is was worked out when the last event was applied: nobody's.
    return state.began and state.turn is None
