"""tabletop simulate: the same seed gives the same games on one core, a
process pool, or a real Dask cluster, however the games are batched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop import simulation
from tabletop.simulation import Plan

PLAN = Plan(game="glux", players=2, bots=("greedy", "random"), seed="same", logs=True)


def outcomes(played):
    return [(p.number, p.row, p.lines) for p in played]


def test_simulate_gives_the_same_games_however_split():
    alone = simulation.run(PLAN, 9, workers=1)
    assert [p.number for p in alone] == list(range(1, 10))
    assert outcomes(simulation.run(PLAN, 9, workers=1, per_batch=2)) == outcomes(alone)
    assert outcomes(simulation.run(PLAN, 9, workers=2, per_batch=1)) == outcomes(alone)


def test_simulated_game_is_selfplay_with_its_own_seed(cli, tmp_path):
    (played,) = simulation.run(PLAN, 1, workers=1)
    result = cli("selfplay", "glux", "--seats", "2", "--bot", "greedy", "--bot", "random", "--seed", "x", "-o", "sp")
    assert result.exit_code == 0
    # Same seed scheme (SEED-i) and same engine: the logs differ only by the seat names.
    assert played.row.events == len(played.lines) - 1
    assert json.loads(played.lines[0])["randomness"] == {"seed": "same-1"}
    assert json.loads(played.lines[0])["players"] == ["p1-greedy", "p2-random"]


def test_simulate_on_a_dask_cluster_equals_one_process():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        protocol="tcp",
    ) as cluster:
        on_dask = simulation.run(PLAN, 8, scheduler=cluster.scheduler_address, per_batch=3)
    assert outcomes(on_dask) == outcomes(simulation.run(PLAN, 8, workers=1))


def test_simulate_command_prints_the_table_and_writes_logs(cli, tmp_path: Path):
    result = cli("simulate", "glux", "--seats", "2", "--bot", "greedy", "--games", "6", "--workers", "1", "-o", "out")
    assert result.exit_code == 0, result.stderr
    assert "glux, 2 players, no variant: 6 games" in result.stdout
    assert "p1-greedy" in result.stdout and "95% CI" in result.stdout
    logs = sorted((tmp_path / "out").glob("*.jsonl"))
    assert [p.name for p in logs] == [f"glux-{i:05d}.jsonl" for i in range(1, 7)]
    again = cli("stats", "out", "--json")
    assert json.loads(again.stdout)["groups"][0]["games"] == 6
    assert cli("replay", "out").exit_code == 0


COMPARE = ("simulate", "glux", "--seats", "2", "--bot", "greedy", "--games", "10", "--workers", "1")


def test_simulate_compare_reports_the_difference_with_intervals(cli, tmp_path: Path):
    result = cli(*COMPARE, "--compare", "glux-second-place-2p", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    without, with_ = data["summaries"]
    assert without["groups"][0]["variants"] == []
    assert with_["groups"][0]["variants"] == ["glux-second-place-2p"]
    for entry, a, b in zip(data["compare"], without["groups"][0]["seats"], with_["groups"][0]["seats"]):
        assert entry["difference"] == pytest.approx(b["win_rate"] - a["win_rate"])
        assert entry["ci95"][0] <= entry["difference"] <= entry["ci95"][1]
    text = cli(*COMPARE, "--compare", "glux-second-place-2p")
    assert "Seat win rates with and without glux-second-place-2p" in text.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "greedy", "--bot", "greedy", "--bot", "greedy"], "one bot for all seats or one per seat (2)"),
        (["--bot", "deep-blue"], "unknown bot 'deep-blue'"),
        (["--bot", "mcts:depth=2"], "bot 'mcts:depth=2': no setting 'depth'"),
        (["--variant", "nope"], "unknown variant 'nope'"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers and --scheduler exclude each other"),
    ],
)
def test_simulate_usage_errors_are_one_line(cli, args, message):
    result = cli("simulate", "glux", "--seats", "2", "--games", "2", *args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_simulate_refuses_a_folder_that_is_not_empty(cli, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    result = cli("simulate", "glux", "--seats", "2", "--games", "1", "-o", "out")
    assert result.exit_code == 2 and "not empty" in result.stderr
    assert (tmp_path / "out" / "keep.txt").read_text() == "mine"


def test_simulate_scheduler_unreachable_is_a_usage_error(cli):
    pytest.importorskip("distributed")
    result = cli("simulate", "glux", "--seats", "2", "--games", "1", "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 2 and "cannot connect" in result.stderr
