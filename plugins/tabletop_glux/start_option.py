"""Rule 7, the start-square option: "Once only during the game a player may
place one of their chips on top of the chip on their start marker without
having to count squares using a starting chip."

RULINGS: it is open only while the start square holds exactly one chip and
the option is unused. ("Important", when it must be used, is in
``exclusion.py``.) Placing by the option asks rules 4 to 6 like any other
placement (``placement.Placement.option_open``). It is written ``FACE@start``.
"""

from __future__ import annotations

from typing import Any

from tabletop import rulehook

from .forms import reads


@rulehook
@reads("unused, one chip on the start square")
def glux_start_option(game: Any, state: Any, seat: int) -> bool:
    return not state.option_used[seat] and len(state.stacks[game.start_squares[seat]]) == 1
