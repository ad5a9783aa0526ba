"""A Liar's Dice bot that bids what the dice it can see make likely."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tabletop import Bot, Event

from .events import Bid

if TYPE_CHECKING:
    from .game import LiarsDice
    from .state import State


def likely(game: LiarsDice, view: State, player: str, face: int) -> float:
    """How many dice at the table should count as ``face``, as ``player``
    sees them: their own exactly, each hidden die by its chance."""
    own = view.dice[game.seats[player]]
    mine = sum(die == face or die == game.wild for die in own)
    chance = (1 if face == game.wild or not game.wild else 2) / game.sides
    return mine + (game.total - len(own)) * chance


def counting(game: LiarsDice, view: State, player: str, legal: list[Event], rng: random.Random) -> Event:
    """Calls liar on a bid above what it expects; else the lowest bid it
    believes (ties at random); else liar, or the lowest bid when it may not call."""
    bid = view.bid
    calls = [d for d in legal if type(d) is not Bid]
    if bid is not None and bid.count > likely(game, view, player, bid.face) + 0.5:
        return calls[0]
    believed = [d for d in legal if type(d) is Bid and d.count <= likely(game, view, player, d.face)]
    if believed:
        lowest = min(d.count for d in believed)
        return rng.choice([d for d in believed if d.count == lowest])
    return calls[0] if calls else legal[0]


BOTS = [
    Bot("counting", "bids what the dice it can see make likely; calls liar on a bid above that", counting, "liars-dice")
]
