"""The PettingZoo adapter, checked by PettingZoo's own API test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from tabletop import Replay  # noqa: E402
from tabletop.api import registry  # noqa: E402
from tabletop.pettingzoo import env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOUSE = str(ROOT / "variants" / "house_rules")


@pytest.mark.parametrize(
    ("game", "players", "variants"),
    [
        ("glux", 2, ()),
        ("glux", 4, ("glux-room-points:first=6,second=1",)),
        ("glyph-chess", 2, ()),
        ("glyph-chess", 3, ("glyph-push",)),
    ],
)
def test_api_test(game, players, variants):
    api_test(env(game, players=players, variants=variants, plugins=[HOUSE]), num_cycles=200)


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
