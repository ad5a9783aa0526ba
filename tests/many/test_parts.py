"""Workers write the rows of the games they play: appended in game order to
a results file under a lock, or a Parquet part per batch in a results
folder (``--results DIR/``), and send back only their totals, which the
command merges. The same seeds give the same rows, byte for byte, however
the games are split and whoever writes them; a folder resumes, stops and
is read by ``stats`` as a file is."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import orjson
import pytest

from tabletop.many import parts, results
from tabletop.many.runs import Run, play
from tabletop.many.simulation import Plan
from tabletop.many.stats import Summary
from tabletop.many.totals import Totals

from .test_interrupt import alive, assert_no_orphans, command, descendants, environment, finish

pytest.importorskip("pyarrow")

RUN = ("simulate", "glux", "--seats", "2", "--bot", "random", "--seed", "parts")


def rows(path: Path) -> list[bytes]:
    """Each row of a results file or folder as the bytes of its JSON."""
    found = parts.records(path) if path.is_dir() else results.records(path)
    return [orjson.dumps(rec) for rec in found]


def test_the_same_seeds_give_the_same_rows_however_split_and_whoever_writes_them(cli, tmp_path):
    """Rows are byte-identical whether one process writes them, or pool workers
    append them in the order they finish, or write a part per batch."""
    for name in ("one.csv", "one.jsonl"):
        assert cli(*RUN, "--games", "90", "--workers", "1", "--results", name).exit_code == 0
    one = rows(tmp_path / "one.jsonl")
    assert [orjson.loads(r)["number"] for r in one] == list(range(1, 91))
    for args, name in [
        (("--workers", "2", "--batch", "7"), "pool.jsonl"),
        (("--workers", "3"), "pool.csv"),
        (("--workers", "2", "--batch", "11"), "split/"),
        (("--workers", "1", "--batch", "30"), "whole/"),
        (("--workers", "2", "--batch", "13"), "games.parquet"),
        (("--workers", "2", "--batch", "9"), "named.parquet/"),
    ]:
        done = cli(*RUN, "--games", "90", *args, "--results", name)
        assert done.exit_code == 0, done.stderr
        path = tmp_path / name
        assert rows(path) == one, name
        if name.endswith((".csv", ".jsonl")):
            # The file itself, not only its rows: the same bytes in the same order.
            assert path.read_bytes() == (tmp_path / f"one{path.suffix}").read_bytes(), name
    assert (tmp_path / "named.parquet").is_dir() and not list(tmp_path.glob(".*.waiting"))
    # A part holds the same bytes whoever wrote it.
    assert cli(*RUN, "--games", "90", "--workers", "2", "--batch", "30", "--results", "again/").exit_code == 0
    for part in sorted((tmp_path / "whole").glob("part-*.parquet")):
        assert part.read_bytes() == (tmp_path / "again" / part.name).read_bytes()


def _totals_of(path: Path, arms: int, by: tuple[str, ...], players: int) -> Totals:
    totals = Totals(arms, by, players)
    recs = [results.row_from(rec) for rec in parts.records(path)]
    for k in range(0, len(recs), arms):
        totals.add(recs[k : k + arms])
    return totals


@pytest.mark.parametrize("by", [("seat",), ("turn-order",), ("seat", "start")])
def test_workers_send_back_only_totals_that_merge_to_the_rows(tmp_path, by):
    """The command receives no row from a worker that wrote its own: only
    totals, whose merge is exactly what adding every row in order counts
    (win tallies, score histograms, the paired comparison's sums)."""
    plan = Plan(game="glux", players=2, bots=("greedy", "random"), seed="totals")
    other = plan.with_variants(["glux-second-place-2p"])
    run = Run(arms=(plan, other), games=60, results=tmp_path / "pairs", workers=2, per_batch=8, by=by)
    done = play(run)
    assert done.written_by_workers == 8 and done.written_here == 0
    counted = _totals_of(tmp_path / "pairs", 2, by, 2)
    assert [s.as_json() for s in done.summaries] == [s.as_json() for s in counted.summaries]
    assert done.paired is not None and counted.paired is not None
    assert done.paired.as_json("x") == counted.paired.as_json("x")
    # The manifest keeps them as JSON, exactly.
    manifest = parts.read_manifest(tmp_path / "pairs")
    assert manifest["games"] == 60 and manifest["segments"] == [[1, 60, 8]]
    again = Totals.from_state(manifest["totals"], 2)
    assert again.state() == counted.state()


def test_summaries_merge_to_the_summary_of_every_row():
    """Merging summaries of any split of the rows gives the summary of them all."""
    from tabletop.many.simulation import run as simulate

    played = simulate(Plan(game="glux", players=3, bots=("greedy", "random", "random"), seed="m"), 24, workers=1)
    every = [p.row for p in played]
    for by in (("seat",), ("bot",), ("turn-order", "start")):
        whole = Summary(by).extend(every)
        for cut in (1, 5, 11):
            merged = Summary(by)
            for k in range(0, len(every), cut):
                merged.merge(Summary(by).extend(every[k : k + cut]))
            assert merged.as_json() == whole.as_json() and merged.table() == whole.table()
    with pytest.raises(ValueError):
        Summary("seat").merge(Summary("bot"))


def test_stats_reads_a_folder_as_it_reads_the_file(cli, tmp_path):
    assert cli(*RUN, "--games", "40", "--workers", "2", "--batch", "6", "--results", "study/").exit_code == 0
    assert cli(*RUN, "--games", "40", "--workers", "1", "--results", "study.jsonl").exit_code == 0
    from_folder = cli("stats", "study", "--by", "seat,start", "--json")
    assert from_folder.exit_code == 0, from_folder.stderr
    assert json.loads(from_folder.stdout) == json.loads(
        cli("stats", "study.jsonl", "--by", "seat,start", "--json").stdout
    )
    # A part the manifest does not count (written after it was last saved) is left out.
    extra = tmp_path / "study" / parts.part_name(41, 46)
    extra.write_bytes((tmp_path / "study" / parts.part_name(1, 6)).read_bytes())
    assert json.loads(cli("stats", "study", "--json").stdout)["games"] == 40


def test_a_folder_is_refused_in_one_line_when_it_is_not_this_run(cli, tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    refused = cli(*RUN, "--games", "6", "--workers", "1", "--results", "mine/")
    assert refused.exit_code == 2 and "the folder is not empty and holds no results" in refused.stderr
    assert sorted(os.listdir(tmp_path / "mine")) == ["notes.txt"]
    assert cli(*RUN, "--games", "12", "--workers", "1", "--batch", "4", "--results", "study/").exit_code == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "study").iterdir()}
    other = cli(*RUN[:-1], "other", "--games", "12", "--workers", "1", "--results", "study/")
    assert other.exit_code == 2 and other.stderr.count("\n") == 1 and "holds another run (seed" in other.stderr
    fewer = cli(*RUN, "--games", "8", "--workers", "1", "--results", "study/")
    assert fewer.exit_code == 2 and "holds more than the 8 games asked for" in fewer.stderr
    assert {p.name: p.read_bytes() for p in (tmp_path / "study").iterdir()} == before
    (tmp_path / "study" / parts.part_name(5, 8)).unlink()
    missing = cli(*RUN, "--games", "12", "--workers", "1", "--results", "study/")
    assert missing.exit_code == 2 and missing.stderr.count("\n") == 1
    assert "part-000000000005-000000000008.parquet is listed in _manifest.json but missing" in missing.stderr
    stats = cli("stats", "study")
    assert stats.exit_code == 2 and "part-000000000005-000000000008.parquet" in stats.stderr


@pytest.mark.parametrize("name", ["games.csv", "study/"])
def test_until_interval_keeps_only_the_games_it_counted(cli, tmp_path, name):
    """Workers may finish batches past the one where the intervals became
    narrow enough: the file or folder keeps exactly the games counted."""
    args = (*RUN, "--games", "3000", "--workers", "2", "--batch", "10", "--until-interval", "0.3")
    done = cli(*args, "--results", name, "--json")
    assert done.exit_code == 0, done.stderr
    played = json.loads(done.stdout)["run"]["played"]
    assert 10 <= played < 3000
    assert cli(*RUN, "--games", str(played), "--workers", "1", "--results", "whole.jsonl").exit_code == 0
    assert rows(tmp_path / name) == rows(tmp_path / "whole.jsonl")
    if name.endswith("/"):
        assert not parts.unlisted(tmp_path / "study")
        assert not list((tmp_path / "study").glob(".run-*"))


def _parts_there(folder: Path) -> int:
    try:
        return sum(1 for name in os.listdir(folder) if parts.parsed(name))
    except OSError:
        return 0


def _stop(args: list[str], cwd: Path, folder: Path, signum: int) -> tuple[int, str, set[int]]:
    proc = subprocess.Popen(command(*args), cwd=cwd, env=environment(), stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while _parts_there(folder) < 4:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no parts written"
            time.sleep(0.05)
        family = descendants(proc.pid)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:  # pragma: no cover - only when the test fails
            proc.kill()
            proc.wait()
    return proc.returncode, err, family


def test_a_folder_stopped_by_ctrl_c_or_killed_resumes_to_the_same_rows(tmp_path):
    """Ctrl-C: the folder keeps the games counted, says so, and the rerun
    finishes it. kill -9: parts written after the manifest was last saved
    are deleted by the rerun and played again. Either way the finished
    folder holds the rows of a run never stopped."""
    args = [*RUN, "--games", "1500", "--workers", "2", "--batch", "10", "--results", "study/"]
    status, err, family = _stop(args, tmp_path, tmp_path / "study", signal.SIGINT)
    assert status == 130 and err.count("\n") == 1 and "Traceback" not in err, err
    kept = parts.read_manifest(tmp_path / "study")["games"]
    assert f"interrupted by SIGINT: {kept} of 1500 games are in study; run the same command again" in err
    # The workers write their parts before the run counts them, and how many
    # it has counted when the signal comes depends on the machine: none, at
    # worst. The folder holds exactly those counted.
    assert kept % 10 == 0 and _parts_there(tmp_path / "study") == kept // 10
    assert not parts.unlisted(tmp_path / "study") and not list((tmp_path / "study").glob(".run-*"))
    assert_no_orphans(family)
    status, err, family = _stop(args, tmp_path, tmp_path / "study", signal.SIGKILL)
    assert status == -signal.SIGKILL
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in family) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in family if alive(pid)]
    saved = parts.read_manifest(tmp_path / "study")["games"]
    again = finish(args, tmp_path)
    assert (f"resuming: {saved:,} of 1,500 games already in study" in again.stderr) == (saved > 0)
    assert not parts.unlisted(tmp_path / "study")
    finish([*RUN, "--games", "1500", "--workers", "1", "--batch", "50", "--results", "whole.jsonl"], tmp_path)
    assert rows(tmp_path / "study") == rows(tmp_path / "whole.jsonl")
    # Run once more: nothing is left to play, and the summary is the manifest's.
    last = finish([*args, "--json"], tmp_path)
    assert json.loads(last.stdout)["resumed"] == 1500


def test_a_worker_with_other_code_refuses_to_play():
    """A Dask worker whose tabletop or plugins differ from the command's would
    add games that the results credit to the command's code: it refuses, in
    one line naming what differs, before playing a game."""
    from tabletop.base.errors import TabletopError
    from tabletop.many.simulation import Out, maker_of, play_written, shipped

    plan = Plan(game="glux", players=2, bots=("random", "random"), seed="code")
    version, code = maker_of((plan,))
    assert maker_of((shipped(plan),)) == (version, code)
    done = play_written((plan,), range(1, 3), Out(keep=False, maker=(version, code)))
    assert done.totals.games == 2
    other = tuple((name, "0" * 16) if name == "tabletop_glux" else (name, d) for name, d in code)
    for maker, said in [
        ((version, other), "tabletop_glux "),
        (("0.0.9", code), f"tabletop {version}, the command's 0.0.9"),
    ]:
        with pytest.raises(TabletopError, match="has other code than the command") as caught:
            play_written((plan,), range(1, 3), Out(keep=False, maker=maker))
        assert said in str(caught.value) and "\n" not in str(caught.value)
