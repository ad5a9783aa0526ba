"""Moving pieces: X items for X spots in one straight direction."""

from __future__ import annotations

from .helpers import act, game_at, position, spot, to_action, why_not

HANDS = {"ann": "S S I E E", "ben": "S S I I E"}


def at(registry, pieces, dice="S S S S S", hands=HANDS, **kw):
    game, state = game_at(registry, position(pieces, dice=dice, hands=hands, **kw))
    return game, to_action(game, state)


def test_move_x_items_of_the_pieces_type_for_x_spots(registry):
    game, state = at(registry, {"ann": {"g3": "E"}}, dice="E E S S S")
    assert why_not(game, state, "ann", "g3-g7 / D1 D2 E E") is None  # dice and coins mixed (FAQ Q3)
    assert why_not(game, state, "ann", "g3-g7 / D1 E E") == "this costs 4; 3 given"
    assert why_not(game, state, "ann", "g3-g5 / D3 E") == "D3 does not show E"
    assert why_not(game, state, "ann", "g3-g5 / S E") == "an S coin pays only for S (it is not wild)"
    state = act(game, state, "ann", "g3-g7 / D1 D2 E E")
    assert spot(game, state, "g7") == ("ann", "E") and spot(game, state, "g3") is None


def test_move_in_one_straight_direction_only(registry):
    game, state = at(registry, {"ann": {"g3": "E"}})
    assert why_not(game, state, "ann", "g3-h5 / E E") == "h5 is not in a straight line from g3"


def test_move_x_is_greater_than_0(registry):
    game, state = at(registry, {"ann": {"g3": "E"}})
    assert why_not(game, state, "ann", "g3-g3") == "g3 is not in a straight line from g3"


def test_move_wild_coins_count_as_any_type(registry):
    # ann's force mage is dead: her F coins are wild.
    game, state = at(registry, {"ann": {"g3": "E"}}, hands={"ann": "F F S"}, fates={"ann": {"F": "killed"}})
    assert why_not(game, state, "ann", "g3-g5 / F F") is None


def test_move_no_landing_on_a_friendly_piece(registry):
    game, state = at(registry, {"ann": {"g3": "E", "g5": "N"}})
    assert why_not(game, state, "ann", "g3-g5 / E E") is not None
    assert why_not(game, state, "ann", "g3-g4 / E") is None


def test_move_no_passing_through_pieces(registry):
    game, state = at(registry, {"ann": {"g3": "E"}, "ben": {"g4": "S"}})
    assert why_not(game, state, "ann", "g3-g5 / E E") == "g4 is in the way"


def test_move_landing_on_an_enemy_kills_it(registry):
    game, state = at(registry, {"ann": {"g3": "N"}, "ben": {"g5": "F"}}, hands={"ann": "N N S"})
    state = act(game, state, "ann", "g3-g5 / N N")
    assert spot(game, state, "g5") == ("ann", "N")
    assert state.fates[1][3] == "killed"  # ben's force mage, revivable


def test_scepter_moves_1_spot_for_exactly_1_die_of_any_face(registry):
    game, state = at(registry, {"ann": {"g3": "K"}}, dice="U S S S S")
    assert why_not(game, state, "ann", "g3-g4 / D1") is None
    assert why_not(game, state, "ann", "g3-g5 / D1 D2") == "the scepter moves exactly 1 spot"
    assert why_not(game, state, "ann", "g3-g4 / S") == "the scepter moves for exactly 1 die, never coins"
    assert why_not(game, state, "ann", "g3-g4 / D1 D2") == "the scepter moves for exactly 1 die, never coins"


def test_minions_move_only_by_the_summoners_spell(registry):
    game, state = at(registry, {"ann": {"g3": "U", "g4": "M"}}, hands={"ann": "U U S"})
    assert why_not(game, state, "ann", "g4-g5 / U") == "minions move only by the summoner's spell (march)"


def test_force_mage_passes_through_any_pieces(registry):
    game, state = at(registry, {"ann": {"g3": "F", "g4": "E"}, "ben": {"g5": "I", "g6": "U"}}, dice="F F F S S")
    state = act(game, state, "ann", "g3-g6 / D1 D2 D3")
    assert spot(game, state, "g6") == ("ann", "F")
    assert spot(game, state, "g5") == ("ben", "I")  # only the last spot is taken (FAQ Q14)
    assert state.fates[1][5] == "killed"


def test_the_moving_player_must_own_the_piece(registry):
    game, state = at(registry, {"ben": {"g3": "E"}})
    assert why_not(game, state, "ann", "g3-g4 / E") == "no piece of yours on g3"
