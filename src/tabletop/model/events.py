"""Events: the lines of a game log after the header.

An event is a frozen attrs class with a stable class-level ``kind``. It is one
of three things, told by ``origin``:

- a *decision*: a player chose something (always has a ``player`` field);
- a *chance* outcome: a draw, a roll, a shuffle, resolved from the seed in a
  live game and checked against the possible outcomes on replay;
- a *rules* event: something the rules derive and record (an exclusion, a
  forced pass), produced by the engine and checked by recomputing it.

Consequences that need no record (a kill, a score) are never events: replay
recomputes them.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

DECISION = "decision"
CHANCE = "chance"
RULES = "rules"


@attrs.frozen
class Event:
    """Base of every event class. Subclasses set ``kind`` and ``origin``."""

    kind: ClassVar[str] = ""
    origin: ClassVar[str] = DECISION


@attrs.frozen
class Reveal(Event):
    """The seed of a sealed game, revealed once the game is over."""

    kind: ClassVar[str] = "reveal"
    origin: ClassVar[str] = RULES
    seed: str


@attrs.frozen
class Seal(Event):
    """A secret decision, committed to: ``commitment`` is a hash of the decision
    and a random salt (see :func:`tabletop.play.chance.seal`)."""

    kind: ClassVar[str] = "seal"
    player: str
    commitment: str


@attrs.frozen
class Unseal(Event):
    """A sealed decision revealed: the decision itself (``choice``: its kind
    and payload, as in a log line) and the salt that opens the commitment."""

    kind: ClassVar[str] = "unseal"
    player: str
    salt: str
    choice: dict[str, Any] = attrs.field(hash=False)


@attrs.frozen
class Resign(Event):
    """A player gives up. Any player still in the game may resign at any time
    before the end, in turn or not; the game decides what it means
    (:meth:`tabletop.Game.resign`)."""

    kind: ClassVar[str] = "resign"
    player: str


@attrs.frozen
class Agreement(Event):
    """The players still in the game agreed to end it (a vote carried, see
    the referee): ``result`` is ``"draw"`` (a victory shared by ``players``)
    or ``"abandon"`` (no winner). The game is over after it, whatever its
    rules would say; the scores stay the game's standings then."""

    kind: ClassVar[str] = "agreement"
    origin: ClassVar[str] = RULES
    result: str
    players: tuple[str, ...] = attrs.field(converter=tuple)


#: What an agreement may end a game with.
AGREED = ("draw", "abandon")


@attrs.frozen
class Handover(Event):
    """A new person plays ``player``'s seat from here on (a substitute took
    it); the seat, its name and the game are unchanged."""

    kind: ClassVar[str] = "handover"
    origin: ClassVar[str] = RULES
    player: str


#: Event kinds every game understands; a game may not reuse these names.
CORE_EVENTS: tuple[type[Event], ...] = (Reveal, Seal, Unseal, Resign, Agreement, Handover)
