"""Rollouts: games between bots played to the end from one header, for
studies that want many outcomes and no logs.

Self-play (:class:`tabletop.play.live.SelfPlay`) makes every game repeatable
from its own seed: a header per game, each seat's generator made from it,
each chance outcome an HMAC of it. That is what a log needs, and it is
fixed work per game that in a short game costs about as much as its turn
loop. A rollout is what a search or a balance study runs instead: one
header for every game (a :class:`~tabletop.play.live.Batch` too), and one
generator, given by the caller, draws every decision and every chance
outcome. A rollout repeats when the generator does
(``random.Random(7)``), and its events are a legal game (a test replays them
through the engine).

Bots are shown their seat's view (``tabletop.sight.seen``), as everywhere; bots
that read no state let the game run on its fast path.
"""

from __future__ import annotations

import random
from typing import Any

from ..log.header import Header, Randomness
from ..model.events import Event
from ..model.nodes import Outcome
from .engine import Match
from .live import Batch, play_out, seeded

#: The header's seed: never drawn from (the caller's generator draws chance).
SEED = "rollouts"


class Rollouts(Batch):
    """Games of ``game`` between ``bots`` (a bot per player, in seat order),
    each played to the end by :meth:`play`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header: Header = seeded(self.template, Randomness(seed=SEED))
        #: The events of the last game played.
        self.events: list[Event] = []

    def play(self, rng: random.Random) -> Match:
        """One game to its end, every decision and chance outcome drawn from
        ``rng``: the finished match (its ``state``, its ``outcome()``)."""
        match = self.match(self.header)
        rngs = dict.fromkeys(self.bots, rng)
        bits = rng.getrandbits
        self.events = play_out(match, self.bots, rngs, lambda _seq: bits(256), None, self.max_events)
        return match

    def outcomes(self, games: int, rng: random.Random) -> list[Outcome]:
        """The outcomes of ``games`` games in a row, drawn from ``rng``."""
        return [self.play(rng).outcome() for _ in range(games)]
