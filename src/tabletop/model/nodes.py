"""What happens next in a game: a decision, a chance outcome, a rule, or nothing.

A game's ``next(state)`` returns one of these nodes. The engine validates
every event against the node it meets, and a live game resolves chance and
rules nodes itself.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import accumulate

import attrs

from ..base.caches import Bound
from .events import Event

#: A chance node's answers kept by the identity of the event asked: a replay
#: asks a node about the few events its codec shares (one per outcome read
#: so far, a handful), so a longer run of fresh objects (events decoded
#: anew, not shared) is passing through, and remembering it is of no use.
ANSWERS_KEPT = Bound(64)


@attrs.frozen
class Decide:
    """One or more players may decide now, in any order.

    More than one player covers simultaneous choices (a secret setup) and
    reactions out of turn (a defender answering an attack). ``sealed``
    decisions are secret until all of ``players`` have made them: each is
    logged first as a commitment (a ``seal`` event), and all are revealed
    (``unseal`` events) once the last is in, so that nobody, even reading the
    log, chooses knowing another's choice.
    """

    players: tuple[str, ...]
    sealed: bool = False


@attrs.frozen
class Chance:
    """A chance node: one of ``outcomes`` happens, with relative ``weights``.

    ``outcomes`` are in a fixed order, so that a number drawn from the seed
    picks the same outcome on every machine.
    """

    outcomes: tuple[Event, ...]
    weights: tuple[int, ...] | None = None
    #: The running totals of ``weights``: outcome i is picked by the numbers
    #: (modulo the total) from ends[i - 1] up to ends[i].
    _ends: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    #: ``allows``'s answers by the identity of the event asked, each kept
    #: with its event (so no other object can have that identity while it is
    #: remembered): a replay asks a node cached for the game about the same
    #: few decoded events again and again, and a look-up by identity costs
    #: less than comparing events.
    _seen: dict[int, tuple[Event, bool]] = attrs.field(init=False, eq=False, repr=False, factory=dict)
    #: The outcome that happens whatever the number, when only one can (the
    #: only outcome, or the only one of weight above 0), else None: a loop
    #: that draws a number for every chance event (``Match.race``) may spare
    #: this one's (a draw from a bag holding one kind of chip). Part of the
    #: node's contract with ``pick``: a subclass that picks otherwise sets it
    #: to what its ``pick`` gives for every number, or None.
    sure: Event | None = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        weights = self.weights
        object.__setattr__(self, "_ends", tuple(accumulate(weights)) if weights is not None else ())
        if weights is None:
            sure = self.outcomes[0] if len(self.outcomes) == 1 else None
        else:
            possible = [i for i, weight in enumerate(weights) if weight]
            sure = self.outcomes[possible[0]] if len(possible) == 1 and weights[possible[0]] > 0 else None
        object.__setattr__(self, "sure", sure)

    def pick(self, number: int) -> Event:
        """The outcome that ``number`` (a large uniform integer) selects."""
        if self.weights is None:
            return self.outcomes[number % len(self.outcomes)]
        ends = self._ends
        if not ends or ends[-1] <= 0:
            raise AssertionError("weights do not cover the number drawn")
        # The first outcome whose running total passes the number: outcomes of
        # weight 0 are never picked.
        return self.outcomes[bisect_right(ends, number % ends[-1])]

    def allows(self, event: Event) -> bool:
        """Whether ``event`` is a possible outcome of this node."""
        seen = self._seen.get(id(event))
        if seen is not None:
            return seen[1]
        try:
            index = self.outcomes.index(event)
        except ValueError:
            found = False
        else:
            found = self.weights is None or self.weights[index] > 0
        ANSWERS_KEPT.keep(self._seen, id(event), (event, found))
        return found


@attrs.frozen
class Forced:
    """The rules decide the next event themselves (an exclusion, a pass)."""

    event: Event


@attrs.frozen
class Over:
    """The game has ended; no more events but the seed's reveal."""


Node = Decide | Chance | Forced | Over


@attrs.frozen
class Outcome:
    """The end of a game: victory points (or another score) and the winners.

    ``winners`` has several names when the victory is shared.
    """

    scores: Mapping[str, int]
    winners: tuple[str, ...]
    note: str = ""

    def ranked(self) -> Sequence[tuple[str, int]]:
        """Players and scores, best first (seat order among equals)."""
        return sorted(self.scores.items(), key=lambda item: -item[1])

    def verdict(self) -> str:
        """Who won, in a few words: ``ann wins``, ``shared victory: ann, ben``
        or ``no winner``, with the note in brackets when there is one."""
        if len(self.winners) == 1:
            won = f"{self.winners[0]} wins"
        elif self.winners:
            won = "shared victory: " + ", ".join(self.winners)
        else:
            won = "no winner"
        return f"{won} ({self.note})" if self.note else won
