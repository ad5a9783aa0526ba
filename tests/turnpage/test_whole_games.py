"""Whole games played by clicking in headless Chromium (Debian's, driven by
Selenium) on a real server, ann on her turn page and ben by mail: each
ends with the log and the mails of the same game played by mail alone.
Then the pages at 1,300 and 390 px: nothing runs off the side, and press
full of markup runs nothing."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from tabletop.api import bot_named
from tabletop.model.nodes import Decide
from tabletop.play.engine import Replay
from tabletop.referee import pages
from tabletop.referee.gamedir import GameDir
from tabletop.sight import seen

from ..referee.conftest import Game, game_copy, plain_registry_cached
from .conftest import path_of, set_page_url
from .test_turn_page import _texts

#: How long a page may take to come back after a post on a busy machine before the test gives up.
BOUND = 180


def _due(game: Game):
    match = Replay(game.registry, game.path / "game.jsonl").run()
    node = match.node
    return match, (node.players[0] if isinstance(node, Decide) else None)


def _choose(match, who: str, bot, step: int) -> str:
    """The greedy bot's decision for ``who``, from ``who``'s view (the same in both games)."""
    legal = list(match.game.legal(match.state, who))
    return match.game.notate(seen.choice(bot, match.game, match.state, who, legal, random.Random(step)))


def _click_and_play(browser, server_url: str, notation: str) -> None:
    """Play ``notation`` on the open page: the board's spots it names clicked,
    then chosen from the list (or written, when the list leaves it out)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    WebDriverWait(browser, BOUND).until(lambda b: b.find_elements(By.ID, "play-written"))
    listed = browser.find_elements(By.CSS_SELECTOR, f'#decision option[value="{notation}"]')
    if not listed:
        field = browser.find_element(By.ID, "written")
        field.send_keys(notation)
        browser.find_element(By.ID, "play-written").click()
        return
    spots = browser.execute_script(
        "var o = arguments[0]; var s = JSON.parse(o.getAttribute('data-spots'));"
        "return s.filter(function (n) { return document.querySelector('#board [data-spot=\"' + n + '\"]'); });",
        listed[0],
    )
    for spot in spots[:2]:
        element = browser.find_element(By.CSS_SELECTOR, f'#board [data-spot="{spot}"]')
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
        ActionChains(browser).move_to_element(element).click().perform()
    if spots:
        # The click kept the decision among those shown.
        assert not browser.execute_script("return arguments[0].hidden;", listed[0]), (notation, spots)
    Select(browser.find_element(By.ID, "decision")).select_by_value(notation)
    browser.find_element(By.ID, "play").click()


def _whole_game(tmp_path, port, servers, browser, game_name: str, shots: str = "") -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    registry = plain_registry_cached()
    paged = game_copy(tmp_path / "paged", registry, None, game=game_name)
    set_page_url(paged.path, port)
    pages.key(GameDir(paged.path))  # the copy's pages are the same pages
    mailed = Game(tmp_path / "mailed" / "g", dict(paged.secrets), registry, None)
    shutil.copytree(paged.path, mailed.path)
    # A game played at a machine's pace: more posts a minute than a person makes.
    servers([paged.path], port, options=("--page-posts", "1000", "--page-requests", "10000"))
    bot = bot_named(registry, "greedy", Replay(registry, paged.path / "game.jsonl").match.header.game)
    url = f"http://127.0.0.1:{port}"
    step = clicked = 0
    while True:
        match, who = _due(paged)
        if who is None:
            break
        notation = _choose(match, who, bot, step)
        assert "played" in mailed.receive(mailed.mail(who, f"move: {notation}"))
        events = paged.events()
        if who == "ann":
            browser.get(url + path_of(paged, "ann"))
            _click_and_play(browser, url, notation)
            WebDriverWait(browser, BOUND).until(
                lambda b, before=events: paged.events() > before and b.find_elements(By.ID, "answer")
            )
            answer = browser.find_element(By.ID, "answer").text
            assert "played 1 decision(s) of ann" in answer, answer
            clicked += 1
        else:
            assert "played" in paged.receive(paged.mail(who, f"move: {notation}"))
        assert paged.log() == mailed.log(), f"step {step}: {notation}"
        step += 1
    assert match.over and clicked > 5
    assert paged.log() == mailed.log()
    assert _texts(paged) == _texts(mailed)
    # The finished game's page: the result, nothing to play, at both widths with nothing off the side.
    browser.get(url + path_of(paged, "ann"))
    WebDriverWait(browser, BOUND).until(lambda b: b.find_elements(By.ID, "asked"))
    assert "The game is over." in browser.find_element(By.ID, "asked").text
    _widths(browser, shots and f"{shots}-over")


def _widths(browser, name: str) -> None:
    for width in (1300, 390):
        browser.set_window_size(width, 1100)
        wide = browser.execute_script("return document.documentElement.scrollWidth")
        inner = browser.execute_script("return window.innerWidth")
        assert wide <= inner, f"the page is {wide} px wide in a window of {inner}"
        keep = os.environ.get("TABLETOP_SCREENSHOTS")  # a folder to keep the pictures in, to look at
        if keep and name:
            height = browser.execute_script("return document.documentElement.scrollHeight")
            browser.set_window_size(width, min(height + 140, 4000))
            browser.get_screenshot_as_file(str(Path(keep) / f"{name}-{width}.png"))
    browser.set_window_size(1300, 1100)


def test_a_whole_glux_game_by_clicking_and_by_mail(tmp_path, port, servers, browser):
    _whole_game(tmp_path, port, servers, browser, "glux", shots="turnpage-glux")


@pytest.mark.slow
def test_a_whole_glyph_chess_game_by_clicking_and_by_mail(tmp_path, port, servers, browser):
    _whole_game(tmp_path, port, servers, browser, "glyph-chess", shots="turnpage-glyph-chess")


def test_the_page_mid_game_at_two_widths_and_markup_that_runs_nothing(tmp_path, port, servers, browser):
    """A page during the game: the board, the decisions, press full of
    markup shown as text (no script of it runs), at 1,300 and 390 px."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from .conftest import served_game

    game = served_game(tmp_path, port)
    servers([game.path], port)
    for _ in range(6):
        match, who = _due(game)
        assert "played" in game.receive(game.mail(who, f"move: {game.legal(who)[0]}"))
    url = f"http://127.0.0.1:{port}"

    def press(text: str) -> None:
        browser.get(url + path_of(game, "ben"))
        WebDriverWait(browser, BOUND).until(lambda b: b.find_elements(By.ID, "press-text"))
        browser.find_element(By.ID, "press-text").send_keys(text)
        browser.find_element(By.CSS_SELECTOR, "#press button[type=submit]").click()
        WebDriverWait(browser, BOUND).until(lambda b: b.find_elements(By.ID, "answer"))

    press("Good luck, ann!")
    browser.get(url + path_of(game, "ann"))
    WebDriverWait(browser, BOUND).until(lambda b: b.find_elements(By.ID, "press-list"))
    assert "ben: Good luck, ann!" in browser.find_element(By.ID, "press-list").text
    _widths(browser, "turnpage")
    markup = "<img src=x onerror=\"document.title='owned'\"><script>document.title='owned'</script>"
    press(markup)
    browser.get(url + path_of(game, "ann"))
    WebDriverWait(browser, BOUND).until(lambda b: b.find_elements(By.ID, "press-list"))
    assert markup in browser.find_element(By.ID, "press-list").text
    assert browser.title != "owned"
    assert not browser.find_elements(By.CSS_SELECTOR, "#press-list img, #press-list script")
    _widths(browser, "")


def test_the_page_follows_the_game_in_the_browser(tmp_path, port, servers, browser):
    """ann's page, left open while ben's decision comes by mail, reloads
    itself at the new last event (a wait for that state, not a time)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from .conftest import served_game

    game = served_game(tmp_path, port)
    servers([game.path], port)
    while _due(game)[1] != "ben":
        match, who = _due(game)
        assert "played" in game.receive(game.mail(who, f"move: {game.legal(who)[0]}"))
    browser.get(f"http://127.0.0.1:{port}" + path_of(game, "ann"))
    WebDriverWait(browser, BOUND).until(lambda b: b.find_elements(By.ID, "asked"))
    assert "Waiting for ben" in browser.find_element(By.ID, "asked").text
    before = len(browser.find_elements(By.CSS_SELECTOR, "#events li[data-step]"))
    assert before == game.events() + 1
    browser.execute_script("window.leftOpen = true;")
    assert "played" in game.receive(game.mail("ben", f"move: {game.legal('ben')[0]}"))
    WebDriverWait(browser, BOUND).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, "#events li[data-step]")) == game.events() + 1
    )
    assert game.events() + 1 > before
    assert browser.execute_script("return window.leftOpen === undefined;")  # reloaded by itself
    who = _due(game)[1]
    expected = "It is your turn" if who == "ann" else "Waiting for ben"
    assert expected in browser.find_element(By.ID, "asked").text
