"""``tabletop watch``: the viewer served on loopback, followed in a real
headless Chromium while another process appends moves to the log."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from ..conftest import PILE
from .test_viewer import _errors, _text, browser  # noqa: F401  (the browser fixture)
from .test_watch_trust import TO_THE_END


def tabletop(*args, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tabletop", "--plugins", str(PILE), *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        **kwargs,
    )


@contextlib.contextmanager
def served(tmp_path, *options: str, heading: str = "Watching g.jsonl at "):
    """A Pile game and ``tabletop watch`` serving it (with ``options``);
    yields the address, and stops the server."""
    assert tabletop("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl", cwd=tmp_path).returncode == 0
    server = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "--plugins", str(PILE), "watch", "g.jsonl", *options, "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        assert line.startswith(heading + "http://127.0.0.1:"), line + server.stderr.read()
        yield line.split(" at ")[1].split()[0]
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture
def watching(tmp_path):
    """A Pile game and ``tabletop watch`` serving it; yields the address."""
    with served(tmp_path) as url:
        yield url


def until(check, timeout: float = 30):
    """``check()``'s first true answer within ``timeout`` seconds. The page
    reloads as the log grows: an element read while it does is gone from
    under the reader, which is "not yet", not a failure. Chromium says so in
    more than one way (a stale element, a missing one, or an inspector error
    that the node "does not belong to the document"), so any driver error
    counts as not yet; the last one is named if time runs out."""
    from selenium.common.exceptions import WebDriverException

    last = None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            found = check()
        except WebDriverException as error:
            found, last = None, error
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not in time (last driver error: {last.msg if last else None})")


def test_the_page_follows_the_game_as_moves_are_appended(browser, watching, tmp_path):  # noqa: F811
    browser.get(watching + "#end")
    assert until(lambda: _text(browser, "#position") == "Event 2 of 2")
    # Another process plays, as a referee or a hot-seat screen would.
    assert tabletop("play", "g.jsonl", "pick 2", "--player", "ann", cwd=tmp_path).returncode == 0
    assert until(lambda: _text(browser, "#position") == "Event 3 of 3")
    assert "ann picks 2" in until(lambda: _text(browser, "#event"))
    browser.get_screenshot_as_file(str(tmp_path / "watch-desktop.png"))
    # A spectator who went back in the game stays where they are, and the page still grows.
    until(lambda: browser.find_element("id", "first").click() or True)
    assert tabletop("play", "g.jsonl", "pick 1", "--player", "bob", cwd=tmp_path).returncode == 0
    assert until(lambda: "4 events" in _text(browser, ".meta"))
    position = until(lambda: _text(browser, "#position"))
    assert position == "Start" or position.startswith("Event ")
    assert not _errors(browser)


def test_a_log_caught_illegal_is_said_and_the_page_recovers(browser, watching, tmp_path):  # noqa: F811
    log = tmp_path / "g.jsonl"
    good = log.read_text()
    lines = good.splitlines()
    bad = json.loads(lines[-1])
    bad["seq"] = 9
    log.write_text(good + json.dumps(bad) + "\n")
    browser.get(watching)
    assert "wrong sequence number" in until(lambda: browser.find_element("tag name", "body").text)
    log.write_text(good)
    assert until(lambda: browser.find_elements("id", "position"))


def test_a_watch_page_opens_at_the_latest_event_and_follows_the_game(browser, watching, tmp_path):  # noqa: F811
    """Trust finding 21: a page opened without an event in its address opens
    at the latest event, not the start, and follows the game as another
    process appends to the log; stepped back, it stays where it is while the
    game goes on, and follows again from End."""

    def play(player: str, move: str) -> None:
        done = tabletop("play", "g.jsonl", move, "--player", player, cwd=tmp_path)
        assert done.returncode == 0, done.stderr

    def at() -> str:
        return until(lambda: _text(browser, "#position"))

    browser.get(watching)
    assert until(lambda: _text(browser, "#position") == "Event 2 of 2")
    play("ann", "pick 2")
    assert until(lambda: _text(browser, "#position") == "Event 3 of 3")
    assert "ann picks 2" in until(lambda: _text(browser, "#event"))
    play("bob", "pick 1")
    assert until(lambda: _text(browser, "#position") == "Event 4 of 4")
    # Stepped back: the page stays at event 3 while the game goes on.
    until(lambda: browser.find_element("id", "prev").click() or True)
    assert at() == "Event 3 of 4"
    play("ann", "2")
    assert until(lambda: "5 events" in _text(browser, ".meta"))
    assert at() == "Event 3 of 5"
    # End: following again.
    until(lambda: browser.find_element("id", "last").click() or True)
    assert at() == "Event 5 of 5"
    play("bob", "2")
    assert until(lambda: _text(browser, "#position") == "Event 6 of 6")
    assert not _errors(browser)


def test_loopback_only_and_the_log_once_the_game_is_over(watching, tmp_path):
    assert watching.startswith("http://127.0.0.1:")
    with pytest.raises(urllib.error.HTTPError, match="403"):
        urllib.request.urlopen(watching + "log.jsonl", timeout=10)  # the game is in progress
    for player, move in TO_THE_END:
        assert tabletop("play", "g.jsonl", move, "--player", player, cwd=tmp_path).returncode == 0
    with urllib.request.urlopen(watching + "log.jsonl", timeout=10) as answer:
        assert answer.read() == (tmp_path / "g.jsonl").read_bytes()
    with pytest.raises(urllib.error.HTTPError, match="404"):
        urllib.request.urlopen(watching + "../../etc/passwd", timeout=10)


def test_watch_refuses_a_bad_log_or_port_in_one_line(tmp_path):
    (tmp_path / "bad.jsonl").write_text("not json\n")
    done = tabletop("watch", "bad.jsonl", "--port", "0", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "bad.jsonl:1" in done.stderr
    done = tabletop("watch", "bad.jsonl", "--port", "70000", cwd=tmp_path)
    assert done.returncode == 2 and "--port" in done.stderr


def test_a_players_view_served_holds_no_log_to_download(tmp_path):
    with served(tmp_path, "--as", "ann", heading="Watching g.jsonl as ann sees it at ") as url:
        with urllib.request.urlopen(url, timeout=10) as answer:
            html = answer.read().decode()
        assert "as ann sees it" in html and 'id="download"' not in html
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(url + "log.jsonl", timeout=10)
