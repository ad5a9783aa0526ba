"""The roll: each player in seat order rolls their dice under their cup, one
die (one chance event) at a time. Only its owner sees a die."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from tabletop import Chance, rulehook
from tabletop.model.dice import die

from .about import OPTIONS
from .events import Roll
from .state import BID, Work

if TYPE_CHECKING:
    from .game import LiarsDice

#: The most dice a player may roll, by the ``dice`` option or a house rule.
MOST_DICE = OPTIONS["dice"].high


@rulehook
def liars_dice_dice(game: LiarsDice, seat: int) -> int:
    return game.option("dice")


def roller(game: LiarsDice, state: Any) -> int | None:
    """The seat that rolls next, or None once every die is rolled."""
    for seat, dice in enumerate(state.dice):
        if len(dice) < game.dice[seat]:
            return seat
    return None


def rolls(game: LiarsDice) -> tuple[Chance, ...]:
    """For each seat, the chance node of one of its dice: every face alike."""
    return tuple(die(partial(Roll, player), game.sides) for player in game.players)


def node(game: LiarsDice, state: Any) -> Chance:
    return game.rolls[roller(game, state)]


def roll(game: LiarsDice, work: Work, event: Roll) -> None:
    seat = game.seats[event.player]
    work.dice[seat] = tuple(sorted((*work.dice[seat], event.face)))


def rolled(game: LiarsDice, work: Work) -> str | None:
    """Once every die is rolled, the bidding starts (with the first seat)."""
    return BID if roller(game, work) is None else None
