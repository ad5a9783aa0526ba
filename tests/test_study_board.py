"""The analysis board (issue 28, part 2): ``tabletop study`` serves the
viewer with the study beside it on loopback, in a real headless Chromium:
step through the game, write a note, play an illegal decision (refused with
the rule's reason) and a legal one (a variation), reload, and the study
holds. The server is as strict as ``tabletop watch`` and writes only for its
own page; as a player, it lists decisions from a world made up from that
player's view."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tabletop.api import registry as registry_of
from tabletop.study import default_path, load

from .conftest import PILE, REPLAYS
from .test_analysis import pile_log
from .test_viewer import _errors, _text, browser  # noqa: F401  (the browser fixture)
from .test_watch import until

DUEL = REPLAYS / "glux" / "two-players.jsonl"


@contextlib.contextmanager
def board(folder: Path, log: str, *options: str):
    """``tabletop study LOG`` serving; yields its address, and stops it."""
    server = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "--plugins", str(PILE), "study", log, *options, "--port", "0"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        assert line.startswith(f"Studying {log}"), line + server.stderr.read()
        yield line.split(" at ")[1].split()[0]
    finally:
        server.terminate()
        server.wait(timeout=30)


def ask(url: str, method: str = "GET", path: str = "", body: bytes | None = None, headers: dict | None = None):
    """One request to the board, exactly as given: (status, body)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.request(method, parts.path + path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def token_of(url: str) -> str:
    status, page = ask(url)
    assert status == 200
    return json.loads(re.search(rb'<script type="application/json" id="study-data">(.*?)</script>', page, re.S)[1])[
        "editable"
    ]["token"]


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    shutil.copyfile(DUEL, tmp_path / "duel.jsonl")
    return tmp_path / "duel.jsonl"


def test_step_annotate_branch_reload_and_the_study_holds(browser, duel, tmp_path):  # noqa: F811
    """Issue 28 part 2: in Chromium: step, write a note, play an illegal
    decision (the rule's reason shown, nothing written), play a legal one
    (a variation, stepped through), reload: the notes and the variation are
    there, the study file reads back checked, and the log is unchanged."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    log = duel.read_bytes()
    with board(tmp_path, "duel.jsonl") as url:
        browser.get(url + "#10")
        assert until(lambda: _text(browser, "#study-where") == "After event 10 of the game")
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        assert until(lambda: _text(browser, "#study-where") == "After event 11 of the game")
        assert _text(browser, "#position") == "Event 11 of 97"
        # A note, typed where the viewer's keys (n, p, arrows) must not step the game.
        browser.find_element(By.ID, "note-comment").send_keys("ben should start the middle room np")
        Select(browser.find_element(By.ID, "note-mark")).select_by_value("?!")
        browser.find_element(By.ID, "note-save").click()
        assert until(lambda: "ben should start the middle room np" in _text(browser, "#study-notes"))
        assert _text(browser, "#position") == "Event 11 of 97"
        assert "?!" in _text(browser, '#events li[data-step="11"]')
        # The legal decisions are listed; an illegal one is refused with the rule's reason.
        assert until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#play-legal option")) == 4)
        browser.find_element(By.ID, "play-text").send_keys("5@g9")
        browser.find_element(By.ID, "play-written").click()
        assert until(lambda: _text(browser, "#study-problem") == "ben 5@g9: your chip is 1/6; face 5 is not on it")
        assert json.dumps("variation") not in default_path(duel).read_text()
        # A legal one opens a variation, with the chance outcome its seed draws.
        Select(browser.find_element(By.ID, "play-legal")).select_by_visible_text("ben 6@g9")
        browser.find_element(By.ID, "play-chosen").click()
        assert until(lambda: _text(browser, "#position").startswith("Variation v1 · event 13"))
        assert _text(browser, "#event").startswith("ben draws ")
        assert until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#play-legal option")) > 1)
        Select(browser.find_element(By.ID, "play-legal")).select_by_index(0)
        browser.find_element(By.ID, "play-chosen").click()
        assert until(lambda: _text(browser, "#position").startswith("Variation v1 · event 15"))
        body.send_keys(Keys.ARROW_LEFT)
        assert until(lambda: _text(browser, "#position").startswith("Variation v1 · event 14"))
        browser.find_element(By.ID, "study-main").click()
        assert until(lambda: _text(browser, "#position") == "Event 11 of 97")
        browser.get_screenshot_as_file(str(tmp_path / "study-board.png"))
        # Reloaded, the page is built again from the log and the study file.
        browser.refresh()
        assert until(lambda: _text(browser, "#study-where") == "After event 11 of the game")
        assert "ben should start the middle room np" in _text(browser, "#study-notes")
        (variation,) = browser.find_elements(By.CSS_SELECTOR, "#study-variations button.variation")
        assert variation.text.startswith("v1: ben 6@g9, ben draws ")
        variation.click()
        assert until(lambda: _text(browser, "#position").startswith("Variation v1 · event 12"))
        refused = [e for e in _errors(browser) if "422" not in e]
        assert not refused
    assert duel.read_bytes() == log
    study = load(registry_of(), duel)
    assert [n.comment for n in study.notes] == ["ben should start the middle room np"]
    assert len(study.variations["v1"].events) == 4


def test_the_board_writes_only_for_its_own_page(duel, tmp_path):
    """Issue 28 part 2: the board answers as ``tabletop watch`` does (its
    own Host, its key), and a write only when it is a same-origin JSON POST
    carrying the page's token; a refused write changes nothing, and a write
    that fails tells the page why."""
    with board(tmp_path, "duel.jsonl") as url:
        token = token_of(url)
        origin = f"http://{urlsplit(url).netloc}"
        note = json.dumps({"line": "main", "seq": 3, "comment": "from the page"}).encode()
        good = {"Origin": origin, "Content-Type": "application/json", "X-Study-Token": token}
        study = default_path(duel)
        for change, status in (
            ({"Origin": None}, 403),
            ({"Origin": "http://evil.example"}, 403),
            ({"Origin": "null"}, 403),
            ({"Sec-Fetch-Site": "cross-site"}, 403),
            ({"Content-Type": "text/plain"}, 403),
            ({"X-Study-Token": "guessed"}, 403),
            ({"X-Study-Token": None}, 403),
            ({"Host": "evil.example"}, 403),
        ):
            headers = {k: v for k, v in {**good, **change}.items() if v is not None}
            answer = ask(url, "POST", "note", note, headers)
            assert answer[0] == status, (change, answer)
        assert ask(url.rstrip("/").rsplit("/", 1)[0] + "/wrong-key/", "POST", "note", note, good)[0] == 404
        assert ask(url, "POST", "note", b"x" * 70_000, good)[0] == 413
        assert ask(url, "GET", "moves?line=main&seq=11")[0] == 403
        assert not study.exists()
        # What the page sends wrong is refused in words, and nothing is written.
        for body, said in (
            (b"not json", "not JSON"),
            (b"[]", "a write is a JSON object"),
            (json.dumps({"line": "main", "seq": 3, "mark": "x"}).encode(), "'mark' is one of"),
            (json.dumps({"line": "main", "seq": 999, "comment": "x"}).encode(), "event 999 is not on the game"),
        ):
            status, answer = ask(url, "POST", "note", body, good)
            assert status == 422 and said in json.loads(answer)["error"], answer
        assert not study.exists()
        # The page's own write.
        status, body = ask(url, "POST", "note", note, good)
        assert status == 200 and json.loads(body)["study"]["notes"][0]["comment"] == "from the page"
        status, body = ask(url, "GET", "moves?line=main&seq=11", headers={"X-Study-Token": token})
        assert status == 200 and [d["notation"] for d in json.loads(body)["legal"]] == ["1@m3", "6@m3", "1@g9", "6@g9"]
        # A write that fails (the study's name taken by a folder) is told to the page, in its words.
        kept = study.read_bytes()
        study.unlink()
        study.mkdir()
        status, body = ask(url, "POST", "note", note, good)
        assert status == 422 and "a folder" in json.loads(body)["error"]
        study.rmdir()
        study.write_bytes(kept)


def test_a_board_as_a_player_lists_decisions_from_their_view_alone(tmp_path):
    """Issue 28 part 2: as ann, where bob decides, the board lists bob's
    decisions from a world made up from ann's view: two games that differ
    only in bob's hidden card list the same, and play the same variation."""
    answers = []
    for card in (1, 3):
        folder = tmp_path / f"bob-{card}"
        folder.mkdir()
        pile_log(folder / "pile.jsonl", card)
        with board(folder, "pile.jsonl", "--as", "ann", "--seed", "same") as url:
            token = token_of(url)
            origin = f"http://{urlsplit(url).netloc}"
            status, body = ask(url, "GET", "moves?line=main&seq=5", headers={"X-Study-Token": token})
            assert status == 200, body
            listed = json.loads(body)
            assert listed["deciding"] == ["bob"]
            play = json.dumps({"line": "main", "seq": 5, "decision": listed["legal"][-1]["notation"]}).encode()
            headers = {"Origin": origin, "Content-Type": "application/json", "X-Study-Token": token}
            status, body = ask(url, "POST", "play", play, headers)
            assert status == 200, body
            shown = json.loads(body)["study"]
        variation = json.loads(default_path(folder / "pile.jsonl").read_text().splitlines()[1])
        answers.append((listed, shown["variations"][0]["texts"], variation["events"], variation["as"]))
    assert answers[0] == answers[1]
    assert answers[0][3] == "ann"
    # What is listed is bob's in the made-up world: his card there, whatever his true one.
    cards = {d["notation"] for d in answers[0][0]["legal"]} - {"1", "2"}
    assert cards == {"card"}
