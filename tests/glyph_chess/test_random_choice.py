"""The random bot's uniform choice in Glyph Chess without listing every
move (``Actions.sample``): every legal action is in exactly one of the
listing's slots, the others in none, and a slot is drawn uniformly until one
holds an action; so each legal action is as likely as any other."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tabletop import Header, Registry, get_plugin_manager
from tabletop.play.live import random_choice
from tabletop_glyph_chess import actions

from ..uniform import drawn_uniformly
from .test_fast import _scrambled
from .test_tables import HOUSE_RULES, Plugin


@pytest.fixture(scope="module")
def house() -> Registry:
    pm = get_plugin_manager(HOUSE_RULES, environment=False)
    pm.register(Plugin())  # "asking": every hook a listing reads as a table is asked
    return Registry(pm)


#: With "asking", the moves are looked for asking landing and passing of
#: each spot of the state.
RULES = [(), ("glyph-long-scepter",), ("glyph-push",), ("glyph-minion-steps", "glyph-wild-sight"), ("asking",)]


def _listings(house, variants, players, count):
    """Listings of the action step of every seat in random positions (on
    the fast path's Work, and on the frozen state)."""
    entries = tuple(house.variant_entry(v, "glyph-chess") for v in variants)
    game = house.game(Header("glyph-chess", ("ann", "ben", "cat")[:players], entries))
    fast = game.fast()
    for n in range(count):
        live = _scrambled(game, random.Random(f"choice-{variants}-{players}-{n}"), players)
        live.phase = "act"
        for seat in range(players):
            yield actions.legal(game, live, seat), list(actions.families(game, live, seat, {})), live
            yield actions.legal(game, fast.state(live), seat), None, None


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("variants", RULES, ids=lambda v: "+".join(v) or "official")
def test_every_legal_action_is_in_exactly_one_slot(house, variants, players):
    met = 0
    for listed, families, _ in _listings(house, variants, players, 12):
        legal = list(listed)
        if families is not None:  # the listing of the plain generator, event by event
            assert legal == [cls(*fields, dice, coins) for cls, fields, ways in families for dice, coins in ways]
        held = [event for event in map(listed.slot, range(listed.slots)) if event is not None]
        assert Counter(held) == Counter(legal) and len(set(legal)) == len(legal)
        assert listed.slots >= len(legal) and bool(listed) == bool(legal)
        met += len(legal)
    assert met > 300


def test_each_action_is_drawn_as_often_as_any_other(house):
    """Drawn many times in one position, every action comes up about as
    often as the others (a chi-square test, its numbers fixed by the seeds)."""
    for listed, _, _ in _listings(house, (), 2, 40):
        legal = list(listed)
        if 20 <= len(legal) <= 60 and listed.slots > len(legal):
            break
    else:  # pragma: no cover - the positions are fixed by their seeds
        raise AssertionError("no position with some empty slots")
    drawn_uniformly(listed.sample, legal, per=400)


def test_after_many_empty_slots_every_action_is_counted(house, monkeypatch):
    monkeypatch.setattr(actions, "TRIES", 0)
    for listed, _, _ in _listings(house, (), 2, 5):
        legal = list(listed)
        rng, same = random.Random(len(legal)), random.Random(len(legal))
        if legal:
            assert listed.sample(rng) == legal[same.randrange(len(legal))]
        else:
            with pytest.raises(ValueError, match="no legal decision"):
                listed.sample(rng)


def test_the_random_bot_draws_from_a_listing_that_offers_it(house):
    listed = next(listed for listed, _, _ in _listings(house, (), 2, 3) if listed)
    assert random_choice(None, None, "ann", listed, random.Random(7)) == listed.sample(random.Random(7))


def test_a_listing_on_the_fast_path_is_the_position_it_was_made_in(house):
    """The moves of a listing on a Work are looked for when first asked,
    on the board as it was when it was made."""
    for listed, families, live in _listings(house, (), 2, 5):
        if live is None:
            continue
        expected = [cls(*fields, dice, coins) for cls, fields, ways in families for dice, coins in ways]
        live.board = [None] * len(live.board)
        assert list(listed) == expected
