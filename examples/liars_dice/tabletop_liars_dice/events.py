"""The events of a Liar's Dice log: one line per die rolled (chance), per
bid and for the call of "liar" (decisions). Who wins is worked out on
replay, never written. How each is written (its notation, its line in a
log) is said here, by templates of its fields (``tabletop.model.notation``)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop import CHANCE, Event


@attrs.frozen
class Roll(Event):
    """One of ``player``'s dice, rolled under their cup: it shows ``face``."""

    kind: ClassVar[str] = "roll"
    origin: ClassVar[str] = CHANCE
    #: How it is written: at a real table (``roll 5``), in a log (``ann rolls
    #: 5``), and to the others, who may not see the die.
    written: ClassVar[str] = "roll {face}"
    sentence: ClassVar[str] = "{player} rolls {face}"
    unseen: ClassVar[str] = "{player} rolls a die"
    player: str
    face: int


@attrs.frozen
class Bid(Event):
    """``player`` claims that at least ``count`` dice at the table show
    ``face`` (wild dice count as any face)."""

    kind: ClassVar[str] = "bid"
    written: ClassVar[str] = "{count}x{face}"  # 3x5: at least three fives
    sentence: ClassVar[str] = "{player} bids {written}"
    ends_turn: ClassVar[bool] = True  # each bid is a turn, and so is the call
    player: str
    count: int
    face: int


@attrs.frozen
class Liar(Event):
    """``player`` calls the last bid a lie: the cups are lifted, and the game ends."""

    kind: ClassVar[str] = "liar"  # written as its kind: liar
    sentence: ClassVar[str] = "{player} calls liar"
    ends_turn: ClassVar[bool] = True
    player: str


EVENTS = (Roll, Bid, Liar)
