"""glyph-deal (variants/house_rules/glyph_deal.py): a secret dealt at setup, a
chance outcome of the core's deal shape (``tabletop.Deal``): each player sees
their own patron alone, in every view, text and picture."""

from __future__ import annotations

import random

import pytest

from tabletop import Chance, Header, Registry
from tabletop.log.header import Randomness
from tabletop.play.engine import Match
from tabletop.play.live import settle
from tabletop.play.table import parse_outcome
from tabletop.testing import hidden_alike, public_alike, same_for, twins, views_are_views

from ..fastpath import compare
from .helpers import house_rules, replayed, self_played

DEAL = ("glyph-deal",)


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_deal.py")


def dealt(house, patrons=("E", "U"), seed="deal"):
    """A game whose players were dealt ``patrons`` in seat order, at its
    first decision, and the deals."""
    match = Match(house, Header("glyph-chess", ("ann", "ben"), DEAL, {}, Randomness(seed=seed)))
    deals = []
    for player, glyph in zip(("ann", "ben"), patrons):
        node = match.node
        assert isinstance(node, Chance) and len(node.outcomes) == 6  # one of six types, alike
        for seat in (*match.game.players, None):
            hidden_alike(match, seat)  # every other player reads the same, and keeps the same view
        deals.append(parse_outcome(match, f"patron {glyph}", player))
        match.accept(deals[-1])
    settle(match, seed, {})
    return match, deals


def test_glyph_deal_each_player_is_dealt_a_patron_whose_coins_are_wild(house, registry):
    match, deals = dealt(house)
    game, state = match.game, match.state
    assert [game.format(e, "ann") for e in deals] == ["ann patron E", "ben patron (hidden)"]
    assert [game.format(e, None) for e in deals] == ["ann patron E", "ben patron U"]
    assert game.wild(state, 0) == {"E"} and game.wild(state, 1) == {"U"}
    assert "E" in game.payers(game=game, state=state, seat=0, spot=None, kind="S").coins
    official = registry.game(Header("glyph-chess", ("ann", "ben")))
    assert official.wild(state, 0) == frozenset()


def test_glyph_deal_views_the_dealt_patron_is_its_players_alone(house):
    match, _ = dealt(house)
    game, state, rng = match.game, match.state, random.Random(3)
    assert game.view(state, "ben").memo.seen_by("ben") == game.view(state, "ben").memo
    assert "E" not in repr(game.view(state, "ben").memo) and "E" in repr(game.view(state, "ann").memo)
    other = dealt(house, ("S", "U"))[0].state  # the same but for ann's patron
    assert game.view(other, "ben") == game.view(state, "ben") and game.view(other, "ann") != game.view(state, "ann")
    same_for(house, game, state, other, "ben")
    for seat in game.players:
        views_are_views(game, state, seat, rng)
        for twin in twins(game, state, seat, rng):
            same_for(house, game, state, twin, seat)
    public_alike(house, game, state, rng)


def test_glyph_deal_whole_games_replay_and_the_fast_path_agrees(house, tmp_path):
    for number, (header, events) in enumerate(self_played(house, "glyph-deal", 3)):
        assert [e.kind for e in events[:2]] == ["patron", "patron"]
        match = replayed(house, tmp_path / f"{number}.jsonl", header, events)
        assert match.over
    assert compare(house, "glyph-chess", ("ann", "ben", "cat"), "deal", DEAL, max_events=300) > 50


def test_glyph_deal_a_search_imagines_the_others_patrons(house):
    # A world a search makes from ann's view keeps her patron and deals ben
    # one of the six types, as the deal does: his wild coins vary from world
    # to world, and each world shows ann her own view.
    match, _ = dealt(house)
    game, state, rng = match.game, match.state, random.Random(4)
    view = game.view(state, "ann")
    wild = set()
    for _ in range(120):
        world = game.determinize(view, "ann", rng)
        assert game.wild(world, 0) == {"E"} and game.view(world, "ann") == view
        (patron,) = game.wild(world, 1)
        wild.add(patron)
    assert wild == {"S", "I", "E", "F", "N", "U"}
