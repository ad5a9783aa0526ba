"""Every command of the README and of docs/*.md runs, as written, in order,
in a fresh folder per document, as a user would run them: a broken example
fails the suite.

A command is a line of a ```sh block (a line ending in ``\\`` goes on on the
next). Each document's commands run in one folder of their own, from a clone
(``replays/``, ``variants/`` and ``examples/`` are there); ``export NAME=VALUE`` carries on
to the document's later commands. What differs from a user's run, and why:

* every ``--games N`` is run as ``--games 2``, so that thousands of bot
  games do not make the suite slow: each command is run all the same;
* ``--scheduler tcp://HOST:PORT`` is run as ``--workers 1``: the same games
  on this machine, since no cluster of other machines is there (nor may the
  tests reach one);
* the few commands of :data:`SKIP` are not run, each for the reason given.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
GUIDE = ROOT / "docs" / "guide.md"

#: Commands shown but not run here, by how they begin, and why.
SKIP = {
    "python3 -m venv": "the quick start: .ci/run runs it itself, on a fresh machine",
    ".venv/bin/pip install": "an install: .ci/run makes the environment the tests run in",
    "pip install": "an install: .ci/run makes the environment the tests run in",
    ".venv/bin/python bench/": "a benchmark: minutes of work, its figures are reported in docs/performance.md",
    "dask ": "starts a Dask scheduler or worker on other machines (tests/many/test_simulate.py runs a LocalCluster)",
    "tabletop pbem send": "mails through the SMTP server the game names (tests/referee runs one on loopback)",
    "tabletop pbem watch": "keeps a connection to the mailbox it names (tests/referee runs dovecot on loopback)",
    "tabletop watch": "serves until stopped (tests/viewer/test_watch.py runs it, with a browser and a writer)",
    "tabletop study bots/": "serves until stopped (tests/review/test_study_board.py runs it, in a browser)",
    "tabletop pbem serve": "serves until stopped (tests/turnpage runs it, with a browser)",
}
#: Lines of a block that describe a command rather than being one (GAME, [--option]...).
SYNOPSIS = re.compile(r"\[[^\]]*\]|\b[A-Z]{3,}\b(?!=)")
#: What a command exits with when the document says it does not succeed.
EXITS = {"tabletop diff": 1}


def commands(doc: Path) -> list[str]:
    """The commands of the ``sh`` blocks of ``doc``, in order, continued lines joined."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", doc.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                found.append(line)
    return found


def skipped(command: str) -> str | None:
    """Why ``command`` is not run, or None."""
    for start, why in SKIP.items():
        if command.startswith(start):
            return why
    if command[0] in "-[" or (command.startswith("tabletop") and SYNOPSIS.search(command.split("#")[0])):
        return "a synopsis (its lines go on with the options)"
    return None


def as_run(command: str) -> str:
    command = re.sub(r"--games \d+", "--games 2", command)
    return re.sub(r"--scheduler tcp://\S+", "--workers 1", command)


def outputs(command: str) -> set[str]:
    """The files and folders a command writes (-o, --output, >)."""
    return {m.rstrip("/") for m in re.findall(r"(?:^|\s)(?:-o|--output|>)\s+(\S+)", command.split("#")[0])}


def run(doc: Path, folder: Path) -> list[str]:
    """Run every command of ``doc`` in ``folder``; the commands run."""
    for name in ("replays", "variants", "examples"):
        (folder / name).symlink_to(ROOT / name)
    env = {k: v for k, v in os.environ.items() if k not in ("TABLETOP_PLUGINS", "NO_COLOR")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["XDG_CACHE_HOME"] = str(folder / ".cache")
    env["HOME"] = str(folder)  # a document's ~/... stays in its folder
    ran = []
    for command in commands(doc):
        if skipped(command):
            continue
        if command.startswith("export "):
            name, _, value = command.removeprefix("export ").partition("=")
            shown = subprocess.run(["bash", "-c", f"printf %s {value}"], cwd=folder, env=env, capture_output=True)
            env[name] = shown.stdout.decode()
            continue
        done = subprocess.run(
            ["bash", "-c", as_run(command)],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=300,
        )
        expected = next((code for start, code in EXITS.items() if command.startswith(start)), 0)
        assert done.returncode == expected, f"{doc.name}: {command}\n{done.stdout[-2000:]}\n{done.stderr}"
        assert "Traceback" not in done.stderr, f"{doc.name}: {command}\n{done.stderr}"
        ran.append(command)
    return ran


@pytest.mark.parametrize("doc", [d for d in DOCS if commands(d)], ids=lambda d: d.name)
def test_every_documented_command_runs_as_written(doc, tmp_path):
    ran = run(doc, tmp_path)
    shown = [c for c in commands(doc) if not c.startswith("export ")]
    # Nothing is left out silently: what did not run is in the skip list, for its reason.
    assert len(ran) == len([c for c in shown if not skipped(c)])
    if doc == GUIDE:  # the guide shows every command, and makes what it says
        assert len(ran) > 30 and all(c.split()[0] in ("tabletop", "cat") for c in ran)
        assert (tmp_path / "game-ann.html").is_file() and (tmp_path / "board.png").is_file()
        from tabletop.cli import COMMANDS

        named = {c.split()[1] for c in shown if c.startswith("tabletop ") and not c.split()[1].startswith("-")}
        assert set(COMMANDS) - named <= {"pbem"}  # the referee's commands are in docs/referee.md


def test_the_readme_and_the_guide_can_be_followed_in_one_folder():
    """Nothing the README's taste writes is written again by the guide (``new``
    refuses to overwrite a log)."""
    readme = set().union(*map(outputs, commands(ROOT / "README.md")))
    guide = set().union(*map(outputs, commands(GUIDE)))
    assert readme and guide and not readme & guide


def test_the_skip_list_is_small_and_every_entry_is_used():
    used = {start for doc in DOCS for c in commands(doc) for start in SKIP if c.startswith(start)}
    assert used == set(SKIP) and len(SKIP) <= 10
