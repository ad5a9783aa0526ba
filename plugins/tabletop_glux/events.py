"""The events of a Glüx log."""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop import CHANCE, RULES, Event


@attrs.frozen
class Draw(Event):
    """A player draws a chip from their bag: the start chip in setup, else the hand chip."""

    kind: ClassVar[str] = "draw"
    origin: ClassVar[str] = CHANCE
    player: str
    chip: str


@attrs.frozen
class Start(Event):
    """In setup, a player chooses the face of their start chip."""

    kind: ClassVar[str] = "start"
    player: str
    face: int


@attrs.frozen
class FirstPlayer(Event):
    """The start player, drawn at random at the end of setup."""

    kind: ClassVar[str] = "first-player"
    origin: ClassVar[str] = CHANCE
    starter: str


@attrs.frozen
class Place(Event):
    """A player places the hand chip, face up, on ``square``; ``start`` marks the
    once-per-game start-square option (no counting)."""

    kind: ClassVar[str] = "place"
    player: str
    square: str
    face: int
    start: bool = False


@attrs.frozen
class Exclude(Event):
    """A player who cannot place and has used the start-square option is out
    until the final scoring (the rules decide this, nobody chooses it)."""

    kind: ClassVar[str] = "exclude"
    origin: ClassVar[str] = RULES
    player: str


EVENTS = (Draw, Start, FirstPlayer, Place, Exclude)
