"""glyph-reroll-once (variants/house_rules/glyph_reroll_once.py): a once-per-game
re-roll of the dice one chooses, a core subset decision offered in the
awakening step with Glyph Chess's helper (``offer``)."""

from __future__ import annotations

import random

import pytest

from tabletop import Header, Registry
from tabletop.log.header import Randomness
from tabletop.play.engine import Match
from tabletop.play.live import settle
from tabletop.testing import fast_agrees, notation_round_trips
from tabletop_glyph_chess.state import AWAKEN, DRAW, ROLLING

from ..fastpath import compare
from .helpers import act, game_at, house_rules, position, replayed, self_played, why_not

ONCE = ["glyph-reroll-once"]


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_reroll_once.py", "glyph_six_dice.py")


def test_glyph_reroll_once_the_awakening_offers_it_once_per_game(house):
    data = position({"ann": {"g3": "F"}})
    official, state = game_at(house, data)
    assert state.phase == DRAW  # nothing to re-roll: the awakening passes
    game, state = game_at(house, data, ONCE)
    assert state.phase == AWAKEN  # ... but waits for the re-roll of one's choice
    texts = [game.notate(e) for e in game.legal(state, "ann")]
    assert texts[:3] == ["reroll", "skip", "mulligan 1"] and len(texts) == 2 + 31 and "mulligan 1,2,3,4,5" in texts
    notation_round_trips(game, state, "ann")
    fast_agrees(game, state, ("ann", "ben"), random.Random(4))
    assert why_not(game, state, "ann", "mulligan 3,1") == "name the items in this order: 1, 2, 3, 4, 5"
    assert why_not(game, state, "ann", "mulligan -") == "choose at least 1"
    assert why_not(game, state, "ben", "mulligan 1") is not None
    state = act(game, state, "ann", "mulligan 1,3")
    assert (state.phase, state.rolling, state.then) == (ROLLING, (0, 2), AWAKEN)
    for face in ("E", "U"):
        state = game.apply(state, game.next(state).outcomes["SIEFNU".index(face)])
    assert state.dice[:3] == ("E", "S", "U") and state.phase == DRAW  # used: the awakening passes now
    assert not any(game.notate(e).startswith("mulligan") for e in game.legal(state, "ann"))


def test_glyph_reroll_once_with_six_dice_offers_the_sixth(house):
    match = Match(house, Header("glyph-chess", ("ann", "ben"), (*ONCE, "glyph-six-dice"), {}, Randomness(seed="6")))
    settle(match, "6", {})  # setup, then ann's first awakening
    texts = [match.game.notate(e) for e in match.game.legal(match.state, "ann")]
    assert len(texts) == 2 + 63 and "mulligan 6" in texts and "mulligan 1,2,3,4,5,6" in texts


def test_glyph_reroll_once_whole_games_replay_and_the_fast_path_agrees(house, tmp_path):
    used = 0
    for number, (header, events) in enumerate(self_played(house, "glyph-reroll-once", 3)):
        taken = [e.player for e in events if e.kind == "mulligan"]
        assert len(taken) == len(set(taken))  # once per game each
        used += len(taken)
        assert replayed(house, tmp_path / f"{number}.jsonl", header, events).over
    assert used > 0
    assert compare(house, "glyph-chess", ("ann", "ben"), "once", ONCE, max_events=300) > 100
