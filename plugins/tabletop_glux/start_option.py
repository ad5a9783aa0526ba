"""Rule 7, the start-square option: "Once only during the game a player may
place one of their chips on top of the chip on their start marker without
having to count squares using a starting chip."

RULINGS: it is open only while the start square holds exactly one chip and
the option is unused. ("Important", when it must be used, is in
``exclusion.py``.) It is written ``FACE@start``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop import rulehook

from .state import State

if TYPE_CHECKING:
    from .game import Glux


@rulehook
def glux_start_option(game: Any, state: Any, seat: int) -> bool:
    return not state.option_used[seat] and len(state.stacks[game.start_squares[seat]]) == 1


def error(game: Glux, state: State, seat: int, square: int) -> str | None:
    """Why ``seat`` may not use the option to place on ``square`` now, or None."""
    start = game.start_squares[seat]
    if square != start:
        return f"the start-square option places on {game.board.name_of(start)}, not {game.board.name_of(square)}"
    if game.option_open(state, seat):
        return None
    if state.option_used[seat]:
        return "the start-square option was used already"
    if len(state.stacks[square]) != 1:
        return "the start-square option needs exactly one chip on the start square"
    return "the start-square option is not open now"
