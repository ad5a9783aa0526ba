"""Tournaments: seat orders, ratings, win rates, resuming, and fair time budgets."""

from __future__ import annotations

import json
import os
import random
import types
from pathlib import Path

import pytest

import tabletop
from tabletop import MCTS
from tabletop.many.tournament import Entry, Result, pairs, ratings, resume, run
from tabletop.play import mcts as mcts_module

from ..conftest import ROOT, WAVERING

DUEL = Entry(game="glux", bots=("random", "greedy"), players=2, seed="t")


def outcomes(results):
    """What a game's result is, without the CPU time it took (which varies)."""
    return [(r.number, r.seating, r.scores, r.winners, r.events, r.decisions) for r in results]


def test_every_seat_order_is_played_in_turn():
    entry = Entry(game="glux", bots=("random", "greedy", "mcts:iterations=5"), players=2)
    assert len(entry.orders()) == 6
    seen = [entry.seating(n) for n in range(1, 13)]
    assert sorted(set(seen)) == sorted(entry.orders())
    assert seen[:6] == seen[6:]
    assert entry.plan(2).bots == tuple(entry.bots[i] for i in entry.seating(2))


def test_the_greedy_bot_is_rated_above_random():
    results = run(DUEL, 16, workers=1)
    table = ratings(DUEL, results)
    assert [r["bot"] for r in table] == ["greedy", "random"]
    assert all(r["games"] == 16 and r["sigma"] < 25 / 3 for r in table)
    (duel,) = pairs(DUEL, results)
    assert duel["bot"] == "random" and duel["against"] == "greedy" and duel["games"] == 16
    low, high = duel["ci95"]
    assert low <= duel["rate"] <= high < 0.5


def test_results_do_not_depend_on_the_workers():
    assert outcomes(run(DUEL, 6, workers=1)) == outcomes(run(DUEL, 6, workers=2))


def test_a_dask_cluster_plays_the_same_games():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, protocol="tcp"
    ) as cluster:
        on_dask = run(DUEL, 6, scheduler=cluster.scheduler_address)
    assert outcomes(on_dask) == outcomes(run(DUEL, 6, workers=1))


def test_a_rerun_continues_the_results_file(tmp_path: Path):
    path = tmp_path / "results.jsonl"
    run(DUEL, 4, workers=1, results=path)
    # A crash in the middle of a line leaves half of it: it is dropped.
    with open(path, "a") as handle:
        handle.write('{"number":5,"sea')
    played = []
    again = run(DUEL, 7, workers=1, results=path, progress=played.append)
    assert played[0] == 4  # the games already in the file, then the new ones
    assert outcomes(again) == outcomes(run(DUEL, 7, workers=1))
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["bots"] == ["random", "greedy"]
    assert sorted(Result.read(line).number for line in lines[1:]) == list(range(1, 8))
    assert len(resume(path, DUEL)) == 7


def test_a_results_file_of_another_tournament_is_refused(tmp_path: Path):
    path = tmp_path / "results.jsonl"
    run(DUEL, 2, workers=1, results=path)
    with pytest.raises(tabletop.UsageError, match="line 1: a results file of another tournament"):
        run(Entry(game="glux", bots=("random", "greedy"), players=2, seed="other"), 2, results=path)


def test_ranks_put_winners_first_and_ties_together():
    r = Result(1, (0, 1, 2), scores=(10, 12, 10), winners=(1,), events=9, cpu=(0, 0, 0), decisions=(1, 1, 1))
    assert r.ranks() == [1, 0, 1]
    shared = Result(1, (0, 1), scores=(5, 5), winners=(0, 1), events=9, cpu=(0, 0), decisions=(1, 1))
    assert shared.ranks() == [0, 0]


def test_a_time_budget_counts_cpu_time_not_the_wall_clock(monkeypatch):
    # The wall clock races ahead (a crowded machine), the thread's CPU time
    # moves slowly: the search goes on until its CPU time is spent.
    cpu = iter(i * 0.01 for i in range(10_000))
    wall = iter(i * 100.0 for i in range(10_000))
    fake = types.SimpleNamespace(thread_time=lambda: next(cpu), perf_counter=lambda: next(wall))
    monkeypatch.setattr(mcts_module, "time", fake)
    table = tabletop.start("glux", ["ann", "ben"], seed="cpu")
    player = table.deciding[0]
    legal = table.legal(player)
    searched = []
    original = MCTS._iterate
    monkeypatch.setattr(MCTS, "_iterate", lambda self, *a: searched.append(1) or original(self, *a))
    MCTS(seconds=0.1)(table.game, table.state, player, legal, random.Random(1))
    # The deadline is read at 0.00 s; the clock is read before each world: 0.01 ... 0.09 s
    # search (9 worlds), 0.10 s stops. By the wall clock it would stop after one.
    assert len(searched) == 9


def test_tournament_command_prints_ratings_and_writes_a_plot(cli, tmp_path: Path):
    result = cli(
        "tournament", "glux", "--bot", "random", "--bot", "greedy", "--games", "4", "--workers", "1",
        "--plot", "ratings.svg",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "4 games of glux, 2 players, 2 seat orders" in result.stdout
    assert "Head to head" in result.stdout and "CPU/decision" in result.stdout
    assert (tmp_path / "ratings.svg").read_text().lstrip().startswith("<?xml")
    data = json.loads(cli("tournament", "glux", "--bot", "random", "--bot", "greedy", "--games", "2", "--json").stdout)
    assert {r["bot"] for r in data["ratings"]} == {"random", "greedy"} and data["games"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "random", "--bot", "random"], "each entrant once"),
        (["--bot", "random", "--bot", "greedy", "--seats", "3"], "more seats than bots"),
        (["--bot", "random", "--bot", "nobody"], "nobody"),
        (["--bot", "random", "--bot", "greedy", "--bot", "mcts", "--bot", "x:y", "--bot", "z"], "x"),
    ],
)
def test_tournament_command_refuses_bad_input_in_one_line(cli, args, message):
    result = cli("tournament", "glux", *args, "--games", "2", "--workers", "1")
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def test_a_damaged_results_file_names_its_line(cli, tmp_path: Path):
    path = tmp_path / "cup.jsonl"
    run(DUEL, 2, workers=1, results=path)
    with open(path, "a") as handle:
        handle.write("not json\n")
    result = cli("tournament", "glux", "--bot", "random", "--bot", "greedy", "--seed", "t", "--games", "3",
                 "--results", str(path))  # fmt: skip
    assert result.exit_code == 2
    assert "line 4: not a game result" in result.stderr and "Traceback" not in result.output


def test_openskill_is_light_and_the_adapters_are_extras():
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    base = project["dependencies"]
    assert any(d.startswith("openskill") for d in base)
    assert not any(d.startswith(("open_spiel", "pettingzoo", "gymnasium")) for d in base)
    extras = project["optional-dependencies"]
    assert any(d.startswith("open_spiel") for d in extras["openspiel"])
    assert any(d.startswith("pettingzoo") for d in extras["pettingzoo"])


def test_a_results_file_that_cannot_be_written_is_one_line(cli, tmp_path: Path):
    result = cli("tournament", "glux", "--bot", "random", "--bot", "greedy", "--games", "1",
                 "--results", str(tmp_path / "missing" / "cup.jsonl"))  # fmt: skip
    assert result.exit_code == 2
    assert "cannot write the results file" in result.stderr and "Traceback" not in result.output


def test_house_rules_reach_dask_workers_that_do_not_hold_them_in_a_tournament(cli, tmp_path: Path):
    # Named by a path relative to the command's folder: the workers, started
    # elsewhere, can read the rule only as the tournament carries it.
    distributed = pytest.importorskip("distributed")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "points.py").write_text((ROOT / "variants/house_rules/glux_room_points.py").read_text())
    args = ("--plugins", "rules/points.py", "tournament", "glux", "--bot", "random", "--bot", "greedy")
    args += ("--games", "4", "--variant", "glux-room-points:first=7")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, protocol="tcp"
    ) as cluster:
        with distributed.Client(cluster.scheduler_address) as client:
            assert str(tmp_path) not in set(client.run(os.getcwd).values())
        on_dask = cli(*args, "--scheduler", cluster.scheduler_address, "--results", "dask.jsonl")
    assert on_dask.exit_code == 0, on_dask.stderr
    here = cli(*args, "--workers", "1", "--results", "here.jsonl")
    assert here.exit_code == 0, here.stderr

    def games(name: str) -> list[dict]:
        rows = [json.loads(line) for line in (tmp_path / name).read_text().splitlines()[1:]]
        return sorted(({k: v for k, v in r.items() if k != "cpu"} for r in rows), key=lambda r: r["number"])

    assert games("dask.jsonl") == games("here.jsonl")
    assert max(max(g["scores"]) for g in games("dask.jsonl")) >= 7  # the house rule's 7 points were scored


def test_a_tournament_that_ends_before_any_game_leaves_no_results_file(tmp_path):
    """A bot that cannot play stops the tournament at its first decision:
    no results file is left (so the mended bot's tournament is not refused
    as a file of other code), and the same command then plays afresh."""
    from ..conftest import run_tabletop

    plugin, results = tmp_path / "wavering.py", tmp_path / "duel.jsonl"
    command = ("--plugins", plugin, "tournament", "glux", "--bot", "wavering", "--bot", "random")
    plugin.write_text(WAVERING.replace("CHOICE", "'e5'"))
    failed = run_tabletop(*command, "--games", "2", "--results", results, cwd=tmp_path)
    assert failed.returncode == 1 and "bot 'wavering' chose 'e5'" in failed.stderr
    assert not results.exists()
    plugin.write_text(WAVERING.replace("CHOICE", "legal[0]"))
    mended = run_tabletop(*command, "--games", "2", "--results", results, cwd=tmp_path)
    assert mended.returncode == 0, mended.stderr
    lines = results.read_text().splitlines()
    assert json.loads(lines[0])["bots"] == ["wavering", "random"] and len(lines) == 3
