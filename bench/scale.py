"""Simulation throughput: games/s on 1 and 2 local workers and on a Dask
LocalCluster, scaling efficiency, the cost of handing out one task, and a
projection for bigger machines.

    .venv/bin/python bench/scale.py                    # glux, 2 greedy players, 400 games
    .venv/bin/python bench/scale.py --game glyph-chess --bot greedy --games 300

The same games (seed ``scale-i``) are played in every configuration; the
script checks that every configuration gives the same results.
"""

from __future__ import annotations

import argparse
import os
import time

from tabletop.many import simulation
from tabletop.many.simulation import Plan

#: Empty tasks timed to find the cost of handing out one.
EMPTY = 400


def timed(plan: Plan, games: int, **how) -> tuple[float, list]:
    started = time.perf_counter()
    played = simulation.run(plan, games, **how)
    return time.perf_counter() - started, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="glux")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--games", type=int, default=1600)
    parser.add_argument("--cores", type=int, default=64, help="cores of the machine to project for")
    parser.add_argument("--machines", type=int, default=10, help="machines of the cluster to project for")
    args = parser.parse_args()
    plan = Plan(game=args.game, players=args.players, bots=(args.bot,) * args.players, seed="scale")
    games = args.games
    print(f"{games} games of {args.game}, {args.players} players, bots {args.bot}; {os.cpu_count()} cores here")

    simulation.run(plan, 4, workers=1)  # warm up: imports, the registry
    one, reference = timed(plan, games, workers=1)
    per_game = one / games
    print(f"1 worker (this process):   {games / one:8.1f} games/s  ({per_game * 1000:.1f} ms per game)")

    two, played = timed(plan, games, workers=2)
    assert [p.row for p in played] == [p.row for p in reference]
    print(f"2 workers (process pool):  {games / two:8.1f} games/s  efficiency {one / two / 2:.0%}")

    # The cost of one task: empty batches on a started pool, per task and worker.
    pool = simulation.Pool(2)
    try:
        guard = simulation.Guard()
        list(pool.ordered(simulation.play_arms, [((plan,), [])] * 4, guard))
        started = time.perf_counter()
        list(pool.ordered(simulation.play_arms, [((plan,), [])] * EMPTY, guard))
        pool_task = (time.perf_counter() - started) * 2 / EMPTY
    finally:
        pool.stop()
    print(f"  cost of a task:          {pool_task * 1000:8.2f} ms (per worker)")

    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("Dask distributed is not installed (pip install 'tabletop[dask]'): no cluster figures")
        return
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        simulation.run(plan, 4, scheduler=address)  # warm up the workers
        dask, played = timed(plan, games, scheduler=address)
        assert [p.row for p in played] == [p.row for p in reference]
        print(f"Dask LocalCluster, 2 workers: {games / dask:5.1f} games/s  efficiency {one / dask / 2:.0%}")
        with Client(address) as client:
            started = time.perf_counter()
            futures = client.map(simulation.play_batch, [plan] * EMPTY, [[]] * EMPTY, pure=False)
            client.gather(futures)
            dask_task = (time.perf_counter() - started) * 2 / EMPTY
        print(f"  cost of a task:          {dask_task * 1000:8.2f} ms (per worker)")

    print(f"Default batches here: {len(simulation.batches(games, 2)[0])} games per task.")
    for name, task in (("process pool", pool_task), ("Dask", dask_task)):
        needed = task / (0.05 * per_game) if per_game else 0
        print(f"  {name}: overhead under 5% from {max(1, round(needed + 0.5))} games per task")
    # Projections: every core plays at this machine's per-core rate, less the
    # task overhead at the default batching for 100,000 games.
    total = 100_000
    for label, workers, task in (
        (f"{args.cores}-core machine (process pool)", args.cores, pool_task),
        (f"{args.machines} machines x {args.cores} cores (Dask)", args.machines * args.cores, dask_task),
    ):
        size = len(simulation.batches(total, workers)[0])
        efficiency = size * per_game / (size * per_game + task)
        rate = workers / per_game * efficiency
        print(f"Projection, {label}: {rate:,.0f} games/s ({total:,} games in {total / rate:.0f} s; batches of {size})")


if __name__ == "__main__":
    main()
