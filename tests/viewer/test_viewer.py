"""``tabletop view``: the step-through page, driven in a real headless Chromium,
and per-player pages that hold nothing the player may not see; its key (the
seats' colours in the score table, the legend of the board's symbols, the
turn marker and whose draw is due)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.play.engine import Replay
from tabletop.sight import seen
from tabletop.viewer import page
from tabletop.viewer.page import build, encode_pictures, legend_of

from ..conftest import REPLAYS

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
GLUX = REPLAYS / "glux" / "four-players.jsonl"
GLYPH = REPLAYS / "glyph_chess" / "three-players-random.jsonl"
GLYPH_SHORT = REPLAYS / "glyph_chess" / "three-players-centre.jsonl"


def decode(pictures: dict) -> list[str]:
    """The pictures back from the page's data, as the page's script does it."""
    frames = [list(pictures["first"])]
    for edits in pictures["edits"]:
        frame = list(frames[-1])
        for i1, i2, ids in reversed(edits):
            frame[i1:i2] = ids
        frames.append(frame)
    return ["\n".join(pictures["lines"][i] for i in frame) for frame in frames]


@given(st.lists(st.lists(st.sampled_from(["<a/>", "<b/>", "<c x='1'/>", "", "d"]), max_size=12), min_size=1))
def test_pictures_stored_as_edits_come_back_whole(pictures):
    texts = ["\n".join(lines) for lines in pictures]
    assert decode(json.loads(json.dumps(encode_pictures(texts)))) == texts


def page_data(html: str) -> dict:
    raw = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', html, re.S).group(1)
    return json.loads(raw)


def test_view_writes_one_self_contained_page(cli, tmp_path):
    result = cli("view", GLUX, "-o", "game.html")
    assert result.exit_code == 0, result.output
    html = (tmp_path / "game.html").read_text()
    # Nothing is fetched: no URL but the SVG namespace, and a policy that forbids any.
    assert set(re.findall(r"https?://[\w./-]+", html)) == {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in html
    data = page_data(html)
    events = len(GLUX.read_text().splitlines()) - 1
    assert len(data["views"][0]["texts"]) == len(data["views"][0]["status"]) == events + 1
    pictures = decode(data["views"][0]["pictures"])
    assert len(pictures) == events + 1 and all(p.startswith("<svg") for p in pictures)
    assert "event 57" in pictures[57]
    assert html.count('<li id="e') == events + 1


def test_view_default_output_and_a_game_without_pictures(cli, tmp_path):
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    result = cli("view", "g.jsonl", "--as", "bob")
    assert result.exit_code == 0 and "g-bob.html: a viewer of g.jsonl as bob sees it." in result.stdout
    pictures = decode(page_data((tmp_path / "g-bob.html").read_text())["views"][0]["pictures"])
    assert pictures[-1].startswith('<pre class="board">')  # Pile draws no SVG: the text board stands in


def test_view_as_someone_not_playing(cli):
    result = cli("view", GLUX, "--as", "zed")
    assert result.exit_code == 2 and "--as 'zed': not a player of this game" in result.stderr


#: What a player may not see of another, ``{p}`` standing for that other player.
HIDDEN = {
    GLUX: [r"{p} draws [1-6]/[1-6]", r"{p}: \d+ VP; hand [1-6]/[1-6]"],
    GLYPH_SHORT: [r"{p} draws an? [SIEFNU] coin", r"{p}: coins [SIEFNU ]*;"],
}


@pytest.mark.parametrize("log", [GLUX, GLYPH_SHORT], ids=["glux", "glyph-chess"])
def test_each_players_page_holds_nothing_hidden_from_them(registry, log):
    players = Replay(registry, log).header.players
    everything = page(registry, log)
    for player in players:
        mine = page(registry, log, player)
        for other in players:
            for pattern in HIDDEN[log]:
                hidden = re.compile(pattern.format(p=re.escape(other)))
                # The all-seeing page shows it: the check below looks for something real.
                assert hidden.search(everything), pattern
                found = hidden.search(mine)
                if other == player:
                    assert found, f"{player} should see their own: {pattern}"
                else:
                    assert not found, f"{player}'s page shows {found.group(0)!r}"


# -- in a real browser ---------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("no Chromium: apt-get install chromium chromium-driver")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the viewer extra)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1300,1100")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


def _open(browser, path: Path):
    browser.get(path.resolve().as_uri())
    return browser


def _text(browser, css: str) -> str:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, css).text


def _errors(browser) -> list[str]:
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def test_browser_steps_with_the_arrow_keys(browser, cli, registry, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    cli("view", GLUX, "--as", "ann", "-o", "ann.html")
    _open(browser, tmp_path / "ann.html")
    assert _text(browser, "#position") == "Start"
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(57):
        body.send_keys(Keys.ARROW_RIGHT)
    run = Replay(registry, GLUX)
    events = [e for _, _, e in run]
    last = len(events)
    match = Replay(registry, GLUX).run(57)
    assert _text(browser, "#position") == f"Event 57 of {last}"
    assert _text(browser, "#event") == match.describe(events[56], "ann")
    assert "current" in browser.find_element(By.CSS_SELECTOR, "#e57").get_attribute("class").split()
    title = browser.find_element(By.CSS_SELECTOR, "#board svg title").get_attribute("textContent")
    assert title.startswith("Glüx: event 57, ")
    # The board shown is the picture of the position after event 57, as ann sees it.
    legend = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#board svg text") if t.text.startswith("w ann:")]
    expected = seen.text(match.game, match.state, "ann").split("\nann: ")[1].split(" [")[0]
    assert legend and expected in legend[0]
    # Back one, then to the end and to the start.
    body.send_keys(Keys.ARROW_LEFT)
    assert _text(browser, "#position") == f"Event 56 of {last}"
    body.send_keys(Keys.END)
    assert _text(browser, "#position") == f"Event {last} of {last}"
    assert "Game over" in _text(browser, "#status")
    body.send_keys(Keys.HOME)
    assert _text(browser, "#position") == "Start"
    assert browser.get_screenshot_as_file(str(tmp_path / "glux.png"))
    assert not _errors(browser)


def test_browser_buttons_slider_and_event_list(browser, cli, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    cli("view", GLYPH, "-o", "glyph.html")
    _open(browser, tmp_path / "glyph.html")
    next_button = browser.find_element(By.ID, "next")
    for _ in range(5):
        next_button.click()
    assert _text(browser, "#position").startswith("Event 5 of ")
    browser.find_element(By.ID, "prev").click()
    assert _text(browser, "#position").startswith("Event 4 of ")
    browser.find_element(By.ID, "last").click()
    last = int(browser.find_element(By.ID, "slider").get_attribute("max"))
    assert _text(browser, "#position") == f"Event {last} of {last}"
    browser.find_element(By.ID, "first").click()
    assert _text(browser, "#position") == "Start"
    # A click on an event in the list jumps there.
    rows = [json.loads(line) for line in GLYPH.read_text().splitlines()[1:]]
    move = next(r for r in rows if r["kind"] == "move" and r["seq"] > 100)
    item = browser.find_element(By.ID, f"e{move['seq']}")
    browser.execute_script("arguments[0].scrollIntoView()", item)
    item.click()
    assert _text(browser, "#position") == f"Event {move['seq']} of {last}"
    p = move["payload"]
    assert _text(browser, "#event") == f"{move['player']} {p['source']}-{p['target']}" + (
        " / " + " ".join([f"D{d}" for d in p["dice"]] + p["coins"]) if p["dice"] or p["coins"] else ""
    )
    # The move is drawn on the board: one arrow, its two ends ringed.
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board svg [marker-end]")) == 1
    # The slider, from the keyboard.
    slider = browser.find_element(By.ID, "slider")
    slider.send_keys(Keys.ARROW_RIGHT)
    assert _text(browser, "#position") == f"Event {move['seq'] + 1} of {last}"
    # The scores table has a column per player.
    assert len(browser.find_elements(By.CSS_SELECTOR, "#scores th")) == 3
    assert browser.get_screenshot_as_file(str(tmp_path / "glyph.png"))
    assert not _errors(browser)


def test_browser_opens_at_the_event_in_the_address(browser, cli, tmp_path):
    cli("view", GLUX, "-o", "game.html")
    browser.get((tmp_path / "game.html").resolve().as_uri() + "#40")
    assert _text(browser, "#position").startswith("Event 40 of ")
    assert not _errors(browser)


def test_renderers_written_without_history_keep_working():
    from tabletop import Renderer

    def old(game, state, viewer):
        return f"<svg>{viewer}</svg>"

    def new(game, state, viewer, history=None):
        return f"<svg>{viewer} {len(history) if history is not None else '-'}</svg>"

    assert Renderer("g", "svg", "image/svg+xml", old).draw(None, None, "ann", ["e1", "e2"]) == "<svg>ann</svg>"
    assert Renderer("g", "svg", "image/svg+xml", new).draw(None, None, "ann", ["e1", "e2"]) == "<svg>ann 2</svg>"
    assert Renderer("g", "svg", "image/svg+xml", new).draw(None, None, None) == "<svg>None -</svg>"


def test_the_viewer_is_callable_from_python(registry, tmp_path):
    import subprocess
    import sys

    # Imported first, before the command line, as the referee imports it.
    code = "from tabletop.viewer import write_html; print(write_html.__name__)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "write_html", done.stderr
    from tabletop.viewer import write_html

    out = write_html(registry, GLUX, tmp_path / "v.html", viewer="ben")
    assert out == tmp_path / "v.html" and "as ben sees it" in out.read_text()


def test_player_names_cannot_inject_markup(cli, tmp_path):
    assert cli("new", "pile", "--players", "<i>,b&'</script>", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    result = cli("view", "g.jsonl", "-o", "g.html")
    assert result.exit_code == 0, result.output
    html = (tmp_path / "g.html").read_text()
    assert (
        "<i>" not in html and "</script>'" not in html and html.count("</script>") == 3
    )  # the frames, the data and the viewer
    assert "&lt;i&gt;" in html  # shown, as text
    data = page_data(html)
    assert data["players"] == ["<i>", "b&'</script>"]


# -- turns, chance, perspectives ---------------------------------------------------


def test_turns_group_the_events_and_start_with_a_decision_of_another_player(registry):
    from tabletop.viewer.page import build, turns

    _, steps = build(registry, GLUX)
    turn = turns(steps, _legend(registry, GLUX))
    assert turn[0] == 0 and turn == sorted(turn)
    for before, after in zip(steps, steps[1:]):
        if turn[after.seq] != turn[before.seq]:
            assert after.origin == "decision" and turn[after.seq] == turn[before.seq] + 1
            previous = [s.actor for s in steps[: after.seq] if s.origin == "decision" and turn[s.seq] > 0]
            assert not previous or previous[-1] != after.actor


def test_a_page_for_several_players_holds_their_views_and_nothing_else(registry, cli, tmp_path):
    result = cli("view", GLUX, "--as", "ann", "--as", "ben")
    assert result.exit_code == 0 and "as ann and ben see it" in result.stdout
    html = (GLUX.parent / "four-players-ann-ben.html").read_text()
    (GLUX.parent / "four-players-ann-ben.html").unlink()
    data = page_data(html)
    assert [v["label"] for v in data["views"]] == ["ann", "ben"]
    players = Replay(registry, GLUX).header.players
    for other in players:
        if other not in ("ann", "ben"):
            for pattern in HIDDEN[GLUX]:
                assert not re.search(pattern.format(p=re.escape(other)), html)
    assert 'id="download"' not in html  # a player's page has no log to download


def test_a_finished_games_page_holds_every_view_and_the_log(registry):
    html = page(registry, GLUX)
    data = page_data(html)
    players = list(Replay(registry, GLUX).header.players)
    assert [v["label"] for v in data["views"]] == ["everything", *players]
    href = re.search(
        r'<a id="download" href="data:application/x-ndjson;base64,([^"]+)" download="four-players.jsonl"', html
    )
    import base64

    assert base64.b64decode(href.group(1)) == GLUX.read_bytes()


def _key(browser, key):
    from selenium.webdriver.common.by import By

    browser.find_element(By.TAG_NAME, "body").send_keys(key)


def _step(browser) -> int:
    return int(browser.find_element("tag name", "body").get_attribute("data-step"))


def test_browser_by_turn_by_player_hiding_chance_and_autoplay(browser, cli, registry, tmp_path):
    import time

    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    from tabletop.viewer.page import build, turns

    _, steps = build(registry, GLUX)
    turn = turns(steps, _legend(registry, GLUX))
    cli("view", GLUX, "-o", "game.html")
    _open(browser, tmp_path / "game.html")
    # Page Down: the first event of each turn in order; Page Up back to the start of the turn.
    starts = [s for s in range(1, len(turn)) if turn[s] != turn[s - 1]]
    for expected in starts[:4]:
        _key(browser, Keys.PAGE_DOWN)
        assert _step(browser) == expected
    _key(browser, Keys.ARROW_RIGHT)
    _key(browser, Keys.PAGE_UP)
    assert _step(browser) == starts[3]
    _key(browser, Keys.PAGE_UP)
    assert _step(browser) == starts[2]
    # The player to decide is marked in the score table.
    acting = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#scores th.acting")]
    assert acting == [f"\u25b8 {p}" for p in steps[starts[2]].acting]
    # The next decision of ben.
    Select(browser.find_element(By.ID, "who")).select_by_value("ben")
    browser.find_element(By.ID, "next-of").click()
    at = _step(browser)
    assert steps[at].actor == "ben" and at > starts[2]
    assert all(s.actor != "ben" for s in steps[starts[2] + 1 : at])
    # Chance events hidden: gone from the list, and stepping passes over them.
    browser.find_element(By.ID, "hide-chance").click()
    chance = next(s.seq for s in steps if s.origin == "chance" and s.seq > at)
    assert not browser.find_element(By.ID, f"e{chance}").is_displayed()
    for _ in range(6):
        _key(browser, Keys.ARROW_RIGHT)
        assert steps[_step(browser)].origin != "chance"
    # The turn headings are in the list; the list takes the keyboard focus.
    headings = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#events li.turn")]
    assert headings[0] == "Setup" and headings[1].startswith("Turn 1 · ")
    listbox = browser.find_element(By.ID, "events")
    assert listbox.get_attribute("tabindex") == "0" and listbox.get_attribute("role") == "listbox"
    assert listbox.get_attribute("aria-activedescendant") == f"e{_step(browser)}"
    # Autoplay goes on by itself, and stops when pressed again.
    before = _step(browser)
    browser.find_element(By.ID, "autoplay").click()
    time.sleep(1.6)
    browser.find_element(By.ID, "autoplay").click()
    stopped = _step(browser)
    assert stopped > before
    time.sleep(0.9)
    assert _step(browser) == stopped
    assert not _errors(browser)


def test_browser_switches_perspective(browser, cli, registry, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    cli("view", GLUX, "-o", "game.html")
    browser.get((tmp_path / "game.html").resolve().as_uri() + "#30")
    run = Replay(registry, GLUX)
    events = [e for _, _, e in run]
    match = Replay(registry, GLUX).run(30)
    assert _text(browser, "#event") == match.describe(events[29])
    perspective = Select(browser.find_element(By.ID, "perspective"))
    for player in Replay(registry, GLUX).header.players:
        perspective.select_by_visible_text(player)
        assert _text(browser, "#event") == match.describe(events[29], player)
        assert _text(browser, "#e30").endswith(match.describe(events[29], player))
    assert not _errors(browser)


@pytest.mark.parametrize("width", [1300, 390], ids=["desktop", "phone"])
def test_screenshots_at_desktop_and_phone_widths(browser, cli, tmp_path, width):
    cli("view", GLUX, "-o", "game.html")
    browser.set_window_size(width, 1100 if width > 600 else 844)
    try:
        browser.get((tmp_path / "game.html").resolve().as_uri() + "#41")
        shot = tmp_path / f"viewer-{width}.png"
        assert browser.get_screenshot_as_file(str(shot))
        keep = os.environ.get("TABLETOP_SCREENSHOTS")  # a folder to keep the pictures in, to look at
        if keep:
            shutil.copy(shot, Path(keep) / shot.name)
        # Nothing runs off the side of the screen.
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        browser.set_window_size(1300, 1100)
    assert not _errors(browser)


# -- the key: seats, symbols, turn -----------------------------------------------

SHOTS = "TABLETOP_SCREENSHOTS"  # a folder to keep the pictures in, to look at


def _keep(shot: Path) -> None:
    folder = os.environ.get(SHOTS)
    if folder:
        shutil.copy(shot, Path(folder) / shot.name)


def _legend(registry, log: Path):
    match = Replay(registry, log).match
    return legend_of(registry.renderer(match.header.game, "svg"), match)


@pytest.mark.parametrize("log", [GLUX, GLYPH], ids=["glux", "glyph-chess"])
def test_the_page_holds_the_games_key(registry, cli, tmp_path, log):
    legend = _legend(registry, log)
    cli("view", log, "-o", "game.html")
    html = (tmp_path / "game.html").read_text()
    players = Replay(registry, log).header.players
    # One mark per seat, in the seat's colour; one item per symbol, with its meaning.
    assert len(legend.seats) == len(players)
    for i, colour in enumerate(legend.seats):
        assert f'<li class="seat" data-seat="{i}">' in html and f'fill="{colour}"' in page_data(html)["seats"][i]
    for symbol in legend.symbols:
        assert f'<li data-symbol="{symbol.key}">' in html and symbol.meaning.replace("'", "&#x27;") in html
    # Every symbol the pictures use has a meaning in the key.
    used = set()
    for view in page_data(html)["views"]:
        used |= set(re.findall(r'data-symbol="([^"]+)"', " ".join(view["pictures"]["lines"])))
    assert used and used <= {s.key for s in legend.symbols}


def test_glux_key_names_its_symbols_and_glyph_chess_its_pieces(registry):
    glux = {s.key: s.meaning for s in _legend(registry, GLUX).symbols}
    assert {"start-corner", "middle-room", "last-placement", "chip", "covered"} == set(glux)
    glyph = {s.key: s.meaning for s in _legend(registry, GLYPH).symbols}
    assert [glyph[f"piece-{k}"].split(":")[0] for k in "KSIEFNUM"] == list("KSIEFNUM")


def test_the_turn_marker_follows_the_events(registry):
    match, steps = build(registry, GLUX)
    events = [e for _, _, e in Replay(registry, GLUX)]
    run = Replay(registry, GLUX)
    seen = {"turn": 0, "due": 0}
    for (_, seq, _event), step in zip(run, steps[1:]):
        state = run.match.state
        # The player at turn is the one the rules say (Glüx: state.turn), whatever the event was.
        expected = None if state.turn is None else run.match.header.players[state.turn]
        assert step.turn == expected, seq
        # A draw is due: the next event is that player's draw (in setup, each player's in turn;
        # then the player at turn's, after they placed).
        if step.due is not None:
            assert events[seq].origin == "chance" and events[seq].player == step.due, seq
            assert step.turn in (None, step.due)
            seen["due"] += 1
        elif seq < len(events):
            assert events[seq].origin != "chance" or getattr(events[seq], "player", None) is None
        seen["turn"] += step.turn is not None
    assert seen["turn"] > 100 and seen["due"] > 40


def _cells(browser, row: str) -> list[str]:
    from selenium.webdriver.common.by import By

    return [c.text for c in browser.find_elements(By.CSS_SELECTOR, f"#scores {row}")]


def _shown_symbols(browser) -> set[str]:
    from selenium.webdriver.common.by import By

    return {
        li.get_attribute("data-symbol")
        for li in browser.find_elements(By.CSS_SELECTOR, "#symbols li[data-symbol]")
        if li.is_displayed()
    }


def _board_symbols(browser) -> set[str]:
    return set(
        browser.execute_script(
            "return Array.from(document.querySelectorAll('#board [data-symbol]'))"
            ".map(function (e) { return e.getAttribute('data-symbol'); })"
        )
    )


def test_browser_key_legend_and_turn_marker(browser, cli, registry, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _, steps = build(registry, GLUX)
    legend = _legend(registry, GLUX)
    players = Replay(registry, GLUX).header.players
    cli("view", GLUX, "-o", "game.html")
    _open(browser, tmp_path / "game.html")
    body = browser.find_element(By.TAG_NAME, "body")
    # The score table's marks are the seats' marks, in their colours, in seat order.
    marks = browser.find_elements(By.CSS_SELECTOR, "#scores th svg.swatch [fill]")
    assert [m.get_attribute("fill") for m in marks] == list(legend.seats)
    assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#seats li")] == list(players)
    keys = [m.get_attribute("fill") for m in browser.find_elements(By.CSS_SELECTOR, "#seats svg [fill]")]
    assert keys == list(legend.seats)
    # At the start: no chip yet, so the key lists only what the board shows.
    assert _shown_symbols(browser) == _board_symbols(browser) == {"start-corner", "middle-room"}
    # Step on: at each step, the key lists exactly the symbols on the board, and
    # the turn row marks the player at turn (and whose draw is due).
    for step in steps[1:80]:
        body.send_keys(Keys.ARROW_RIGHT)
        assert _shown_symbols(browser) == _board_symbols(browser), step.seq
        row = _cells(browser, "tr.turn-row td")
        words = [[] for _ in players]
        if step.turn is not None:
            words[players.index(step.turn)].append("turn")
        if step.due is not None:
            words[players.index(step.due)].append("draw due")
        assert row == [" · ".join(w) for w in words], step.seq
    assert {"chip", "covered", "last-placement"} <= _shown_symbols(browser)
    assert not _errors(browser)


@pytest.mark.parametrize("log", [GLUX, GLYPH], ids=["glux", "glyph-chess"])
@pytest.mark.parametrize("width", [1300, 390], ids=["desktop", "phone"])
def test_key_screenshots_at_desktop_and_phone_widths(browser, cli, tmp_path, log, width):
    cli("view", log, "-o", "game.html")
    browser.set_window_size(width, 1100 if width > 600 else 844)
    try:
        browser.get((tmp_path / "game.html").resolve().as_uri() + "#41")
        from selenium.webdriver.common.by import By

        key = browser.find_element(By.ID, "legend")
        assert key.is_displayed() and key.size["width"] <= width
        shot = tmp_path / f"key-{log.parent.name}-{width}.png"
        assert browser.get_screenshot_as_file(str(shot))
        _keep(shot)
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        browser.set_window_size(1300, 1100)
    assert not _errors(browser)


def test_a_renderer_without_a_legend_gives_a_page_without_a_key(cli, tmp_path):
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    cli("view", "g.jsonl", "-o", "g.html")
    html = (tmp_path / "g.html").read_text()
    assert 'id="legend"' not in html and page_data(html)["seats"] == []


def test_a_page_of_a_game_in_progress_holds_no_log(cli, tmp_path):
    """Trust finding 5: the log of a game in progress holds every hidden draw,
    and an open seed foretells every draw to come: a page without ``--as``
    holds the log only once the game is over."""
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    assert cli("view", "g.jsonl", "-o", "now.html").exit_code == 0
    html = (tmp_path / "now.html").read_text()
    assert 'id="download"' not in html and "base64" not in html
    from .test_watch_trust import TO_THE_END

    for player, move in TO_THE_END:
        assert cli("play", "g.jsonl", move, "--player", player).exit_code == 0
    assert cli("view", "g.jsonl", "-o", "over.html").exit_code == 0
    assert 'id="download"' in (tmp_path / "over.html").read_text()
