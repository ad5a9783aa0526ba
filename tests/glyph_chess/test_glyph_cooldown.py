"""glyph-cooldown (variants/house_rules/glyph_cooldown.py): who cast a spell on
their last turn casts none this turn, remembered as each event takes effect
(``glyph_memo``); every spell's check, listing and count refuse it."""

from __future__ import annotations

import random

import pytest

from tabletop import Registry
from tabletop.testing import fast_agrees
from tabletop_glyph_chess import Cast, Move, recall
from tabletop_glyph_chess.state import ROLLING

from ..fastpath import compare
from .helpers import game_at, house_rules, position, replayed, self_played, to_action

COOL = ["glyph-cooldown"]


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_cooldown.py")


def turn(game, state, player, kind):
    """``player``'s turn: the first legal decision of ``kind``, then the reset roll."""
    state = to_action(game, state, draws="S")
    state = game.apply(state, next(e for e in game.legal(state, player) if isinstance(e, kind)))
    while state.phase == ROLLING:
        state = game.apply(state, game.next(state).outcomes[-1])  # every die re-rolled shows U
    return state


def test_glyph_memo_glyph_cooldown_remembers_a_spell_and_refuses_one_the_turn_after(house):
    data = position({"ann": {"g3": "U"}}, dice="U U U U U", hands={"ann": "U", "ben": "S"})
    game, state = game_at(house, data, COOL)
    state = to_action(game, state, draws="S")
    cast = next(e for e in game.legal(state, "ann") if isinstance(e, Cast))
    state = turn(game, state, "ann", Cast)
    assert recall(state, "glyph-cooldown") == (0,)
    state = turn(game, state, "ben", Move)
    state = to_action(game, state, draws="S")
    assert recall(state, "glyph-cooldown") == (0,)
    assert not any(isinstance(e, Cast) for e in game.legal(state, "ann"))  # moves only
    again = Cast("ann", cast.spell, cast.source, (), cast.target, cast.dice, cast.coins)
    assert game.check(state, again) == "you cast a spell last turn"
    fast_agrees(game, state, ("ann", "ben"), random.Random(1))
    state = turn(game, state, "ann", Move)
    assert recall(state, "glyph-cooldown") == ()
    state = turn(game, state, "ben", Move)
    state = to_action(game, state, draws="S")
    assert any(isinstance(e, Cast) for e in game.legal(state, "ann"))  # cooled down
    official, at = game_at(house, data)
    assert any(isinstance(e, Cast) for e in official.legal(to_action(official, at), "ann"))


def test_glyph_cooldown_whole_games_replay_and_the_fast_path_agrees(house, tmp_path):
    for number, (header, events) in enumerate(self_played(house, COOL[0], 3)):
        acts = [(e.player, e.kind) for e in events if e.kind in ("move", "cast", "pass")]
        for player in {p for p, _ in acts}:
            mine = [k for p, k in acts if p == player]
            assert all(not (a == b == "cast") for a, b in zip(mine, mine[1:]))  # never two turns in a row
        assert replayed(house, tmp_path / f"{number}.jsonl", header, events).over
    assert compare(house, "glyph-chess", ("ann", "ben"), "cool", COOL, max_events=300) > 100
