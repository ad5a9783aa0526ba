"""Pictures of the board (``tabletop render``) and the log's hash chain (``verify --head``)."""

from __future__ import annotations

import json
import math
import re
import sys
import xml.etree.ElementTree as ET

import pytest

from tabletop.log import chain
from tabletop.sight import seen

from ..conftest import REPLAYS

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("log", ["glux/four-players.jsonl", "glyph_chess/three-players-random.jsonl"])
def test_register_renderers_svg_for_both_games(cli, tmp_path, log):
    result = cli("render", REPLAYS / log, "--as", "ann", "-o", "board.svg")
    assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "board.svg").getroot()
    assert root.tag == f"{SVG}svg" and 400 <= int(root.get("width")) <= 700
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert any("ann" in (t or "") for t in texts)


def test_render_shows_only_what_the_viewer_may_know(cli, tmp_path):
    log = REPLAYS / "glux" / "two-players.jsonl"
    cli("render", log, "--until", "12", "--as", "ben", "-o", "ben.svg")
    cli("render", log, "--until", "12", "-o", "all.svg")
    ben = (tmp_path / "ben.svg").read_text()
    assert "hand hidden" in ben and "hand hidden" not in (tmp_path / "all.svg").read_text()


def test_render_text_to_stdout_and_unknown_format(cli):
    log = REPLAYS / "glux" / "two-players.jsonl"
    assert "Rooms (pips on top chips):" in cli("render", log).stdout
    result = cli("render", log, "--format", "gif")
    assert (
        result.exit_code == 2 and "no gif picture for glux (formats: text, svg, png)" in result.stderr
    )  # png is drawn from the svg


def test_verify_head_proves_the_log_extends_a_head(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_bytes((REPLAYS / "glux" / "two-players.jsonl").read_bytes())
    lines = log.read_bytes().splitlines()
    head = list(chain.heads(lines[:30]))[-1]
    result = cli("verify", log, "--head", head)
    assert result.exit_code == 0 and f"head {head} is event 29's" in result.stdout


def test_verify_head_catches_a_rewritten_history(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    original = (REPLAYS / "glux" / "two-players.jsonl").read_bytes()
    head = chain.head_of(original.splitlines()[:40])
    lines = original.splitlines()
    lines[20] = lines[20] + b" "  # the smallest rewrite: still the same JSON
    log.write_bytes(b"\n".join(lines) + b"\n")
    result = cli("verify", log, "--head", head)
    assert result.exit_code == 1
    assert f"no line of the log has the head {head}" in result.stderr


def test_verify_head_on_a_game_still_sealed(cli, tmp_path):
    assert cli("new", "pile", "--players", "ann,bob", "--sealed", "-o", "s.jsonl").exit_code == 0
    # A sealed game's chain is salted from its seed: its holder works its heads out with it.
    seed = (tmp_path / "s.jsonl.seed").read_text().strip()
    head = chain.head_of((tmp_path / "s.jsonl").read_bytes().splitlines(), seed)
    result = cli("verify", "s.jsonl", "--head", head)
    assert result.exit_code == 0
    assert "the seed is not known yet, so draws are not checked" in result.stdout


def _svg(cli, tmp_path, log, *args):
    result = cli("render", REPLAYS / log, *args, "-o", "board.svg")
    assert result.exit_code == 0, result.output
    return ET.parse(tmp_path / "board.svg").getroot()


def _texts(root) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("log", ["glux/two-players.jsonl", "glyph_chess/two-players-centre.jsonl"])
def test_every_picture_has_a_title_and_a_description(cli, tmp_path, log):
    root = _svg(cli, tmp_path, log, "--until", "20")
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and "event 20" in title.text
    assert desc is not None and "board for ann, ben" in desc.text


def test_glux_picture_carries_the_whole_position(cli, tmp_path, registry):
    from tabletop.play.engine import Replay

    log = REPLAYS / "glux" / "two-players.jsonl"
    match = Replay(registry, log).run(31)
    root = _svg(cli, tmp_path, "glux/two-players.jsonl", "--until", "31", "--as", "ann")
    texts = _texts(root)
    # The title: the event number, and whose turn it is below it.
    from tabletop.sight.svg import whose_turn

    assert texts[0] == "Glüx · event 31"
    assert texts[1] == whose_turn(match.game, seen.view(match.game, match.state, "ann"), "ann")
    # Every room's pips by player, the middle room named as such.
    pips = match.game.room_pips(match.state)
    middle = match.game.board.middle
    for room, standing in pips.items():
        words = ", ".join(f"{p} {n}" for p, n in sorted(standing.items(), key=lambda kv: -kv[1])) or "-"
        assert f"{room}{' (middle)' if room == middle else ''}: {words}" in texts
    # The legend words hand and bag as the text board does.
    board_text = seen.text(match.game, match.state, "ann")
    ben_line = next(line for line in board_text.splitlines() if line.startswith("ben: "))
    assert any(ben_line.removeprefix("ben: ").split(" [")[0] in t for t in texts)
    # Ownership by shape as well as colour: ann's chips are circles, ben's squares.
    assert root.find(f"{SVG}circle") is not None and root.find(f"{SVG}rect[@rx='2']") is not None


def test_glux_picture_frames_the_last_placement(cli, tmp_path):
    import json

    rows = [json.loads(line) for line in (REPLAYS / "glux" / "two-players.jsonl").read_text().splitlines()[1:]]
    last = [r for r in rows[:40] if r["kind"] == "place"][-1]
    root = _svg(cli, tmp_path, "glux/two-players.jsonl", "--until", "40")
    square = last["payload"]["square"]
    col, row = ord(square[0]) - ord("a"), int(square[1:])
    frames = [r for r in root.iter(f"{SVG}rect") if r.get("stroke") == "#111111"]
    assert len(frames) == 1
    x, y = float(frames[0].get("x")), float(frames[0].get("y"))
    # The frame lies inside the square's cell: column from the left, row from the bottom (9 rows),
    # the board's top found from the cell of a1 (bottom left).
    cells = [r for r in root.iter(f"{SVG}rect") if r.get("width") == "40" and r.get("stroke") == "#bbb"]
    top = min(float(r.get("y")) for r in cells)
    assert 28 + col * 40 <= x < 28 + (col + 1) * 40
    assert top + (9 - row) * 40 <= y < top + (10 - row) * 40


def test_glyph_picture_names_spots_and_draws_the_last_move(cli, tmp_path):
    import json

    rows = [
        json.loads(line) for line in (REPLAYS / "glyph_chess" / "two-players-centre.jsonl").read_text().splitlines()
    ]
    seq = max(r["seq"] for r in rows[1:] if r["kind"] == "move")
    root = _svg(cli, tmp_path, "glyph_chess/two-players-centre.jsonl", "--until", str(seq))
    texts = _texts(root)
    # Row names at both ends of every row, spot names in the empty spots.
    for label in ("a1", "a7", "g1", "g13", "m1", "m7"):
        assert label in texts
    # The spots' names are the smallest print (still legible on a phone: test_studying_player).
    smallest = min(float(t.get("font-size")) for t in root.iter(f"{SVG}text"))
    names = [
        t.text
        for t in root.iter(f"{SVG}text")
        if float(t.get("font-size")) == smallest and t.get("text-anchor") == "middle"
    ]
    assert len(names) > 100 and all(name[0] in "abcdefghijklm" and name[1:].isdigit() for name in names)
    # The dice, the coins of each player (bag and wild included), the turn marker.
    assert "dice:" in texts and any(t.startswith("D1 ") for t in texts)
    assert any("gold ann: coins" in t and "bag" in t for t in texts)
    assert any(p.get("d", "").startswith("M") and p.get("fill") == "#111111" for p in root.iter(f"{SVG}path"))
    arrows = [e for e in root.iter() if e.get("marker-end") == "url(#arrow)"]
    assert len(arrows) == 1


def test_render_png_for_mail_readers(cli, tmp_path):
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):  # OSError: no cairo library on this machine
        pytest.skip("PNG pictures need the png extra (cairosvg) and the cairo library")
    result = cli("render", REPLAYS / "glux" / "four-players.jsonl", "-o", "board.png")
    assert result.exit_code == 0, result.output
    data = (tmp_path / "board.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    assert width >= 1000  # drawn at twice the SVG's size, sharp on any screen
    assert cli("render", REPLAYS / "glux" / "four-players.jsonl", "--format", "png").exit_code == 2


def test_render_help_prints_no_backslash_b(cli):
    out = cli("render", "--help").stdout
    assert "\\b" not in out and "tabletop render game.jsonl --as ann -o board.svg" in out


@pytest.mark.parametrize("command", ["render", "replay"])
def test_until_past_the_end_is_an_error(cli, game_file, command):
    result = cli(command, game_file, "--until", "40")
    assert result.exit_code == 2
    assert result.stderr.strip() == "tabletop: --until 40: the log ends at event 2"


@pytest.fixture
def game_file(cli, tmp_path):
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    return tmp_path / "g.jsonl"


def test_render_png_without_the_png_extra_says_how_to_get_it(cli, tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    result = cli("render", REPLAYS / "glux" / "two-players.jsonl", "-o", "board.png")
    assert result.exit_code == 2
    assert "PNG pictures need the png extra: pip install 'tabletop[png]'" in result.stderr
    assert not (tmp_path / "board.png").exists()


def test_the_picture_says_whose_draw_is_due(cli, tmp_path):
    log = REPLAYS / "glux" / "two-players.jsonl"
    rows = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    # A placement followed by its player's draw: after it, that draw is due.
    place = next(r for r, after in zip(rows, rows[1:]) if r["kind"] == "place" and after["kind"] == "draw")
    result = cli("render", log, "--until", str(place["seq"]), "-o", "b.svg")
    assert result.exit_code == 0, result.output
    title = re.search(r"<title>(.*?)</title>", (tmp_path / "b.svg").read_text()).group(1)
    assert title.endswith(f"a chance outcome for {place['player']} is due"), title


# -- the spots a picture names (data-spot): what a study's notes are drawn on ---------------


def _glux_tables():
    """Every shipped Glüx table: each player count on each built-in board that has starts for it."""
    from tabletop_glux.board import BUILT_IN, load

    for players in (2, 3, 4):
        for board in BUILT_IN:
            if players in load(board, players).starts:
                yield "glux", players, {"board": board}


def _glyph_tables():
    """Every shipped Glyph Chess table: each player count on each radius the rules allow."""
    from tabletop_glyph_chess.position import MAX_RADIUS, MIN_RADIUS

    for players in (2, 3):
        for radius in range(MIN_RADIUS, MAX_RADIUS + 1):
            yield "glyph-chess", players, {"radius": radius}


def _spots(svg: str) -> dict[str, tuple[float, float]]:
    """The picture's named spots: name to the centre the picture gives it; each named once."""
    named: dict[str, tuple[float, float]] = {}
    for element in ET.fromstring(svg).iter():
        name = element.get("data-spot")
        if name is None:
            continue
        assert name not in named, f"{name} named twice"
        named[name] = (float(element.get("data-x")), float(element.get("data-y")))
        # The centre given is the centre of what is drawn there.
        if element.tag == f"{SVG}rect":
            x, y = float(element.get("x")), float(element.get("y"))
            drawn = (x + float(element.get("width")) / 2, y + float(element.get("height")) / 2)
        else:
            assert element.tag == f"{SVG}polygon", element.tag
            points = [tuple(map(float, p.split(","))) for p in element.get("points").split()]
            drawn = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        assert math.dist(drawn, named[name]) < 0.2, (name, drawn, named[name])
    return named


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [*_glux_tables(), *_glyph_tables()],
    ids=lambda v: "-".join(f"{k}={o}" for k, o in v.items()) if isinstance(v, dict) else str(v),
)
def test_every_spot_the_notation_names_is_marked_in_the_picture(registry, game, players, options):
    """Issue 28 part 1: a study note's squares and arrows are drawn on the
    picture, so every square or spot the game's notation can name carries
    ``data-spot`` with that name and its centre, on every board shipped
    (each player count, each board or radius), and nothing else does."""
    from tabletop import Header

    table = registry.game(Header(game, tuple(f"p{i}" for i in range(players)), (), options))
    names = table.board.names if game == "glux" else table.geo.names
    renderer = registry.renderer(game, "svg")
    spots = _spots(seen.picture(renderer, table, table.initial(), None, []))
    assert set(spots) == set(names)
    # Distinct spots, distinct centres.
    assert len(set(spots.values())) == len(names)


@pytest.mark.parametrize("log", ["glux/four-players.jsonl", "glyph_chess/three-players-random.jsonl"])
def test_every_spot_a_decision_names_is_marked_in_the_picture(registry, log):
    """Issue 28 part 1: what the notation writes (every decision played, and
    every decision legal at each tenth position of a recorded game) names
    only spots that the picture at that position marks with ``data-spot``."""
    from tabletop.model.nodes import Decide
    from tabletop.play.engine import Replay

    run = Replay(registry, REPLAYS / log)
    game = run.match.game
    renderer = registry.renderer(run.header.game, "svg")
    spots = set(_spots(seen.picture(renderer, game, run.match.state, None, [])))
    history = []
    written = set()
    for _, seq, event in run:
        history.append(event)
        if event.origin == "decision":
            written.add(game.notate(event))
        node = game.next(run.match.state)
        if seq % 10 == 0 and isinstance(node, Decide):
            for player in node.players:
                written.update(game.notate(d) for d in game.legal(run.match.state, player))
            assert set(_spots(seen.picture(renderer, game, run.match.state, None, history))) == spots
    named = {word for text in written for word in re.split(r"[^A-Za-z0-9]+", text) if re.fullmatch(r"[a-z]+\d+", word)}
    assert named and named <= spots, sorted(named - spots)


def test_a_lazy_renderer_imports_its_module_when_it_first_draws(tmp_path, monkeypatch):
    (tmp_path / "lazy_picture.py").write_text(
        "def svg(game, view, viewer, history=None):\n    return f'{viewer} {history}'\n\n"
        "def legend(game):\n    return f'legend of {game}'\n"
    )
    (tmp_path / "plain_picture.py").write_text("def svg(game, view, viewer):\n    return f'plain {viewer}'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from tabletop import Renderer

    lazy = Renderer.lazy("g", "svg", "image/svg+xml", "lazy_picture")
    assert "lazy_picture" not in sys.modules
    assert lazy.draw(None, None, "ann", history=[1, 2]) == "ann [1, 2]"
    assert "lazy_picture" in sys.modules
    assert lazy.legend("g") == "legend of g"
    # A module whose picture takes no history is drawn without it.
    assert (
        Renderer.lazy("g", "svg", "image/svg+xml", "plain_picture").draw(None, None, "ben", history=[1]) == "plain ben"
    )
