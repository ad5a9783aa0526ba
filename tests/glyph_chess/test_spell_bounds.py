"""The bounds spells declare on their options (``spells.bounded``): the
random bot's draw gives a spell as many slots as its bound allows and runs
its options only when it draws one, so a bound must never fall short of
the casts the options give. Held here over positions of self-played games
and random positions, under the official rules and every Glyph Chess house
rule; a spell whose options a variant changes declares none, and is
counted exactly, its casts drawn as uniformly as any."""

from __future__ import annotations

import functools
import random
from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import Header, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.play.live import selfplay
from tabletop_glyph_chess import actions
from tabletop_glyph_chess.spells import SPELLS, bounded, most_of

from ..uniform import drawn_uniformly
from .test_fast import _scrambled
from .test_tables import HOUSE_RULES

#: Every Glyph Chess variant shipped (the house rules and the game's own),
#: by the name a header gives it.
HOUSE = [
    "glyph-advanced-setup",
    "glyph-coin-at-turn-end",
    "glyph-coin-trade",
    "glyph-cooldown",
    "glyph-deal",
    "glyph-die-escape",
    "glyph-hand-limit",
    "glyph-long-scepter",
    "glyph-minion-steps",
    "glyph-no-scepter-swap",
    "glyph-piece-score",
    "glyph-push",
    "glyph-reroll-once",
    "glyph-six-dice",
    "glyph-turn-limit",
    "glyph-wild-sight",
]


class ShortBlaze:
    """A house rule on blaze's options: paths of one step only, the
    official options wrapped (``functools.wraps`` copies what they declare)."""

    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        table = dict((yield))
        blaze = table["blaze"]

        @functools.wraps(blaze.options)
        def options(ctx):
            return [option for option in blaze.options(ctx) if len(option[0]) == 1]

        table["blaze"] = attrs.evolve(blaze, options=options)
        return table


class LongBlast:
    """A house rule that declares a bound of its own on a new options of
    blast's: every spot of every ray, however far, for X = 1."""

    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        table = dict((yield))

        def most(ctx):
            return [(sum(map(len, ctx.game.geo.ray_lists[ctx.source])), 1)]

        @bounded(most)
        def options(ctx):
            board = ctx.board
            return [
                ((spot,), "", 1) for ray in ctx.game.geo.ray_lists[ctx.source] for spot in ray if board[spot] is None
            ]

        table["blast"] = attrs.evolve(table["blast"], options=options)
        return table


class Plugin:
    @hookimpl
    def register_variants(self):
        return [
            Variant("short-blaze", "glyph-chess", "blaze takes one step", ShortBlaze()),
            Variant("long-blast", "glyph-chess", "blast lands anywhere in line", LongBlast()),
        ]


@pytest.fixture(scope="module")
def house() -> Registry:
    pm = get_plugin_manager(HOUSE_RULES, environment=False)
    pm.register(Plugin())
    return Registry(pm)


def _held(listed: actions.Actions) -> int:
    """Every bound of ``listed`` against what it bounds: each spell's slots
    and its casts, each piece's slots and its actions. Returns how many
    spells drawn from a bound were looked at."""
    bounded_spells = 0
    for k, piece in enumerate(listed._pieces):
        assert piece[actions.BOUND] >= listed._count(k)
        assert piece[actions.MOVES] >= listed._move_count(k)
        for spell in piece[actions.SPELLS]:
            listed._options(k, spell)
            assert spell[actions.SLOTS] >= spell[actions.CASTS], spell[actions.NAME]
            bounded_spells += spell[actions.CASTING][-1] is not None
    assert listed.slots >= len(listed)
    return bounded_spells


def test_every_house_rule_is_held_to_the_bounds(house):
    assert {v.name for v in house.variants_of("glyph-chess") if v.name.startswith("glyph-")} == set(HOUSE)


def test_the_official_spells_that_declare_a_bound_and_a_wrapper_that_does_not():
    declared = {name for name, spell in SPELLS.items() if most_of(spell.options) is not None}
    assert declared == {"blaze", "blast", "march"}

    @functools.wraps(SPELLS["blaze"].options)
    def wrapped(ctx):
        return SPELLS["blaze"].options(ctx)

    assert most_of(wrapped) is None


@pytest.mark.parametrize(
    "variants", [(), *((v,) for v in HOUSE), ("long-blast",)], ids=lambda v: "+".join(v) or "official"
)
def test_every_bound_holds_in_self_played_positions(house, variants, monkeypatch):
    """In every listing of the action step of self-played games, each
    spell's slots are at least its casts (and each piece's at least its
    actions)."""
    seen = Counter()
    legal = actions.legal

    def checked(game, state, seat):
        listed = legal(game, state, seat)
        # Another listing, so that the one played is drawn from as it is.
        again = legal(game, state, seat)
        seen["bounded"] += _held(again)
        seen["spells"] += sum(len(piece[actions.SPELLS]) for piece in again._pieces)
        seen["listings"] += 1
        return listed

    monkeypatch.setattr(actions, "legal", checked)
    entries = tuple(house.variant_entry(v, "glyph-chess") for v in variants)
    for n in range(2):
        selfplay(house, "glyph-chess", ["ann", "ben"], [house.bot("random", "glyph-chess")] * 2, f"bounds-{n}", entries)
    assert seen["listings"] > 50 and seen["spells"] > 20
    # A variant that wraps every spell's options (glyph-cooldown) leaves no bound.
    assert seen["bounded"] > 20 or variants == ("glyph-cooldown",)


@pytest.mark.parametrize("variants", [(), ("glyph-push",), ("glyph-minion-steps", "glyph-wild-sight"), ("long-blast",)])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3]))
def test_every_bound_holds_in_random_positions(house, variants, seed, players):
    entries = tuple(house.variant_entry(v, "glyph-chess") for v in variants)
    game = house.game(Header("glyph-chess", ("ann", "ben", "cat")[:players], entries))
    live = _scrambled(game, random.Random(seed), players)
    live.phase = "act"
    for seat in range(players):
        _held(actions.legal(game, live, seat))


def test_a_spell_whose_options_a_house_rule_changes_is_counted_exactly(house):
    """Blaze's options wrapped by a house rule declare no bound: its slots
    are its casts, every action is in exactly one slot, and each is drawn
    as often as any other."""
    entries = (house.variant_entry("short-blaze", "glyph-chess"),)
    game = house.game(Header("glyph-chess", ("ann", "ben"), entries))
    assert game.casting["E"][0][-1] is None
    met = 0
    for n in range(60):
        live = _scrambled(game, random.Random(f"short-{n}"), 2)
        live.phase = "act"
        for seat in range(2):
            listed = actions.legal(game, live, seat)
            legal = list(listed)
            held = [event for event in map(listed.slot, range(listed.slots)) if event is not None]
            assert Counter(held) == Counter(legal)
            blazes = [e for e in legal if getattr(e, "spell", None) == "blaze"]
            assert all(len(e.spots) == 1 for e in blazes)
            for piece in listed._pieces:
                for spell in piece[actions.SPELLS]:
                    if spell[actions.NAME] == "blaze":
                        assert spell[actions.SLOTS] == spell[actions.CASTS]
            if blazes and met < 2 and len(legal) <= 200:
                met += 1
                drawn_uniformly(listed.sample, legal, per=200, seed=f"draw-{n}")
    assert met == 2


def test_empty_slots_of_a_loose_bound_are_drawn_as_often_as_any(house):
    """A bound looser than the casts (a new blast's, every spot of every
    ray) leaves empty slots: every action is in exactly one slot still, and
    each is drawn as often as any other."""
    entries = (house.variant_entry("long-blast", "glyph-chess"),)
    game = house.game(Header("glyph-chess", ("ann", "ben"), entries))
    for n in range(200):
        live = _scrambled(game, random.Random(f"long-{n}"), 2)
        live.phase = "act"
        listed = actions.legal(game, live, 0)
        legal = list(listed)
        blasts = [e for e in legal if getattr(e, "spell", None) == "blast"]
        empty = sum(s[actions.SLOTS] - s[actions.CASTS] for p in listed._pieces for s in p[actions.SPELLS])
        if blasts and empty > 10 and len(legal) <= 200:
            break
    else:  # pragma: no cover - the positions are fixed by their seeds
        raise AssertionError("no position with a loose bound")
    held = [event for event in map(listed.slot, range(listed.slots)) if event is not None]
    assert Counter(held) == Counter(legal)
    drawn_uniformly(actions.legal(game, live, 0).sample, legal, per=200, seed="loose")
