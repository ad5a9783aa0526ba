"""Hot-seat play in a real terminal of 80x24 (tmux): what each player sees."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="no tmux: apt-get install tmux")


class Screen:
    """A tmux server of its own, one 80x24 window running a command."""

    def __init__(self, command: list[str], cwd) -> None:
        self.socket = f"tabletop-{uuid.uuid4().hex[:8]}"
        env = {k: v for k, v in os.environ.items() if k not in ("TABLETOP_PLUGINS", "TMUX")}
        # capture-pane drops the blanks at the end of a line: a prompt "ann> " reads "ann>".
        self.tmux = ["tmux", "-L", self.socket, "-f", os.devnull]
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-x", "80", "-y", "24", "-c", str(cwd), " ".join(command)],
            check=True,
            env=env | {"TERM": "xterm"},
        )

    def text(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout

    def history(self) -> str:
        """The scrollback as well as the screen: what a player reads by scrolling up."""
        command = [*self.tmux, "capture-pane", "-p", "-S", "-", "-E", "-"]
        return subprocess.run(command, capture_output=True, text=True).stdout

    def until(self, wanted: str, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.text()
            if wanted in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"no {wanted!r} on the screen:\n{self.text()}")

    def type(self, line: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-l", line], check=True)
        subprocess.run([*self.tmux, "send-keys", "Enter"], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


def hot_seat(folder, game: str):
    subprocess.run(
        [sys.executable, "-m", "tabletop", "new", game, "--players", "ann,ben", "--seed", "7", "-o", "g.jsonl"],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    return Screen([sys.executable, "-m", "tabletop", "play", "g.jsonl"], folder)


@pytest.fixture
def screen(tmp_path):
    shown = hot_seat(tmp_path, "glux")
    yield shown
    shown.close()


@pytest.fixture
def glyph_screen(tmp_path):
    shown = hot_seat(tmp_path, "glyph-chess")
    yield shown
    shown.close()


def test_hand_over_hides_the_last_players_hand_and_mistakes_stay_on_screen(screen, tmp_path):
    first = screen.until("ann>")
    assert "ann to " in first
    screen.type("6@z9")  # cannot be read: said under the board, on the 24 lines
    shown = screen.until("Not played")
    lines = shown.rstrip().splitlines()
    assert len(lines) <= 24 and lines[-1].startswith("ann>") and lines[-2].startswith("Not played")
    screen.type("1")
    handed = screen.until("Pass to ben, then press Enter")
    # Nothing of ann's screen is left: the board (with ann's hand) was cleared.
    assert "ann to " not in handed and "ann>" not in handed
    screen.type("")
    ben = screen.until("ben>")
    assert "Pass to ben" not in ben and "ben to " in ben
    screen.type("undoo")
    assert "Did you mean 'undo'?" in screen.until("Did you mean")
    screen.type("quit")


def test_the_hand_over_clears_the_scrollback_too(glyph_screen):
    """Trust finding 3: what a player was shown (a Glyph Chess screen is
    taller than 24 lines) goes into the terminal's history; after the
    hand-over nothing of the last player's screen is left there either."""
    screen = glyph_screen
    screen.until("ann>")
    assert "gold ann: coins " in screen.history()
    screen.type("1")
    screen.until("Pass to ben, then press Enter")
    history = screen.history()
    # Nothing of ann's view: her coins, her decisions, her prompt.
    assert "gold ann: coins " not in history and "ann>" not in history and "ann to " not in history
    screen.type("")
    screen.until("ben>")
    assert "silver ben: coins " in screen.history()  # ben's own view, his coins named
    screen.type("1")
    screen.until("Pass to ann, then press Enter")
    history = screen.history()
    assert "silver ben: coins " not in history and "ben>" not in history and "ben to " not in history
    screen.type("")
    screen.until("ann>")
    screen.type("quit")
