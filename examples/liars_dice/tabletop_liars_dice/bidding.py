"""The bids: in turn, from the first seat, each player either bids higher
than the last bid or, once there is one, calls it a lie (``call.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletop import Event, rulehook

from .events import Liar
from .state import Work

if TYPE_CHECKING:
    from .game import LiarsDice


@rulehook
def liars_dice_bids(game: LiarsDice) -> list[tuple[int, int]]:
    # OpenSpiel's "reset-face": a higher count of any face, or the same count of a higher face.
    return [(count, face) for count in range(1, game.total + 1) for face in range(1, game.sides + 1)]


def node(game: LiarsDice, state: Any):
    return game.decides[state.turn]


def check(game: LiarsDice, state: Any, decision: Event) -> str | None:
    if type(decision) is Liar:
        return None if state.bid is not None else "there is no bid to call yet: make the first bid"
    rank = game.rank.get((decision.count, decision.face))  # type: ignore[attr-defined]
    if rank is None:
        return f"there is no such bid with {game.total} dice of {game.sides} faces at the table"
    if state.bid is not None and rank <= game.rank[state.bid.count, state.bid.face]:
        return f"{game.notate(decision)} does not outbid {game.notate(state.bid)}"
    return None


def legal(game: LiarsDice, state: Any, player: str) -> Sequence[Event]:
    seat = game.seats[player]
    if seat != state.turn:
        return []
    if state.bid is None:
        return game.offers[seat]
    higher = game.offers[seat][game.rank[state.bid.count, state.bid.face] + 1 :]
    return [*higher, game.calls[seat]]


def apply(game: LiarsDice, work: Work, event: Event) -> None:
    if type(event) is Liar:
        work.caller = event.player
    else:
        work.bid = event  # type: ignore[assignment]
        work.turn = (work.turn + 1) % len(game.players)


def called(game: LiarsDice, work: Work) -> str | None:
    """Once liar is called, the game is over."""
    return "over" if work.caller is not None else None


def asks(game: LiarsDice, state: Any, player: str) -> str:
    if state.bid is None:
        return "make the first bid (e.g. 1x2: at least one die shows 2)"
    return f"bid higher than {game.notate(state.bid)}, or call liar"
