"""Start-up: the CPU time of one ``tabletop`` command, as a ratio to
``python -c 'import click'`` timed in the same run.

    .venv/bin/python bench/startup.py              # 11 rounds
    .venv/bin/python bench/startup.py --rounds 21
    .venv/bin/python bench/startup.py --against /tmp/before   # and another tree's code

``--against DIR`` also times every command with the code of DIR (another
commit's tree, say from ``git archive COMMIT | tar -x -C DIR``): its ``src``,
``plugins`` and ``variants`` come first on the import path, and its commands
run in the same rounds, each right after this tree's, so both see the same
machine.

Every round runs each command once, in turn (so a busy moment of the machine
falls on all of them alike); a command's figure is the median of its CPU
times (user + system of the child process), and its ratio is that median
over the median of ``import click``. The targets are in docs/performance.md.

The commands run with Python's byte-code cache on (``PYTHONDONTWRITEBYTECODE``
is dropped from their environment), as an installed copy runs: the setup's
first commands write the caches of the project's modules, so the rounds time
the start-up a user feels, not the compiling of every module from source
(with the variable set, that compiling is most of a command's time).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
TABLETOP = [PY, "-m", "tabletop"]
#: The commands' environment: this one, with the byte-code cache on.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

#: The targets of the issue, as a ratio to ``import click``.
TARGETS = {"--help": 2, "games": 2, "moves": 3, "play": 3, "pbem receive": 4}


def cpu(argv: list[str], cwd: Path, stdin: bytes | None = None, env: dict[str, str] = ENV) -> float:
    """The CPU seconds (user + system) of running ``argv`` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, timeout=120, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{argv}: exit {done.returncode}: {done.stderr.decode()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def setup(folder: Path) -> dict[str, tuple[list[str], bytes | None]]:
    """The commands to time, with a short log (and a referee's folder) in ``folder``."""
    subprocess.run(
        [*TABLETOP, "new", "glux", "--players", "ann,ben", "--seed", "1", "-o", "game.jsonl"],
        cwd=folder,
        check=True,
        capture_output=True,
        env=ENV,
    )
    subprocess.run(
        [
            *TABLETOP,
            "pbem",
            "init",
            "duel",
            "--game",
            "glux",
            "--player",
            "ann=ann@example.org",
            "--player",
            "ben=ben@example.org",
        ],
        cwd=folder,
        check=True,
        capture_output=True,
        env=ENV,
    )
    moves = subprocess.run(
        [*TABLETOP, "moves", "game.jsonl", "--json"], cwd=folder, capture_output=True, check=True, env=ENV
    )
    found = json.loads(moves.stdout)
    who, options = next(iter(found["moves"].items()))
    # A mail from a stranger: the referee reads and answers it, and the game is unchanged.
    mail = (
        "From: someone@example.org\nTo: referee@example.org\nSubject: move\nMessage-ID: <bench@example.org>\n\nhello\n"
    ).encode()
    return {
        "import click": ([PY, "-c", "import click"], None),
        "--help": ([*TABLETOP, "--help"], None),
        "games": ([*TABLETOP, "games"], None),
        "moves": ([*TABLETOP, "moves", "game.jsonl"], None),
        # A legal move, played on a fresh copy of the log each round.
        "play": ([*TABLETOP, "play", "copy.jsonl", options[-1], "--player", who], None),
        "pbem receive": ([*TABLETOP, "pbem", "receive", "duel"], mail),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--against", type=Path, help="another tree whose code is timed in the same rounds")
    args = parser.parse_args()
    trees = {"": ENV}
    if args.against:
        against = args.against.resolve()
        if not (against / "src" / "tabletop").is_dir():
            parser.error(f"--against {args.against}: no src/tabletop there")
        path = os.pathsep.join(str(against / part) for part in ("src", "plugins", "variants"))
        trees["before"] = {**ENV, "PYTHONPATH": os.pathsep.join(filter(None, [path, ENV.get("PYTHONPATH")]))}
    folder = Path(tempfile.mkdtemp(prefix="tabletop-startup-"))
    try:
        commands = setup(folder)
        times: dict[tuple[str, str], list[float]] = {(name, tree): [] for name in commands for tree in trees}
        # A first round, not counted, writes the byte-code cache of every module a command imports.
        for index in range(args.rounds + 1):
            for name, (argv, stdin) in commands.items():
                for tree, env in trees.items():
                    if tree and name == "import click":
                        continue
                    shutil.copyfile(folder / "game.jsonl", folder / "copy.jsonl")
                    took = cpu(argv, folder, stdin, env)
                    if index:
                        times[name, tree].append(took)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    base = statistics.median(times["import click", ""])
    print(f"{'command':<21} {'min ms':>7} {'median':>7} {'max':>7} {'ratio':>6} {'target':>6}")
    for (name, tree), found in times.items():
        if not found:
            continue
        median = statistics.median(found)
        target = TARGETS.get(name) if not tree else None
        label = f"{name} ({tree})" if tree else name
        print(
            f"{label:<21} {min(found) * 1000:>7.0f} {median * 1000:>7.0f} {max(found) * 1000:>7.0f} "
            f"{median / base:>6.2f} {'' if target is None else f'<= {target}':>6}"
        )


if __name__ == "__main__":
    main()
