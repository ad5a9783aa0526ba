"""The fast path answers exactly as the plain path: node, legal decisions,
check reasons for legal and illegal decisions, and every state, over many
seeds, with 2 and 3 players, with and without variants."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import Registry, get_plugin_manager
from tabletop_glyph_chess.fast import Actions, IndexedChance

from ..conftest import ROOT
from ..fastpath import compare

HOUSE_RULES = [
    str(ROOT / "variants" / "house_rules" / f)
    for f in ("glyph_long_scepter.py", "glyph_push.py", "glyph_hand_limit.py")
]
VARIANTS = [
    (),
    ("glyph-long-scepter",),
    ("glyph-push",),
    ("glyph-long-scepter", "glyph-push"),
    ("glyph-hand-limit:limit=3",),
    ("glyph-push", "glyph-hand-limit:limit=8"),
]


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager(HOUSE_RULES, environment=False))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.text("abcdef0123456789", min_size=1, max_size=8), players=st.sampled_from([2, 3]))
def test_fast_path_plays_as_the_plain_path(house, seed, players):
    assert compare(house, "glyph-chess", ["ann", "ben", "cat"][:players], seed, strangers=4) > 0


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.text("abcdef0123456789", min_size=1, max_size=8), variants=st.sampled_from(VARIANTS[1:]))
def test_fast_path_plays_as_the_plain_path_under_house_rules(house, seed, variants):
    assert compare(house, "glyph-chess", ["ann", "ben"], seed, variants, strangers=4) > 0


def test_fast_path_with_the_advanced_setup(house):
    assert compare(house, "glyph-chess", ["ann", "ben", "cat"], "sealed", ("glyph-advanced-setup",)) > 0


def test_fast_legal_builds_one_action_at_a_time(house):
    from tabletop import Match
    from tabletop.header import Header, Randomness
    from tabletop.live import settle

    match = Match(house, Header("glyph-chess", ("ann", "ben"), (), {}, Randomness(seed="lazy")))
    match.hurry()
    settle(match, "lazy", {})
    legal = match.legal(match.node.players[0])
    assert isinstance(legal, Actions) and len(legal) > 20
    assert legal[-1] == list(legal)[-1] and legal[3] == list(legal)[3] and legal[1:3] == list(legal)[1:3]
    with pytest.raises(IndexError):
        legal[len(legal)]


def test_shuffles_are_looked_up_by_dict(house):
    game = house.game(__import__("tabletop").Header("glyph-chess", ("ann", "ben")))
    node = game.next(game.initial())
    assert isinstance(node, IndexedChance) and len(node.outcomes) == 720
    assert node.allows(node.outcomes[500]) and not node.allows(game.shuffles[1].outcomes[0])
    assert node == __import__("tabletop").Chance(node.outcomes)
