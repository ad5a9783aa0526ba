"""Colour on the terminal: --color/--no-color, NO_COLOR, TERM=dumb, and
colours that read on light and dark terminals."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import pytest

from ..conftest import REPLAYS

ANSI = re.compile(r"\x1b\[([0-9;]*)m")
GLUX = REPLAYS / "glux" / "four-players.jsonl"
GLYPH = REPLAYS / "glyph_chess" / "three-players-random.jsonl"


def codes(text: str) -> set[str]:
    return {code for group in ANSI.findall(text) for code in group.split(";") if code}


@pytest.mark.parametrize("command", ["replay", "render"])
def test_color_flag_forces_colour_and_no_color_removes_it(cli, command):
    assert ANSI.search(cli(command, GLUX, "--color").stdout)
    assert not ANSI.search(cli(command, GLUX, "--no-color").stdout)
    assert not ANSI.search(cli(command, GLUX).stdout)  # not a terminal


def test_colours_read_on_light_and_dark_terminals(cli):
    # No yellow or white letters on the terminal's own ground (33, 37, 93, 97).
    glux = codes(cli("replay", GLUX, "--color").stdout)
    glyph = codes(cli("replay", GLYPH, "--color").stdout)
    assert not {"33", "37", "93", "97"} & (glux | glyph)
    # Glyph Chess: gold and silver pieces are dark letters on a gold or silver ground.
    assert {"30", "43", "47"} <= glyph


def _on_a_terminal(*args: str, env: dict[str, str]) -> str:
    """Runs tabletop with its output on a pseudo-terminal, as a user's shell would."""
    leader, follower = pty.openpty()
    full = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")} | env
    with subprocess.Popen(
        [sys.executable, "-m", "tabletop", *args], stdout=follower, stderr=follower, env=full
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the other end closed: the process is done
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode()


@pytest.mark.parametrize(
    ("env", "coloured"),
    [({"TERM": "xterm"}, True), ({"TERM": "dumb"}, False), ({"TERM": "xterm", "NO_COLOR": "1"}, False)],
    ids=["terminal", "TERM=dumb", "NO_COLOR"],
)
def test_colour_on_a_terminal_unless_dumb_or_no_color(env, coloured):
    out = _on_a_terminal("replay", str(GLUX), env=env)
    assert "Victory points" in out
    assert bool(ANSI.search(out)) is coloured
