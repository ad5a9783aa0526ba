"""Glyph Chess notation, views and the board as text."""

from __future__ import annotations

import json

import pytest

from tabletop import NotationError
from tabletop.sight import seen
from tabletop_glyph_chess.events import Arrange, Cast, Discard, Draw, Escape, Glimpse, Move, Reroll, Roll, Shuffle

from .helpers import game_at, position, to_action


@pytest.fixture
def game_state(registry):
    game, state = game_at(registry, position({"ann": {"g3": "E"}}, hands={"ann": "S S I E E", "ben": "N N U S I"}))
    return game, to_action(game, state)


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("g3-g6 / D2 D3 E", Move("ann", "g3", "g6", (2, 3), ("E",))),
        ("a4-b5 / d1", Move("ann", "a4", "b5", (1,), ())),
        ("swap c3 e5 / I", Cast("ann", "swap", "c3", ("e5",), "", (), ("I",))),
        ("replica c3 d4 / D2", Cast("ann", "replica", "c3", ("d4",), "", (2,), ())),
        ("foresee c3 ben / D1", Cast("ann", "foresee", "c3", (), "ben", (1,), ())),
        ("blaze c3 c4 d4 / D1 E E", Cast("ann", "blaze", "c3", ("c4", "d4"), "", (1,), ("E", "E"))),
        ("blast c3 f6 / D1 F F F", Cast("ann", "blast", "c3", ("f6",), "", (1,), ("F", "F", "F"))),
        ("revive c3 F d4 / D5", Cast("ann", "revive", "c3", ("d4",), "F", (5,), ())),
        ("march c3 ne d3 d4 / U U", Cast("ann", "march", "c3", ("d3", "d4"), "ne", (), ("U", "U"))),
        ("summon c3 d3 d4 / D2", Cast("ann", "summon", "c3", ("d3", "d4"), "", (2,), ())),
        ("reroll", Reroll("ann", True)),
        ("skip", Reroll("ann", False)),
        ("escape N", Escape("ann", "N")),
        ("stay", Escape("ann", "")),
        ("discard S E", Discard("ann", ("S", "E"))),
        ("discard", Discard("ann", ())),
        ("arrange S I K E F N U", Arrange("ann", ("S", "I", "K", "E", "F", "N", "U"))),
    ],
)
def test_notation_parse_and_format(game_state, text, event):
    game, state = game_state
    assert game.parse(text, "ann", state) == event
    assert game.parse(game.notate(event), "ann", state) == event


@pytest.mark.parametrize("text", ["", "g3 g6", "fly g3 g6", "g3-g6 / X", "escape", "blaze / D1", "g3-g6 / D1 / D2"])
def test_unreadable_notation_is_a_clear_error(game_state, text):
    game, state = game_state
    with pytest.raises(NotationError):
        game.parse(text, "ann", state)


def test_every_event_reads_as_a_line(game_state):
    game, _ = game_state
    assert game.format(Roll(3, "E")) == "D3 rolls E"
    assert game.format(Draw("ben", "N"), "ann") == "ben draws a coin"
    assert game.format(Draw("ben", "N"), "ben") == "ben draws an N coin"
    assert game.format(Draw("ben", "E")) == "ben draws an E coin"
    assert game.format(Draw("ben", "I")) == "ben draws an I coin"
    assert game.format(Draw("ben", "U")) == "ben draws a U coin"  # "a you"
    assert game.format(Shuffle("ann", ("S", "I", "E", "F", "N", "U"))) == "ann's glyph cards: S I E | F N U"


def test_a_player_sees_their_own_coins_others_see_counts(game_state):
    game, state = game_state
    text = seen.text(game, state, "ann")
    assert "gold ann: coins S S I E E" in text
    assert "silver ben: 5 coins in hand" in text and "N N U" not in text
    assert "silver ben: coins S I N N U" in seen.text(game, state, "ben")
    assert seen.facets(game, state, "ann")["coins ben"] == "5 hidden"


def test_the_seeress_glimpse_is_shown_to_caster_and_target_only(registry):
    game, _ = game_at(
        registry,
        position({}, players=("ann", "ben", "cat"), hands={"ann": "S S I I E", "ben": "S S I I E", "cat": "S S I I E"}),
    )
    glimpse = Glimpse("ann", "ben", ("N", "U"))
    assert game.format(glimpse, "ann") == "ann sees ben's coins: N U"
    assert game.format(glimpse, "ben") == "ann sees ben's coins: N U"
    assert game.format(glimpse, "cat") == "ann looks at ben's coins"


def test_the_board_shows_pieces_owners_dice_coins_spare_and_used(registry):
    data = position(
        {"ann": {"g3": "E", "f4": "M"}, "ben": {"g7": "N"}},
        dice="E S N U I",
        hands={"ann": "S S I E E"},
        used={"ben": "N"},
        fates={"ben": {"F": "burnt"}},
    )
    game, state = game_at(registry, data)
    text = game.render(state)
    rows = text.splitlines()
    assert rows[0].startswith("m ") and rows[6].startswith("g ") and rows[12].startswith("a ")
    assert rows[6].split()[1:4] == [".", ".", "gE"] and "sN" in rows[6]
    assert "dice: D1 E  D2 S  D3 N  D4 U  D5 I" in text
    assert "used N" in text and "F(burnt)" in text and "I(replica)" in text and "M x2" in text
    assert "\x1b[" not in text and "\x1b[" in game.render(state, color=True)


def test_a_bad_position_is_one_clear_error(cli, tmp_path):
    (tmp_path / "p.json").write_text(json.dumps({"turn": "ann", "dice": ["S"] * 5, "pieces": {"ann": {"z9": "K"}}}))
    result = cli("new", "glyph-chess", "--players", "ann,ben", "--option", "position=p.json", "-o", "g.jsonl")
    assert result.exit_code == 2
    assert result.stderr.strip() == "tabletop: option 'position': ann: z9 is not a spot of this board"
    (tmp_path / "p.json").write_text("{not json")
    result = cli("new", "glyph-chess", "--players", "ann,ben", "--option", "position=p.json", "-o", "g.jsonl")
    assert result.exit_code == 2 and "option 'position': p.json: not JSON" in result.stderr
    assert not (tmp_path / "g.jsonl").exists()


def test_a_position_starts_a_game_that_replays_anywhere(cli, tmp_path):
    data = position({"ann": {"g3": "E"}}, hands={"ann": "S S I E E", "ben": "S S I I E"})
    (tmp_path / "p.json").write_text(json.dumps(data))
    assert (
        cli(
            "new", "glyph-chess", "--players", "ann,ben", "--option", "position=p.json", "--seed", "1", "-o", "g.jsonl"
        ).exit_code
        == 0
    )
    (tmp_path / "p.json").unlink()
    assert cli("play", "g.jsonl", "g3-g5 / E E").exit_code == 0
    assert "gE" in cli("replay", "g.jsonl").stdout


def test_the_docs_picture_of_spot_names_is_the_board():
    from tabletop_glyph_chess.hexes import board
    from tabletop_glyph_chess.render import labelled

    from ..conftest import ROOT

    assert labelled(board(6)) in (ROOT / "docs" / "glyph-chess.md").read_text()
