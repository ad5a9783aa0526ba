"""The PettingZoo adapter, checked by PettingZoo's own API test."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from tabletop import Replay, testing  # noqa: E402
from tabletop.ai.pettingzoo import env  # noqa: E402
from tabletop.api import registry  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HOUSE = str(ROOT / "variants" / "house_rules")
PEEK = str(Path(__file__).resolve().parent / "ai_games" / "peek.py")


@pytest.mark.parametrize(
    ("game", "players", "variants"),
    [
        ("glux", 2, ()),
        ("glux", 4, ("glux-room-points:first=6,second=1",)),
        ("glyph-chess", 2, ()),
        ("glyph-chess", 3, ("glyph-push",)),
        ("peek", 3, ()),
    ],
)
def test_api_test(game, players, variants):
    api_test(env(game, players=players, variants=variants, plugins=[HOUSE, PEEK]), num_cycles=200)


def random_episode(table, seed):
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    total = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        total[agent] += reward
        if terminated or truncated:
            table.step(None)
        else:
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return total


def test_an_episode_saved_is_a_log_that_replays_and_verifies(tmp_path, cli):
    table = env("glux", players=3, variants=["glux-room-points:first=6,second=1"], plugins=[HOUSE])
    total = random_episode(table, 4)
    assert sum(total.values()) == pytest.approx(0) and max(total.values()) > 0
    log = table.save(tmp_path / "episode.jsonl")
    match = Replay(registry([HOUSE]), log).run()
    assert match.over and match.game.outcome(match.state) == table.table.outcome
    result = cli("--plugins", HOUSE, "verify", str(log))
    assert result.exit_code == 0, result.output
    result = cli("--plugins", HOUSE, "replay", str(log))
    assert result.exit_code == 0, result.output


def test_the_same_seed_plays_the_same_episode():
    one = env("glux", players=3)
    two = env("glux", players=3)
    random_episode(one, 9)
    random_episode(two, 9)
    assert one.table.lines() == two.table.lines()


def test_an_action_that_is_not_open_is_refused():
    table = env("glux", players=2)
    table.reset(seed=1)
    mask = table.observe(table.agent_selection)["action_mask"]
    closed = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not open"):
        table.step(closed)


def twin_episodes(game, players, plugins, steps):
    """Two episodes whose states differ only in what the agent to act may not
    see: the second's state is a world the game's ``determinize`` made from
    that agent's view of the first's (as ``tabletop.testing.twins`` makes them)."""
    one, two = (env(game, players=players, plugins=plugins, render_mode="ansi") for _ in range(2))
    rng = np.random.default_rng(steps)
    for table in (one, two):
        table.reset(seed=steps)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(one.observe(one.agent_selection)["action_mask"])))
        one.step(action)
        two.step(action)
    agent = one.agent_selection
    match = two.table.match
    for world in testing.twins(two.table.game, match.state, agent, random.Random(steps), count=20):
        if world != match.state:
            match.restore(world, match.seq, match.revealed, match.seals)
            return agent, one, two
    raise AssertionError("every world drawn was the real one")


@pytest.mark.parametrize(
    ("game", "players", "plugins"),
    [("peek", 2, [PEEK]), ("glux", 2, [HOUSE]), ("glux", 3, [HOUSE]), ("glyph-chess", 2, [HOUSE])],
)
@pytest.mark.parametrize("steps", [0, 3])
def test_twins_are_shown_alike(game, players, plugins, steps):
    """Trust finding 4: two episodes that differ only in what the agent to
    act may not see give it the same observation and the same rendered
    board (Peek's render draws whatever it is handed: it must be handed the
    agent's view)."""
    agent, one, two = twin_episodes(game, players, plugins, steps)
    assert one.table.view(None) != two.table.view(None)
    seen_one, seen_two = one.observe(agent), two.observe(agent)
    assert (seen_one["observation"] == seen_two["observation"]).all()
    assert (seen_one["action_mask"] == seen_two["action_mask"]).all()
    assert one.render() == two.render()
    assert one.render().startswith(f"{agent}:\n")


def test_a_finished_episode_renders_the_whole_board():
    table = env("peek", players=2, plugins=[PEEK], render_mode="ansi")
    random_episode(table, 3)
    cards = table.table.view(None).cards
    assert table.render() == f"cards: p1 {cards[0]}, p2 {cards[1]}"


def test_observations_are_the_games_planes():
    """For a game that declares planes, the observation is those planes as
    numbers from 0 to each plane's high, which the space declares."""
    table = env("glux", players=2)
    space = table.observation_space("p1")["observation"]
    assert space.dtype == np.float32 and space.shape == (table.planes.size,)
    table.reset(seed=2)
    shown = table.observe(table.agent_selection)["observation"]
    assert space.contains(shown)
    planes = table.planes.layout.split(shown)
    # Setup: the start chip is in hand, to be placed face up on the start square.
    assert planes["chips"].shape == (6, 2, 9, 13) and planes["chips"].sum() == 0
    assert planes["hand"].sum() == 1 and planes["start"][0].sum() == 1
    peek = env("peek", players=2, plugins=[PEEK])
    assert peek.observation_space("p1")["observation"].shape == (2048,)


def test_an_episode_the_rules_do_not_bound_is_truncated_at_the_limit():
    table = env("glyph-chess", players=2, limit=40)
    total = random_episode(table, 5)
    assert all(table.truncations.values()) and not any(table.terminations.values())
    assert table.words == 40 and not table.table.over
    assert total == {"p1": 0.0, "p2": 0.0}
    api_test(env("glyph-chess", players=2, limit=25), num_cycles=100)


def test_a_game_the_rules_bound_is_never_truncated():
    table = env("glux", players=2, limit=48)
    random_episode(table, 6)
    assert all(table.terminations.values()) and not any(table.truncations.values())
    assert table.words == 48
