"""Shared fixtures: the registry with the test game, and ways to run the CLI."""

from __future__ import annotations

import os
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
