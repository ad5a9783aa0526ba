"""docs/ai.md's examples run as written (tournaments with fewer games)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import ROOT

DOC = (ROOT / "docs" / "ai.md").read_text()


def in_a_clone(tmp_path: Path) -> Path:
    (tmp_path / "variants").symlink_to(ROOT / "variants")
    return tmp_path


@pytest.mark.parametrize("block", re.findall(r"```python\n(.*?)```", DOC, re.S))
def test_the_python_examples_run(tmp_path, block, monkeypatch):
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    monkeypatch.chdir(in_a_clone(tmp_path))
    exec(compile(block, "docs/ai.md", "exec"), {"__name__": "ai_md"})
    if "table.save" in block:
        assert (tmp_path / "episode.jsonl").exists()


@pytest.mark.parametrize("command", re.findall(r"^\$ (tabletop tournament .*)$", DOC, re.M))
def test_the_tournaments_run_with_fewer_games(tmp_path, command):
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_PLUGINS"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    short = re.sub(r"--games \d+", "--games 2", command).replace("--workers 2", "--workers 1")
    done = subprocess.run(["bash", "-c", short], cwd=in_a_clone(tmp_path), env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 games of ") and "Head to head" in done.stdout


def test_the_training_example_runs_with_a_tiny_budget():
    """examples/learn_glux.py, whose full run docs/ai.md reports, learns and
    plays as written (three games of self-play, four against random)."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("sklearn")
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "learn_glux.py"), "--games", "3", "--test-games", "4"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"learnt from 3 games of self-play \(144 decisions\) in \d+ s of CPU", lines[0])
    assert re.fullmatch(r"against a random player: won [0-4] of 4 \(\d+%, 95% interval \d+% to \d+%\)", lines[1])
    assert "$ .venv/bin/python examples/learn_glux.py" in DOC
