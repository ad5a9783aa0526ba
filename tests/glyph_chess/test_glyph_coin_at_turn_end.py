"""glyph-coin-at-turn-end (variants/house_rules/glyph_coin_at_turn_end.py): a coin
drawn at the end of one's own turn, by the rule hook at a turn's end
(``glyph_turn_end``): asked once the reset roll is done and the turn has
passed, only when a variant implements it."""

from __future__ import annotations

import pytest

from tabletop import Chance, Registry
from tabletop_glyph_chess import Move, steps
from tabletop_glyph_chess.events import Draw
from tabletop_glyph_chess.state import ACT, AWAKEN, DRAW, ROLLING

from ..fastpath import compare
from .helpers import game_at, house_rules, position, replayed, self_played, to_action

COIN = ["glyph-coin-at-turn-end"]


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_coin_at_turn_end.py")


def rolled(game, state):
    """The reset roll: every die spent rolled, each showing its first face."""
    while state.phase == ROLLING:
        state = game.apply(state, game.next(state).outcomes[0])
    return state


def test_glyph_turn_end_glyph_coin_at_turn_end_the_player_draws_once_the_reset_roll_is_done(house):
    data = position({"ann": {"g3": "F"}}, hands={"ann": "F"})
    for variants, owed in (((), (0, 0)), (COIN, (1, 0))):
        game, state = game_at(house, data, variants)
        state = to_action(game, state, draws="S")
        move = next(e for e in game.legal(state, "ann") if isinstance(e, Move) and e.dice)
        state = rolled(game, game.apply(state, move))
        # The turn has passed to ben; under the house rule ann first draws the coin owed.
        assert state.turn == 1 and state.owed == owed and state.phase == DRAW
        node = game.next(state)
        assert isinstance(node, Chance) and node.outcomes[0].player == ("ann" if variants else "ben")
    held = sum(state.hands[0])
    state = game.apply(state, Draw("ann", "N"))
    assert sum(state.hands[0]) == held + 1 and state.owed == (0, 0)
    assert state.turn == 1 and state.phase in (AWAKEN, DRAW)  # then ben's awakening, as usual
    assert game.next(state).outcomes[0].player == "ben"


def test_glyph_coin_at_turn_end_a_turn_without_dice_spent_ends_at_once(house):
    game, state = game_at(house, position({"ann": {"g3": "F"}}, hands={"ann": "F F"}), COIN)
    state = to_action(game, state, draws="S")
    move = next(e for e in game.legal(state, "ann") if isinstance(e, Move) and not e.dice)
    state = game.apply(state, move)  # nothing to re-roll: the turn ends with the action
    assert (state.turn, state.owed, state.phase) == (1, (1, 0), DRAW)


def test_glyph_coin_at_turn_end_is_not_asked_under_the_official_rules(house):
    game, _ = game_at(house, position({"ann": {"g3": "F"}}))
    assert game.turn_end is None and game.steps[ROLLING] is steps.ROLLING_STEP and game.steps[ACT] is steps.ACT_STEP
    game, _ = game_at(house, position({"ann": {"g3": "F"}}), COIN)
    assert game.turn_end is not None


def test_glyph_coin_at_turn_end_whole_games_replay_and_the_fast_path_agrees(house, tmp_path):
    for number, (header, events) in enumerate(self_played(house, COIN[0], 2)):
        kinds = [e.kind for e in events]
        # A draw follows the reset roll (or the action when no die was spent), before the next awakening.
        assert kinds.count("draw") > kinds.count("move") // 2
        assert replayed(house, tmp_path / f"{number}.jsonl", header, events).over
    assert compare(house, "glyph-chess", ("ann", "ben"), "coin", COIN, max_events=300) > 100
    assert compare(house, "glyph-chess", ("ann", "ben", "cat"), "coin3", COIN, max_events=200) > 50
