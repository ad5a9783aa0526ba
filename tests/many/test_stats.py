"""tabletop stats: many logs summarised, with Wilson intervals."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from tabletop.many.intervals import difference, wilson

from ..conftest import REPLAYS


def test_wilson_interval_known_values():
    # Values from Wilson (1927) / Newcombe (1998), table I: 81 of 263 -> 0.2553 to 0.3662.
    low, high = wilson(81, 263)
    assert round(low, 4) == 0.2553 and round(high, 4) == 0.3662
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_difference_interval_known_values():
    # Newcombe (1998), method 10, example (a): 56/70 - 48/80 -> 0.0524 to 0.3339.
    d, low, high = difference(56, 70, 48, 80)
    assert round(d, 4) == 0.2
    assert round(low, 4) == 0.0524 and round(high, 4) == 0.3339


def make_games(cli, tmp_path: Path, count: int = 12) -> Path:
    result = cli(
        "simulate",
        "glux",
        "--seats",
        "2",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--games",
        str(count),
        "--workers",
        "1",
        "-o",
        "games",
    )
    assert result.exit_code == 0, result.output
    return tmp_path / "games"


def test_stats_counts_wins_per_seat_and_bot(cli, tmp_path):
    folder = make_games(cli, tmp_path)
    result = cli("stats", str(folder), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    (group,) = data["groups"]
    assert group["games"] == 12 and group["players"] == 2
    seats = group["seats"]
    assert [s["player"] for s in seats] == ["p1-greedy", "p2-random"]
    assert sum(s["wins"] for s in seats) == 12 + group["shared_victories"] - group["no_winner"]
    assert set(group["bots"]) == {"greedy", "random"}
    assert group["bots"]["greedy"]["wins"] == seats[0]["wins"]
    low, high = seats[0]["ci95"]
    assert (low, high) == pytest.approx(wilson(seats[0]["wins"], 12), abs=5e-5)  # rounded to 4 places
    histogram = seats[0]["score"]["histogram"]
    assert sum(histogram.values()) == 12


def test_stats_table_by_seat_variant_and_bot(cli, tmp_path):
    folder = make_games(cli, tmp_path, 6)
    by_seat = cli("stats", str(folder))
    assert "glux, 2 players, no variant: 6 games" in by_seat.stdout
    assert "p1-greedy" in by_seat.stdout and "95% CI" in by_seat.stdout
    by_bot = cli("stats", str(folder), "--by", "bot")
    assert by_bot.stdout.count("\ngreedy ") == 1 and "\nrandom " in by_bot.stdout
    by_variant = cli("stats", str(REPLAYS / "glux"), "--by", "variant")
    assert "glux-second-place-2p" in by_variant.stdout
    no_bots = cli("stats", str(REPLAYS / "glux"), "--by", "bot")
    assert "no bots recorded" in no_bots.stdout


def test_stats_csv_one_row_per_game(cli, tmp_path):
    folder = make_games(cli, tmp_path, 5)
    result = cli("stats", str(folder), "--csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 5
    first = rows[0]
    assert first["game"] == "glux" and first["players"] == "p1-greedy p2-random"
    assert first["bots"] == "greedy random"
    assert len(first["scores"].split()) == 2 and int(first["events"]) > 50
    assert first["winners"].split()[0] in first["players"].split()


def test_stats_replays_shared_victory_and_unfinished(cli, tmp_path):
    shutil.copy(REPLAYS / "glux" / "shared-victory.jsonl", tmp_path / "shared.jsonl")
    lines = (REPLAYS / "glux" / "two-players.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "unfinished.jsonl").write_text("".join(lines[:30]))
    data = json.loads(cli("stats", "shared.jsonl", "unfinished.jsonl", "--json").stdout)
    groups = {(g["players"]): g for g in data["groups"]}
    shared = [g for g in data["groups"] if g["shared_victories"]]
    assert len(shared) == 1 and shared[0]["finished"] == 1
    assert any(g["finished"] == 0 and g["games"] == 1 for g in groups.values())


def test_stats_leaves_out_a_bad_log_and_says_so(cli, tmp_path):
    shutil.copy(REPLAYS / "glux" / "two-players.jsonl", tmp_path / "good.jsonl")
    (tmp_path / "bad.jsonl").write_text("not json\n")
    result = cli("stats", str(tmp_path))
    assert result.exit_code == 2
    assert "left out" in result.stderr and "bad.jsonl:1" in result.stderr
    assert "1 games" in result.stdout


def test_stats_with_no_logs_is_a_usage_error(cli, tmp_path):
    (tmp_path / "empty").mkdir()
    result = cli("stats", "empty")
    assert result.exit_code == 2 and "no readable .jsonl logs" in result.stderr


def test_stats_plot_draws_an_svg(cli, tmp_path):
    pytest.importorskip("matplotlib")
    result = cli("stats", str(REPLAYS / "glux"), "--plot", "wins.svg")
    assert result.exit_code == 0, result.stderr
    svg = (tmp_path / "wins.svg").read_text()
    assert svg.startswith("<?xml") and "<svg" in svg
    assert "win rate, 95% interval" in svg and "scores" in svg and "glux, " in svg


def test_stats_by_start_and_turn_order_read_the_drawn_start_player(cli):
    # In two-players.jsonl ben is drawn to start (seat 2) and ann plays second.
    log = REPLAYS / "glux" / "two-players.jsonl"
    data = json.loads(cli("stats", str(log), "--by", "turn-order,seat", "--json").stdout)
    rows = data["groups"][0]["by"]["rows"]
    assert [(r["turn-order"], r["seat"], r["games"]) for r in rows] == [("1st", "2", 1), ("2nd", "1", 1)]
    text = cli("stats", str(log), "--by", "start").stdout
    assert "start player" in text and "not start" in text


def test_stats_never_pools_runs_with_different_bots(cli, tmp_path):
    args = ("simulate", "glux", "--seats", "2", "--games", "3", "--workers", "1")
    assert cli(*args, "--bot", "greedy", "-o", "greedy").exit_code == 0
    assert cli(*args, "--bot", "random", "-o", "random").exit_code == 0
    by_variant = cli("stats", "greedy", "random", "--by", "variant")
    lines = [line for line in by_variant.stdout.splitlines() if line.startswith("glux  ")]
    assert len(lines) == 2 and any(" greedy " in line for line in lines) and any(" random " in line for line in lines)
    assert by_variant.stdout.count("games\nbots: ") == 2
    # --by bot names what differs: the runs are pooled and the bots compared.
    by_bot = json.loads(cli("stats", "greedy", "random", "--by", "bot", "--json").stdout)
    (group,) = by_bot["groups"]
    assert group["games"] == 6 and set(group["bots"]) == {"greedy", "random"}


def test_stats_by_is_checked(cli):
    result = cli("stats", str(REPLAYS / "glux"), "--by", "seat,colour")
    assert result.exit_code == 2 and "--by colour: one of seat, variant, bot, start, turn-order" in result.stderr
