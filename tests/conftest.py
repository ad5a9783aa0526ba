"""Shared fixtures: the registry with the test game, and ways to run the CLI."""

from __future__ import annotations

import datetime
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabletop import Registry, get_plugin_manager
from tabletop.cli import main

ROOT = Path(__file__).resolve().parent.parent
PILE = Path(__file__).resolve().parent / "plugins" / "pile.py"
REPLAYS = ROOT / "replays"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow-sample",
        type=int,
        default=0,
        metavar="N",
        help="also run N of the tests marked slow, a different N each day (CI runs such a bounded sample)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests are left out unless ``-m`` chooses them, or ``--slow-sample N``
    picks N of them. The pick is the same on every worker of a parallel run
    (it depends on the day and the test ids alone), and over the days it
    comes round to every slow test."""
    if config.getoption("markexpr"):
        return
    slow = sorted((item for item in items if item.get_closest_marker("slow")), key=lambda item: item.nodeid)
    count = min(max(config.getoption("slow_sample"), 0), len(slow))
    kept = set(random.Random(datetime.date.today().toordinal()).sample(slow, count))
    left_out = [item for item in slow if item not in kept]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]


@pytest.fixture(scope="session")
def registry() -> Registry:
    """Every installed plugin plus the test-only game Pile."""
    return Registry(get_plugin_manager([PILE], environment=False))


class Cli:
    """Runs ``tabletop`` in-process, with the Pile test game loaded."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd

    def __call__(self, *args: str, plugins: bool = True, input: str | None = None):
        argv = (["--plugins", str(PILE)] if plugins else []) + [str(a) for a in args]
        old = os.getcwd()
        os.chdir(self.cwd)
        try:
            return CliRunner().invoke(main, argv, input=input, catch_exceptions=False)
        finally:
            os.chdir(old)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


def run_tabletop(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Runs ``tabletop`` as a separate process, exactly as a user would."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("TABLETOP_PLUGINS", None) if env is None or "TABLETOP_PLUGINS" not in env else None
    return subprocess.run(
        [sys.executable, "-m", "tabletop", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=120,
    )


#: A plugin whose bot plays ``CHOICE`` (replace it: ``'e5'``, no decision
#: at all, then ``legal[0]``): a bot mended between two runs of a command.
WAVERING = """from tabletop import Bot, hookimpl


def choose(game, view, player, legal, rng):
    return CHOICE


@hookimpl
def register_bots():
    return [Bot("wavering", "mended between two runs", choose, reads_state=False)]
"""
