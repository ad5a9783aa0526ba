"""docs/guide.md's examples run in order, as written, as a user would run them.

One thing differs: every ``--games N`` is run as ``--games 2``, so that
thousands of bot games do not make the test suite slow; each command is run
all the same, on the files the examples before it made.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT

GUIDE = ROOT / "docs" / "guide.md"


def examples() -> list[str]:
    """Every command of the guide's ``sh`` blocks, in order."""
    blocks = re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_the_guides_examples_run_in_order_as_written(tmp_path):
    # From a clone of the repository: its recorded games and house rules are there.
    for folder in ("replays", "variants"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    env = {k: v for k, v in os.environ.items() if k not in ("TABLETOP_PLUGINS", "NO_COLOR")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    commands = examples()
    assert len(commands) > 30 and all(c.split()[0] in ("tabletop", "cat") for c in commands)
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", re.sub(r"--games \d+", "--games 2", command)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=300,
        )
        # diff exits 1 when the logs differ, as the guide says.
        expected = 1 if command.startswith("tabletop diff") else 0
        assert done.returncode == expected, f"{command}\n{done.stdout[-2000:]}\n{done.stderr}"
        assert "Traceback" not in done.stderr
    assert (tmp_path / "game-ann.html").is_file() and (tmp_path / "board.png").is_file()
