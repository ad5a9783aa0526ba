"""Ctrl-C and SIGTERM during a run, for real: the command started as its own
process, the signal sent once rows are being written, on a process pool and
on a Dask LocalCluster. It stops within 5 s with one line and 130 (143),
leaves no process behind, and the same command run again finishes the file
with the rows of a run never stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

RUN = ["simulate", "glux", "--seats", "2", "--bot", "random", "--games", "3000", "--batch", "10", "--seed", "stop"]


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "tabletop", *args]


def environment() -> dict[str, str]:
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    env.pop("TABLETOP_PLUGINS", None)
    return env


def finish(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the command to its end."""
    done = subprocess.run(command(*args), cwd=cwd, env=environment(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, their children...)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
            todo += kids - found
            found |= kids
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def rows_written(path: Path) -> int:
    # Whole lines after the run's line (and, in CSV, the column names).
    heading = 2 if path.suffix == ".csv" else 1
    try:
        return max(0, path.read_bytes().count(b"\n") - heading)
    except OSError:
        return 0


def interrupt(args: list[str], cwd: Path, results: Path, signum: int, rows: int) -> tuple[int, str, set[int]]:
    """Start the command, wait until ``results`` holds ``rows`` rows, send
    ``signum``; its exit code, stderr and its processes. (Whether it stopped
    at once is told by what it kept, never by a time a loaded machine sets.)"""
    proc = subprocess.Popen(
        command(*args), cwd=cwd, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 300  # only so that a run that hangs fails
        while rows_written(results) < rows:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no rows written"
            time.sleep(0.05)
        family = descendants(proc.pid)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=300)  # only so that a run that hangs fails
    finally:
        if proc.poll() is None:  # pragma: no cover - only when the test fails
            proc.send_signal(signal.SIGABRT)
            print(proc.communicate(timeout=10)[1])
            proc.kill()
            proc.wait()
    return proc.returncode, err, family


def assert_no_orphans(family: set[int]) -> None:
    # As long as a loaded machine takes to reap them; gone at once, mostly.
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in family) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in family if alive(pid)]


@pytest.mark.parametrize(("signum", "code", "name"), [(signal.SIGINT, 130, "SIGINT"), (signal.SIGTERM, 143, "SIGTERM")])
def test_signal_stops_a_pool_run_and_the_rerun_finishes_it(tmp_path, signum, code, name):
    args = [*RUN, "--workers", "2", "--games", "400", "--results", "games.csv", "-o", "logs"]
    # The workers write the rows; a game counts once its batch is back in the
    # command, and the rows past the games counted are dropped when it stops.
    # However far behind a loaded machine leaves the command, the signal comes
    # while rows are written, so it may keep any number of games, none included.
    # Stopped while the run was under way (fewer than its games kept, below), not after a time.
    status, err, family = interrupt(args, tmp_path, tmp_path / "games.csv", signum, rows=1)
    assert family, "the pool had no worker processes"
    assert status == code, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"tabletop: interrupted by {name}: ") and "run the same command again to continue" in err
    kept = rows_written(tmp_path / "games.csv")
    assert kept < 400 and f": {kept} of 400 games are in games.csv and logs" in err
    assert_no_orphans(family)
    # The rerun plays the rest; the file is the one a run never stopped writes.
    again = finish(args, tmp_path)
    assert (f"Resumed: games 1 to {kept} were played before." in again.stdout) == (kept > 0)
    finish([*RUN, "--workers", "1", "--games", "400", "--results", "whole.csv"], tmp_path)
    assert (tmp_path / "games.csv").read_bytes() == (tmp_path / "whole.csv").read_bytes()
    assert len(list((tmp_path / "logs").glob("*.jsonl"))) == 400
    assert not list((tmp_path / "logs").glob(".*partial"))


def test_signal_stops_a_dask_run_and_the_rerun_finishes_it(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, protocol="tcp"
    ) as cluster:
        args = [*RUN, "--games", "600", "--scheduler", cluster.scheduler_address, "--results", "games.jsonl"]
        # Here the command writes the rows as their batches come back: those seen are kept.
        status, err, family = interrupt(args, tmp_path, tmp_path / "games.jsonl", signal.SIGINT, rows=30)
        assert status == 130, err
        assert err.count("\n") == 1 and err.startswith("tabletop: interrupted by SIGINT: ")
        kept = rows_written(tmp_path / "games.jsonl")
        assert 30 <= kept < 600
        assert_no_orphans(family)
        # The cluster is free again: its tasks were cancelled.
        with distributed.Client(cluster.scheduler_address) as client:
            deadline = time.monotonic() + 30
            while client.processing() and any(client.processing().values()) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not any(client.processing().values())
        finish(args, tmp_path)
    finish([*RUN, "--games", "600", "--workers", "2", "--results", "whole.jsonl"], tmp_path)
    assert (tmp_path / "games.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()


def test_signal_stops_a_tournament_on_the_pool_and_the_rerun_finishes_it(tmp_path):
    args = ["tournament", "glux", "--bot", "random", "--bot", "greedy", "--seats", "2", "--games", "600"]
    args += ["--workers", "2", "--seed", "stop", "--results", "t.jsonl"]
    status, err, family = interrupt(args, tmp_path, tmp_path / "t.jsonl", signal.SIGINT, rows=20)
    assert family, "the pool had no worker processes"
    assert status == 130, err
    assert err.count("\n") == 1 and "Traceback" not in err
    kept = rows_written(tmp_path / "t.jsonl")
    assert f"interrupted by SIGINT: {kept} of 600 games kept in t.jsonl; run the same command again" in err
    assert_no_orphans(family)
    finish(args, tmp_path)
    (tmp_path / "whole").mkdir()
    finish(args, tmp_path / "whole")

    def games(path: Path) -> list[dict]:
        # Every game but the CPU time its bots took, which no two runs share.
        rows = [json.loads(line) for line in path.read_text().splitlines()[1:]]
        return sorted(({k: v for k, v in row.items() if k != "cpu"} for row in rows), key=lambda r: r["number"])

    assert games(tmp_path / "t.jsonl") == games(tmp_path / "whole" / "t.jsonl")
    assert [g["number"] for g in games(tmp_path / "t.jsonl")] == list(range(1, 601))
