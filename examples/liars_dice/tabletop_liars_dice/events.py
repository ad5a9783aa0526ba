"""The events of a Liar's Dice log: one line per die rolled (chance), per
bid and for the call of "liar" (decisions). Who wins is worked out on
replay, never written."""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop import CHANCE, Event


@attrs.frozen
class Roll(Event):
    """One of ``player``'s dice, rolled under their cup: it shows ``face``."""

    kind: ClassVar[str] = "roll"
    origin: ClassVar[str] = CHANCE
    player: str
    face: int


@attrs.frozen
class Bid(Event):
    """``player`` claims that at least ``count`` dice at the table show
    ``face`` (wild dice count as any face)."""

    kind: ClassVar[str] = "bid"
    player: str
    count: int
    face: int


@attrs.frozen
class Liar(Event):
    """``player`` calls the last bid a lie: the cups are lifted, and the game ends."""

    kind: ClassVar[str] = "liar"
    player: str


EVENTS = (Roll, Bid, Liar)
