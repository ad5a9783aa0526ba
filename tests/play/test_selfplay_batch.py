"""Self-play in batches (``tabletop.play.live.SelfPlay``): what does not change
from game to game (the checked header, the game, its fast path, the bots) is
made once, and each game is still the one its seed plays alone, whatever
the games played before it in the batch."""

from __future__ import annotations

import pytest

from tabletop.api import registry as api_registry
from tabletop.base.errors import LogFormatError, UsageError
from tabletop.play import chance
from tabletop.play.engine import Match
from tabletop.play.live import SelfPlay, bot_rng, make_header, play_out

from ..conftest import ROOT


def _alone(reg, game, players, bots, seed, variants=()):
    """The game of ``seed`` played the general way: a header checked for it,
    a game and a fast path of its own, the engine's whole loop."""
    header, seed, _ = make_header(reg, game, players, variants, None, seed)
    match = Match(reg, header)
    rngs = {p: bot_rng(seed, p) for p in players}
    events = play_out(match, dict(zip(players, bots)), rngs, chance.numbers(seed), seed, 100_000)
    return reg.codec.log(header, events), match.state


@pytest.mark.parametrize(
    ("game", "seats", "bots", "variants"),
    [
        ("glux", 4, ("random",), ()),
        ("glux", 2, ("greedy", "random"), ()),
        ("glyph-chess", 2, ("random",), ()),
        ("glyph-chess", 2, ("random",), ("glyph-advanced-setup",)),  # sealed decisions in setup
    ],
)
def test_each_game_of_a_batch_is_the_game_its_seed_plays_alone(registry, game, seats, bots, variants):
    players = [f"p{k}" for k in range(seats)]
    made = [registry.bot(name, game) for name in bots] * (seats // len(bots))
    batch = SelfPlay(registry, game, players, made, variants)
    # Out of order and once again: a game leaves nothing behind for the next.
    for seed in ("b-1", "b-2", "b-1"):
        header, match, events = batch.play(seed)
        assert (registry.codec.log(header, events), match.state) == _alone(
            registry, game, players, made, seed, variants
        )
        assert match.over


def test_the_template_s_batch_plays_the_games_of_its_seeds():
    reg = api_registry([ROOT / "examples" / "liars_dice"])
    players = ["ann", "ben", "cat"]
    bots = [reg.bot("random", "liars-dice")] * 3
    batch = SelfPlay(reg, "liars-dice", players, bots)
    for seed in ("t-1", "t-2", "t-3"):
        header, match, events = batch.play(seed)
        assert (reg.codec.log(header, events), match.state) == _alone(reg, "liars-dice", players, bots, seed)


def test_a_batch_wants_a_bot_for_every_seat(registry):
    with pytest.raises(UsageError, match="one bot per seat"):
        SelfPlay(registry, "glux", ["ann", "ben"], [registry.bot("random", "glux")])


def test_a_bad_seed_is_refused_before_a_game_begins(registry):
    batch = SelfPlay(registry, "glux", ["ann", "ben"], [registry.bot("random", "glux")] * 2)
    with pytest.raises(LogFormatError, match="--seed"):
        batch.play("")


def test_a_batch_checks_its_header_once(registry, monkeypatch):
    """The checked header is made at the batch's start: a game adds its seed."""
    batch = SelfPlay(registry, "glux", ["ann", "ben"], [registry.bot("random", "glux")] * 2)
    monkeypatch.setattr(type(registry), "game", lambda *_: pytest.fail("a game made again"))
    header, _, _ = batch.play("once")
    assert header.randomness.seed == "once" and header.players == ("ann", "ben")
