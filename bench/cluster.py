"""What a results folder costs the command that starts the run, and the
process pool against a Dask LocalCluster; a projection for a billion games.

    .venv/bin/python bench/cluster.py                       # 3 rounds of 20,000 games each way
    .venv/bin/python bench/cluster.py --rounds 5 --games 40000

Each round runs ``tabletop simulate glux --seats 4 --bot random --results
DIR/`` as its own process, as a user would: once on the process pool and
once on a Dask LocalCluster (started beforehand in a process of its own, so
that its scheduler's CPU is measured apart), both with ``--workers`` (2)
worker processes. From samples of /proc every 0.2 s, between the first
tenth and the last tenth of the run (start-up left out), it reports:

- the rate (games a second, from the parts as they appear);
- the command's own CPU per game, against the workers' CPU per game (the
  target: under 1%);
- with ``--batch 5`` (many small tasks): the command's CPU per task, and on
  Dask the scheduler's, which is what bounds a cluster's many workers.

It prints min / median / max over the rounds, then projects 10^9 games on
100 and 1,000 workers from the medians: the workers' time, the command's and
the scheduler's time at batches of 200 (the pool's most), 1,000 (Dask's)
and ``--cluster-batch`` (10,000), and which of them bounds the run.
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

from million import family  # bench/ is this script's folder: on the path

TICK = os.sysconf("SC_CLK_TCK")
CLUSTER = """
import sys, time
from distributed import LocalCluster
if __name__ == "__main__":
    with LocalCluster(n_workers=int(sys.argv[1]), threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, protocol="tcp") as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()
"""


def workers_of(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs (``million.family`` less ``pid``)."""
    return family(pid) - {pid}


def cpu(pid: int) -> float:
    """User and system CPU seconds of ``pid`` itself (all its threads)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    return 0.0


def parts_in(folder: Path) -> int:
    with contextlib.suppress(OSError):
        return sum(1 for name in os.listdir(folder) if name.startswith("part-"))
    return 0


def measure(args: list[str], folder: Path, games: int, batch: int | None, cluster: int | None) -> dict:
    """One run of the command; rates and CPU per game and per task between 10% and 90% of its parts."""
    cmd = [sys.executable, "-m", "tabletop", "simulate", *args, "--results", f"{folder}/"]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    samples = []
    workers_cpu: dict[int, float] = {}
    while proc.poll() is None:
        now = time.perf_counter()
        pool = workers_of(proc.pid) if cluster is None else workers_of(cluster)
        for pid in pool:
            workers_cpu[pid] = max(workers_cpu.get(pid, 0.0), cpu(pid))
        samples.append(
            (now, parts_in(folder), cpu(proc.pid), sum(workers_cpu.values()), cpu(cluster) if cluster else 0.0)
        )
        time.sleep(0.2)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"simulate failed ({proc.returncode}): {proc.stderr.read() if proc.stderr else ''}")
    total = parts_in(folder)
    low = next(s for s in samples if s[1] >= max(1, total // 10))
    high = [s for s in samples if s[1] <= total * 9 // 10][-1]
    per_part = games / total
    played = (high[1] - low[1]) * per_part
    tasks = high[1] - low[1]
    if played <= 0:
        raise SystemExit("the run was too short to measure: give more --games")
    return {
        "wall": wall,
        "rate": played / (high[0] - low[0]),
        "command_per_game": (high[2] - low[2]) / played,
        "workers_per_game": (high[3] - low[3]) / played,
        "command_per_task": (high[2] - low[2]) / tasks,
        "scheduler_per_task": (high[4] - low[4]) / tasks,
        "batch": per_part,
    }


def spread(values: list[float], scale: float = 1.0, fmt: str = "{:,.1f}") -> str:
    return " / ".join(fmt.format(v * scale) for v in (min(values), statistics.median(values), max(values)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games of each measured run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--small", type=int, default=5, help="games per task of the per-task runs")
    parser.add_argument("--cluster-batch", type=int, default=10_000, help="--batch of the projection for a cluster")
    args = parser.parse_args()
    common = ["glux", "--seats", "4", "--bot", "random", "--seed", "cluster"]
    top = Path(tempfile.mkdtemp(prefix="cluster-bench-"))
    load = os.getloadavg()[0]
    print(f"four-player Glüx, bots random; {args.workers} workers; {os.cpu_count()} cores here; load {load:.1f}")
    script = top / "cluster.py"
    script.write_text(CLUSTER)
    host = subprocess.Popen(
        [sys.executable, str(script), str(args.workers)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        address = host.stdout.readline().strip() if host.stdout else ""
        results: dict[str, list[dict]] = {"pool": [], "dask": [], "pool-small": [], "dask-small": []}
        for k in range(1, args.rounds + 1):
            for where, extra, cluster in (
                ("pool", ["--workers", str(args.workers)], None),
                ("dask", ["--scheduler", address], host.pid),
            ):
                run = measure(
                    [*common, "--games", str(args.games), *extra], top / f"{where}-{k}", args.games, None, cluster
                )
                results[where].append(run)
                small_games = max(args.small * 40, args.games // 10)
                small = measure(
                    [*common, "--games", str(small_games), "--batch", str(args.small), *extra],
                    top / f"{where}-small-{k}",
                    small_games,
                    args.small,
                    cluster,
                )
                results[f"{where}-small"].append(small)
                print(
                    f"round {k}, {where}: {run['rate']:,.0f} games/s (batches of {run['batch']:.0f}); "
                    f"the command's CPU {run['command_per_game'] * 1e6:.1f} µs a game, "
                    f"{run['command_per_game'] / run['workers_per_game']:.2%} of the workers' "
                    f"{run['workers_per_game'] * 1e3:.2f} ms; per task of {args.small} games: the command "
                    f"{small['command_per_task'] * 1e3:.2f} ms"
                    + (f", the scheduler {small['scheduler_per_task'] * 1e3:.2f} ms" if cluster else ""),
                    flush=True,
                )
    finally:
        with contextlib.suppress(Exception):
            host.communicate("", timeout=30)
        if host.poll() is None:
            host.kill()
            host.wait()
    print(f"\nmin / median / max of {args.rounds} rounds, {args.games:,} games a run:")
    for where, label in (("pool", "process pool"), ("dask", "Dask LocalCluster")):
        runs, small = results[where], results[f"{where}-small"]
        print(f"{label}, {args.workers} workers:")
        print(f"  rate: {spread([r['rate'] for r in runs], fmt='{:,.0f}')} games/s")
        print(f"  the command's CPU per game: {spread([r['command_per_game'] for r in runs], 1e6)} µs")
        print(f"  a worker's CPU per game: {spread([r['workers_per_game'] for r in runs], 1e3, '{:,.3f}')} ms")
        ratio = [r["command_per_game"] / r["workers_per_game"] for r in runs]
        print(f"  the command's share: {spread(ratio, 100, '{:.2f}')} % of a worker's time per game")
        print(f"  the command's CPU per task: {spread([r['command_per_task'] for r in small], 1e3, '{:.2f}')} ms")
        if where == "dask":
            print(
                f"  the scheduler's CPU per task: {spread([r['scheduler_per_task'] for r in small], 1e3, '{:.2f}')} ms"
            )
    game = statistics.median(r["workers_per_game"] for r in results["pool"] + results["dask"])
    command_task = statistics.median(r["command_per_task"] for r in results["dask-small"])
    scheduler_task = statistics.median(r["scheduler_per_task"] for r in results["dask-small"])
    size = sum(p.stat().st_size for p in top.glob("*/part-*.parquet"))
    played = len(results["pool"] + results["dask"]) * args.games
    played += sum(
        r["batch"] * parts_in(top / f"{w}-small-{k}")
        for w in ("pool", "dask")
        for k, r in enumerate(results[f"{w}-small"], start=1)
    )
    print(
        f"\nprojection, 10^9 games on Dask (a worker: {game * 1e3:.2f} ms a game; the command: "
        f"{command_task * 1e3:.2f} ms a task; the scheduler: {scheduler_task * 1e3:.2f} ms a task):"
    )
    games = 1e9
    for batch in (200, 1000, args.cluster_batch):
        tasks = games / batch
        for workers in (100, 1000):
            needs = {
                "the workers": games * game / workers,
                "the command": tasks * command_task,
                "the scheduler": tasks * scheduler_task,
            }
            bound = max(needs, key=needs.__getitem__)
            said = ", ".join(f"{name} {secs / 3600:,.2f} h" for name, secs in needs.items())
            print(f"  batches of {batch:,} ({tasks:,.0f} tasks), {workers:,} workers: {said}; bound by {bound}")
    print(
        f"  parts: {size / played:,.0f} bytes a game; 10^9 games: {size / played * 1e9 / 1e9:,.0f} GB in "
        f"{1e9 / args.cluster_batch:,.0f} parts of {args.cluster_batch:,} games"
    )
    print(f"(results folders in {top})")


if __name__ == "__main__":
    main()
