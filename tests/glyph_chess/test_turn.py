"""A turn: awakening, action, reset."""

from __future__ import annotations

from tabletop import Chance, Decide, Forced
from tabletop_glyph_chess.events import Draw, Pass, Reroll, Roll
from tabletop_glyph_chess.state import ACT, DRAW, ROLLING

from .helpers import act, game_at, position, to_action, why_not


def test_awakening_reroll_all_dice_of_dead_types_or_none(registry):
    data = position({}, dice="F F S E F", fates={"ann": {"F": "killed"}}, hands={"ann": "S S I I E"})
    game, state = game_at(registry, data)
    assert game.next(state) == Decide(("ann",))
    assert game.legal(state, "ann") == [Reroll("ann", True), Reroll("ann", False)]
    state = act(game, state, "ann", "reroll")
    assert state.phase == ROLLING and state.rolling == (0, 1, 4)  # D1, D2 and D5: all of them
    rolled = []
    while state.phase == ROLLING:
        node = game.next(state)
        rolled.append(node.outcomes[0].die)
        state = game.apply(state, Roll(node.outcomes[0].die, "N"))
    assert rolled == [1, 2, 5] and state.dice == ("N", "N", "S", "E", "N")


def test_awakening_skip_keeps_the_dice(registry):
    data = position({}, dice="F F S E F", fates={"ann": {"F": "killed"}}, hands={"ann": "S S I I E"})
    game, state = game_at(registry, data)
    state = act(game, state, "ann", "skip")
    assert state.phase == ACT and state.dice == ("F", "F", "S", "E", "F")


def test_awakening_no_reroll_when_no_die_shows_a_dead_type(registry):
    data = position({}, dice="S S S E E", fates={"ann": {"F": "killed"}}, hands={"ann": "S S I I E"})
    game, state = game_at(registry, data)
    assert state.phase == ACT


def test_awakening_draw_a_coin_with_fewer_than_5(registry):
    game, state = game_at(registry, position({}, hands={"ann": "S S I I"}))
    assert state.phase == DRAW
    node = game.next(state)
    assert isinstance(node, Chance) and node.weights == (0, 0, 2, 2, 2, 2)
    state = game.apply(state, Draw("ann", "N"))
    assert state.hands[0] == (2, 2, 0, 0, 1, 0) and state.phase == ACT


def test_awakening_no_draw_with_5_coins(registry):
    game, state = game_at(registry, position({}, hands={"ann": "S S I I E"}))
    assert state.phase == ACT


def test_awakening_refill_an_empty_bag_from_the_used_area(registry):
    data = position({}, hands={"ann": "S I E F"}, used={"ann": "S I E F N N U U"})
    game, state = game_at(registry, data)
    assert state.bags[0] == (0,) * 6
    node = game.next(state)
    assert node.weights == (1, 1, 1, 1, 2, 2)  # drawn from the used coins, now the bag
    state = game.apply(state, Draw("ann", "N"))
    assert state.bags[0] == (1, 1, 1, 1, 1, 2) and state.used[0] == (0,) * 6


def test_action_exactly_one_move_or_spell(registry):
    game, state = game_at(registry, position({"ann": {"g3": "E"}}, hands={"ann": "S S I I E"}))
    state = act(game, state, "ann", "g3-g4 / E")
    assert state.phase == ROLLING and state.rolling == () or state.turn == 1
    # The reset step follows at once (no die was spent), and the turn is ben's.
    assert state.turn == 1
    assert why_not(game, state, "ann", "g4-g5 / E") is not None


def test_action_no_legal_action_passes(registry):
    # ann's scepter is boxed in by her own pieces; the dice show only her dead
    # summoner's type; her coins are for pieces in sight of ben's seeress.
    data = position(
        {"ann": {"a1": "K", "a2": "S", "b1": "I", "b2": "E", "a3": "F", "b3": "N"}, "ben": {"c2": "S", "m4": "K"}},
        dice="U U U U U",
        hands={"ann": "S S I I E"},
        fates={"ann": {"U": "killed"}},
        full=False,
    )
    game, state = game_at(registry, data)
    state = to_action(game, state)
    assert game.legal(state, "ann") == []
    assert game.next(state) == Forced(Pass("ann"))
    state = game.apply(state, Pass("ann"))
    assert state.turn == 1


def test_reset_used_coins_go_to_the_used_area(registry):
    game, state = game_at(registry, position({"ann": {"g3": "E"}}, hands={"ann": "S S I E E"}))
    state = act(game, state, "ann", "g3-g5 / E E")
    assert state.hands[0] == (2, 1, 0, 0, 0, 0) and state.used[0] == (0, 0, 2, 0, 0, 0)


def test_reset_used_dice_are_rerolled(registry):
    game, state = game_at(registry, position({"ann": {"g3": "E"}}, dice="E S E S E", hands={"ann": "S S I I N"}))
    state = act(game, state, "ann", "g3-g6 / D1 D3 D5")
    assert state.phase == ROLLING and state.rolling == (0, 2, 4)
    for die in (1, 3, 5):
        assert game.next(state).outcomes[0].die == die
        state = game.apply(state, Roll(die, "U"))
    assert state.dice == ("U", "S", "U", "S", "U")
    assert state.turn == 1  # then ben's turn


def test_dice_spent_once_per_turn(registry):
    game, state = game_at(registry, position({"ann": {"g3": "E"}}, dice="E S E S E", hands={"ann": "S S I I N"}))
    assert why_not(game, state, "ann", "g3-g5 / D1 D1") == "a die is spent twice"
