"""The public view: the game as a watcher with no seat may know it (an
observer of a game by mail), made by the core from the seats' views
(tabletop.sight.seen.public), so no game needs to know of watchers.

Pile, the test game, draws every card in its ``render`` and ``describe``,
as a game author who forgot to hide them would: only the core's view keeps
the cards from a watcher."""

from __future__ import annotations

import random

import attrs
import pytest

import tabletop.api
from tabletop import Hidden, testing
from tabletop.model.events import Event
from tabletop.sight import seen

from ..conftest import PILE


def _pile(players=("ann", "ben", "cy")):
    registry = tabletop.api.registry([PILE])
    table = tabletop.api.start("pile", list(players), seed="s", registry=registry)
    return registry, table


def test_the_public_view_hides_what_any_seat_may_not_see():
    """Every seat's card is hidden from the watcher, though each seat sees its own."""
    registry, table = _pile()
    game, state = table.game, table.match.state
    assert all(not isinstance(card, Hidden) for card in state.cards)
    public = seen.view(game, state, seen.PUBLIC)
    assert public == seen.public(game, state)
    assert all(isinstance(card, Hidden) for card in public.cards)
    for seat in game.players:
        assert not isinstance(seen.view(game, state, seat).cards[game.players.index(seat)], Hidden)
        assert game.view(public, seat) == public  # nothing a seat may see is added back
    text = seen.text(game, state, seen.PUBLIC)
    assert all(f"{p}: {c}" not in text for p, c in zip(game.players, state.cards)), text
    assert seen.facets(game, state, seen.PUBLIC) == seen.facets(game, public, seen.PUBLIC)


def test_a_watcher_reads_hidden_events_as_a_seat_that_may_not_see_them():
    """A deal is its player's alone: the watcher reads it redacted, as the
    other seats do; what every seat sees, it reads whole."""
    registry, table = _pile(("ann", "ben"))
    match = table.match
    deals = [e for e in table.events if e.kind == "deal"]
    assert deals
    for deal in deals:
        assert not seen.sees(match.game, deal, seen.PUBLIC)
        told = seen.told(match.game, deal, seen.PUBLIC)
        assert told in match.game.players and told != deal.player
        assert str(deal.card) not in match.describe(deal, told)
    assert seen.history(match.game, deals, seen.PUBLIC) == [Hidden("deal")] * len(deals)


def test_the_kit_holds_every_shipped_game_to_the_public_view():
    """The kit's public check (tabletop.testing.public_alike) passes on Pile;
    both games and their variants run it in test_conformance.py."""
    registry, table = _pile()
    state = table.match.state
    for number in range(5):
        testing.public_alike(registry, table.game, state, random.Random(number))
    twin = testing.public_twin(table.game, state, random.Random(3))
    assert seen.public(table.game, twin) == seen.public(table.game, state)


class Marked:
    """Pile whose view writes who looked into each card it hides: each seat's
    own view is still a view of a view, but the public view then depends on
    which seat looked last."""

    def __init__(self, game) -> None:
        self.game = game

    def __getattr__(self, name):
        return getattr(self.game, name)

    def view(self, state, player):
        if player is None:
            return state
        cards = tuple(
            c if p == player or c is None else Hidden("card", player) for p, c in zip(self.game.players, state.cards)
        )
        return attrs.evolve(state, cards=cards)


def test_the_kit_finds_a_public_view_that_depends_on_the_order_of_the_seats():
    registry, table = _pile()
    game = Marked(table.game)
    state = table.match.state
    for seat in game.players:  # each seat's own contract holds
        assert game.view(game.view(state, seat), seat) == game.view(state, seat)
    with pytest.raises(testing.Nonconformance, match="public view"):
        testing.public_alike(registry, game, state, random.Random(1))


def test_no_player_is_called_the_public_viewer():
    from tabletop.base.errors import LogFormatError
    from tabletop.log.header import check_players

    with pytest.raises(LogFormatError):
        check_players([seen.PUBLIC, "ann"])
    assert isinstance(seen.PUBLIC, str) and not isinstance(seen.PUBLIC, Event)
