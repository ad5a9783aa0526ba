"""glyph-die-escape (variants/house_rules/glyph_die_escape.py): the escape's cost
is the rule hook ``glyph_escape_cost``, which may say "a die"; the escape is
offered whenever the cost in force can be paid."""

from __future__ import annotations

import random

import pytest

from tabletop import Registry
from tabletop.testing import fast_agrees, notation_round_trips
from tabletop_glyph_chess import Escape
from tabletop_glyph_chess.state import ESCAPE, KILLED

from ..fastpath import compare
from .helpers import act, game_at, house_rules, position, record, spot, to_action, why_not

N = 4  # the necromancer's index among the glyph types
ATTACK = {"ann": {"g3": "F"}, "ben": {"g5": "N"}}
DIE_ESCAPE = ["glyph-die-escape"]


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_die_escape.py")


def attacked(registry, variants, pieces=ATTACK, dice="F N N S S", ben="S S", move="g3-g5 / D1 F"):
    """ann's force mage lands on ben's necromancer, paid with D1 and an F coin."""
    game, state = game_at(registry, position(pieces, dice=dice, hands={"ann": "F", "ben": ben}), variants)
    return game, act(game, to_action(game, state), "ann", move)


def test_glyph_escape_cost_a_die_showing_the_necromancer_pays_for_the_escape(house):
    official, state = attacked(house, [])
    assert state.phase != ESCAPE and state.fates[1][N] == KILLED  # no coin: taken at once
    game, state = attacked(house, DIE_ESCAPE)
    assert state.phase == ESCAPE
    assert game.legal(state, "ben") == [Escape("ben", "D2"), Escape("ben", "")]  # alike dice: the lowest listed
    assert why_not(game, state, "ben", "escape D3") is None  # ... and any of them taken
    assert why_not(game, state, "ben", "escape D1") == "you cannot escape with D1 (you may use: D2)"
    assert why_not(game, state, "ben", "escape D4") == "you cannot escape with D4 (you may use: D2)"
    notation_round_trips(game, state, "ben")
    fast_agrees(game, state, ("ann", "ben"), random.Random(1))
    state = act(game, state, "ben", "escape D3")
    assert spot(game, state, "g3") == ("ben", "N") and spot(game, state, "g5") == ("ann", "F")
    assert state.rolling == (0, 2) and sum(state.hands[1]) == 2  # D1 and D3 re-rolled; no coin paid


def test_glyph_escape_cost_a_coin_still_pays_and_the_spent_die_does_not(house):
    pieces = {"ann": {"g4": "K"}, "ben": {"g5": "N"}}
    game, state = attacked(house, DIE_ESCAPE, pieces, dice="N S S S S", ben="N", move="g4-g5 / D1")
    assert game.legal(state, "ben") == [Escape("ben", "N"), Escape("ben", "")]  # D1 paid for the scepter's step
    assert why_not(game, state, "ben", "escape D1") == "you cannot escape with D1 (you may use: N)"


def test_glyph_escape_cost_a_die_pays_in_an_enemy_seeress_sight(house):
    pieces = {"ann": {"g3": "F", "g8": "S"}, "ben": {"g5": "N"}}
    for variants, offered in (([], []), (DIE_ESCAPE, [Escape("ben", "D2"), Escape("ben", "")])):
        game, state = attacked(house, variants, pieces, dice="F N S S S", ben="N")
        assert game.legal(state, "ben") == offered  # sight blocks the N coin, not the die


def test_glyph_escape_cost_a_recorded_escape_with_a_die_replays(house, tmp_path):
    data = position(ATTACK, dice="F N N S S", hands={"ann": "F", "ben": "S S"})
    script = ["ann g3-g5 / D1 F", "ben escape D2"]
    match = record(house, tmp_path / "escape.jsonl", data, script, DIE_ESCAPE)
    assert spot(match.game, match.state, "g3") == ("ben", "N")
    assert '"coin":"D2"' in (tmp_path / "escape.jsonl").read_text()


def test_glyph_escape_cost_the_fast_path_agrees_with_the_plain_rules(house):
    assert compare(house, "glyph-chess", ("ann", "ben"), "die escape", DIE_ESCAPE, max_events=400) > 100
