"""The random bot's draw from a space of slots (``tabletop.play.sampling.slotted``):
a step declares slots that cover its listing, each listed decision in
exactly one slot; the core draws a slot, asks the step's check of the
decision it holds, and draws again on a refusal. So every decision the
listing holds is as likely as any other, a check stricter than the slots (a
house rule's) keeps the draw exact, and a decision a house rule adds leaves
the step to its listing. Held here on a step of its own, on the template
game (every position of a small game), on Glyph Chess's slots and on Glüx
with a house rule that adds decisions."""

from __future__ import annotations

import functools
import random
from collections import Counter

import attrs
import pytest

import tabletop.api
from tabletop import Decide, Header, Randomness, Registry, Turn, TurnStep, get_plugin_manager
from tabletop.play.engine import Match
from tabletop.play.live import decide, random_choice, selfplay, settle
from tabletop.play.sampling import declared_slots, slot_sampler, slotted
from tabletop.play.turn import TurnFast

from ..conftest import ROOT
from ..uniform import drawn_uniformly as _uniform


# -- a step of its own ------------------------------------------------------------------
@attrs.define
class _Twin:
    """A state whose legal numbers are those below ``top`` that ``allowed`` holds."""

    top: int
    allowed: frozenset = frozenset()
    phase: str = "pick"

    @staticmethod
    def thaw(state):
        return state

    @staticmethod
    def freeze(work):
        return work


def _numbers(game, state, player):
    # Every number below 20: the slots are wider than the listing.
    return 20, lambda index: index


def _allows(game, state, number):
    return None if number < state.top and number in state.allowed else "not now"


@slotted(_numbers)
def _listed(game, state, player):
    return [n for n in range(state.top) if n in state.allowed]


def _node(game, state):
    return Decide(("ann",))


STEP = TurnStep("pick", _node, (int,), check=_allows, legal=_listed)


def test_a_declared_listing_gives_its_slots_and_a_wrapper_of_it_none():
    assert declared_slots(_listed) is _numbers

    @functools.wraps(_listed)
    def wrapped(game, state, player):
        return _listed(game, state, player)

    assert declared_slots(wrapped) is None
    added = STEP.adding(str, lambda game, state, player: ["x"], lambda g, s, e: None, lambda g, w, e: None)
    assert set(TurnFast(None, Turn({"pick": STEP}, work=_Twin)).samplers) == {"pick"}
    # A decision added to the step (a house rule's) leaves it to its listing.
    assert TurnFast(None, Turn({"pick": added}, work=_Twin)).samplers == {}
    # The slots hold in a turn whose listings ask the node first: the race
    # asks the draw only of the player whose decision it is.
    assert set(TurnFast(None, Turn({"pick": STEP}, work=_Twin, guarded=True)).samplers) == {"pick"}


def test_the_step_s_check_decides_each_slot_and_each_listed_decision_is_as_likely():
    draw = TurnFast(None, Turn({"pick": STEP}, work=_Twin)).samplers["pick"]
    state = _Twin(12, frozenset({1, 2, 3, 5, 8, 11, 13, 17}))
    _uniform(lambda rng: draw(None, state, "ann", rng), [1, 2, 3, 5, 8, 11])
    # A house rule refusing more (odd numbers) on the same slots: the draw
    # keeps to what its check allows, uniformly.
    stricter = TurnStep("pick", _node, (int,), check=_even, legal=_even_listed)
    strict = TurnFast(None, Turn({"pick": stricter}, work=_Twin)).samplers["pick"]
    _uniform(lambda rng: strict(None, state, "ann", rng), [2, 8])


def _even(game, state, number):
    return _allows(game, state, number) or ("odd" if number % 2 else None)


@slotted(_numbers)
def _even_listed(game, state, player):
    return [n for n in _listed(game, state, player) if n % 2 == 0]


def test_after_many_refusals_the_listing_is_drawn_from_and_none_is_none():
    state = _Twin(20, frozenset({19}))
    refused = []

    def check(game, state, number):
        refused.append(number)
        return "never"

    # Every slot refused: after ``tries`` draws, the listing's decision.
    draw = slot_sampler(_numbers, check, _listed, tries=5)
    assert draw(None, state, "ann", random.Random(3)) == 19 and len(refused) == 5
    assert slot_sampler(_numbers, _allows, _listed)(None, _Twin(20), "ann", random.Random(3)) is None
    _uniform(
        lambda rng: slot_sampler(_numbers, check, _listed, tries=2)(None, _Twin(6, frozenset(range(6))), "ann", rng),
        list(range(6)),
    )


# -- the template game: every position of a small game ---------------------------------
EXAMPLE = ROOT / "examples" / "liars_dice"


@pytest.fixture(scope="module")
def liars():
    return tabletop.api.registry([EXAMPLE])


def _bid_positions(reg, players, dice=1):
    """Every bidding position of a game of ``players`` with ``dice`` each:
    each last bid (or none) with each seat at turn."""
    names = ("ann", "ben", "cy")[:players]
    match = Match(reg, Header("liars-dice", names, (), {"dice": dice}, Randomness()))
    game = match.game
    work = game.fast().thaw(match.state)
    work.phase = work.at = "bid"
    work.dice = [[1] * dice for _ in names]
    bids = [None, *game.offers[0]]
    for turn in range(players):
        for bid in bids:
            work.turn = turn
            work.bid = None if bid is None else attrs.evolve(bid, player=names[turn - 1])
            yield game, work, names[turn]


def every_bid(game, state, player):
    """A slot space wider than the template's listing: every bid at the
    table (from its table of bids made once), then liar; the step's check
    refuses the bids not above the last, and liar before any bid."""
    seat = game.seats[player]
    if seat != state.turn:
        return 0, lambda index: None
    offers, call = game.offers[seat], game.calls[seat]
    return len(offers) + 1, lambda index: offers[index] if index < len(offers) else call


def bids_slotted(game):
    """The template's bid step, its listing declaring :func:`every_bid`."""
    step = game.turn.table["bid"]

    @slotted(every_bid)
    def legal(game, state, player):
        return step.legal(game, state, player)

    return attrs.evolve(step, legal=legal)


@pytest.mark.parametrize("players", [2, 3])
def test_every_bid_the_template_lists_is_in_exactly_one_slot_of_every_bid(liars, players):
    met = refused = 0
    for game, work, at_turn in _bid_positions(liars, players):
        step = bids_slotted(game)
        slots = declared_slots(step.legal)
        for player in game.players:
            legal = list(step.legal(game, work, player))
            total, slot = slots(game, work, player)
            held = [slot(i) for i in range(total)]
            allowed = [d for d in held if d is not None and game.turn.checks["bid"](game, work, d) is None]
            assert Counter(allowed) == Counter(legal)
            assert bool(legal) == (player == at_turn)
            met += len(legal)
            refused += len(held) - len(allowed)
    assert met > 50 * players and refused > 50 * players  # the check decides, in earnest


def test_the_template_s_draw_from_every_bid_is_uniform(liars):
    game, work, player = next(
        p for p in _bid_positions(liars, 2) if p[1].bid is not None and p[1].bid.count == 1 and p[1].bid.face == 3
    )
    step = bids_slotted(game)
    draw = slot_sampler(every_bid, game.turn.checks["bid"], step.legal)
    legal = list(step.legal(game, work, player))
    assert len(legal) > 5
    _uniform(lambda rng: draw(game, work, player, rng), legal)


# -- Glyph Chess's slots under the core's draw ---------------------------------------------
def test_glyph_chess_slots_drawn_by_the_core_take_the_listing_s_own_draw():
    """Glyph Chess's listing draws from its slots itself (``Actions.sample``);
    the core's draw from the same slots, the act step's check deciding each,
    is the same decision from the same numbers (each legal action is in
    exactly one slot: ``tests/glyph_chess/test_random_choice.py``)."""
    from tabletop_glyph_chess import actions

    reg = Registry(get_plugin_manager(environment=False))
    header, match, events = selfplay(
        reg, "glyph-chess", ["ann", "ben"], [reg.bot("random", "glyph-chess")] * 2, "slots"
    )
    game = match.game
    fast = game.fast()
    checked = 0
    for stop in range(20, 200, 9):
        replayed = Match(reg, header)
        for event in events[:stop]:
            replayed.accept(event)
        live = fast.thaw(replayed.state)
        if live.at != "act":
            continue
        player = game.players[live.turn]
        draw = slot_sampler(_glyph_slots, game.turn.checks["act"], _glyph_legal)
        for seed in range(5):
            listed = actions.legal(game, live, live.turn)
            assert draw(game, live, player, random.Random(seed)) == listed.sample(random.Random(seed))
            checked += 1
    assert checked >= 20


def _glyph_slots(game, state, player):
    from tabletop_glyph_chess import actions

    listed = actions.legal(game, state, game.seats[player])
    return listed.slots, listed.slot


def _glyph_legal(game, state, player):
    from tabletop_glyph_chess import actions

    return actions.legal(game, state, game.seats[player])


# -- Glüx with a house rule that adds decisions ------------------------------------------
def test_a_glux_house_rule_adding_decisions_is_drawn_from_its_listing_uniformly():
    pm = get_plugin_manager([ROOT / "variants" / "house_rules" / "glux_put_back.py"], environment=False)
    reg = Registry(pm)
    official = Registry(get_plugin_manager(environment=False))
    header, _, _ = selfplay(official, "glux", ["ann", "ben"], [official.bot("random", "glux")] * 2, "put")
    assert "place" in official.game(header).fast().samplers
    entries = (reg.variant_entry("glux-put-back", "glux"),)
    match = Match(reg, Header("glux", ("ann", "ben"), entries, {}, Randomness(seed="put-back")))
    game = match.game
    # The placement step takes the put-back too: its listing is another, and no draw is declared.
    assert "place" not in game.fast().samplers
    rng = random.Random("put-back")
    settle(match, "put-back")
    while True:
        player = match.node.players[0]
        legal = list(match.legal(player))
        if "putback" in {event.kind for event in legal}:
            break
        decide(match, random_choice(game, None, player, legal, rng), "put-back")
    assert {event.kind for event in legal} == {"putback", "place"}
    _uniform(lambda rng: random_choice(game, None, player, match.legal(player), rng), legal, per=200)
