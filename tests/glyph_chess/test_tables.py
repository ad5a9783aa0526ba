"""The tables the listing reads instead of asking a hook piece by piece are
the hook's answers: sight worked out once for a seat's pieces, what may pay
by kind (the official payers), the range by piece and the directions by
spot, landing and passing by what stands on a spot. Held on many random
positions, with no variant, with each shipped Glyph Chess house rule, and
with a variant whose pass-through wrappers make the listing ask every one
of those hooks (the same listing either way)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import Header, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop_glyph_chess import actions, sight
from tabletop_glyph_chess.context import LANDS, PASSES, Context
from tabletop_glyph_chess.pieces import NAMES

from ..conftest import ROOT
from .test_fast import _scrambled

HOUSE_RULES = [str(f) for f in sorted((ROOT / "variants" / "house_rules").glob("glyph_*.py"))]
VARIANTS = [
    (),
    ("glyph-long-scepter",),
    ("glyph-push",),
    ("glyph-hand-limit:limit=3",),
    ("glyph-minion-steps",),
    ("glyph-no-scepter-swap",),
    ("glyph-wild-sight",),
    ("glyph-advanced-setup",),
    ("asking",),
]


class Asking:
    """Pass-through wrappers on every hook the listing reads as a table while
    no variant changes it: with them, it asks each hook piece by piece."""

    @rulehook(wrapper=True)
    def glyph_payers(self, game, state, seat, spot, kind):
        return (yield)

    @rulehook(wrapper=True)
    def glyph_may_use_coins(self, game, state, spot):
        return (yield)

    @rulehook(wrapper=True)
    def glyph_wild_coins(self, state, seat):
        return (yield)

    @rulehook(wrapper=True)
    def glyph_move_range(self, game, state, seat, piece, source):
        return (yield)

    @rulehook(wrapper=True)
    def glyph_move_directions(self, game, state, seat, piece, source):
        return (yield)

    @rulehook(wrapper=True)
    def glyph_may_land(self, game, state, seat, piece, spot):
        return (yield)

    @rulehook(wrapper=True)
    def glyph_may_pass(self, game, state, seat, piece, spot):
        return (yield)


class Plugin:
    @hookimpl
    def register_variants(self):
        return [Variant("asking", "glyph-chess", "every listing table's hook asked", Asking())]


@pytest.fixture(scope="module")
def house() -> Registry:
    pm = get_plugin_manager(HOUSE_RULES, environment=False)
    pm.register(Plugin())
    return Registry(pm)


def _game(house, variants, players):
    entries = tuple(house.variant_entry(v, "glyph-chess") for v in variants)
    return house.game(Header("glyph-chess", ("ann", "ben", "cat")[:players], entries))


def test_the_asking_variant_switches_every_table_off(house):
    official, asking = _game(house, (), 2), _game(house, ("asking",), 2)
    assert official.payers_by_table and official.coins_by_sight
    assert official.reach_by_piece and official.directions_by_spot
    assert not (asking.payers_by_table or asking.coins_by_sight)
    assert not (asking.reach_by_piece or asking.directions_by_spot)
    assert official.landing_by_occupant and official.passing_by_occupant
    assert not (asking.landing_by_occupant or asking.passing_by_occupant)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3]), variants=st.sampled_from(VARIANTS))
def test_each_table_is_the_hook_asked_directly(house, seed, players, variants):
    game = _game(house, variants, players)
    rules, geo = game.rules, game.geo
    live = _scrambled(game, random.Random(seed), players)
    board = live.board
    for seat in range(players):
        ctx = Context(game, live, seat, {})
        mine = list(ctx.mine)
        # Sight, once for the seat's pieces: the hook's answer for each.
        seen = sight.sighted(geo, board, seat)
        assert seen <= set(mine)
        for spot in mine:
            assert (spot in seen) == sight.in_sight(geo, live, spot)
            if game.rules.official("glyph_may_use_coins"):
                assert (spot in seen) == (not rules.glyph_may_use_coins(game=game, state=live, spot=spot))
        for spot in mine:
            kind = board[spot][1]
            ctx.at(spot)
            # What may pay, by kind: the hook's answer for the piece.
            if ctx.payers is not None:
                asked = rules.glyph_payers(game=game, state=live, seat=seat, spot=spot, kind=kind)
                assert (ctx.payers.faces, ctx.payers.coins) == (asked.faces, asked.coins), (spot, kind)
            # Range by piece and directions by spot: the hooks' answers.
            reach = rules.glyph_move_range(game=game, state=live, seat=seat, piece=kind, source=spot)
            if game.reach_by_piece:
                assert game.reaches[kind] == reach
            rays = rules.glyph_move_directions(game=game, state=live, seat=seat, piece=kind, source=spot)
            if game.directions_by_spot:
                assert geo.ray_lists[spot] == tuple(rays.values())
            # Landing and passing, one look-up per spot along a line: the hooks' answers.
            keys, stops = ctx.stops(kind)
            for target in range(geo.size):
                way = stops[keys[target]]
                landing = rules.glyph_may_land(game=game, state=live, seat=seat, piece=kind, spot=target)
                passing = rules.glyph_may_pass(game=game, state=live, seat=seat, piece=kind, spot=target)
                assert (bool(way & LANDS), bool(way & PASSES)) == (bool(landing), bool(passing)), (kind, target)


def test_every_piece_kind_has_its_range_in_the_table(house):
    game = _game(house, (), 2)
    live = game.initial()
    for kind in NAMES:
        for spot in (0, game.geo.center, game.geo.size - 1):
            assert game.reaches[kind] == game.rules.glyph_move_range(
                game=game, state=live, seat=0, piece=kind, source=spot
            )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3]))
def test_the_listing_from_tables_is_the_listing_asking_every_hook(house, seed, players):
    official, asking = _game(house, (), players), _game(house, ("asking",), players)
    live = _scrambled(official, random.Random(seed), players)
    for seat in range(players):
        from_tables = list(actions.families(official, live, seat, {}))
        assert from_tables == list(actions.families(asking, live, seat, {})), seat
        assert actions.can_act(official, live, seat, {}) == actions.can_act(asking, live, seat, {}) == bool(from_tables)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3]), variants=st.sampled_from(VARIANTS))
def test_the_ways_remembered_by_situation_are_the_ways_to_pay(house, seed, players, variants):
    """The ways a listing reads from a payment situation met before (its
    dice and coins kept with it, the ways counted alike and named once) are
    ``payment.options`` for the piece's payers, in every position."""
    from tabletop_glyph_chess import payment

    game = _game(house, variants, players)
    known: dict = {}
    rng = random.Random(seed)
    for _ in range(4):  # situations met in one position are met again in the next
        live = _scrambled(game, rng, players)
        for seat in range(players):
            ctx = Context(game, live, seat, known)
            for spot in ctx.mine:
                ctx.at(spot)
                if ctx.payers is None:
                    continue
                for cost in ("x", "item", "die", "die+x", "coin"):
                    for amount in range(5):
                        assert list(ctx.ways(cost, amount)) == list(
                            payment.options(live, seat, cost, amount, ctx.payers)
                        ), (
                            spot,
                            cost,
                            amount,
                        )
