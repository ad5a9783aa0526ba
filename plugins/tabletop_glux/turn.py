"""A turn: 1st phase, place the light chip; 2nd phase, draw a new one.

Rulebook, "Playing the game": beginning with the start player, turns go
clockwise. A player with an empty hand and an empty bag is finished and is
skipped (RULINGS), as is an excluded player.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from tabletop import rulehook

from .events import Draw
from .forms import reads
from .refusal import refuse, shown
from .state import Work, hand_size

if TYPE_CHECKING:
    from .game import Glux


@rulehook
def glux_turn_order(game: Any, seat: int) -> tuple[int, ...]:
    # Clockwise: the next seat first, the player themself last.
    n = len(game.players)
    return tuple((seat + step) % n for step in range(1, n + 1))


@rulehook
@reads("bag not empty")
def glux_draw_after_placing(game: Any, state: Any, seat: int) -> bool:
    # 2nd phase: draw a new chip, if the bag has any.
    return state.bag_size(seat) > 0


class Turns:
    """How the turn passes in one game, for both paths: the turn order (a
    header-time rule, asked once per seat), whether a player still places and
    whether they draw after placing (asked, or read in their declared form)."""

    def __init__(self, game: Glux) -> None:
        rules = game.rules
        self.game = game
        #: For each seat, the seats that may take the turn after it, in order.
        self.order = tuple(order_after(game, seat) for seat in range(len(game.players)))
        self.still_placing = rules.glux_still_placing
        self.draw_after_placing = rules.glux_draw_after_placing
        #: Whether "still placing" is read as holding a chip and not being excluded.
        self.holding = rules.form("glux_still_placing") == "holding, not excluded"
        #: Whether "draws after placing" is read as the bag holding a chip
        #: (by the effect of a placement, ``placement.place``).
        self.bag = rules.form("glux_draw_after_placing") == "bag not empty"

    def next(self, state: Any, after: int) -> int | None:
        """The seat that places next after ``after``, or None."""
        if self.holding:
            hands, excluded = state.hands, state.excluded
            for seat in self.order[after]:
                if hands[seat] is not None and not excluded[seat]:
                    return seat
            return None
        still, game = self.still_placing, self.game
        for seat in self.order[after]:
            if still(game=game, state=state, seat=seat):
                return seat
        return None


def order_after(game: Glux, seat: int) -> tuple[int, ...]:
    """``glux_turn_order``'s answer for ``seat``: every other seat once, then
    ``seat`` itself or nothing; any other answer (a seat that does not exist,
    one twice or left out) is refused in one line naming the variant."""
    order = tuple(game.rules.glux_turn_order(game=game, seat=seat))
    n = len(game.players)
    others = [other for other in range(n) if other != seat]
    if sorted(order[: n - 1]) != others or order[n - 1 :] not in ((), (seat,)):
        raise refuse(
            game.rules,
            "glux_turn_order",
            f"gave {shown(order)} after seat {seat} ({game.players[seat]}): "
            f"each other seat (0 to {n - 1}) once, then {seat} itself or nothing",
        )
    return order


def draw(game: Glux, work: Work, event: Draw) -> None:
    """The effect of a draw: the chip goes from the bag into the hand; in the
    2nd phase, the draw that fills the hand (``glux_hand_size``, officially
    one chip) ends the turn."""
    seat = game.seats[event.player]
    chip = event.chip
    bag = work.bags[seat]
    bag[game.chips.index[chip]] -= 1
    hands = work.hands
    if hands[seat] is None:
        hands[seat] = chip
    else:
        work.give(seat, chip)
    if work.drawing and (game.hand_size == 1 or hand_size(work, seat) >= game.hand_size or not any(bag)):
        # The hand is full again (or the bag empty): the turn passes.
        work.drawing = False
        work.turn = game.turns.next(work, seat)


@functools.lru_cache(maxsize=64)
def draw_outcomes(players: tuple[str, ...], kinds: tuple[str, ...]) -> tuple[tuple[Draw, ...], ...]:
    """Each seat's possible draws, one per kind of chip in force, in the
    order of ``kinds`` (made once per set of players and kinds)."""
    return tuple(tuple(Draw(p, kind) for kind in kinds) for p in players)
