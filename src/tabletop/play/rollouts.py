"""Rollouts: games between bots played to the end from one header, for
studies that want many outcomes and no logs.

Self-play (:func:`tabletop.play.live.selfplay`) makes every game repeatable from
its own seed: a header checked per game, each seat's generator seeded from
it, each chance outcome an HMAC of it. That is what a log needs, and it is
fixed work per game (the header's check, a seeded generator per seat, the
seed's key) that in a short game costs more than its whole turn loop.
A rollout is what a search or a balance study runs instead: the header is
checked once, and one generator, given by the caller, draws every decision
and every chance outcome. A rollout repeats when the generator does
(``random.Random(7)``), and its events are a legal game (a test replays them
through the engine).

Bots are shown their seat's view (``tabletop.sight.seen``), as everywhere; bots
that read no state let the game run on its fast path.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..base.errors import UsageError
from ..host.extensions import Bot
from ..host.registry import Registry
from ..log.header import Header
from ..model.events import Event
from ..model.nodes import Outcome
from .engine import Match
from .live import make_header, play_out

#: The header's seed: never drawn from (the caller's generator draws chance).
SEED = "rollouts"


class Rollouts:
    """Games of ``game`` between ``bots`` (a bot per player, in seat order),
    each played to the end by :meth:`play`."""

    def __init__(
        self,
        registry: Registry,
        game: str,
        players: Sequence[str],
        bots: Sequence[Bot],
        variants: Sequence[str] = (),
        options: Mapping[str, str] | None = None,
        max_events: int = 100_000,
    ) -> None:
        if len(bots) != len(players):
            raise UsageError(f"give one bot per seat ({len(players)}), not {len(bots)}")
        self.registry = registry
        self.header: Header
        self.header, _, self.game = make_header(registry, game, players, variants, options, SEED)
        self.bots = dict(zip(players, bots))
        #: The game's fast path, which the rollouts take in turn (None: it has none).
        self.fast = self.game.fast()
        self.max_events = max_events
        #: The events of the last game played.
        self.events: list[Event] = []

    def play(self, rng: random.Random) -> Match:
        """One game to its end, every decision and chance outcome drawn from
        ``rng``: the finished match (its ``state``, its ``outcome()``)."""
        match = Match(self.registry, self.header, self.game, self.fast)
        rngs = dict.fromkeys(self.bots, rng)
        bits = rng.getrandbits
        self.events = play_out(match, self.bots, rngs, lambda _seq: bits(256), None, self.max_events)
        return match

    def outcomes(self, games: int, rng: random.Random) -> list[Outcome]:
        """The outcomes of ``games`` games in a row, drawn from ``rng``."""
        return [self.play(rng).outcome() for _ in range(games)]
