"""tabletop simulate: the same seed gives the same games on one core, a
process pool, or a real Dask cluster, however the games are batched."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

import tabletop
from tabletop import Event
from tabletop.many import simulation
from tabletop.many.simulation import Plan
from tabletop.many.stats import turns_of
from tabletop_glux.events import Draw, Place

from ..conftest import PILE, ROOT, WAVERING

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
ROOM_POINTS = ROOT / "variants" / "house_rules" / "glux_room_points.py"


def test_simulate_compare_is_paired_seed_by_seed(cli, tmp_path: Path):
    result = cli(*COMPARE, "--compare", "glux-second-place-2p", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    without, with_ = data["summaries"]
    assert without["groups"][0]["variants"] == []
    assert with_["groups"][0]["variants"] == ["glux-second-place-2p"]
    compare = data["compare"]
    assert compare["games"] == 10 and "McNemar" in compare["test"]
    for entry, a, b in zip(compare["seats"], without["groups"][0]["seats"], with_["groups"][0]["seats"]):
        # The paired difference is the mean of per-seed differences: with minus without.
        assert entry["difference"] == pytest.approx(b["win_rate"] - a["win_rate"], abs=1e-4)
        assert entry["difference"] == pytest.approx((entry["changed"]["won"] - entry["changed"]["lost"]) / 10, abs=1e-4)
        assert entry["ci95"][0] <= entry["difference"] <= entry["ci95"][1]
    text = cli(*COMPARE, "--compare", "glux-second-place-2p")
    assert "Paired comparison with and without glux-second-place-2p" in text.stdout


def test_compare_that_changes_no_winner_reports_exactly_zero(cli):
    # Six points for first place and none for second (the 2-player rule) change
    # every score in proportion but no winner: the paired interval is 0 to 0.
    result = cli("--plugins", ROOM_POINTS, *COMPARE, "--compare", "glux-room-points:first=6,second=0", "--json")
    assert result.exit_code == 0, result.stderr
    compare = json.loads(result.stdout)["compare"]
    assert compare["changed_winners"] == 0 and compare["changed_games"] > 0
    for seat in compare["seats"]:
        assert seat["difference"] == 0 and seat["ci95"] == [0, 0] and seat["mcnemar_p"] == 1
        assert seat["score_difference"] > 0
    assert "winners of none" in compare["verdict"]


def test_compare_with_a_variant_that_does_not_apply_says_so(cli):
    # Second place already scores with four players: the variant changes nothing.
    args = ("simulate", "glux", "--seats", "4", "--bot", "greedy", "--games", "4", "--workers", "1")
    result = cli(*args, "--compare", "glux-second-place-2p")
    assert result.exit_code == 0, result.stderr
    assert (
        "glux-second-place-2p changed nothing: all 4 games were played event for event alike, with the same scores"
        in result.stdout
    )
    assert "does not apply" in result.stdout


def test_sweep_plays_the_same_seeds_at_each_value(cli):
    result = cli("--plugins", ROOM_POINTS, *COMPARE, "--sweep", "glux-room-points:first=4,6", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    values = data["sweep"]["values"]
    assert [v["value"] for v in values] == ["4", "6"] and all(v["games"] == 10 for v in values)
    assert data["run"]["arms"] == [["glux-room-points:first=4"], ["glux-room-points:first=6"]]
    assert [g["groups"][0]["variants"] for g in data["summaries"]] == data["run"]["arms"]
    bad = cli("--plugins", ROOM_POINTS, *COMPARE, "--sweep", "glux-room-points:first=4")
    assert bad.exit_code == 2 and "two values or more" in bad.stderr


def test_until_interval_stops_once_every_interval_is_that_narrow(cli):
    result = cli(
        *COMPARE[:-4], "--games", "400", "--workers", "1", "--batch", "10", "--until-interval", "0.35", "--json"
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["stopped_early"] is True
    played = data["run"]["played"]
    assert 10 < played < 400 and played % 10 == 0
    for seat in data["summaries"][0]["groups"][0]["seats"]:
        assert seat["ci95"][1] - seat["ci95"][0] <= 0.35
    # One batch fewer would not have been narrow enough: it stopped at the first chance.
    fewer = cli(*COMPARE[:-4], "--games", str(played - 10), "--workers", "1", "--batch", "10", "--json")
    widths = [s["ci95"][1] - s["ci95"][0] for s in json.loads(fewer.stdout)["summaries"][0]["groups"][0]["seats"]]
    assert max(widths) > 0.35


def test_run_metadata_is_in_the_json(cli):
    data = json.loads(cli(*COMPARE, "--seed", "meta", "--json").stdout)
    run = data["run"]
    assert run["game"] == "glux" and run["players"] == 2 and run["bots"] == ["greedy", "greedy"]
    assert run["seed"] == "meta" and run["games"] == 10 and run["played"] == 10
    assert run["arms"] == [[]] and run["tabletop"]


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


def test_house_rules_reach_dask_workers_that_do_not_hold_them(cli, tmp_path):
    # The house-rule file is named by a path relative to the command's folder:
    # the cluster's workers, started in another folder, cannot open it there.
    distributed = pytest.importorskip("distributed")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "points.py").write_text(ROOM_POINTS.read_text())
    assert not (Path.cwd() / "rules" / "points.py").exists()
    args = ("--plugins", "rules/points.py", "simulate", "glux", "--seats", "2", "--bot", "greedy", "--games", "6")
    args += ("--variant", "glux-room-points:first=7", "--batch", "2")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, protocol="tcp"
    ) as cluster:
        with distributed.Client(cluster.scheduler_address) as client:
            places = set(client.run(os.getcwd).values())
        assert str(tmp_path) not in places
        on_dask = cli(*args, "--scheduler", cluster.scheduler_address, "--results", "dask.jsonl")
    assert on_dask.exit_code == 0, on_dask.stderr
    here = cli(*args, "--workers", "2", "--results", "pool.jsonl")
    assert here.exit_code == 0, here.stderr
    assert (tmp_path / "dask.jsonl").read_bytes() == (tmp_path / "pool.jsonl").read_bytes()
    rows = [json.loads(line) for line in (tmp_path / "dask.jsonl").read_text().splitlines()[1:]]
    assert rows[0]["variants"] == ["glux-room-points:first=7"] and max(max(r["scores"]) for r in rows) >= 7


# -- turns: where a game says its turn ends ---------------------------------------------------
LIARS_DICE = ROOT / "examples" / "liars_dice"


def kinds(played) -> list[str]:
    return [json.loads(line)["kind"] for line in played.lines[1:]]


def test_a_glyph_chess_turn_is_counted_by_its_action_in_simulate_and_stats(cli, tmp_path):
    plan = Plan(game="glyph-chess", players=2, bots=("random", "random"), seed="turns", logs=True)
    played = simulation.run(plan, 3, workers=1)
    for game in played:
        done = kinds(game)
        # From the awakening to the reset roll, one action a turn: a move, a spell or a pass.
        assert game.row.turns == sum(kind in ("move", "cast", "pass") for kind in done)
    # Today's games have casts beside their moves: the commonest decision alone counted fewer.
    assert sum(game.row.turns for game in played) > sum(kinds(game).count("move") for game in played)
    for game in played:
        (tmp_path / f"{game.number}.jsonl").write_text("\n".join(game.lines) + "\n")
    result = cli("stats", str(tmp_path), "--csv")
    assert result.exit_code == 0, result.stderr
    assert sorted(int(row.split(",")[-1]) for row in result.stdout.splitlines()[1:]) == sorted(
        game.row.turns for game in played
    )


def test_a_liars_dice_turn_is_a_bid_or_the_call():
    plan = Plan(game="liars-dice", players=3, bots=("random",) * 3, seed="turns", logs=True, plugins=(str(LIARS_DICE),))
    for game in simulation.run(plan, 4, workers=1):
        assert game.row.turns == kinds(game).count("bid") + 1


def test_a_game_that_does_not_say_counts_its_commonest_decision_as_before():
    plan = Plan(game="pile", players=3, bots=("random",) * 3, seed="turns", logs=True, plugins=(str(PILE),))
    for game in simulation.run(plan, 2, workers=1):
        assert game.row.turns == kinds(game).count("take") > kinds(game).count("pick")


def test_a_glux_turn_is_counted_by_its_placement_or_a_variants_event_that_says_it_ends_one():
    plan = Plan(game="glux", players=2, bots=("random", "random"), seed="turns", logs=True)
    [played] = simulation.run(plan, 1, workers=1)
    assert played.row.turns == kinds(played).count("place")
    game = tabletop.start("glux", ["ann", "ben"], seed="turns").game
    placed, drawn = Place("ann", "a1", 6), Draw("ann", "1/6")
    assert game.turn_ends(placed) is True and game.turn_ends(drawn) is False  # the draw belongs to the turn

    @attrs.frozen
    class Redraw(Event):
        kind: ClassVar[str] = "redraw"
        ends_turn: ClassVar[bool] = True  # a variant's own event ending a turn without a placement
        player: str

    assert turns_of(game, [placed, drawn, Redraw("ben")]) == 2


@pytest.mark.parametrize("output", [["--results", "games.jsonl"], ["--results", "games/"], ["-o", "logs"]])
def test_a_run_that_ends_before_any_game_leaves_nothing_it_made(tmp_path, output):
    """A bot that cannot play stops the run at its first decision: the
    results file, results folder or logs folder the run made is gone, so
    the same command, the bot mended, is not refused as other code's."""
    from ..conftest import run_tabletop

    plugin = tmp_path / "wavering.py"
    command = ("--plugins", plugin, "simulate", "glux", "--seats", "2", "--bot", "wavering", "--games", "2", *output)
    plugin.write_text(WAVERING.replace("CHOICE", "'e5'"))
    failed = run_tabletop(*command, cwd=tmp_path)
    assert failed.returncode == 1 and "bot 'wavering' chose 'e5'" in failed.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wavering.py"]
    plugin.write_text(WAVERING.replace("CHOICE", "legal[0]"))
    mended = run_tabletop(*command, cwd=tmp_path)
    assert mended.returncode == 0, mended.stderr
    assert (tmp_path / output[1].rstrip("/")).exists()
