"""What each player may know, and the board as text."""

from __future__ import annotations

from tabletop import Hidden
from tabletop.sight import seen
from tabletop_glux.events import Draw

from .helpers import make_game, position


def test_a_player_sees_their_own_hand_and_draws_only(registry):
    game = make_game(registry)
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}, hands={"ann": "1/6", "ben": "2/5"})
    view = game.view(state, "ann")
    assert view.hands == ("1/6", Hidden("chip"))
    assert game.format(Draw("ben", "2/5"), "ann") == "ben draws a chip"
    assert game.format(Draw("ben", "2/5"), "ben") == "ben draws 2/5"
    assert game.format(Draw("ben", "2/5")) == "ben draws 2/5"


def test_others_see_bag_and_hand_together_as_the_public_record_gives(registry):
    game = make_game(registry)
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}, hands={"ben": "2/5"}, bags={"ben": (7, 6, 7)})
    assert game.view(state, "ann").bags[1] == (7, 7, 7)
    text = seen.text(game, state, "ann")
    assert "ben: hand hidden; bag and hand: 21 chips (1/6x7 2/5x7 3/4x7)" in text
    assert "hand 2/5" not in text
    assert "ben: hand 2/5; bag: 20 chips (1/6x7 2/5x6 3/4x7)" in seen.text(game, state, "ben")


def test_the_board_shows_stacks_owners_covers_rooms_and_starts(registry):
    game = make_game(registry)
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)], "f5": [("ben", 1), ("ann", 6)]})
    text = game.render(state)
    rows = text.splitlines()
    assert rows[0].split() == list("abcdefghijklm")
    assert rows[1].startswith("9   A    A    .") and rows[1].endswith(" x3 *")
    assert rows[5].startswith("5   .    D    D    D    .   w6+")
    assert "w = ann  x = ben" in text
    assert "  E (middle): ann 6" in text
    assert "\x1b[" not in text


def test_colour_only_when_asked(registry):
    game = make_game(registry)
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    assert "\x1b[31m\x1b[1mw2\x1b[0m" in game.render(state, color=True)
    assert "\x1b[" not in game.render(state)


def test_describe_names_every_part_that_diff_compares(registry):
    game = make_game(registry)
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3), ("ann", 1)]}, hands={"ben": "1/6"})
    facets = game.describe(state)
    assert facets["square m9"] == "ann 1 over ben 3"
    assert facets["room C"] == "ann 1"
    assert facets["hand ben"] == "1/6"
    assert seen.facets(game, state, "ann")["hand ben"] == "?"
