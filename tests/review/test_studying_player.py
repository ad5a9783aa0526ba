"""What a studying player reaches for: the viewer's board and events in one
view on a laptop and legible on a phone, turns counted from the first after
setup, no score row for a game without points, a short move's arrow in
sight; each step's state as data (``replay --json --step --state``), the
results first in ``diff``, and the bots with their settings (``tabletop bots``)."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tabletop.play.engine import Replay
from tabletop.sight.svg import NARROWEST, SMALLEST
from tabletop.viewer.page import build, page, turns

from ..conftest import REPLAYS, Cli
from ..viewer.test_viewer import browser, page_data  # noqa: F401  (the browser fixture)

GLUX = REPLAYS / "glux" / "four-players.jsonl"
GLYPH = REPLAYS / "glyph_chess" / "three-players-centre.jsonl"
GAMES = pytest.mark.parametrize("log", [GLUX, GLYPH], ids=["glux", "glyph-chess"])
SVG = "{http://www.w3.org/2000/svg}"
#: Where ``TABLETOP_SCREENSHOTS=docs`` keeps the viewer's screenshots for the guide.
SHOTS = "TABLETOP_SCREENSHOTS"


# -- the viewer in a browser, at a laptop's and a phone's size ------------------------


def _viewport(driver, width: int, height: int, phone: bool = False) -> None:
    # The page's own size (not the window's, which has a frame of its own).
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2 if phone else 1, "mobile": phone},
    )


def _reset(driver) -> None:
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _keep(driver, log: Path, width: int) -> None:
    folder = os.environ.get(SHOTS)
    if not folder:
        return
    name = f"viewer-{log.parent.name.replace('_', '-')}-{width}.png"
    shot = Path(folder) / name
    assert driver.get_screenshot_as_file(str(shot))
    from PIL import Image

    # A page of flat colours needs no more than a palette's: a small file for the docs, each seat's colour kept.
    with Image.open(shot) as image:
        image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(shot, optimize=True)


LAYOUT = """
var svg = document.querySelector('#board svg').getBoundingClientRect();
var log = document.getElementById('log').getBoundingClientRect();
var current = document.querySelector('#events li.current').getBoundingClientRect();
return {height: window.innerHeight, width: window.innerWidth, scrolled: window.scrollY,
        board: [svg.top, svg.bottom, svg.left, svg.right], log: [log.top, log.bottom, log.left, log.right],
        current: [current.top, current.bottom]};
"""


@GAMES
def test_board_and_events_are_in_one_view_at_1300_by_760(browser, cli, tmp_path, log):  # noqa: F811
    """On a laptop's screen the board is not below the fold, under a key: the
    whole board, and the list of events with the current one, are in the
    window without scrolling."""
    cli("view", log, "-o", "game.html")
    _viewport(browser, 1300, 760)
    try:
        browser.get((tmp_path / "game.html").resolve().as_uri() + "#41")
        shown = browser.execute_script(LAYOUT)
        _keep(browser, log, 1300)
    finally:
        _reset(browser)
    assert shown["height"] == 760 and shown["scrolled"] == 0
    top, bottom, left, right = shown["board"]
    assert 0 <= top < bottom <= 760, shown
    assert 0 <= shown["log"][0] < shown["log"][1] <= 760, shown
    assert shown["log"][2] >= right  # beside the board, not under it
    assert shown["log"][0] <= shown["current"][0] < shown["current"][1] <= shown["log"][1], shown


SIZES = """
return Array.from(document.querySelectorAll('#board svg text')).map(function (t) {
  var box = t.getBoundingClientRect();
  return {text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
          height: box.height, right: box.right};
});
"""


@GAMES
def test_the_text_in_the_picture_reads_on_a_phone(browser, cli, tmp_path, log):  # noqa: F811
    """At 390 px wide, the smallest text inside the board picture is drawn at
    9 CSS pixels or more (it was about 6 in Glyph Chess's spot names), and
    nothing runs off the side of the screen."""
    cli("view", log, "-o", "game.html")
    _viewport(browser, 390, 844, phone=True)
    try:
        browser.get((tmp_path / "game.html").resolve().as_uri() + "#41")
        sizes = browser.execute_script(SIZES)
        wide = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        _keep(browser, log, 390)
    finally:
        _reset(browser)
    assert len(sizes) > 20
    smallest = min(sizes, key=lambda s: s["size"])
    assert smallest["size"] >= SMALLEST - 0.01, smallest
    assert min(s["height"] for s in sizes) >= SMALLEST, smallest
    assert wide[0] <= wide[1] == 390
    assert max(s["right"] for s in sizes) <= 390


def test_no_score_row_for_a_game_without_points(browser, cli, registry, tmp_path):  # noqa: F811
    """Glyph Chess is won without points (its scores only mark the winner):
    the score table keeps its players and whose turn it is, and has no row
    of scores. Glüx, with victory points, keeps it."""
    from selenium.webdriver.common.by import By

    rows = {}
    for log in (GLUX, GLYPH):
        cli("view", log, "-o", f"{log.stem}.html")
        browser.get((tmp_path / f"{log.stem}.html").resolve().as_uri() + "#end")
        rows[log] = [
            [c.text for c in tr.find_elements(By.CSS_SELECTOR, "td, th")]
            for tr in browser.find_elements(By.CSS_SELECTOR, "#scores tr")
        ]
    glyph = rows[GLYPH]
    players = list(Replay(registry, GLYPH).header.players)
    assert len(glyph) == 2 and [c.split()[-1] for c in glyph[0]] == players
    assert not any(re.fullmatch(r"\d+", c) for row in glyph for c in row)
    glux = rows[GLUX]
    assert len(glux) == 3 and all(re.fullmatch(r"\d+", c) for c in glux[1])
    assert page_data(page_of(GLYPH))["points"] is False and page_data(page_of(GLUX))["points"] is True


def page_of(log: Path) -> str:
    from tabletop import Registry, get_plugin_manager

    return page(Registry(get_plugin_manager([], environment=False)), log)


# -- turns --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "log", [GLUX, REPLAYS / "glyph_chess" / "advanced-setup.jsonl"], ids=["glux", "glyph-chess-advanced-setup"]
)
def test_turns_are_numbered_from_the_first_turn_after_setup(registry, tmp_path, log):
    """Setup is not a turn: turn 1 opens with the first decision once someone's
    turn it is (the game's legend says whose, None through setup), and the
    events before it stand under "Setup"."""
    opening = tmp_path / log.name  # the game's opening is enough
    opening.write_text("".join(log.read_text().splitlines(keepends=True)[:60]))
    log = opening
    match, steps = build(registry, log)
    legend = registry.renderer(match.header.game, "svg").legend(match.game)
    turn = turns(steps, legend)
    first = next(s.seq for s in steps[1:] if s.origin == "decision" and steps[s.seq - 1].turn is not None)
    setup = [s for s in steps[1:first] if s.origin == "decision"]
    assert setup, "the log has decisions in setup (start chips, arranged pieces): the test looks at something real"
    assert all(turn[s] == 0 for s in range(first)) and turn[first] == 1
    assert steps[first].actor == steps[first - 1].turn
    html = page_of(log)
    headings = re.findall(r'<li class="turn" aria-hidden="true">([^<]*)</li>', html)
    assert headings[0] == "Setup" and headings[1] == f"Turn 1 · {steps[first].actor}"
    opening = html.index(f'<li class="turn" aria-hidden="true">{headings[1]}</li>')
    assert html.index(f'<li id="e{first}" ') > opening > html.index(f'<li id="e{first - 1}" ')


def test_a_game_without_a_turn_order_counts_turns_from_its_first_decision(registry, tmp_path):
    cli = Cli(tmp_path)
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    for move, who in [("pick 1", "ann"), ("pick 2", "bob")]:
        assert cli("play", "g.jsonl", move, "--player", who).exit_code == 0
    _, steps = build(registry, tmp_path / "g.jsonl")
    first = next(s.seq for s in steps if s.origin == "decision")
    assert turns(steps)[first] == 1 and set(turns(steps)[:first]) == {0}


# -- the pictures ---------------------------------------------------------------------


def _sizes(svg: str) -> tuple[float, list[float]]:
    root = ET.fromstring(svg)
    return float(root.get("width")), [float(t.get("font-size")) for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("glux", "ann,ben", ()),
        ("glux", "ann,ben,cat,dan", ()),
        ("glyph-chess", "ann,ben", ()),
        ("glyph-chess", "ann,ben,cat", ("--option", "radius=8")),
    ],
    ids=["glux-2", "glux-4", "glyph-chess-2", "glyph-chess-radius-8"],
)
def test_every_text_in_a_picture_reads_once_scaled_to_a_phone(tmp_path, game, players, options):
    """Whatever the board's size, no text in the picture is smaller than
    reads on a phone once the picture is scaled to the phone's width."""
    cli = Cli(tmp_path)
    assert cli("new", game, "--players", players, *options, "--seed", "p", "-o", "g.jsonl").exit_code == 0
    assert cli(
        "selfplay", game, "--seats", str(players.count(",") + 1), "--seed", "p", *options, "-o", "out"
    ).exit_code in (0, 2)
    for log in [tmp_path / "g.jsonl", *sorted((tmp_path / "out").glob("*.jsonl"))]:
        result = cli("render", log, "--format", "svg", "-o", "b.svg")
        assert result.exit_code == 0, result.output
        width, sizes = _sizes((tmp_path / "b.svg").read_text())
        assert sizes and min(sizes) * NARROWEST / width >= SMALLEST - 1e-9, (log, width, min(sizes))


def _one_step_moves(registry, log: Path, count: int = 3) -> list[int]:
    run = Replay(registry, log)
    found = []
    for _, seq, event in run:
        geo = run.match.game.geo
        if event.kind == "move" and geo.distance(geo.spot(event.source), geo.spot(event.target)) == 1:
            found.append(seq)
            if len(found) == count:
                break
    return found


def _points(d: str) -> list[tuple[float, float]]:
    """Points along an arrow's path (``M`` then ``L``, ``Q`` or ``C``), or a line's two ends."""
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    pts = list(zip(numbers[::2], numbers[1::2]))
    if "C" in d:
        p0, p1, p2, p3 = pts
        return [
            tuple(
                (1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t**2 * c + t**3 * e
                for a, b, c, e in zip(p0, p1, p2, p3)
            )
            for t in (i / 40 for i in range(41))
        ]
    if "Q" in d:
        p0, p1, p2 = pts
        return [
            tuple((1 - t) ** 2 * a + 2 * (1 - t) * t * b + t**2 * c for a, b, c in zip(p0, p1, p2))
            for t in (i / 40 for i in range(41))
        ]
    (x1, y1), (x2, y2) = pts
    return [(x1 + (x2 - x1) * i / 40, y1 + (y2 - y1) * i / 40) for i in range(41)]


def test_a_one_step_moves_arrow_is_drawn_clear_of_both_pieces(registry, cli, tmp_path):
    """A move to the next spot: its arrow (shaft and head) lies outside the
    piece that moved and outside the spot it left, and is long enough to
    see; it was a stub under the piece."""
    log = REPLAYS / "glyph_chess" / "three-players-random.jsonl"
    moves = _one_step_moves(registry, log)
    assert moves
    from tabletop.sight.svg import HEAD
    from tabletop_glyph_chess.picture import PIECE

    for seq in moves:
        assert cli("render", log, "--until", str(seq), "-o", "b.svg").exit_code == 0
        root = ET.parse(tmp_path / "b.svg").getroot()
        drawn = [e for e in root.iter() if e.get("marker-end") == "url(#arrow)"]
        assert len(drawn) == 1
        arrow = drawn[0]
        path = (
            _points(arrow.get("d"))
            if arrow.get("d")
            else _points(" ".join(arrow.get(k) for k in ("x1", "y1", "x2", "y2")))
        )
        rings = [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG}circle") if c.get("fill") == "none"]
        assert len(rings) == 2
        width = float(arrow.get("stroke-width"))
        for x, y in path:
            for cx, cy in rings:
                assert math.hypot(x - cx, y - cy) >= PIECE + width / 2, (seq, (x, y), (cx, cy))
        length = sum(math.dist(a, b) for a, b in zip(path, path[1:]))
        # The head reaches HEAD widths back from the tip: a shaft shows behind it.
        assert length >= (HEAD + 2) * width, (seq, length)


# -- replay --json --step --state -------------------------------------------------------


def _twins(tmp_path: Path) -> tuple[Path, Path]:
    """Two Glüx logs that differ only in ben's draw, which ann may not see:
    she knows his bag and hand together, not which chip is in his hand."""
    lines = (REPLAYS / "glux" / "two-players.jsonl").read_text().splitlines(keepends=True)
    assert json.loads(lines[6]) == {"seq": 6, "kind": "draw", "player": "ben", "payload": {"chip": "1/6"}}
    paths = []
    for chip in ("1/6", "2/5"):
        path = tmp_path / chip.replace("/", "-") / "g.jsonl"
        path.parent.mkdir()
        other = json.dumps({"seq": 6, "kind": "draw", "player": "ben", "payload": {"chip": chip}}) + "\n"
        path.write_text("".join(lines[:6]) + other)
        paths.append(path)
    return paths[0], paths[1]


def _state_steps(log: Path, *args: str) -> dict:
    result = Cli(log.parent)("replay", "g.jsonl", "--json", "--step", "--state", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_replay_state_shows_each_step_as_the_player_may_see_it(tmp_path):
    """Twin logs that differ only in what ann may not see give the same
    ``--as ann --state`` output, byte for byte; without --as the whole state
    is shown, and they differ."""
    a, b = _twins(tmp_path)
    outputs = [Cli(log.parent)("replay", "g.jsonl", "--json", "--step", "--state", "--as", "ann") for log in (a, b)]
    assert all(r.exit_code == 0 for r in outputs)
    assert outputs[0].stdout == outputs[1].stdout
    data = json.loads(outputs[0].stdout)
    assert len(data["steps"]) == 6 and all("state" in s for s in data["steps"])
    assert data["start"]["class"] == "State" and data["state"] == data["steps"][-1]["state"]
    # ben's chip is there as hidden, with how many; ann's own is shown.
    hands = data["state"]["hands"]
    assert hands[1] == {"hidden": "chip", "count": None} and hands[0] == "1/6"
    whole = [_state_steps(log) for log in (a, b)]
    assert whole[0]["state"]["hands"][1] == "1/6" and whole[1]["state"]["hands"][1] == "2/5"
    assert "start" in whole[0] and whole[0]["steps"][-1]["state"] != whole[1]["steps"][-1]["state"]


def test_replay_state_counts_the_coins_a_player_may_not_see(cli):
    log = REPLAYS / "glyph_chess" / "two-players-centre.jsonl"
    data = json.loads(cli("replay", log, "--json", "--step", "--state", "--as", "ann", "--until", "12").stdout)
    hands = data["state"]["hands"]
    assert hands[1]["hidden"] == "coins" and isinstance(hands[1]["count"], int)
    assert isinstance(hands[0], list) and sum(hands[0]) >= 0
    everything = json.loads(cli("replay", log, "--json", "--state", "--until", "12").stdout)
    assert sum(everything["state"]["hands"][1]) == hands[1]["count"]
    assert "steps" not in everything and "start" not in everything


def test_replay_state_is_json_only(cli):
    result = cli("replay", GLUX, "--state")
    assert result.exit_code == 2 and result.stderr.strip() == "tabletop: --state is given with --json"
    many = cli("replay", REPLAYS / "glux", "--json", "--state")
    assert many.exit_code == 2 and "take a single file" in many.stderr


# -- diff ---------------------------------------------------------------------------


def test_diff_opens_with_who_won_each_game_and_the_scores(cli, registry):
    a, b = REPLAYS / "glux" / "two-players.jsonl", REPLAYS / "glux" / "second-place-2p.jsonl"
    result = cli("diff", a, b)
    assert result.exit_code == 1
    first, second, *_ = result.stdout.splitlines()
    for label, line, log in (("A", first, a), ("B", second, b)):
        match = Replay(registry, log).run()
        outcome = match.game.outcome(match.state)
        scores = ", ".join(f"{p} {outcome.scores[p]}" for p in match.header.players)
        assert line == f"{label} {log}: {outcome.verdict()}, after {match.seq} events; scores {scores}"
    data = json.loads(cli("diff", a, b, "--json").stdout)
    assert list(data)[0] == "results"
    match = Replay(registry, a).run()
    assert data["results"][0] == {
        "file": str(a),
        "events": match.seq,
        "over": True,
        "winners": list(match.game.outcome(match.state).winners),
        "verdict": match.game.outcome(match.state).verdict(),
        "scores": dict(match.game.outcome(match.state).scores),
    }


def test_diff_of_games_without_points_names_the_winner_alone(cli):
    a, b = REPLAYS / "glyph_chess" / "two-players-centre.jsonl", REPLAYS / "glyph_chess" / "two-players-greedy.jsonl"
    lines = cli("diff", a, b).stdout.splitlines()
    assert re.fullmatch(rf"A {re.escape(str(a))}: \w+ wins \([a-z ]+\), after \d+ events", lines[0])
    assert lines[1].startswith(f"B {b}: ") and "scores" not in lines[1]
    assert json.loads(cli("diff", a, b, "--json").stdout)["results"][1]["scores"] is None


def test_diff_of_a_game_not_over(cli, tmp_path):
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    shutil.copy(tmp_path / "g.jsonl", tmp_path / "h.jsonl")
    out = cli("diff", "g.jsonl", "h.jsonl").stdout.splitlines()
    assert out[0].startswith("A g.jsonl: not over, after 2 events; scores ann ")
    assert out[2] == "identical: 2 events"


# -- bots ---------------------------------------------------------------------------


def test_bots_lists_every_bot_with_its_games_and_settings(cli, registry):
    from tabletop.play.mcts import MCTS

    out = cli("bots").stdout
    names = {name for name in registry.bots}
    assert {line.split()[0] for line in out.splitlines() if not line.startswith(" ")} == names
    assert re.search(r"^mcts +any game +searches", out, re.M)
    assert re.search(r"^greedy +glux +", out, re.M) and re.search(r"^greedy +glyph-chess +", out, re.M)
    for key in MCTS.PARAMETERS:
        assert re.search(rf"^ +{key}: (whole number|number) \(", out, re.M)
    assert "exploration: number (default 0.7)" in out
    data = json.loads(cli("bots", "--json").stdout)
    mcts = next(b for b in data if b["name"] == "mcts")
    assert mcts["game"] is None and mcts["games"] == sorted(registry.games)
    assert [(s["name"], s["type"]) for s in mcts["settings"]] == [(k, t.__name__) for k, t in MCTS.PARAMETERS.items()]
    assert {s["name"]: s["default"] for s in mcts["settings"]}["exploration"] == MCTS().exploration
    assert next(b for b in data if b["name"] == "random")["settings"] == []


def test_bots_of_one_game(cli):
    data = json.loads(cli("bots", "glux", "--json").stdout)
    assert {(b["name"], b["game"]) for b in data} == {("greedy", "glux"), ("mcts", None), ("random", None)}
    assert all(b["games"] == ["glux"] for b in data)
    result = cli("bots", "chess")
    assert result.exit_code == 2 and "unknown game 'chess'" in result.stderr
