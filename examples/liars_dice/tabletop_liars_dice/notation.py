"""Liar's Dice notation: ``3x5`` bids that at least three dice show 5;
``liar`` calls the last bid a lie. A die rolled at a real table is written
``roll 5``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tabletop import Event, NotationError

from .events import Bid, Liar, Roll

if TYPE_CHECKING:
    from .game import LiarsDice

_BID = re.compile(r"^\s*(\d{1,2})\s*x\s*(\d{1,2})\s*$", re.IGNORECASE)


def notate(game: LiarsDice, decision: Event) -> str:
    """A decision as its player writes it (without the player's name)."""
    if type(decision) is Bid:
        return f"{decision.count}x{decision.face}"
    if type(decision) is Liar:
        return "liar"
    if isinstance(decision, game.shapes):  # a variant's decision of a core shape writes itself
        return decision.notation()  # type: ignore[attr-defined]
    raise TypeError(f"not a Liar's Dice decision: {decision!r}")


def parse(game: LiarsDice, text: str, player: str, state: Any) -> Event:
    if text.strip().lower() == "liar":
        return Liar(player)
    found = _BID.match(text)
    if found:
        return Bid(player, int(found.group(1)), int(found.group(2)))
    for shape in game.shapes:
        decision = shape.parse(text, player)
        if decision is not None:
            return decision
    raise NotationError(f"cannot read {text!r}: write a bid as COUNTxFACE (3x5: three fives), or liar")


def sentence(game: LiarsDice, event: Event, visible: bool) -> str:
    """Any event as a short line, e.g. ``ann bids 3x5``, ``ben rolls a die``."""
    if type(event) is Roll:
        return f"{event.player} rolls {event.face if visible else 'a die'}"
    if type(event) is Liar:
        return f"{event.player} calls liar"
    return f"{event.player} bids {notate(game, event)}"  # type: ignore[attr-defined]


def outcome(game: LiarsDice, event: Event) -> str | None:
    """A die rolled at a real table, as it is entered: ``roll 5``."""
    return f"roll {event.face}" if type(event) is Roll else None  # type: ignore[attr-defined]
