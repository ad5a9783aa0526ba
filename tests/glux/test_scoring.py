"""Final scoring: rooms by majority, the rulebook's worked examples, the tiebreak."""

from __future__ import annotations

import pytest

from tabletop_glux import official

from .helpers import make_game, position

score_room = official.glux_score_room


def winners(points, middle):
    """Victory as the official rules decide it: most VP, then the tiebreak."""
    leaders = official.glux_winners(points=points, middle=middle)
    if len(leaders) > 1:
        leaders = official.glux_tiebreak(tied=leaders, points=points, middle=middle)
    return leaders


def test_example_left_room_10_9_4_scores_4_2_0():
    assert score_room(game=None, state=None, room="L", pips={"Timo": 10, "Max": 9, "Pia": 4}, players=4) == {
        "Timo": 4,
        "Max": 2,
        "Pia": 0,
    }


def test_example_right_room_12_5_4_scores_4_2_0():
    assert score_room(game=None, state=None, room="R", pips={"Sarah": 12, "Max": 5, "Timo": 4}, players=4) == {
        "Sarah": 4,
        "Max": 2,
        "Timo": 0,
    }


def test_example_first_place_tie_10_10_6_scores_4_4_0():
    assert score_room(game=None, state=None, room="L", pips={"Pia": 10, "Sarah": 10, "Timo": 6}, players=4) == {
        "Pia": 4,
        "Sarah": 4,
        "Timo": 0,
    }


def test_example_second_place_tie_9_4_4_scores_4_2_2():
    assert score_room(game=None, state=None, room="R", pips={"Max": 9, "Sarah": 4, "Timo": 4}, players=4) == {
        "Max": 4,
        "Sarah": 2,
        "Timo": 2,
    }


def test_example_tiebreak_20_20_decided_by_the_middle_room():
    points = {"Max": 20, "Sarah": 20, "Timo": 14, "Pia": 12}
    # Max has pips in the middle room, Sarah has no chip there.
    assert winners(points=points, middle={"Max": 9, "Timo": 3}) == ("Max",)


def test_victory_most_vp_wins_before_any_tiebreak():
    assert official.glux_winners(points={"a": 9, "b": 8}, middle={"b": 30}) == ("a",)
    assert official.glux_winners(points={"a": 8, "b": 8, "c": 2}, middle={}) == ("a", "b")


def test_tiebreak_still_tied_shares_the_victory():
    assert winners(points={"a": 8, "b": 8, "c": 2}, middle={"a": 5, "b": 5}) == ("a", "b")
    assert winners(points={"a": 8, "b": 8}, middle={}) == ("a", "b")


def test_only_players_with_pips_in_a_room_rank_there():
    # One player in the room: first place, and nobody is second.
    assert score_room(game=None, state=None, room="A", pips={"ann": 1}, players=3) == {"ann": 4}
    assert score_room(game=None, state=None, room="A", pips={}, players=3) == {}


def test_two_players_score_first_place_only():
    assert score_room(game=None, state=None, room="A", pips={"ann": 9, "ben": 4}, players=2) == {"ann": 4, "ben": 0}


def test_two_players_tied_for_first_both_score_4():
    assert score_room(game=None, state=None, room="A", pips={"ann": 4, "ben": 4}, players=2) == {"ann": 4, "ben": 4}


def test_scoring_counts_top_chips_only(registry):
    game = make_game(registry, ["ann", "ben", "cat"])
    # Room A (a12, a13, b12, b13): ann's 6 is covered by ben's 1.
    state = position(game, {"a13": [("ann", 6), ("ben", 1)], "b13": [("ann", 2)], "a1": [("ann", 1)]})
    assert game.room_pips(state)["A"] == {"ben": 1, "ann": 2}
    assert game.outcome(state).scores["ann"] == 4 + 4  # room A, and room G (a1)


def test_victory_points_start_at_zero(registry):
    game = make_game(registry)
    state = position(game, {})
    outcome = game.outcome(state)
    assert outcome.scores == {"ann": 0, "ben": 0}


def test_the_middle_room_breaks_a_tie_in_a_game(registry):
    game = make_game(registry)
    # ann: room G (a1) and room E by 5 pips; ben: room C (m9) and room I.
    state = position(game, {"a1": [("ann", 1)], "f5": [("ann", 5)], "m9": [("ben", 3)], "m1": [("ben", 3)]})
    outcome = game.outcome(state)
    assert outcome.scores == {"ann": 8, "ben": 8}
    assert outcome.winners == ("ann",)
    assert outcome.note == "tie on VP, decided by the middle room"


@pytest.mark.parametrize("players", [3, 4])
def test_second_place_counts_with_three_or_four_players(registry, players):
    names = ["ann", "ben", "cat", "dan"][:players]
    game = make_game(registry, names)
    state = position(game, {"f7": [("ann", 6)], "g7": [("ben", 2)]})
    assert game.room_points(state)["E"] == {"ann": 4, "ben": 2}


def test_variant_second_place_2p_scores_second_place_in_two_player_games(registry):
    official_game = make_game(registry)
    variant_game = make_game(registry, variants=["glux-second-place-2p"])
    state = position(official_game, {"f5": [("ann", 6)], "g5": [("ben", 2)]})
    assert official_game.room_points(state)["E"] == {"ann": 4, "ben": 0}
    assert variant_game.room_points(state)["E"] == {"ann": 4, "ben": 2}


def test_variant_is_enabled_per_game_and_never_leaks(registry):
    with_variant = make_game(registry, variants=["glux-second-place-2p"])
    without = make_game(registry)
    state = position(without, {"f5": [("ann", 6)], "g5": [("ben", 2)]})
    assert with_variant.outcome(state).scores["ben"] == 2
    assert without.outcome(state).scores["ben"] == 0  # made after, still official


def test_rank_room_a_player_with_no_pips_is_not_ranked_second():
    from tabletop_glux import rank_room

    assert rank_room({"ann": 5, "ben": 0}, second_place=True) == {"ann": 4, "ben": 0}
    assert rank_room({"ann": 5, "ben": 0, "cy": 2}, second_place=True) == {"ann": 4, "ben": 0, "cy": 2}
    assert rank_room({"ann": 0}, second_place=True) == {"ann": 0}
    assert rank_room({"ann": 5, "cy": 2}, second_place=True, first=6, second=1) == {"ann": 6, "cy": 1}


def test_a_tie_on_vp_and_middle_room_is_a_shared_victory_and_says_so(registry):
    game = make_game(registry)
    # ann: room G (a1) and room E by 5 pips; ben: room C (m9) and room E by 5 pips too.
    chips = {"a1": [("ann", 1)], "f5": [("ann", 5)], "m9": [("ben", 3)], "g5": [("ben", 5)]}
    outcome = game.outcome(position(game, chips))
    assert outcome.scores == {"ann": 8, "ben": 8}
    assert outcome.winners == ("ann", "ben")
    assert outcome.note == "tie on VP and middle room"
