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
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tabletop.api import registry as registry_of
from tabletop.review.study import default_path, load

from ..conftest import PILE, REPLAYS
from ..viewer.test_viewer import _errors, _text, browser  # noqa: F401  (the browser fixture)
from ..viewer.test_watch import until
from .test_analysis import pile_log

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


# -- a note's squares and arrows on the board ------------------------------------------

#: What the page has drawn over the board: each highlight and arrow, and the spots they
#: name, in the picture's own units (arrows) and on the screen (highlights).
DRAWN = """
var svg = document.querySelector('#board svg');
var group = svg.querySelector('g.study-drawn');
function spot(name) {
  var e = Array.prototype.filter.call(svg.querySelectorAll('[data-spot]'),
    function (s) { return s.getAttribute('data-spot') === name; })[0];
  var r = e.getBoundingClientRect(), b = e.getBBox();
  return {x: parseFloat(e.getAttribute('data-x')), y: parseFloat(e.getAttribute('data-y')),
    size: Math.min(b.width, b.height), screen: [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height]};
}
function marker(line) {
  var id = (line.getAttribute('marker-end') || '').replace(/^url\\(#|\\)$/g, '');
  var m = id && svg.getElementById(id);
  return m ? {width: parseFloat(m.getAttribute('markerWidth')), path: !!m.querySelector('path')} : null;
}
if (!group) return null;
return {
  last: svg.lastElementChild === group,
  squares: Array.prototype.map.call(group.querySelectorAll('.study-square'), function (e) {
    var r = e.getBoundingClientRect(), name = e.getAttribute('data-square');
    return {name: name, kind: e.getAttribute('class'), screen: [r.left + r.width / 2, r.top + r.height / 2,
      r.width, r.height], spot: spot(name), fill: getComputedStyle(e).fillOpacity};
  }),
  arrows: Array.prototype.map.call(group.querySelectorAll('.study-arrow'), function (g) {
    var line = g.querySelector('.study-arrow-shaft');
    var from = g.getAttribute('data-from'), to = g.getAttribute('data-to');
    return {from: from, to: to, kind: g.getAttribute('class'),
      ends: ['x1', 'y1', 'x2', 'y2'].map(function (k) { return parseFloat(line.getAttribute(k)); }),
      width: parseFloat(line.getAttribute('stroke-width')), head: marker(line),
      stroke: getComputedStyle(line).stroke, spots: [spot(from), spot(to)]};
  })
};
"""


def _drawn(driver) -> dict | None:
    return driver.execute_script(DRAWN)


def _on_their_spots(drawn: dict, squares: set[str], arrows: set[tuple[str, str]], kind: str = "noted") -> None:
    """Each highlight on its spot (centred on it, a little inside it), each
    arrow from its spot's centre to just short of the other's, along the
    line between them, its head drawn and a shaft showing behind it."""
    assert drawn is not None and drawn["last"], "drawn over everything the picture holds"
    mine = [s for s in drawn["squares"] if kind in s["kind"].split()]
    assert {s["name"] for s in mine} == squares and len(mine) == len(squares)
    for s in mine:
        (x, y, w, h), (sx, sy, sw, sh) = s["screen"], s["spot"]["screen"]
        assert math.dist((x, y), (sx, sy)) < 1.5, s
        assert 0.7 * sw <= w <= sw and 0.7 * sh <= h <= sh, s
        assert float(s["fill"]) > 0, "filled, not only outlined"
    drawn_arrows = [a for a in drawn["arrows"] if kind in a["kind"].split()]
    assert {(a["from"], a["to"]) for a in drawn_arrows} == arrows and len(drawn_arrows) == len(arrows)
    for a in drawn_arrows:
        x1, y1, x2, y2 = a["ends"]
        start, end = a["spots"]
        size = min(start["size"], end["size"])
        assert math.dist((x1, y1), (start["x"], start["y"])) <= 0.15 * size, a
        assert math.dist((x2, y2), (end["x"], end["y"])) <= 0.2 * size, a
        # Along the line between the two centres, pointing at the far one.
        (ax, ay), (bx, by) = (start["x"], start["y"]), (end["x"], end["y"])
        cross = (bx - ax) * (y2 - y1) - (by - ay) * (x2 - x1)
        assert abs(cross) / math.dist((ax, ay), (bx, by)) < 0.5, a
        assert (bx - ax) * (x2 - x1) + (by - ay) * (y2 - y1) > 0, a
        # The head reaches its marker's width (in stroke widths) back from the tip: a shaft shows behind it.
        assert a["head"] is not None and a["head"]["path"], a
        assert math.dist((x1, y1), (x2, y2)) - a["head"]["width"] * a["width"] >= 2 * a["width"], a


def _noted_view(cli, folder: Path, log: Path, at: int, squares: list[str], arrows: list[str]) -> Path:
    """A note at event ``at`` with ``squares`` and ``arrows``, made on the command line, in ``tabletop view``'s page."""
    shutil.copyfile(log, folder / "game.jsonl")
    options = [o for s in squares for o in ("--square", s)] + [o for a in arrows for o in ("--arrow", a)]
    result = cli("study", "game.jsonl", "--at", str(at), "--comment", "look here", *options)
    assert result.exit_code == 0, result.output
    assert cli("view", "game.jsonl", "-o", "page.html").exit_code == 0
    return folder / "page.html"


@pytest.mark.parametrize(
    ("log", "at", "squares", "arrows", "neighbours"),
    [
        (DUEL, 24, ["m4", "l1"], ["m4-l1", "m4-m5"], ("m4", "m5")),
        (REPLAYS / "glyph_chess" / "two-players-centre.jsonl", 37, ["k6", "m5"], ["m5-k7", "l5-k6"], ("l5", "k6")),
    ],
    ids=["glux", "glyph-chess"],
)
def test_a_notes_squares_and_arrows_are_drawn_on_the_board(
    browser,  # noqa: F811
    cli,
    registry,
    tmp_path,
    log,
    at,
    squares,
    arrows,
    neighbours,
):
    """Issue 28 part 1: ``tabletop view`` draws a note's highlighted squares
    or spots (on the spots the picture names) and its arrows (centre to
    centre, with a head, a shaft showing even between two neighbours) over
    the board at the step the note is anchored to, and nowhere else; they
    were listed in words only."""
    from selenium.webdriver.common.by import By

    from tabletop.play.engine import Replay

    # One of the arrows joins two neighbours, on the game's own board.
    game = Replay(registry, log).match.game
    if hasattr(game, "geo"):
        a, b = (game.geo.spot(n) for n in neighbours)
        assert b in game.geo.neighbours[a]
    else:
        a, b = (game.board.indices[n] for n in neighbours)
        assert abs(a - b) in (1, game.board.width)
    page = _noted_view(cli, tmp_path, log, at, squares, arrows)
    browser.get(page.resolve().as_uri() + f"#{at}")
    assert until(lambda: _text(browser, "#study-where") == f"After event {at} of the game")
    assert until(lambda: _drawn(browser) is not None)
    _on_their_spots(_drawn(browser), set(squares), {tuple(a.split("-")) for a in arrows})
    # A step away, nothing of it is drawn; back, it is drawn again.
    browser.execute_script("document.getElementById('prev').click()")
    assert until(lambda: _text(browser, "#study-where") == f"After event {at - 1} of the game")
    drawn = _drawn(browser)
    assert drawn is not None and not drawn["squares"] and not drawn["arrows"]
    browser.execute_script("document.getElementById('next').click()")
    assert until(lambda: len((_drawn(browser) or {}).get("arrows", [])) == len(arrows))
    # The page of the game's view says nothing of how it is drawn: no clicking here.
    assert not browser.find_elements(By.ID, "study-hint")
    assert not _errors(browser)


def _click(driver, name: str, shift: bool = False) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    spot = driver.find_element(By.CSS_SELECTOR, f'#board svg [data-spot="{name}"]')
    actions = ActionChains(driver).move_to_element(spot)
    if shift:
        actions = actions.key_down(Keys.SHIFT).click().key_up(Keys.SHIFT)
    else:
        actions = actions.click()
    actions.perform()


def test_squares_and_arrows_are_added_by_clicking_on_the_board(browser, duel, tmp_path):  # noqa: F811
    """Issue 28 part 1: on the analysis board, a spot Shift-clicked (or
    clicked twice) is highlighted, a spot clicked then another is an arrow,
    and so is a drag from one to another; doing it again takes it away.
    They are drawn as the note being written, saved with it as its squares
    and arrows, and drawn again after a reload."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    with board(tmp_path, "duel.jsonl") as url:
        browser.get(url + "#24")
        assert until(lambda: _text(browser, "#study-where") == "After event 24 of the game")
        assert browser.find_element(By.ID, "study-hint").is_displayed()
        _click(browser, "m5", shift=True)
        _click(browser, "l3")
        _click(browser, "l3")
        _click(browser, "m4")
        _click(browser, "l1")
        # A square taken away again, and an arrow.
        _click(browser, "a9", shift=True)
        _click(browser, "a9", shift=True)
        _click(browser, "g5")
        _click(browser, "g6")
        _click(browser, "g5")
        _click(browser, "g6")
        start, end = (browser.find_element(By.CSS_SELECTOR, f'#board svg [data-spot="{n}"]') for n in ("m4", "m5"))
        ActionChains(browser).click_and_hold(start).move_to_element(end).release().perform()
        squares, arrows = {"m5", "l3"}, {("m4", "l1"), ("m4", "m5")}
        assert until(lambda: len((_drawn(browser) or {}).get("arrows", [])) == 2)
        _on_their_spots(_drawn(browser), squares, arrows, kind="draft")
        assert browser.find_element(By.ID, "note-squares").get_attribute("value") == "m5 l3"
        assert browser.find_element(By.ID, "note-arrows").get_attribute("value") == "m4-l1 m4-m5"
        browser.find_element(By.ID, "note-comment").send_keys("the room ben gave up")
        browser.find_element(By.ID, "note-save").click()
        assert until(lambda: "the room ben gave up" in _text(browser, "#study-notes"))
        assert until(lambda: not [s for s in _drawn(browser)["squares"] if "draft" in s["kind"]])
        _on_their_spots(_drawn(browser), squares, arrows)
        # Reloaded: the note is read back from the study file, and drawn.
        browser.refresh()
        assert until(lambda: _text(browser, "#study-where") == "After event 24 of the game")
        assert until(lambda: len((_drawn(browser) or {}).get("arrows", [])) == 2)
        _on_their_spots(_drawn(browser), squares, arrows)
        assert not [e for e in _errors(browser) if "422" not in e]
    (note,) = load(registry_of(), duel).notes
    assert (note.at.seq, note.comment) == (24, "the room ben gave up")
    assert note.squares == ("m5", "l3") and note.arrows == (("m4", "l1"), ("m4", "m5"))
