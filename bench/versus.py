"""Replay and self-play of this tree against the code of another commit (by
default 44b5585, before every rule was written once), in alternating
processes on the same machine: the direct answer to "is any figure worse?".

    python bench/versus.py [--commit 44b5585] [--rounds 5] [--game glux] [--measure replay] [--scale 1]

Measures (each for each game asked; default: both games, both measures):

- ``selfplay``: games/s of random bots (Glüx four players, Glyph Chess two)
  in one batch, as ``tabletop selfplay -n`` plays them, after some games to
  warm up (40 and 20);
- ``replay``: events/s of ``Replay(...).run()`` (every event validated) over
  logs this tree self-plays once at the start and keeps in memory; both
  sides read the same bytes;
- ``analyse`` (asked by name, not by default): ``tabletop analyse`` of a
  recorded game (replays/glux/four-players.jsonl, Glyph Chess's
  replays/glyph_chess/two-players-centre.jsonl) with ``mcts:iterations=N``
  (40 for Glüx, 10 for Glyph Chess, times ``--scale``) on one worker,
  analyses per CPU second of the process and its worker; the same seed on
  both sides;
- ``paired`` (asked by name, not by default): self-play's games/s divided
  by python-chess's random games/s in the same process, the two taking
  turns of 20 ms of CPU (``throughput.paired_selfplay``, this tree's, run
  on the tree measured), so that
  a change of the machine's speed during a process falls on both alike;
  the games are the same seeds on both sides.

``--commit HEAD`` compares this tree with its own last commit: with no
change in between, the ratios show how far the method itself strays on
this machine (each side is run the same way).

The other commit's tree is taken with ``git archive`` into a temporary
folder (removed at the end). In each round one process of each side runs
each measure, in turn (which side goes first alternates from round to
round), timed in CPU time (``time.process_time``) so that other work on a
shared machine counts against neither side. Both sides import this tree's
virtual environment's packages (click, attrs, ...) but their own
``tabletop``, plugins and shipped variants (``PYTHONPATH`` puts the tree's
``src``, ``plugins`` and ``variants`` first, and the plugins registered are
the entry points of the tree's own ``pyproject.toml``).

Printed: each round's rates and ratio, then min/median/max of each.
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

PLAYERS = {"glux": 4, "glyph-chess": 2}
#: How many games each measure plays or replays, by game (about a second
#: each), and how many a self-play process plays first, untimed (Glyph
#: Chess's remembered ways to pay fill up over the first games).
GAMES = {
    "glux": {"selfplay": 400, "replay": 600, "warm": 40},
    "glyph-chess": {"selfplay": 30, "replay": 60, "warm": 20},
}
#: The recorded game each ``analyse`` process analyses, and the search's iterations.
ANALYSED = {
    "glux": ("replays/glux/four-players.jsonl", 40),
    "glyph-chess": ("replays/glyph_chess/two-players-centre.jsonl", 10),
}
#: CPU seconds each ``paired`` process measures, by game (at ``--scale 1``).
PAIRED_SECONDS = {"glux": 6.0, "glyph-chess": 10.0}

#: What each process runs: the tree's own registry, then one measure.
RUN = """
import importlib, io, json, sys, time, tomllib
from pathlib import Path
from tabletop import Registry, get_plugin_manager
from tabletop.play.engine import Replay
from tabletop.play.live import selfplay
game, measure, players, games, logs, warm = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
# The tree's own plugins (its pyproject's entry points), not the installed ones.
pm = get_plugin_manager(entry_points=False, environment=False)
with open("pyproject.toml", "rb") as f:
    points = tomllib.load(f)["project"]["entry-points"]
for name, value in points["tabletop"].items():
    pm.register(importlib.import_module(value), name=name)
# A game its about declares (a tree from before that registers its games with hooks has none).
for name, value in points.get("tabletop.games", {}).items():
    about = importlib.import_module(value)
    if hasattr(about, "GAME") and not pm.has_plugin(name):
        from tabletop.host.abouts import Declared

        pm.register(Declared(about), name=name)
registry = Registry(pm)
names = [f"p{i}" for i in range(1, players + 1)]
if measure == "analyse":
    # The command itself, on a copy of the log (it writes a study beside it).
    import resource, shutil, tempfile
    from tabletop.cli import main

    def cpu():
        mine, theirs = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return mine.ru_utime + mine.ru_stime + theirs.ru_utime + theirs.ru_stime

    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "analysed.jsonl"
        shutil.copy(logs, log)
        start = cpu()
        try:
            main(["analyse", str(log), "--bot", f"mcts:iterations={games}", "--workers", "1", "--seed", "versus"])
        except SystemExit as stop:
            if stop.code:
                raise
        print(json.dumps(1 / (cpu() - start)))
    sys.exit()
if measure != "replay":
    # This tree's bench, run on the tree measured: one batch, as ``tabletop
    # selfplay -n`` plays (a game at a time on a tree from before batches).
    sys.path.insert(0, sys.argv[7])
    import throughput

    play = throughput.batch(registry, game, names)
    for i in range(warm):
        play(f"warm-{i}")
if measure == "selfplay":
    start = time.process_time()
    for i in range(games):
        play(f"versus-{i}")
    done = games
elif measure == "paired":
    # This tree's bench (its paired self-play), run on the tree measured.
    # The CPU seconds to measure come where the logs would.
    mine, chess_games = throughput.paired_selfplay(registry, game, float(logs), 1)
    print(json.dumps(mine / chess_games))
    sys.exit()
else:
    data = [line.encode() for line in json.load(open(logs))]
    for blob in data[:3]:
        Replay(registry, Path("warm.jsonl"), io.BytesIO(blob)).run()
    start = time.process_time()
    done = 0
    for blob in data:
        done += Replay(registry, Path("versus.jsonl"), io.BytesIO(blob)).run().seq
print(json.dumps(done / (time.process_time() - start)))
"""


def tree_of(commit: str, into: Path) -> Path:
    """The files of ``commit`` in ``into`` (``git archive``: no work tree added)."""
    archive = subprocess.run(
        ["git", "-C", str(HERE), "archive", "--format=tar", commit], check=True, capture_output=True
    ).stdout
    tar = into / "tree.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as opened:
        opened.extractall(into / "tree", filter="data")
    return into / "tree"


def make_logs(game: str, count: int, into: Path) -> Path:
    """``count`` logs of ``game`` self-played by this tree, as a JSON list of texts."""
    from tabletop import Registry, get_plugin_manager
    from tabletop.play.live import selfplay

    registry = Registry(get_plugin_manager(environment=False))
    names = [f"p{i}" for i in range(1, PLAYERS[game] + 1)]
    bots = [registry.bot("random", game)] * len(names)
    texts = []
    for i in range(count):
        header, _, played = selfplay(registry, game, names, bots, f"replay-{i}")
        texts.append("\n".join(registry.codec.log(header, played)) + "\n")
    path = into / f"{game}-logs.json"
    path.write_text(json.dumps(texts))
    return path


def rate(tree: Path, game: str, measure: str, logs: Path, scale: float) -> float:
    path = [str(tree / "src"), str(tree / "plugins"), str(tree / "variants")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    if measure == "paired":  # the CPU seconds to measure, in place of the logs
        games, where = 0, str(PAIRED_SECONDS[game] * scale)
    elif measure == "analyse":  # the recorded game and the search's iterations
        log, iterations = ANALYSED[game]
        games, where = max(1, round(iterations * scale)), str(HERE / log)
    else:
        games = max(1, round(GAMES[game][measure] * scale)) if measure == "selfplay" else GAMES[game][measure]
        where = str(logs)
    args = [game, measure, str(PLAYERS[game]), str(games), where, str(GAMES[game]["warm"]), str(HERE / "bench")]
    out = subprocess.run(
        [sys.executable, "-c", RUN, *args], check=True, capture_output=True, text=True, env=env, cwd=tree
    ).stdout
    return float(json.loads(out.strip().splitlines()[-1]))


def number(value: float) -> str:
    """A rate with three significant digits at least (a paired ratio may be 0.27)."""
    return f"{value:,.1f}" if value >= 100 else f"{value:.3g}"


def spread(values: list[float]) -> str:
    return " / ".join(number(v) for v in (min(values), statistics.median(values), max(values)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="44b5585", help="the code to compare with (default 44b5585)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--game", action="append", choices=sorted(PLAYERS), help="only this game (repeatable)")
    parser.add_argument(
        "--measure",
        action="append",
        choices=["selfplay", "replay", "paired", "analyse"],
        help="only this measure (repeatable)",
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="play this many times the games each measure (default 1: about a second)",
    )
    args = parser.parse_args()
    games = args.game or list(PLAYERS)
    measures = args.measure or ["selfplay", "replay"]
    found: dict[tuple[str, str], dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="versus-") as scratch:
        other = tree_of(args.commit, Path(scratch))
        for game in games:
            GAMES[game]["replay"] = max(1, round(GAMES[game]["replay"] * args.scale))
        logs = {g: make_logs(g, GAMES[g]["replay"], Path(scratch)) for g in games if "replay" in measures}
        for round_ in range(args.rounds):
            for game in games:
                for measure in measures:
                    sides = [("this", HERE), (args.commit, other)]
                    if round_ % 2:
                        sides.reverse()
                    got = {name: rate(tree, game, measure, logs.get(game, Path()), args.scale) for name, tree in sides}
                    seen = found.setdefault((game, measure), {"this": [], "other": [], "ratio": []})
                    seen["this"].append(got["this"])
                    seen["other"].append(got[args.commit])
                    seen["ratio"].append(got["this"] / got[args.commit])
                    unit = {
                        "selfplay": "games/s",
                        "replay": "events/s",
                        "paired": "x python-chess",
                        "analyse": "analyses/s",
                    }[measure]
                    print(
                        f"round {round_ + 1}: {game} {measure}: this {number(got['this'])} {unit}, "
                        f"{args.commit} {number(got[args.commit])}, ratio {seen['ratio'][-1]:.3f}x",
                        flush=True,
                    )
    print(f"\nmin / median / max of {args.rounds} rounds (CPU time)\n")
    print(f"| game, measure | this tree | {args.commit} | this / {args.commit} |")
    print("| --- | --- | --- | --- |")
    for (game, measure), seen in found.items():
        print(f"| {game} {measure} | {spread(seen['this'])} | {spread(seen['other'])} | {spread(seen['ratio'])}× |")


if __name__ == "__main__":
    main()
