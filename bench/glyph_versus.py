"""Glyph Chess self-play of this tree against the code of another commit
(by default 44b5585, before every rule was written once), in alternating
processes on the same machine.

    python bench/glyph_versus.py [--commit 44b5585] [--rounds 5] [--warm 20] [--games 30]

The other commit's tree is taken with ``git archive`` into a temporary
directory (removed at the end). Each round runs one process of each side,
in turn (which side goes first alternates from round to round): the process
self-plays ``--warm`` two-player games with random bots, then times
``--games`` more (seeds ``versus-0`` ...) in CPU time (``time.process_time``),
so that other work on a shared machine counts against neither side. Both
sides import this tree's virtual environment's packages (click, attrs, ...)
but their own ``tabletop``, plugins and shipped variants (``PYTHONPATH``
puts the tree's ``src``, ``plugins`` and ``variants`` first, and the
plugins registered are the entry points of the tree's own ``pyproject.toml``).

Printed: each round's games/s for both sides and their ratio, then
min/median/max of each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: What each process runs: warm up, then time the games.
PLAY = """
import importlib, json, sys, time, tomllib
from tabletop import Registry, get_plugin_manager
from tabletop.live import selfplay
warm, games = int(sys.argv[1]), int(sys.argv[2])
# The tree's own plugins (its pyproject's entry points), not the installed ones.
pm = get_plugin_manager(entry_points=False, environment=False)
with open("pyproject.toml", "rb") as f:
    for name, value in tomllib.load(f)["project"]["entry-points"]["tabletop"].items():
        pm.register(importlib.import_module(value), name=name)
registry = Registry(pm)
names = ["p1", "p2"]
bots = [registry.bot("random", "glyph-chess")] * 2
for i in range(warm):
    selfplay(registry, "glyph-chess", names, bots, f"warm-{i}")
start = time.process_time()
for i in range(games):
    selfplay(registry, "glyph-chess", names, bots, f"versus-{i}")
print(json.dumps(games / (time.process_time() - start)))
"""


def tree_of(commit: str, into: Path) -> Path:
    """The files of ``commit`` in ``into`` (``git archive``: no work tree added)."""
    archive = subprocess.run(
        ["git", "-C", str(HERE), "archive", "--format=tar", commit],
        check=True,
        capture_output=True,
    ).stdout
    tar = into / "tree.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as opened:
        opened.extractall(into / "tree", filter="data")
    return into / "tree"


def rate(tree: Path, warm: int, games: int) -> float:
    path = [str(tree / "src"), str(tree / "plugins"), str(tree / "variants")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    out = subprocess.run(
        [sys.executable, "-c", PLAY, str(warm), str(games)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
    ).stdout
    return float(json.loads(out.strip().splitlines()[-1]))


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="44b5585")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="glyph-versus-") as scratch:
        other = tree_of(args.commit, Path(scratch))
        ours, theirs, ratios = [], [], []
        for round_ in range(args.rounds):
            sides = [("this", HERE), (args.commit, other)]
            if round_ % 2:
                sides.reverse()
            got = {name: rate(tree, args.warm, args.games) for name, tree in sides}
            ours.append(got["this"])
            theirs.append(got[args.commit])
            ratios.append(got["this"] / got[args.commit])
            print(
                f"round {round_ + 1}: this {got['this']:.2f} games/s, "
                f"{args.commit} {got[args.commit]:.2f} games/s, ratio {ratios[-1]:.2f}x",
                flush=True,
            )
    print(f"this tree, games/s (min / median / max): {spread(ours)}")
    print(f"{args.commit}, games/s: {spread(theirs)}")
    print(f"this / {args.commit}, same round: {spread(ratios)}x")


if __name__ == "__main__":
    main()
