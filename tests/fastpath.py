"""Holding a game's fast path to its plain rules.

:func:`compare` plays a game on the plain path and, at every event, asks the
fast path the same questions on a state thawed from the plain one: what comes
next, the legal decisions, why a decision is illegal (for every legal one and
for decisions taken from other moments of the game), and the state after the
event. A game's property test calls it over many seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tabletop import Decide, Match, Registry
from tabletop.model.events import Seal, Unseal
from tabletop.play.live import decide, make_header, settle


def compare(
    registry: Registry,
    game: str,
    players: Sequence[str],
    seed: str,
    variants: Sequence[str] = (),
    options: dict[str, str] | None = None,
    max_events: int = 5_000,
    strangers: int = 8,
) -> int:
    """Play one random game, checking the fast path against the plain one at
    every step; return the number of events played."""
    header, seed, _ = make_header(registry, game, players, variants, options, seed)
    match = Match(registry, header)
    fast = match.game.fast()
    assert fast is not None, f"{game} has no fast path"
    rng = random.Random(seed)
    seen: list = []  # decisions from elsewhere in the game: mostly illegal here
    secrets: dict = {}
    settle(match, seed, secrets)
    events = 0
    live = fast.thaw(match.state)
    while not match.over and events < max_events:
        state = match.state
        assert fast.freeze(live) == state
        node = match.node
        assert fast.next(live) == match.game.next(state)
        assert isinstance(node, Decide), node
        for player in players:
            plain_legal = list(match.game.legal(state, player))
            assert list(fast.legal(live, player)) == plain_legal, (player, events)
        player = node.players[0]
        legal = list(match.game.legal(state, player))
        for decision in legal:
            assert fast.check(live, decision) is None, decision
        for decision in rng.sample(seen, min(strangers, len(seen))):
            if getattr(decision, "player", None) in node.players:
                assert fast.check(live, decision) == match.game.check(state, decision), decision
        choice = legal[rng.randrange(len(legal))]
        seen.append(choice)
        for event in decide(match, choice, seed, secrets):
            if isinstance(event, Seal):
                continue  # the engine keeps sealed decisions; the game sees them when revealed
            fast.apply(live, match.unsealed(event) if isinstance(event, Unseal) else event)
        assert fast.freeze(live) == match.state, (events, choice)
        events += 1
    return events
