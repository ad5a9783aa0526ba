"""glyph-coin-trade (variants/house_rules/glyph_coin_trade.py): a new action
that moves coins, written with Glyph Chess's paid decision shape (``Paid``)
and the helper adding it to the action step (``action``)."""

from __future__ import annotations

import random

import pytest

from tabletop import Decide, Forced, Registry
from tabletop.testing import fast_agrees, notation_round_trips
from tabletop_glyph_chess import Paid
from tabletop_glyph_chess.state import DRAW

from ..fastpath import compare
from .helpers import act, game_at, house_rules, position, replayed, self_played, to_action, why_not

TRADE = ["glyph-coin-trade"]
S, F = 0, 3  # the seeress's and the force mage's index among the glyph types


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_coin_trade.py")


def test_glyph_coin_trade_is_listed_checked_written_and_moves_the_coins(house):
    game, state = game_at(house, position({"ann": {"g3": "F"}}, hands={"ann": "S S"}, used={"ann": "F"}), TRADE)
    state = to_action(game, state, draws="S")
    trades = [game.notate(e) for e in game.legal(state, "ann") if isinstance(e, Paid)]
    # A coin of each type left in the bag (one F is used), for 2 of the 3 S coins held.
    assert trades == [
        "trade S / S S",
        "trade I / S S",
        "trade E / S S",
        "trade F / S S",
        "trade N / S S",
        "trade U / S S",
    ]
    notation_round_trips(game, state, "ann")
    fast_agrees(game, state, ("ann", "ben"), random.Random(2))
    assert why_not(game, state, "ann", "trade F / S") == "this costs 2 coins; 1 given"
    assert why_not(game, state, "ann", "trade F / D1 S") == "this is paid in coins, never dice"
    assert why_not(game, state, "ann", "trade F / S S S") == "this costs 2 coins; 3 given"
    assert why_not(game, state, "ann", "trade K / S S").startswith("trade 'K' is not open now")
    state = act(game, state, "ann", "trade F / S S")
    assert state.hands[0][S] == 1 and state.hands[0][F] == 1 and state.used[0][S] == 2 and state.bags[0][F] == 0
    assert state.turn == 1 and state.phase == DRAW  # the action is over: ben draws
    assert why_not(game, state, "ben", "trade F / S S") is not None


def test_glyph_coin_trade_is_offered_where_no_move_or_spell_is(house):
    # ann's scepter is boxed in by her minions, her summoner in ben's seeress's sight with no die
    # showing U, her other glyph pieces dead: no move, no spell.
    dead = {glyph: "killed" for glyph in "SIEFN"}
    pieces = {"ann": {"a1": "K", "a2": "M", "b1": "M", "b2": "M", "g6": "U"}, "ben": {"g8": "S"}}
    data = position(pieces, hands={"ann": "S"}, fates={"ann": dead})
    for variants, node in (([], Forced), (TRADE, Decide)):
        game, state = game_at(house, data, variants)
        state = to_action(game, state, draws="E")
        assert type(game.next(state)) is node  # a pass, unless a trade is possible
    assert [game.notate(e) for e in game.legal(state, "ann")][:2] == ["trade S / S E", "trade I / S E"]


def test_glyph_coin_trade_whole_games_replay_and_the_fast_path_agrees(house, tmp_path):
    traded = 0
    for number, (header, events) in enumerate(self_played(house, "glyph-coin-trade", 3)):
        traded += sum(isinstance(e, Paid) for e in events)
        assert replayed(house, tmp_path / f"{number}.jsonl", header, events).over
    assert traded > 0
    assert compare(house, "glyph-chess", ("ann", "ben"), "trade", TRADE, max_events=400) > 100


def test_glyph_coin_trade_the_listing_joins_the_steps_own_and_stays_a_sequence(house):
    from tabletop_glyph_chess.offers import Joined

    joined = Joined(("a", "b"), ["c"])
    assert list(joined) == ["a", "b", "c"] and joined == ["a", "b", "c"] and len(joined) == 3
    assert (joined[0], joined[2], joined[-1], joined[-3], joined[1:]) == ("a", "c", "c", "a", ["b", "c"])
    for index in (3, -4):
        with pytest.raises(IndexError):
            joined[index]
    game, state = game_at(house, position({"ann": {"g3": "F"}}, hands={"ann": "S S"}), TRADE)
    legal = game.legal(to_action(game, state), "ann")
    assert [legal[i] for i in range(len(legal))] == list(legal)  # a bot's pick by index is the listing's
