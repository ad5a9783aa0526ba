"""Long logs: the CPU time of ``moves`` and of one ``play`` as a log grows,
with the snapshot kept beside it and without (a full replay).

    .venv/bin/python bench/longlog.py                  # 1,000 to 100,000 events, 5 rounds
    .venv/bin/python bench/longlog.py --sizes 1000,10000 --rounds 7

The log is a game of Pile (the tests' game, loaded from tests/plugins/pile.py)
in which every player takes one stone a turn, so it can be as long as wanted
and is never over. Each round times, in turn: a full replay (what every
command did before), ``snapshot.run`` (what ``moves`` and ``play`` do), and a
``play`` of one decision followed by the next ``moves`` (the log growing as
in a game). All in this process: CPU time of the fold itself, not start-up
(see bench/startup.py for that).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from tabletop import Registry, get_plugin_manager, start
from tabletop.cli.adding import add
from tabletop.play import snapshot
from tabletop.play.engine import Replay

ROOT = Path(__file__).resolve().parent.parent
PILE = ROOT / "tests" / "plugins" / "pile.py"


def long_log(registry: Registry, folder: Path, events: int) -> Path:
    table = start("pile", ["ann", "bob"], options={"stones": str(events * 2 + 100)}, seed="long", registry=registry)
    while len(table.events) < events:
        who = table.deciding[0]
        table.play(table.legal(who)[0], who)
    return table.save(folder / f"pile-{events}.jsonl")


def timed(fn) -> float:
    before = time.process_time()
    fn()
    return time.process_time() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,3000,10000,30000,100000")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    registry = Registry(get_plugin_manager([PILE], environment=False))
    folder = Path(tempfile.mkdtemp(prefix="tabletop-longlog-"))
    os.environ["XDG_CACHE_HOME"] = str(folder / "cache")
    try:
        logs = {n: long_log(registry, folder, n) for n in sizes}
        for log in logs.values():
            snapshot.run(registry, log)  # the first run writes the snapshot
        found: dict[tuple[int, str], list[float]] = {}
        for _ in range(args.rounds):
            for n, log in logs.items():
                found.setdefault((n, "replay"), []).append(timed(lambda log=log: Replay(registry, log).run()))
                found.setdefault((n, "snapshot"), []).append(timed(lambda log=log: snapshot.run(registry, log)))

                def move(log: Path = log) -> None:
                    match = snapshot.run(registry, log)
                    who = match.node.players[0]
                    add(registry, log, match.game.notate(match.legal(who)[0]), who, None)
                    snapshot.run(registry, log)

                found.setdefault((n, "play+moves"), []).append(timed(move))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{'events':>8} {'full replay ms (min/med/max)':>30} {'from snapshot':>22} {'play + moves':>22}")
    for n in sizes:
        cells = []
        for kind in ("replay", "snapshot", "play+moves"):
            t = found[(n, kind)]
            cells.append(f"{min(t) * 1000:.1f}/{statistics.median(t) * 1000:.1f}/{max(t) * 1000:.1f}")
        print(f"{n:>8,} {cells[0]:>30} {cells[1]:>22} {cells[2]:>22}")


if __name__ == "__main__":
    main()
