"""A million four-player Glüx games in one command, streamed to a results file.

    .venv/bin/python bench/million.py                         # 1,000,000 games, process pool
    .venv/bin/python bench/million.py --games 100000          # a shorter run
    .venv/bin/python bench/million.py --games 100000 --dask   # the same on a Dask LocalCluster
    .venv/bin/python bench/million.py --games 20000 --memory-only
    .venv/bin/python bench/million.py --efficiency 5 --single 10000

It runs ``tabletop simulate glux --seats 4 --games N --results FILE`` as a
user would (its own process) and reports:

- the wall time and the rate, and the steady rate (rows written per second
  once the first batch is in, from the results file as it grows);
- the peak memory: the largest sum of the resident sizes (RSS) of every
  process of the run (the command and its workers; with --dask, the cluster
  too), sampled every 0.2 s;
- the per-core efficiency: the steady rate over (workers x one process's
  steady rate), one process measured in the same run, before and after the
  big one (their mean);
- with ``--efficiency ROUNDS`` instead: the per-core efficiency alone,
  measured as a ratio round by round (one process plays ``--single`` games,
  then the pool plays as many per worker; the ratio of the pool's steady
  rate to workers x the one process's, in the same round), printed as
  min/median/max: a baseline taken once drifts on a shared machine;
- the command's own CPU time per game (the part that does not spread over
  workers: rows written, counters kept), and a projection for a bigger
  machine and a cluster from those figures.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")


def family(pid: int) -> set[int]:
    found = {pid}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                kids = {int(k) for k in (task / "children").read_text().split()} - found
                found |= kids
                todo += kids
    return found


def rss(pids: set[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    return total


def cpu_seconds(pid: int) -> float:
    """User and system CPU of ``pid`` itself (not its children)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    return 0.0


class Rows:
    """Counts the rows of a growing results file (CSV: two heading lines)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.lines = 0

    def count(self) -> int:
        with contextlib.suppress(OSError):
            with open(self.path, "rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
                self.offset += len(data)
                self.lines += data.count(b"\n")
        return max(0, self.lines - 2)


def simulate(args: list[str], results: Path, watch: int | None = None) -> dict:
    """Run the command; its time, peak RSS of its processes, steady rate, own CPU per game."""
    cmd = [sys.executable, "-m", "tabletop", "simulate", *args, "--results", str(results)]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    rows = Rows(results)
    peak = own = 0
    samples: list[tuple[float, int]] = []
    own_cpu = 0.0
    while proc.poll() is None:
        mine = family(proc.pid)
        pids = mine | (family(watch) if watch else set())
        peak = max(peak, rss(pids))
        own = max(own, rss(mine))
        own_cpu = max(own_cpu, cpu_seconds(proc.pid))
        samples.append((time.perf_counter(), rows.count()))
        time.sleep(0.2)
    wall = time.perf_counter() - started
    err = proc.stderr.read() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"simulate failed ({proc.returncode}): {err.strip()}")
    games = rows.count()
    moving = [(t, n) for t, n in samples if n > 0]
    steady = (moving[-1][1] - moving[0][1]) / (moving[-1][0] - moving[0][0]) if len(moving) > 2 else games / wall
    return {
        "games": games,
        "wall": wall,
        "peak": peak,
        "own": own,
        "steady": steady,
        "cpu_per_game": own_cpu / max(1, games),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--bot", default="random")
    parser.add_argument(
        "--single", type=int, default=0, help="games of the one-process runs (default: games/50, 2,000 at least)"
    )
    parser.add_argument("--dask", action="store_true", help="run on a Dask LocalCluster of --workers processes")
    parser.add_argument(
        "--efficiency", type=int, default=0, metavar="ROUNDS", help="measure only the per-core efficiency, in rounds"
    )
    parser.add_argument("--memory-only", action="store_true", help="the big run alone: time and peak memory")
    parser.add_argument("--keep", type=Path, help="a folder for the results files (default: a temporary one)")
    parser.add_argument("--cores", type=int, default=64, help="cores of the machine to project for")
    parser.add_argument("--machines", type=int, default=10, help="machines of the cluster to project for")
    args = parser.parse_args()
    common = ["glux", "--seats", "4", "--bot", args.bot, "--seed", "million"]
    single = args.single or max(2000, args.games // 50)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="million-"))
    folder.mkdir(parents=True, exist_ok=True)
    told = f"{single:,} games alone, then {single * args.workers:,}" if args.efficiency else f"{args.games:,}"
    print(f"{told} four-player Glüx games, bots {args.bot}; {args.workers} workers; {os.cpu_count()} cores here")

    def one(tag: str) -> dict:
        path = folder / f"one-{tag}.csv"
        path.unlink(missing_ok=True)
        return simulate([*common, "--games", str(single), "--workers", "1"], path)

    if args.efficiency:
        efficiency_rounds(args, common, single, folder)
        return
    before = None if args.memory_only else one("before")
    big = folder / "games.csv"
    big.unlink(missing_ok=True)
    if args.dask:
        with local_cluster(args.workers) as cluster:
            run = simulate(
                [*common, "--games", str(args.games), "--scheduler", cluster.scheduler_address], big, os.getpid()
            )
        where = f"Dask LocalCluster, {args.workers} workers"
    else:
        run = simulate([*common, "--games", str(args.games), "--workers", str(args.workers)], big)
        where = f"process pool, {args.workers} workers"
    after = None if args.memory_only else one("after")

    print(
        f"{where}: {run['games']:,} games in {run['wall']:.1f} s ({run['games'] / run['wall']:,.0f} games/s; steady {run['steady']:,.0f} games/s)"
    )
    print(f"  peak memory (RSS, every process of the run): {run['peak'] / 2**20:,.0f} MB")
    if args.dask:
        print(f"  of which the command (without the cluster): {run['own'] / 2**20:,.0f} MB")
    print(f"  the command's own CPU: {run['cpu_per_game'] * 1e6:.0f} µs per game")
    print(f"  results file: {big.stat().st_size / 2**20:,.0f} MB ({big})")
    if before is None or after is None:
        return
    rate1 = (before["steady"] + after["steady"]) / 2
    print(
        f"one process: {before['steady']:,.0f} and {after['steady']:,.0f} games/s (before, after; {single:,} games each)"
    )
    efficiency = run["steady"] / (args.workers * rate1)
    print(f"per-core efficiency: {efficiency:.0%} of one process's rate")
    # Projection: every core at one process's rate times the efficiency seen
    # here, unless the command itself (rows, counters) cannot keep up.
    limit = 1 / run["cpu_per_game"] if run["cpu_per_game"] else float("inf")
    for label, cores in (
        (f"{args.cores}-core machine", args.cores),
        (f"{args.machines} x {args.cores} cores", args.machines * args.cores),
    ):
        rate = min(cores * rate1 * efficiency, limit)
        bound = " (bound by the command's own CPU)" if rate == limit else ""
        print(f"projection, {label}: {rate:,.0f} games/s; a million games in {1e6 / rate / 60:.1f} min{bound}")


def local_cluster(workers: int):  # distributed is imported only when asked for
    """A Dask LocalCluster of ``workers`` one-thread processes on loopback."""
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )


def efficiency_rounds(args: argparse.Namespace, common: list[str], single: int, folder: Path) -> None:
    """The pool's (or the Dask cluster's) steady rate over workers x one
    process's, round by round."""
    with contextlib.ExitStack() as stack:
        if args.dask:
            cluster = stack.enter_context(local_cluster(args.workers))
            where, many = "Dask LocalCluster", ["--scheduler", cluster.scheduler_address]
        else:
            where, many = "process pool", ["--workers", str(args.workers)]
        ratios = []
        for round_ in range(1, args.efficiency + 1):
            path = folder / "one.csv"
            path.unlink(missing_ok=True)
            alone = simulate([*common, "--games", str(single), "--workers", "1"], path)
            path.unlink(missing_ok=True)
            pool = simulate([*common, "--games", str(single * args.workers), *many], path)
            ratio = pool["steady"] / (args.workers * alone["steady"])
            ratios.append(ratio)
            print(
                f"round {round_}: one process {alone['steady']:,.0f} games/s, "
                f"{where} of {args.workers} workers {pool['steady']:,.0f} games/s: {ratio:.1%}",
                flush=True,
            )
    print(
        f"per-core efficiency ({where}), min / median / max of {len(ratios)} rounds: "
        f"{min(ratios):.1%} / {statistics.median(ratios):.1%} / {max(ratios):.1%}"
    )


if __name__ == "__main__":
    main()
