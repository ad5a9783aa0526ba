"""glux-rooms-dealt (variants/house_rules/glux_rooms_dealt.py): each player is
dealt a different room in secret, from one pool (the core's ``Deal`` without
replacement, ``replace=False``), and scores it double. No room is dealt
twice; each room is its player's alone, in views, texts and twin states; a
search deals the others what is left; the fast path agrees."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tabletop import Chance, Deal, Header, Randomness, Registry, get_plugin_manager, testing
from tabletop.play.engine import Match
from tabletop.play.live import selfplay, settle
from tabletop.play.table import parse_outcome

from ..conftest import ROOT
from ..fastpath import compare

DEALT = ROOT / "variants" / "house_rules" / "glux_rooms_dealt.py"
VARIANT = ("glux-rooms-dealt",)
FOUR = ("ann", "ben", "cy", "dee")


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager([DEALT], environment=False))


def dealt(house, rooms=("A", "B", "C", "D"), seed="rooms"):
    """A game whose players were dealt ``rooms`` in seat order, at its first
    decision, and the deals; every seat reads the others' deals alike."""
    match = Match(house, Header("glux", FOUR, VARIANT, {}, Randomness(seed=seed)))
    deals = []
    for number, (player, room) in enumerate(zip(FOUR, rooms)):
        node = match.node
        assert isinstance(node, Chance) and len(node.outcomes) == 9 - number  # the rooms left
        for seat in (*FOUR, None):
            testing.hidden_alike(match, seat)
        deals.append(parse_outcome(match, f"room {room}", player))
        match.accept(deals[-1])
    settle(match, seed, {})
    return match, deals


def test_glux_rooms_dealt_no_room_is_dealt_twice(house):
    # Dealt with replacement, a room went to two of four players in every one of 20 games.
    for number in range(20):
        bots = [house.bot("random", "glux")] * 4
        _, match, events = selfplay(house, "glux", FOUR, bots, f"rooms-{number}", VARIANT)
        rooms = [event.items for event in events[:4]]
        assert [event.kind for event in events[:4]] == ["room"] * 4 and len(set(rooms)) == 4
        assert [type(events[0]).dealt(match.state, p) for p in FOUR] == rooms


def test_glux_rooms_dealt_a_room_taken_is_not_dealt_again(house):
    match = Match(house, Header("glux", FOUR, VARIANT, {}, Randomness(seed="rooms")))
    match.accept(parse_outcome(match, "room E", "ann"))
    assert "room E" not in {match.game.notate_outcome(o) or match.game.format(o) for o in match.node.outcomes}
    with pytest.raises(Exception, match="not a possible outcome"):
        parse_outcome(match, "room E", "ben")
    assert Deal.most(match.game) == 9


def test_glux_rooms_dealt_each_room_is_its_players_alone(house):
    match, deals = dealt(house)
    game, state, rng = match.game, match.state, random.Random(3)
    assert [game.format(e, "ben") for e in deals] == [
        "ann room (hidden)",
        "ben room B",
        "cy room (hidden)",
        "dee room (hidden)",
    ]
    assert "'A'" not in repr(game.view(state, "ben").memo)
    other = dealt(house, ("F", "B", "C", "D"))[0].state  # the same but for ann's room
    assert game.view(other, "ben") == game.view(state, "ben")
    testing.same_for(house, game, state, other, "ben")
    for seat in FOUR:
        testing.views_are_views(game, state, seat, rng)
        for twin in testing.twins(game, state, seat, rng):
            testing.same_for(house, game, state, twin, seat)
    testing.public_alike(house, game, state, rng)


def test_glux_rooms_dealt_a_search_deals_the_others_the_rooms_left(house):
    match, deals = dealt(house)
    game, state, rng = match.game, match.state, random.Random(4)
    room = type(deals[0])
    view = game.view(state, "ann")
    seen = Counter()
    for _ in range(200):
        world = game.determinize(view, "ann", rng)
        hands = [room.dealt(world, p) for p in FOUR]
        assert hands[0] == ("A",) and len(set(hands)) == 4  # ann's own, and three others, all different
        assert game.view(world, "ann") == view
        seen.update(hands[1:])
    assert set(seen) == {(r,) for r in "BCDEFGHI"}


def test_glux_rooms_dealt_ones_own_room_scores_double(house, registry):
    official = registry.game(Header("glux", FOUR))
    doubled = 0
    for number in range(3):
        bots = [house.bot("random", "glux")] * 4
        _, match, events = selfplay(house, "glux", FOUR, bots, f"rooms-end-{number}", VARIANT)
        game, state = match.game, match.state
        own = {event.player: event.items[0] for event in events[:4]}
        points, plain = game.room_points(state), official.room_points(state)
        for name, room_points in plain.items():
            for player, vp in room_points.items():
                assert points[name][player] == vp * (2 if own[player] == name else 1)
                doubled += vp > 0 and own[player] == name
    assert doubled


def test_glux_rooms_dealt_conforms_and_the_fast_path_agrees(house):
    assert compare(house, "glux", FOUR, "rooms", VARIANT) > 50
    assert testing.conform(house, "glux", FOUR, VARIANT, games=1, seed="rooms", every=10) > 50
