"""Every legal set stays as it was: the digests in legal_sets.json were made
by the rules before they were laid out rule by rule (and before the fast
path); random games from fixed seeds must give the same nodes, legal lists
(in order), verdicts on near-miss decisions and states.

Run as a script to print the digests of the rules installed now.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

DIGESTS = Path(__file__).with_name("legal_sets.json")
#: The state's fields before ``memo`` was added (a variant's memory).
FIELDS = "board fates hands bags used dice eliminated phase turn rolling then spent steps target placed owed winner"


def digest(registry, players: tuple[str, ...], seed: str, limit: int = 250) -> str:
    """One seeded random game's fingerprint."""
    from tabletop.log.header import Header, Randomness
    from tabletop.play.engine import Match
    from tabletop.play.live import settle

    match = Match(registry, Header("glyph-chess", players, (), {}, Randomness(seed=seed)))
    game = match.game
    h = hashlib.sha256()
    rng = random.Random(seed)

    def state() -> bytes:
        return repr(tuple(getattr(match.state, f) for f in FIELDS.split())).encode()

    settle(match, seed, {})
    for _ in range(limit):
        if match.over:
            break
        player = match.node.players[0]
        legal = game.legal(match.state, player)
        h.update(repr(match.node).encode() + state())
        h.update("|".join(game.notate(e) for e in legal).encode())
        for event in legal[:3]:
            text = game.notate(event)
            for near in (text + " D1", text.replace("/", "/ E"), text.split("/")[0]):
                try:
                    decision = game.parse(near, player, match.state)
                except Exception as exc:  # noqa: BLE001 - the kind of refusal is part of the fingerprint
                    h.update(type(exc).__name__.encode())
                    continue
                h.update(str(game.check(match.state, decision) is None).encode())
        match.apply(legal[rng.randrange(len(legal))])
        settle(match, seed, {})
    h.update(state())
    return h.hexdigest()


GAMES = [(("ann", "ben"), f"legal-{i}") for i in range(5)] + [(("ann", "ben", "cat"), f"legal-{i}") for i in range(5)]


def test_legal_sets_nodes_and_states_are_as_before(registry):
    expected = json.loads(DIGESTS.read_text())
    for players, seed in GAMES:
        assert digest(registry, players, seed) == expected[f"{len(players)} {seed}"], (players, seed)


if __name__ == "__main__":
    from tabletop import Registry, get_plugin_manager

    found = Registry(get_plugin_manager(environment=False))
    print(json.dumps({f"{len(p)} {s}": digest(found, p, s) for p, s in GAMES}, indent=1))
