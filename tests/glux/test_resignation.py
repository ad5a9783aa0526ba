"""Resigning in Glüx (``resignation.py``): once the setup is over and the first
player drawn, a player may resign; their chips stay, they place no more. Both
guards are reached here: before the first player is drawn, and a second time."""

from __future__ import annotations

import pytest

from tabletop.base.errors import IllegalEventError
from tabletop.log.header import Header, Randomness
from tabletop.model.events import Resign
from tabletop.play.engine import Match
from tabletop_glux.events import Draw, FirstPlayer, Start

from .helpers import make_game, position

BEFORE = "in Glüx a player may resign once the setup is over and the first player drawn"


def set_up_but_for_the_first_player(game):
    """Every start chip placed and every hand drawn: only the first player is still to draw."""
    state = game.initial()
    for player in game.players:
        state = game.apply(state, Draw(player, "1/6"))
    for player in game.players:
        state = game.apply(state, Start(player, 6))
    for player in game.players:
        state = game.apply(state, Draw(player, "2/5"))
    assert game.next(state).outcomes == tuple(FirstPlayer(p) for p in game.players)
    return state


def test_resigning_before_the_first_player_is_drawn_is_refused(registry):
    game = make_game(registry, ("ann", "ben", "cat"))
    state = set_up_but_for_the_first_player(game)
    assert all(state.started) and not state.began
    for player in game.players:
        with pytest.raises(IllegalEventError) as info:
            game.resign(state, player)
        assert str(info.value) == BEFORE
    # The moment the first player is drawn, the same resignation is taken.
    begun = game.apply(state, FirstPlayer("ben"))
    after = game.resign(begun, "ann")
    assert after.excluded == (True, False, False) and after.turn == game.seats["ben"]
    assert after.stacks == begun.stacks and after.hands == begun.hands


def test_resigning_before_the_first_player_is_drawn_is_refused_by_the_engine(registry):
    match = Match(registry, Header("glux", ("ann", "ben"), randomness=Randomness()))
    for event in (Draw("ann", "3/4"), Draw("ben", "3/4"), Start("ann", 3), Start("ben", 4)):
        match.accept(event)
    match.accept(Draw("ann", "1/6"))
    match.accept(Draw("ben", "2/5"))
    assert match.why_illegal(Resign("ann")) == BEFORE
    match.accept(FirstPlayer("ann"))
    assert match.why_illegal(Resign("ann")) is None
    match.accept(Resign("ann"))
    assert match.state.excluded == (True, False) and match.state.turn == 1  # ann's turn passed to ben


def test_resigning_twice_is_refused_out_of_turn(registry):
    game = make_game(registry, ("ann", "ben", "cat"))
    state = position(game, {"c3": [("ben", 4)]}, turn="ann")
    once = game.resign(state, "ben")
    assert once.excluded == (False, True, False) and once.turn == 0
    with pytest.raises(IllegalEventError) as info:
        game.resign(once, "ben")
    assert str(info.value) == "ben places no more already"


def test_resigning_twice_is_refused_after_resigning_in_turn(registry):
    # Resigning on one's own turn passes it on; a second resignation is refused,
    # and the turn it passed on is not passed again.
    game = make_game(registry, ("ann", "ben", "cat"))
    state = position(game, {"c3": [("ann", 4)]}, turn="ann")
    once = game.resign(state, "ann")
    assert once.excluded == (True, False, False) and once.turn == 1
    with pytest.raises(IllegalEventError, match="^ann places no more already$"):
        game.resign(once, "ann")


def test_resigning_twice_is_refused_for_a_player_excluded_by_the_rules(registry):
    # An excluded player (the rulebook's "Important") places no more already: no resignation either.
    game = make_game(registry, ("ann", "ben", "cat"))
    state = position(game, {"c3": [("ann", 4)]}, turn="ben", excluded=["cat"], option_used=["cat"])
    with pytest.raises(IllegalEventError, match="^cat places no more already$"):
        game.resign(state, "cat")
    assert game.resign(state, "ann").excluded == (True, False, True)
