"""glux-lucky-room (variants/house_rules/glux_lucky_room.py): a room drawn before
setup for everyone to see (the core's public chance shape, ``Lot``) scores
double. Played to the end and replayed, the draw read by every seat alike,
kept by a search's imagined worlds, and the fast path held to the plain one."""

from __future__ import annotations

import random

import pytest

from tabletop import Chance, Deal, Header, Randomness, Registry, get_plugin_manager, testing
from tabletop.play.engine import Match
from tabletop.play.live import selfplay, settle
from tabletop.play.table import parse_outcome

from ..conftest import ROOT
from ..fastpath import compare

LUCKY = ROOT / "variants" / "house_rules" / "glux_lucky_room.py"
VARIANT = ("glux-lucky-room",)
PLAYERS = ("ann", "ben", "cy")


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager([LUCKY], environment=False))


def lucky_drawn(house, room="C"):
    """A game whose lucky room was drawn as ``room``, at its first decision, and the draw."""
    match = Match(house, Header("glux", PLAYERS, VARIANT, {}, Randomness(seed="lucky")))
    node = match.node
    assert isinstance(node, Chance) and len(node.outcomes) == 9 and node.weights is None  # one of nine rooms
    for seat in (*PLAYERS, None):
        testing.hidden_alike(match, seat)  # nothing hidden: the same for every seat
    drawn = parse_outcome(match, f"lucky {room}")
    match.accept(drawn)
    settle(match, "lucky", {})
    return match, drawn


def test_glux_lucky_room_is_drawn_for_everyone_to_see(house):
    match, drawn = lucky_drawn(house)
    game, state = match.game, match.state
    lucky = type(drawn)
    assert drawn.items == ("C",) and lucky.drawn(state) == ("C",)
    assert {game.format(drawn, viewer) for viewer in (*PLAYERS, None)} == {"lucky C"}
    assert all(game.sees(drawn, viewer) for viewer in PLAYERS)
    for seat in PLAYERS:
        assert lucky.drawn(game.view(state, seat)) == ("C",)
    assert Deal.most(game) == 9


def test_glux_lucky_room_scores_double(house, registry):
    official, won = registry.game(Header("glux", PLAYERS)), 0
    for number in range(4):
        bots = [house.bot("random", "glux")] * 3
        _, match, events = selfplay(house, "glux", PLAYERS, bots, f"lucky-end-{number}", VARIANT)
        game, state = match.game, match.state
        assert events[0].kind == "lucky"
        (room,) = type(events[0]).drawn(state)
        points, plain = game.room_points(state), official.room_points(state)
        won += any(plain[room].values())  # the lucky room was won: the doubling shows
        for name in plain:
            double = 2 if name == room else 1
            assert points[name] == {player: double * vp for player, vp in plain[name].items()}
        totals = {p: sum(points[name].get(p, 0) for name in points) for p in PLAYERS}
        assert game.outcome(state).scores == totals
    assert won


def test_glux_lucky_room_views_twins_and_a_search_keep_the_draw(house):
    match, drawn = lucky_drawn(house, "E")
    game, state, rng = match.game, match.state, random.Random(2)
    for seat in PLAYERS:
        testing.views_are_views(game, state, seat, rng)
        for twin in testing.twins(game, state, seat, rng, count=4):
            assert type(drawn).drawn(twin) == ("E",)  # never drawn again in an imagined world
            testing.same_for(house, game, state, twin, seat)
    testing.public_alike(house, game, state, rng)


def test_glux_lucky_room_replays_conforms_and_the_fast_path_agrees(house):
    assert compare(house, "glux", PLAYERS, "lucky", VARIANT) > 50
    assert compare(house, "glux", ("ann", "ben"), "lucky-2", VARIANT) > 30
    assert testing.conform(house, "glux", ("ann", "ben", "cy", "dee"), VARIANT, games=1, seed="lucky", every=10) > 50
