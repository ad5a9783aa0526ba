"""Resigning in Glyph Chess (``resignation.py``): once the pieces are set up, a
player may resign and is eliminated, all their pieces leaving the board. Both
guards are reached here: during the setup (while some player's pieces are
still to be shuffled into place), and a player resigning a second time."""

from __future__ import annotations

import pytest

from tabletop.base.errors import IllegalEventError
from tabletop.log.header import Header, Randomness
from tabletop.model.events import Resign
from tabletop.play.engine import Match
from tabletop_glyph_chess.events import Shuffle
from tabletop_glyph_chess.state import OVER, SETUP

from .helpers import game_at, position, to_action

ORDER = ("S", "I", "E", "F", "N", "U")
DURING_SETUP = "in Glyph Chess a player may resign once the pieces are set up"


def test_resigning_during_the_setup_is_refused_until_the_pieces_are_set_up(registry):
    game = registry.game(Header("glyph-chess", ("ann", "ben", "cat")))
    state = game.initial()
    for shuffle in [None, Shuffle("ann", ORDER), Shuffle("ben", ORDER)]:
        if shuffle is not None:
            state = game.apply(state, shuffle)
        assert state.phase == SETUP
        for player in ("ann", "ben", "cat"):
            with pytest.raises(IllegalEventError) as info:
                game.resign(state, player)
            assert str(info.value) == DURING_SETUP
    # The last player's pieces set up, the setup is over: a resignation is
    # taken, before the first roll.
    state = game.apply(state, Shuffle("cat", ORDER))
    assert state.phase != SETUP and all(state.placed)
    after = game.resign(state, "cat")
    assert after.eliminated == (False, False, True) and after.phase == state.phase and after.turn == 0
    assert not any(piece is not None and piece[0] == 2 for piece in after.board)
    assert any(piece is not None and piece[0] == 2 for piece in state.board)


def test_resigning_during_the_setup_is_refused_by_the_engine(registry):
    match = Match(registry, Header("glyph-chess", ("ann", "ben"), randomness=Randomness()))
    assert match.why_illegal(Resign("ben")) == DURING_SETUP
    match.accept(Shuffle("ann", ORDER))
    assert match.why_illegal(Resign("ann")) == DURING_SETUP
    assert match.why_illegal(Resign("ben")) == DURING_SETUP
    match.accept(Shuffle("ben", ORDER))
    assert match.why_illegal(Resign("ben")) is None
    match.accept(Resign("ben"))
    assert match.over and match.game.outcome(match.state).winners == ("ann",)


def test_resigning_twice_is_refused(registry):
    data = position({"ann": {"g3": "F"}}, hands={"ann": "S S I E E"}, players=("ann", "ben", "cat"))
    game, state = game_at(registry, data)
    state = to_action(game, state)
    once = game.resign(state, "cat")  # out of turn: ann goes on
    assert once.eliminated == (False, False, True) and once.turn == 0 and once.phase != OVER
    with pytest.raises(IllegalEventError) as info:
        game.resign(once, "cat")
    assert str(info.value) == "cat is out of the game already"
    # On one's own turn: the turn passes to ben, and ann resigns no more.
    twice = game.resign(once, "ann")
    assert twice.eliminated == (True, False, True) and twice.phase == OVER and twice.winner == 1
    with pytest.raises(IllegalEventError, match="^ann is out of the game already$"):
        game.resign(twice, "ann")


def test_resigning_twice_is_refused_by_the_engine(registry):
    data = position({"ann": {"g3": "F"}}, hands={"ann": "S S I E E"}, players=("ann", "ben", "cat"))
    match = Match(registry, Header("glyph-chess", ("ann", "ben", "cat"), (), {"position": data}, Randomness()))
    assert match.why_illegal(Resign("ben")) is None
    match.accept(Resign("ben"))
    assert match.state.eliminated == (False, True, False)
    assert match.why_illegal(Resign("ben")) == "ben is out of the game already"
