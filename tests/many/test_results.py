"""simulate --results: one row per game in .csv, .jsonl or .parquet, the run's
metadata first, rows in game order, and a rerun continuing a file cut short."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.many import results
from tabletop.many.results import read, read_meta

from ..conftest import REPLAYS

RUN = ("simulate", "glux", "--seats", "2", "--bot", "greedy", "--bot", "random", "--workers", "1", "--batch", "4")


def rows_of(path: Path) -> list[dict]:
    return read(path)[1]


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_results_file_holds_one_row_per_game_and_the_run(cli, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    result = cli(*RUN, "--games", "6", "--seed", "rows", "--results", f"games{suffix}", "-o", "logs")
    assert result.exit_code == 0, result.stderr
    meta, rows = read(tmp_path / f"games{suffix}")
    assert meta["game"] == "glux" and meta["bots"] == ["greedy", "random"] and meta["seed"] == "rows"
    assert meta["games"] == 6 and meta["arms"] == [[]] and meta["tabletop"]
    assert [r["number"] for r in rows] == list(range(1, 7))
    for row in rows:
        log = (tmp_path / "logs" / f"glux-{row['number']:05d}.jsonl").read_text().splitlines()
        header = json.loads(log[0])
        assert row["seed"] == header["randomness"]["seed"] == f"rows-{row['number']}"
        assert row["players"] == header["players"] == ["p1-greedy", "p2-random"]
        assert row["bots"] == ["greedy", "random"] and row["variants"] == []
        assert row["events"] == len(log) - 1
        # The start player is drawn: the log's first-player event names them.
        starter = next(json.loads(line)["payload"]["starter"] for line in log if '"first-player"' in line)
        assert row["start"] == starter == row["turn_order"][0]
        assert sorted(row["turn_order"]) == sorted(row["players"])
        placements = [line for line in log if '"kind":"place"' in line]
        assert row["turns"] == len(placements)
        assert row["finished"] is True and set(row["winners"]) <= set(row["players"])
        assert len(row["scores"]) == 2 and all(isinstance(s, int) for s in row["scores"])
    # The same rows as stats reads from the logs.
    stats = json.loads(cli("stats", "logs", "--json").stdout)["groups"][0]["seats"]
    assert stats[0]["wins"] == sum("p1-greedy" in r["winners"] for r in rows)


def test_csv_results_read_with_the_csv_module(cli, tmp_path):
    import csv

    cli(*RUN, "--games", "3", "--results", "games.csv")
    lines = (tmp_path / "games.csv").read_text().splitlines()
    assert lines[0].startswith("# tabletop run {")
    rows = list(csv.DictReader(lines[1:]))
    assert [r["number"] for r in rows] == ["1", "2", "3"]
    assert rows[0]["players"] == "p1-greedy p2-random" and len(rows[0]["scores"].split()) == 2


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_rerun_continues_a_file_cut_short_to_the_same_rows(cli, tmp_path, suffix):
    whole = cli(*RUN, "--games", "12", "--results", f"whole{suffix}")
    assert whole.exit_code == 0, whole.stderr
    data = (tmp_path / f"whole{suffix}").read_bytes()
    lines = data.splitlines(keepends=True)
    head = 2 if suffix == ".csv" else 1
    # Killed mid-write: five whole rows and half of the sixth.
    (tmp_path / f"cut{suffix}").write_bytes(b"".join(lines[: head + 5]) + lines[head + 5][:7])
    again = cli(*RUN, "--games", "12", "--results", f"cut{suffix}", "--json")
    assert again.exit_code == 0, again.stderr
    assert (tmp_path / f"cut{suffix}").read_bytes() == data
    report = json.loads(again.stdout)
    assert report["resumed"] == 5 and report["summaries"][0]["games"] == 12
    full = json.loads(cli(*RUN, "--games", "12", "--json").stdout)
    assert report["summaries"] == full["summaries"]
    # Run once more: nothing is left to play and nothing changes.
    assert cli(*RUN, "--games", "12", "--results", f"cut{suffix}").exit_code == 0
    assert (tmp_path / f"cut{suffix}").read_bytes() == data


def test_parquet_rerun_continues_a_closed_file(cli, tmp_path):
    pytest.importorskip("pyarrow")
    assert cli(*RUN, "--games", "5", "--results", "part.parquet").exit_code == 0
    assert cli(*RUN, "--games", "9", "--results", "part.parquet").exit_code == 0
    assert cli(*RUN, "--games", "9", "--results", "whole.parquet").exit_code == 0
    part, whole = read(tmp_path / "part.parquet"), read(tmp_path / "whole.parquet")
    assert part[1] == whole[1] and [r["number"] for r in part[1]] == list(range(1, 10))
    (tmp_path / "broken.parquet").write_bytes((tmp_path / "whole.parquet").read_bytes()[:300])
    broken = cli(*RUN, "--games", "9", "--results", "broken.parquet")
    assert broken.exit_code == 2 and "not a complete Parquet file" in broken.stderr


def test_a_file_of_another_run_is_refused_untouched(cli, tmp_path):
    assert cli(*RUN, "--games", "3", "--results", "games.jsonl").exit_code == 0
    before = (tmp_path / "games.jsonl").read_bytes()
    other = cli(*RUN, "--games", "3", "--seed", "other", "--results", "games.jsonl")
    assert other.exit_code == 2 and other.stderr.count("\n") == 1
    assert "games.jsonl: holds another run (seed" in other.stderr
    assert (tmp_path / "games.jsonl").read_bytes() == before
    (tmp_path / "notes.csv").write_text("mine\n")
    mine = cli(*RUN, "--games", "3", "--results", "notes.csv")
    assert mine.exit_code == 2 and "not a tabletop results file" in mine.stderr
    assert (tmp_path / "notes.csv").read_text() == "mine\n"
    wrong = cli(*RUN, "--games", "3", "--results", "games.txt")
    assert wrong.exit_code == 2 and "a results file ends in .csv, .jsonl, .parquet" in wrong.stderr


def test_logs_folder_resumes_too(cli, tmp_path):
    assert cli(*RUN, "--games", "4", "-o", "logs").exit_code == 0
    assert cli(*RUN, "--games", "7", "-o", "logs").exit_code == 0
    names = sorted(p.name for p in (tmp_path / "logs").glob("*.jsonl"))
    assert names == [f"glux-{i:05d}.jsonl" for i in range(1, 8)]
    assert cli(*RUN, "--games", "7", "-o", "fresh").exit_code == 0
    for name in names:
        assert (tmp_path / "logs" / name).read_bytes() == (tmp_path / "fresh" / name).read_bytes()
    assert cli("replay", "logs").exit_code == 0
    other = cli(*RUN, "--games", "7", "--seed", "x", "-o", "logs")
    assert other.exit_code == 2 and "holds the logs of another run" in other.stderr


def test_compare_writes_both_arms_of_each_game(cli, tmp_path):
    args = ("simulate", "glux", "--seats", "2", "--bot", "greedy", "--games", "3", "--workers", "1")
    result = cli(*args, "--compare", "glux-second-place-2p", "--results", "pairs.jsonl", "-o", "logs")
    assert result.exit_code == 0, result.stderr
    rows = rows_of(tmp_path / "pairs.jsonl")
    assert [(r["number"], r["variants"]) for r in rows] == [
        (n, v) for n in (1, 2, 3) for v in ([], ["glux-second-place-2p"])
    ]
    assert read_meta(tmp_path / "pairs.jsonl")["arms"] == [[], ["glux-second-place-2p"]]
    assert all(r["digest"] for r in rows)
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == [
        "1-official",
        "2-glux-second-place-2p",
        "run.json",
    ]


def test_results_rows_round_trip_to_game_rows(cli, tmp_path):
    cli(*RUN, "--games", "2", "--results", "games.jsonl")
    for rec in rows_of(tmp_path / "games.jsonl"):
        assert results.record(results.row_from(rec)) == rec


def test_replayed_log_knows_its_turn_order(registry):
    from tabletop.many.stats import rows_from_logs

    (row,) = rows_from_logs(registry, [REPLAYS / "glux" / "two-players.jsonl"])
    assert row.order == ("ben", "ann") and row.start == "ben"


def test_a_game_reports_its_own_figures_and_turn_order(cli, tmp_path):
    # Pile (the test game) reports how many cards were played; its highest
    # pick starts (ties: the earlier seat), after picks made in any order.
    result = cli(
        "simulate", "pile", "--seats", "3", "--games", "8", "--workers", "1", "--results", "p.jsonl", "-o", "logs"
    )
    assert result.exit_code == 0, result.stderr
    for row in rows_of(tmp_path / "p.jsonl"):
        events = [
            json.loads(line)
            for line in (tmp_path / "logs" / f"pile-{row['number']:05d}.jsonl").read_text().splitlines()[1:]
        ]
        played = sum(e["kind"] == "take" and e["payload"].get("card", False) for e in events)
        assert row["figures"] == {"cards_played": played}
        picks = {e["player"]: e["payload"]["number"] for e in events if e["kind"] == "pick"}
        best = max(picks.values())
        assert row["start"] == next(p for p in row["players"] if picks[p] == best)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_stats_reads_results_files_as_it_reads_the_logs(cli, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    assert cli(*RUN, "--games", "8", "--results", f"games{suffix}", "-o", "logs").exit_code == 0
    from_logs = json.loads(cli("stats", "logs", "--by", "seat,start", "--json").stdout)
    from_file = json.loads(cli("stats", f"games{suffix}", "--by", "seat,start", "--json").stdout)
    assert from_file == from_logs
    (tmp_path / "cut.parquet").write_bytes(b"PAR1 and then nothing")
    bad = cli("stats", "cut.parquet")
    assert bad.exit_code == 2 and "cut.parquet" in bad.stderr


def test_compare_by_turn_order_pairs_the_places_in_turn(cli):
    args = ("simulate", "glux", "--seats", "4", "--bot", "greedy", "--games", "6", "--workers", "1")
    result = cli(*args, "--compare", "glux-second-place-2p", "--by", "turn-order", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    places = data["compare"]["seats"]
    assert [p["turn_order"] for p in places] == [1, 2, 3, 4]
    (group,) = data["summaries"][0]["groups"]
    by_place = {r["turn-order"]: r["win_rate"] for r in group["by"]["rows"]}
    assert [p["without"] for p in places] == [by_place[k] for k in ("1st", "2nd", "3rd", "4th")]
    text = cli(*args, "--compare", "glux-second-place-2p", "--by", "turn-order").stdout
    assert "turn order  without" in text and "\n1st " in text


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_rerun_asking_fewer_games_than_the_file_holds_is_refused(cli, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    assert cli(*RUN, "--games", "6", "--results", f"games{suffix}").exit_code == 0
    before = (tmp_path / f"games{suffix}").read_bytes()
    fewer = cli(*RUN, "--games", "4", "--results", f"games{suffix}")
    assert fewer.exit_code == 2 and "holds more than the 4 games asked for" in fewer.stderr
    assert (tmp_path / f"games{suffix}").read_bytes() == before
    assert not list(tmp_path.glob("*.partial"))


def test_a_results_path_that_is_not_a_file_is_refused(cli, tmp_path):
    (tmp_path / "device.csv").symlink_to("/dev/zero")  # reading it would never end
    result = cli(*RUN, "--games", "3", "--results", "device.csv")
    assert result.exit_code == 2 and result.stderr == "tabletop: device.csv: not a regular file; choose another name\n"


def test_a_full_disk_is_one_line_naming_the_file(cli, tmp_path, monkeypatch):
    import errno

    from tabletop.log import appending

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    assert cli(*RUN, "--games", "2", "--results", "games.csv").exit_code == 0
    # Rows are appended by the worker that played them (here: in this process).
    monkeypatch.setattr(appending, "_append", full)
    result = cli(*RUN, "--games", "4", "--results", "games.csv")
    assert result.exit_code == 2
    # What the file held is said first (the run resumes it), then the one error.
    assert result.stderr == (
        "resuming: 2 of 4 games already in games.csv\ntabletop: games.csv: cannot write: No space left on device\n"
    )
    # The two games written before are still there: a rerun continues from them.
    monkeypatch.undo()
    again = cli(*RUN, "--games", "4", "--results", "games.csv", "--json")
    assert json.loads(again.stdout)["resumed"] == 2
