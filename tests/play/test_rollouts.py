"""Rollouts: games played to the end from one header, every decision and
chance outcome drawn from the caller's generator (tabletop.play.rollouts)."""

from __future__ import annotations

import random

import pytest

import tabletop.api
from tabletop import Bot, UsageError
from tabletop.play.engine import Replay
from tabletop.play.rollouts import Rollouts

from ..conftest import ROOT

EXAMPLE = ROOT / "examples" / "liars_dice"
GAMES = [("glux", 3), ("glyph-chess", 2), ("liars-dice", 2)]


def registry():
    return tabletop.api.registry([EXAMPLE])


def names(count: int) -> list[str]:
    return ["ann", "ben", "cy", "dee"][:count]


@pytest.mark.parametrize(("game", "count"), GAMES)
def test_a_rollout_is_a_legal_game_that_the_engine_replays(tmp_path, game, count):
    reg = registry()
    rollouts = tabletop.api.rollouts(game, names(count), registry=reg)
    match = rollouts.play(random.Random(11))
    assert match.over and rollouts.events
    log = tmp_path / "rollout.jsonl"
    log.write_text("\n".join(reg.codec.log(rollouts.header, rollouts.events)) + "\n")
    replayed = Replay(reg, log).run()
    assert replayed.over and replayed.outcome() == match.outcome()


@pytest.mark.parametrize(("game", "count"), GAMES)
def test_a_rollout_repeats_with_its_generator_and_only_with_it(game, count):
    rollouts = tabletop.api.rollouts(game, names(count), registry=registry())
    first = [rollouts.play(random.Random(seed)) and list(rollouts.events) for seed in (1, 2)]
    again = [rollouts.play(random.Random(seed)) and list(rollouts.events) for seed in (1, 2)]
    assert first == again
    assert first[0] != first[1]


@pytest.mark.parametrize(("game", "count"), GAMES)
def test_the_fast_path_and_the_plain_path_play_the_same_rollouts(monkeypatch, game, count):
    reg = registry()
    rollouts = tabletop.api.rollouts(game, names(count), registry=reg)
    assert rollouts.game.fast() is not None
    fast = [rollouts.play(random.Random(seed)) and list(rollouts.events) for seed in range(3)]
    monkeypatch.setattr(type(rollouts.game), "fast", lambda game: None)
    plain = [rollouts.play(random.Random(seed)) and list(rollouts.events) for seed in range(3)]
    assert fast == plain


class Scripted(random.Random):
    """A generator whose chance numbers (256 bits) are given in turn; other draws as usual."""

    def __init__(self, seed: int, chance: list[int]) -> None:
        super().__init__(seed)
        self.chance = list(chance)

    def getrandbits(self, k: int) -> int:
        return self.chance.pop(0) if k == 256 else super().getrandbits(k)


def test_a_bot_in_a_rollout_is_shown_its_seat_view_twin_dice_show_it_the_same():
    # Twin games: ann's die is a 1 in both, ben's a 2 in one and a 4 in the
    # other. ann's bot reads its view: it must be handed the same views and
    # so take the same decisions; ben's dice are what it may not see.
    reg = registry()
    shown: list[list[object]] = [[], []]

    def spying(twin: int):
        def choose(game, view, player, legal, rng):
            shown[twin].append(view)
            return legal[rng.randrange(len(legal))]

        return Bot("spy", "records its view", choose)

    finals = []
    for twin, bens in enumerate((1, 3)):
        rollouts = Rollouts(
            reg, "liars-dice", ["ann", "ben"], [spying(twin), reg.bot("random", "liars-dice")], options={"dice": "1"}
        )
        match = rollouts.play(Scripted(5, [0, bens]))
        finals.append(match.state)
    assert finals[0] != finals[1]  # ben's die differs between the twins
    assert shown[0] and shown[0] == shown[1]


def test_bots_are_one_per_seat():
    with pytest.raises(UsageError, match="one bot per seat"):
        tabletop.api.rollouts("glux", ["ann", "ben"], ["random"], registry=registry())
    with pytest.raises(UsageError, match="every seat: none for ben"):
        tabletop.api.rollouts("glux", ["ann", "ben"], {"ann": "greedy"}, registry=registry())
    mapped = tabletop.api.rollouts("glux", ["ann", "ben"], {"ben": "greedy", "ann": "random"}, registry=registry())
    assert [mapped.bots[p].name for p in ("ann", "ben")] == ["random", "greedy"]


def test_outcomes_are_the_games_played_in_a_row():
    rollouts = tabletop.api.rollouts("liars-dice", ["ann", "ben"], registry=registry())
    rng, again = random.Random(4), random.Random(4)
    outcomes = rollouts.outcomes(20, rng)
    assert outcomes == [rollouts.play(again).outcome() for _ in range(20)]
    assert len({o.winners for o in outcomes}) == 2  # both seats win some
