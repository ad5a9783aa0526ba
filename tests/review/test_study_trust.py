"""Studies say what their games say: a comparison that finds something is
summarised and drawn, a verdict never contradicts its table, a results file
records what made it and is continued only by the same code, a failing run
keeps what it played, workers die with their command, a damaged row is one
line, and a picture that cannot be drawn is refused before any game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tabletop.many.results import read, read_meta

from ..conftest import ROOT, run_tabletop
from ..many.test_interrupt import alive, command, descendants, environment

#: A house rule that decides who wins and nothing else: a tie for the most
#: victory points is a shared victory (no middle-room tiebreak).
SHARED_TIES = """
from tabletop import Variant, hookimpl, rulehook


class SharedTies:
    @rulehook
    def glux_tiebreak(self, tied):
        return tied


@hookimpl
def register_variants():
    return [Variant("glux-shared-ties", "glux", "a tie is a shared victory", SharedTies())]
"""
STUDY = ("simulate", "glux", "--seats", "2", "--bot", "greedy", "--games", "200", "--workers", "1")


@pytest.fixture
def ties(tmp_path: Path) -> Path:
    path = tmp_path / "ties.py"
    path.write_text(SHARED_TIES)
    return path


def test_compare_by_turn_order_that_finds_a_change_is_summarised_and_drawn(cli, tmp_path, ties):
    """Trust finding 10: an interval that excludes 0 under --by turn-order
    gave KeyError 'seat' after every game was played: no summary, no plot."""
    pytest.importorskip("matplotlib")
    args = ("--plugins", ties, *STUDY, "--compare", "glux-shared-ties", "--by", "turn-order")
    result = cli(*args, "--plot", "order.png")
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.output
    assert "The interval excludes 0 (a real change) for 1st, 2nd." in result.stdout
    assert (tmp_path / "order.png").read_bytes()[:4] == b"\x89PNG"
    data = json.loads(cli(*args, "--json").stdout)["compare"]
    for place in data["seats"]:
        assert place["ci95"][0] > 0 and place["changed"]["lost"] == 0


def test_a_change_of_winners_alone_is_never_called_no_change(cli, tmp_path, ties):
    """Trust finding 11: a rule that changes only who wins (a tiebreak) was
    said to have "changed nothing ... does not apply" under its own table of
    +4.5 and +6.0 points: the check looked at events and scores, not winners."""
    args = ("--plugins", ties, *STUDY, "--compare", "glux-shared-ties", "--results", "pairs.jsonl")
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    assert "changed nothing" not in result.stdout and "does not apply" not in result.stdout
    rows = read(tmp_path / "pairs.jsonl")[1]
    pairs = list(zip(rows[::2], rows[1::2]))
    changed = sum(set(a["winners"]) != set(b["winners"]) for a, b in pairs)
    assert changed > 0 and all(a["events"] == b["events"] and a["scores"] == b["scores"] for a, b in pairs)
    assert f"glux-shared-ties changed the winners of {changed} of 200 games" in result.stdout
    assert "with the same play and scores" in result.stdout
    compare = json.loads(cli(*args[:-2], "--json").stdout)["compare"]
    assert compare["changed_games"] == compare["changed_winners"] == changed and compare["changed_play"] == 0
    assert any(seat["difference"] != 0 for seat in compare["seats"])


ROOM_POINTS = (ROOT / "variants" / "house_rules" / "glux_room_points.py").read_text()
RUN = ("simulate", "glux", "--seats", "2", "--bot", "greedy", "--workers", "1", "--batch", "5")


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_a_results_file_is_continued_only_by_the_code_that_made_it(tmp_path, suffix):
    """Trust finding 12: a results file was continued after its house-rule
    file was edited (4 points, then 40), or by another tabletop, without a
    word. It records what made it; a rerun by other code is refused in one
    line naming what changed, unless --continue-anyway. (Each run is a
    process of its own, as a user's are: a process loads a house rule once.)"""
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")

    def tabletop(*args):
        return run_tabletop(*args, cwd=tmp_path)

    rules = tmp_path / "points.py"
    rules.write_text(ROOM_POINTS.replace("first: int = 5", "first: int = 4"))
    name = f"games{suffix}"
    args = ("--plugins", "points.py", *RUN, "--variant", "glux-room-points", "--results", name)
    assert tabletop(*args, "--games", "10").returncode == 0
    meta = read_meta(tmp_path / name)
    assert meta["tabletop"] and meta["rules"] == [["glux-room-points:first=4,second=3"]]
    assert {source for source, _ in meta["code"]} == {"points.py", "tabletop_glux"}
    before = (tmp_path / name).read_bytes()
    rules.write_text(ROOM_POINTS.replace("first: int = 5", "first: int = 40"))
    refused = tabletop(*args, "--games", "20")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert refused.stderr.startswith(f"tabletop: {name}: its games were made by other code: points.py changed (")
    assert "--continue-anyway" in refused.stderr
    assert (tmp_path / name).read_bytes() == before
    assert not list(tmp_path.glob("*.partial"))
    # Asked for explicitly, the file goes on and says which games the new code made.
    again = tabletop(*args, "--games", "20", "--continue-anyway", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["continued_from"] == [11]
    meta = read_meta(tmp_path / name)
    (later,) = meta["continued"]
    assert later["from_game"] == 11 and later["rules"] == [["glux-room-points:first=40,second=3"]]
    assert meta["rules"] == [["glux-room-points:first=4,second=3"]]
    rows = read(tmp_path / name)[1]
    assert [r["number"] for r in rows] == list(range(1, 21))
    assert max(max(r["scores"]) for r in rows[10:]) >= 40 > max(max(r["scores"]) for r in rows[:10])
    # The same code again: no word needed, and the summary says what it counts.
    last = tabletop(*args, "--games", "25")
    assert last.returncode == 0, last.stderr
    assert "Games 11 on were played by other code than those before them" in last.stdout


def test_a_results_file_of_another_tabletop_is_refused(cli, tmp_path):
    """Trust finding 12: the version that made a file is checked too."""
    assert cli(*RUN, "--games", "4", "--results", "games.jsonl").exit_code == 0
    lines = (tmp_path / "games.jsonl").read_text().splitlines(keepends=True)
    head = json.loads(lines[0])
    head["run"]["tabletop"] = "0.0.9"
    (tmp_path / "games.jsonl").write_text(json.dumps(head) + "\n" + "".join(lines[1:]))
    before = (tmp_path / "games.jsonl").read_bytes()
    refused = cli(*RUN, "--games", "8", "--results", "games.jsonl")
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1
    assert "tabletop 0.0.9 made them, this is " in refused.stderr
    assert (tmp_path / "games.jsonl").read_bytes() == before
    # A file of a tabletop that did not record its code is refused too.
    del head["run"]["code"]
    (tmp_path / "games.jsonl").write_text(json.dumps(head) + "\n" + "".join(lines[1:]))
    old = cli(*RUN, "--games", "8", "--results", "games.jsonl")
    assert old.exit_code == 2 and "does not record the code that made its games" in old.stderr


def test_a_tournament_file_is_continued_only_by_the_code_that_made_it(tmp_path):
    """Trust finding 12, for tournaments: their results file records its maker as well."""
    rules = tmp_path / "points.py"
    rules.write_text(ROOM_POINTS)
    args = ("--plugins", "points.py", "tournament", "glux", "--bot", "random", "--bot", "greedy", "--workers", "1")
    args += ("--variant", "glux-room-points", "--results", "cup.jsonl")
    assert run_tabletop(*args, "--games", "2", cwd=tmp_path).returncode == 0
    before = (tmp_path / "cup.jsonl").read_bytes()
    rules.write_text(ROOM_POINTS.replace("first: int = 5", "first: int = 40"))
    refused = run_tabletop(*args, "--games", "4", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "its games were made by other code: points.py changed (" in refused.stderr
    assert (tmp_path / "cup.jsonl").read_bytes() == before
    again = run_tabletop(*args, "--games", "4", "--continue-anyway", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Games 3 on were played by other code than those before them" in again.stdout
    head = json.loads((tmp_path / "cup.jsonl").read_text().splitlines()[0])
    assert head["continued"][0]["from_game"] == 3


def _parquet_rows(path: Path) -> int:
    """Games a run of this file holds, whether closed or still being played."""
    journal = path.with_name(path.name + ".partial")
    count = 0
    if journal.exists():
        count = max(0, journal.read_bytes().count(b"\n") - 1)
    return count


def test_a_killed_parquet_run_keeps_every_game_it_played(cli, tmp_path):
    """Trust finding 13: a resumed Parquet run that failed (here: kill -9)
    lost every game it played (its .partial was unreadable), and resuming
    said nothing of what was done. Now what was played stays readable, the
    rerun says how many games it holds, and the file it finishes is the one
    a run never stopped writes."""
    pytest.importorskip("pyarrow")
    args = ["simulate", "glux", "--seats", "2", "--bot", "random", "--workers", "1", "--batch", "10"]
    args += ["--seed", "kill", "--results", "games.parquet"]
    assert cli(*args, "--games", "40").exit_code == 0
    proc = subprocess.Popen(
        command(*args, "--games", "100000"), cwd=tmp_path, env=environment(), stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while _parquet_rows(tmp_path / "games.parquet") < 200 and time.monotonic() < deadline:
            assert proc.poll() is None
            time.sleep(0.05)
        if time.monotonic() >= deadline:
            time.sleep(5)  # whatever it keeps, it has played hundreds of games by now
        proc.kill()
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:  # pragma: no cover - only when the test fails
            proc.kill()
            proc.wait()
    assert "resuming: 40 of 100,000 games already in games.parquet" in err
    # The rerun stops at once (every interval is narrow enough) and closes the file.
    again = cli(*args, "--games", "100000", "--until-interval", "0.9", "--json")
    assert again.exit_code == 0, again.stderr
    kept = json.loads(again.stdout)["resumed"]
    assert kept >= 200
    assert f"resuming: {kept:,} of 100,000 games already in games.parquet" in again.stderr
    assert not (tmp_path / "games.parquet.partial").exists()
    assert cli(*args, "--games", str(kept), "--results", "whole.parquet").exit_code == 0
    assert read(tmp_path / "games.parquet")[1] == read(tmp_path / "whole.parquet")[1]


def test_a_parquet_run_that_fails_keeps_what_it_played(cli, tmp_path, monkeypatch):
    """Trust finding 13: a Parquet run whose disk fills keeps its games, and the rerun continues them."""
    pytest.importorskip("pyarrow")
    import errno

    from tabletop.many import results

    args = ["simulate", "glux", "--seats", "2", "--bot", "random", "--workers", "1", "--batch", "10"]
    args += ["--results", "games.parquet"]
    assert cli(*args, "--games", "20").exit_code == 0

    def full(*_: object, **__: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results, "_write_group", full)
    failed = cli(*args, "--games", "50")
    said = failed.stderr.splitlines()
    assert failed.exit_code == 2 and said[0] == "resuming: 20 of 50 games already in games.parquet", said
    assert len(said) == 2 and said[1].startswith("tabletop: games.parquet: cannot write: No space left on device; ")
    assert "its games are kept in games.parquet.partial" in said[1]
    monkeypatch.undo()
    again = cli(*args, "--games", "50", "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["resumed"] == 50
    assert "resuming: 50 of 50 games already in games.parquet" in again.stderr
    assert [r["number"] for r in read(tmp_path / "games.parquet")[1]] == list(range(1, 51))


def test_progress_starts_at_the_games_kept_with_an_honest_eta():
    """Trust finding 13: a resumed run's progress started at 0% with an ETA
    counting the games kept as if played in no time."""
    import io

    from tabletop.base.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    now = [100.0]
    out = Terminal()
    bar = Progress(10_000, "glux", out, clock=lambda: now[0])
    bar.start(4_000)
    assert "4,000/10,000" in out.getvalue() and "40%" in out.getvalue() and "eta" not in out.getvalue()
    now[0] += 10
    bar.update(1_000)  # 1,000 games in 10 s: 5,000 left take 50 s
    line = out.getvalue().rsplit("\r", 1)[-1]
    assert "5,000/10,000" in line and "50%" in line and "eta 0:00:50" in line


def _workers_die_with(args: list[str], cwd: Path, results: Path) -> None:
    proc = subprocess.Popen(command(*args), cwd=cwd, env=environment(), stderr=subprocess.DEVNULL)
    family: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while not results.exists() or results.read_bytes().count(b"\n") < 4:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        family = descendants(proc.pid)
        assert family, "the pool had no worker processes"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in family) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [pid for pid in family if alive(pid)]
    finally:
        for pid in family:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:  # pragma: no cover - only when the test fails
            proc.kill()
            proc.wait()
    assert not left, f"workers outlived their command: {left}"


def test_pool_workers_exit_when_simulate_is_killed(tmp_path):
    """Trust finding 14: after kill -9 of simulate, its workers lived on forever
    (each held its own pipe's parent end), holding the results file."""
    args = ["simulate", "glux", "--seats", "2", "--bot", "random", "--games", "1000000", "--workers", "2"]
    _workers_die_with([*args, "--batch", "20", "--results", "games.csv"], tmp_path, tmp_path / "games.csv")


def test_pool_workers_exit_when_a_tournament_is_killed(tmp_path):
    """Trust finding 14, for tournaments (the same pool)."""
    args = ["tournament", "glux", "--bot", "random", "--bot", "greedy", "--games", "100000", "--workers", "2"]
    _workers_die_with([*args, "--results", "cup.jsonl"], tmp_path, tmp_path / "cup.jsonl")


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_row_that_is_not_utf8_is_one_line_and_the_file_stays(cli, tmp_path, suffix):
    """Trust finding 17: a non-UTF-8 byte in a results row was a traceback on resume."""
    name = f"games{suffix}"
    assert cli(*RUN, "--games", "6", "--results", name).exit_code == 0
    lines = (tmp_path / name).read_bytes().splitlines(keepends=True)
    row = 2 + (suffix == ".csv")  # the second game's row
    lines[row] = lines[row].replace(b"p1-greedy", b"p1-gr\xffeedy", 1)
    (tmp_path / name).write_bytes(b"".join(lines))
    before = (tmp_path / name).read_bytes()
    result = cli(*RUN, "--games", "9", "--results", name)
    assert result.exit_code == 2 and "Traceback" not in result.output
    byte = lines[row].index(b"\xff") + 1
    assert result.stderr == f"tabletop: {name}: line {row + 1}: not UTF-8 text (byte {byte})\n"
    assert (tmp_path / name).read_bytes() == before
    stats = cli("stats", name)
    assert stats.exit_code == 2 and f"{name}: line {row + 1}: not UTF-8 text" in stats.stderr


def test_a_damaged_row_in_the_middle_is_refused_not_cut_away(cli, tmp_path):
    """Trust finding 17: a whole row that cannot be read is not a crash's
    cut: the file is refused as it is, never truncated there."""
    assert cli(*RUN, "--games", "6", "--results", "games.jsonl").exit_code == 0
    lines = (tmp_path / "games.jsonl").read_text().splitlines(keepends=True)
    lines[3] = lines[3].replace('"number":3', '"number":"three"')
    (tmp_path / "games.jsonl").write_text("".join(lines))
    before = (tmp_path / "games.jsonl").read_bytes()
    result = cli(*RUN, "--games", "9", "--results", "games.jsonl")
    assert result.exit_code == 2 and result.stderr.startswith("tabletop: games.jsonl: line 4: ")
    assert (tmp_path / "games.jsonl").read_bytes() == before


def test_a_tournament_row_that_is_not_utf8_is_one_line(cli, tmp_path):
    """Trust finding 17, for a tournament's results file."""
    args = ("tournament", "glux", "--bot", "random", "--bot", "greedy", "--workers", "1", "--results", "cup.jsonl")
    assert cli(*args, "--games", "3").exit_code == 0
    lines = (tmp_path / "cup.jsonl").read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"number"', b'"numb\xe9r"')
    (tmp_path / "cup.jsonl").write_bytes(b"".join(lines))
    before = (tmp_path / "cup.jsonl").read_bytes()
    result = cli(*args, "--games", "5")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("tabletop: cup.jsonl: line 3: not UTF-8 text")
    assert (tmp_path / "cup.jsonl").read_bytes() == before


@pytest.mark.parametrize("command_", ["simulate", "tournament"])
@pytest.mark.parametrize(("plot", "message"), [("p.bmp", "'.bmp'"), ("missing/p.png", "no such folder")])
def test_a_plot_that_cannot_be_drawn_is_refused_before_any_game(cli, tmp_path, command_, plot, message):
    """Trust finding 19: --plot p.bmp was refused only after every game was played."""
    pytest.importorskip("matplotlib")
    if command_ == "simulate":
        args = ["simulate", "glux", "--seats", "2", "--bot", "greedy", "--games", "100000"]
    else:
        args = ["tournament", "glux", "--bot", "random", "--bot", "greedy", "--games", "100000"]
    result = cli(*args, "--workers", "1", "--results", "games.jsonl", "--plot", plot)
    assert not (tmp_path / "games.jsonl").exists()  # refused before the first game, not after 100,000
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert f"tabletop: {plot}: " in result.stderr and message in result.stderr
    assert not (tmp_path / "games.jsonl").exists()


def test_stats_refuses_a_plot_format_at_once(cli, tmp_path):
    """Trust finding 19, for stats: the same check before any log is read."""
    pytest.importorskip("matplotlib")
    assert cli(*RUN, "--games", "2", "-o", "logs").exit_code == 0
    result = cli("stats", "logs", "--plot", "wins.bmp")
    assert result.exit_code == 2 and "wins.bmp: " in result.stderr and "'.bmp'" in result.stderr


def test_until_interval_never_stops_on_no_change_seen_yet(cli):
    """A paired interval is exactly 0 while no outcome has changed: after one
    batch of 20 games that is no evidence of no change, yet --until-interval
    stopped there. Until an outcome changes, a seat counts as wide as the
    Wilson bound on how often outcomes could change unseen (2 x 3.84 / (n + 3.84))."""
    args = ("simulate", "glux", "--seats", "4", "--bot", "greedy", "--workers", "1", "--batch", "20")
    result = cli(*args, "--games", "2000", "--compare", "glux-second-place-2p", "--until-interval", "0.05", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["compare"]["changed_games"] == 0 and data["stopped_early"] is True
    assert data["run"]["played"] == 160  # the first multiple of 20 where 2 x 3.84 / (n + 3.84) <= 0.05


def test_the_fair_share_drawn_counts_shared_victories():
    """A shared victory counts for each winner, so when one game in four is
    shared by two seats the seats' win rates add up to 125%, and a seat that
    is not favoured wins 62.5%, not 50%: the dotted "fair share" line drew
    1/players, making every seat of such a game look favoured."""
    from tabletop.many.plotting import fair_share
    from tabletop.many.stats import GameRow, Summary

    def game(*winners: str) -> GameRow:
        return GameRow("glux", (), ("a", "b"), ("-", "-"), (5, 5), winners, 90, True, order=("a", "b"), turns=40)

    (group,) = Summary("seat").extend([game("a", "b"), game("a"), game("b"), game("a")]).sorted_groups()
    assert [t.wins for t in group.seats] == [3, 2]
    assert fair_share(group) == pytest.approx(5 / 8)
    (plain,) = Summary("seat").extend([game("a"), game("b")]).sorted_groups()
    assert fair_share(plain) == 0.5
