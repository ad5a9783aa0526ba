"""The core's chance shapes beyond a secret deal: a public draw (``Lot``),
seen by every player and never drawn again by a search's imagined world; a
deal without replacement (``Deal.first(..., replace=False)``), distinct
items from one pool; and the bare decision (``Bare``), a kind alone, offered
in a step (``Bare.offered``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import ClassVar

import attrs
import pytest

from tabletop import Decide, Header, Match, Over, Randomness, Variant, get_plugin_manager, hookimpl, rulehook, testing
from tabletop.base.errors import NotationError
from tabletop.host.registry import Registry
from tabletop.model.events import CHANCE, Event
from tabletop.model.memo import EMPTY, recall
from tabletop.model.shapes import Bare, Deal, Lot, redacted, seen
from tabletop.model.steps import TurnStep
from tabletop.play.live import settle


@attrs.frozen
class Weather(Lot):
    kind: ClassVar[str] = "weather"


@attrs.frozen
class Card(Deal):
    kind: ClassVar[str] = "card"


@attrs.frozen
class Tick(Event):
    kind: ClassVar[str] = "tick"


class Knock(Bare):
    kind = "knock"


SKY = ("sun", "rain", "fog")
DECK = ("a", "b", "c", "d")


def setup_table():
    return {"setup": TurnStep("setup", lambda game, state: Over(), (Tick,), lambda game, work, event: None)}


def players(*names):
    return attrs.make_class("Game", ["players"])(names), attrs.make_class("W", ["memo"])(EMPTY)


# -- a public draw ---------------------------------------------------------------------------------
def test_a_public_draw_lists_each_draw_once_and_is_seen_by_everyone():
    node = Weather.chance(SKY, 1)
    assert node.outcomes == (Weather(("sun",)), Weather(("rain",)), Weather(("fog",))) and node.weights is None
    assert Weather.chance({"sun": 2, "fog": 1}, 2).weights == (1, 2)
    drawn = Weather(("rain",))
    assert drawn.origin == CHANCE and not hasattr(drawn, "player")
    assert all(seen(drawn, viewer) for viewer in ("ann", "ben", None))
    assert drawn.notation() == "weather rain" and redacted(drawn) == "weather rain"


def test_a_public_draw_comes_first_and_is_kept_in_the_public_memo():
    table = Weather.first(setup_table(), SKY, 1)
    game, work = players("ann", "ben")
    assert table["setup"].node(game, work) == Weather.chance(SKY, 1)
    table["setup"].apply(game, work, Weather(("fog",)))
    assert table["setup"].node(game, work) == Over()  # drawn once: the game's own setup follows
    assert Weather.drawn(work) == ("fog",)
    for viewer in ("ann", "ben", None):
        assert Weather.drawn(work.memo.seen_by(viewer)) == ("fog",)  # in every view


def test_a_public_draw_and_a_deal_wrapped_together_come_in_order():
    table = Card.first(Weather.first(setup_table(), SKY, 1), DECK, 2)  # the deal wraps the draw: dealt first
    game, work = players("ann", "ben")
    assert table["setup"].node(game, work) == Card.chance("ann", DECK, 2)
    table["setup"].apply(game, work, Card("ann", ("a", "b")))
    table["setup"].apply(game, work, Card("ben", ("a", "c")))
    assert table["setup"].node(game, work) == Weather.chance(SKY, 1)


# -- a deal without replacement ------------------------------------------------------------------------
def test_a_deal_without_replacement_deals_each_player_from_what_is_left():
    table = Card.first(setup_table(), DECK, 1, replace=False)
    game, work = players("ann", "ben", "cy")
    assert table["setup"].node(game, work) == Card.chance("ann", DECK, 1)
    table["setup"].apply(game, work, Card("ann", ("b",)))
    assert table["setup"].node(game, work) == Card.chance("ben", ("a", "c", "d"), 1)
    table["setup"].apply(game, work, Card("ben", ("d",)))
    assert table["setup"].node(game, work) == Card.chance("cy", ("a", "c"), 1)
    # With replacement (the default), each from the whole pool.
    again = Card.first(setup_table(), DECK, 1)
    game, work = players("ann", "ben")
    again["setup"].apply(game, work, Card("ann", ("b",)))
    assert again["setup"].node(game, work) == Card.chance("ben", DECK, 1)


def test_a_deal_without_replacement_from_counts_takes_each_copy_once():
    table = Card.first(setup_table(), {"a": 2, "b": 1}, 1, replace=False)
    game, work = players("ann", "ben", "cy")
    table["setup"].apply(game, work, Card("ann", ("a",)))
    assert table["setup"].node(game, work) == Card.chance("ben", {"a": 1, "b": 1}, 1)
    table["setup"].apply(game, work, Card("ben", ("b",)))
    assert table["setup"].node(game, work) == Card.chance("cy", ("a",), 1)


def test_a_pool_function_is_asked_for_each_player_with_the_state_before_their_deal():
    asked = []

    def pool(game, state, player):
        asked.append((player, recall(state, "card", ())))
        return DECK

    table = Card.first(setup_table(), pool, 1)
    game, work = players("ann", "ben")
    table["setup"].node(game, work)
    table["setup"].apply(game, work, Card("ann", ("a",)))
    table["setup"].node(game, work)
    assert asked == [("ann", ()), ("ben", ("ann",))]


# -- a bare decision ---------------------------------------------------------------------------------
def test_a_bare_decision_is_its_kind_alone():
    assert Knock.options("ann") == [Knock("ann")] and Knock("ann").notation() == "knock"
    assert Knock.parse(" KNOCK ", "ben") == Knock("ben") and Knock.parse("pass", "ben") is None
    with pytest.raises(NotationError, match="'knock' alone"):
        Knock.parse("knock twice", "ben")


def test_a_bare_decision_offered_in_a_step_is_listed_and_legal_exactly_while_it_may_be_taken():
    step = TurnStep("act", lambda game, state: Over(), (Tick,), lambda game, work, event: None)
    step = attrs.evolve(step, legal=lambda game, state, player: [Tick()], check=lambda game, state, event: None)
    done = []
    table = Knock.offered(
        {"act": step}, "act", lambda game, state, player: player == "ann", lambda g, w, e: done.append(e)
    )
    act = table["act"]
    assert act.legal(None, None, "ann") == [Tick(), Knock("ann")] and act.legal(None, None, "ben") == [Tick()]
    assert act.check(None, None, Knock("ann")) is None
    assert act.check(None, None, Knock("ben")) == "knock is not open now"
    act.apply(None, None, Knock("ann"))
    assert done == [Knock("ann")]
    Knock.offered({"act": step}, "act", lambda game, state, player: True)["act"].apply(None, None, Knock("ann"))


# -- in both games -------------------------------------------------------------------------------------
class GluxRules:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        return Card.first(Weather.first((yield), SKY, 1), DECK, 1, replace=False)


class GlyphRules:
    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        return Card.first((yield), DECK, 1, replace=False)


class Both:
    @hookimpl
    def register_variants(self):
        return [
            Variant("glux-sky", "glux", "a public sky, a distinct card each", GluxRules(), (Weather, Card)),
            Variant("glyph-cards", "glyph-chess", "a distinct card each", GlyphRules(), (Card,)),
        ]


@pytest.fixture(scope="module")
def registry() -> Registry:
    manager = get_plugin_manager(environment=False)
    manager.register(Both())
    return Registry(manager)


def test_a_public_draw_and_a_distinct_deal_conform_in_glux(registry):
    assert testing.conform(registry, "glux", ("ann", "ben", "cy"), ("glux-sky",), games=1, seed="sky", every=8) > 50


def test_a_distinct_deal_conforms_in_glyph_chess(registry):
    assert testing.conform(registry, "glyph-chess", ("ann", "ben"), ("glyph-cards",), games=1, seed="c", every=30) > 50


def test_a_public_draw_reads_the_same_to_everyone_and_bounds_the_chance_outcomes(registry):
    game = registry.game(Header("glux", ("ann", "ben", "cy"), ("glux-sky",)))
    assert {game.format(Weather(("fog",)), viewer) for viewer in ("ann", "ben", None)} == {"weather fog"}
    assert game.format(Card("ann", ("a",)), "ben") == "ann card (hidden)"
    assert Deal.most(game) == 4  # the first card of four; the sky has three


def test_a_search_keeps_the_public_draw_and_deals_the_others_what_is_left(registry):
    match = Match(registry, Header("glux", ("ann", "ben", "cy"), ("glux-sky",), {}, Randomness(seed="sky")))
    settle(match, "sky", {})
    game, state = match.game, match.state
    assert isinstance(match.node, Decide)
    sky, mine = Weather.drawn(state), Card.dealt(state, "ann")
    view, rng = game.view(state, "ann"), random.Random(7)
    assert Weather.drawn(view) == sky and Card.dealt(view, "ben") == ()
    others = Counter()
    for _ in range(300):
        world = game.determinize(view, "ann", rng)
        assert Weather.drawn(world) == sky and Card.dealt(world, "ann") == mine
        hands = (Card.dealt(world, "ben"), Card.dealt(world, "cy"))
        assert len({*hands, mine}) == 3  # three distinct cards: never ann's, never the same twice
        others.update(hands)
        assert game.view(world, "ann") == view
    assert set(others) == {(card,) for card in DECK} - {mine}
