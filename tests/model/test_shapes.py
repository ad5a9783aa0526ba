"""The core's decision shapes, turn steps and variant memory, on their own:
what each lists, accepts and refuses, how it is written, and that a log line
holding one reads back as the same event."""

from __future__ import annotations

import random
from itertools import combinations
from typing import ClassVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop import Decide, Forced, Header, Match, Over, PluginError, Randomness, Variant, hookimpl, rulehook
from tabletop.base.errors import NotationError
from tabletop.host.registry import Codec
from tabletop.model.events import CHANCE, RULES, Event
from tabletop.model.memo import EMPTY, Memo, forget, recall, remember
from tabletop.model.shapes import Deal, One, Order, Subset, YesNo
from tabletop.model.steps import NOT_NOW, TurnStep
from tabletop.play.turn import Turn


@attrs.frozen
class Reroll(Subset):
    kind: ClassVar[str] = "reroll"


@attrs.frozen
class Pick(One):
    kind: ClassVar[str] = "pick-one"


@attrs.frozen
class Agree(YesNo):
    kind: ClassVar[str] = "agree"


@attrs.frozen
class Rank(Order):
    kind: ClassVar[str] = "rank"


DICE = ("1", "2", "3")


# -- choose a subset ----------------------------------------------------------------
def test_subset_lists_every_subset_once_in_the_items_order():
    listed = Reroll.options("ann", DICE)
    assert len(listed) == 2 ** len(DICE)
    assert len(set(listed)) == len(listed)
    assert Reroll("ann", ()) in listed and Reroll("ann", DICE) in listed
    assert all(Reroll.error(decision, DICE) is None for decision in listed)


def test_subset_bounds_limit_the_listing_and_the_check():
    listed = Reroll.options("ann", DICE, least=1, most=2)
    assert sorted(len(d.items) for d in listed) == [1, 1, 1, 2, 2, 2]
    assert Reroll.error(Reroll("ann", ()), DICE, least=1) == "choose at least 1"
    assert Reroll.error(Reroll("ann", DICE), DICE, most=2) == "choose at most 2"


def test_subset_refuses_unknown_repeated_and_reordered_items():
    assert "not one of" in Reroll.error(Reroll("ann", ("4",)), DICE)
    assert Reroll.error(Reroll("ann", ("1", "1")), DICE) == "an item is chosen twice"
    assert "in this order" in Reroll.error(Reroll("ann", ("3", "1")), DICE)


@given(st.lists(st.sampled_from(DICE), unique=True))
def test_subset_notation_round_trips(chosen):
    decision = Reroll("ann", tuple(d for d in DICE if d in chosen))
    assert Reroll.parse(decision.notation(), "ann") == decision


def test_subset_parse_ignores_other_kinds():
    assert Reroll.parse("move 1", "ann") is None
    assert Reroll.parse("REROLL 1, 3", "ben") == Reroll("ben", ("1", "3"))
    assert Reroll.parse("reroll -", "ben") == Reroll("ben", ())


def test_subset_refuses_to_list_more_than_a_player_reads():
    with pytest.raises(ValueError, match="too many items"):
        Reroll.options("ann", tuple(str(i) for i in range(13)))


# -- choose one, yes/no, an order ------------------------------------------------------
def test_choose_one_lists_checks_and_writes_its_option():
    assert Pick.options("ann", ("a", "b")) == [Pick("ann", "a"), Pick("ann", "b")]
    assert Pick.error(Pick("ann", "c"), ("a", "b")) == "'c' is not one of: a, b"
    assert Pick.parse(Pick("ann", "b").notation(), "ann") == Pick("ann", "b")
    with pytest.raises(NotationError):
        Pick.parse("pick-one a b", "ann")


def test_yes_no_lists_both_answers_and_reads_them():
    assert Agree.options("ben") == [Agree("ben", True), Agree("ben", False)]
    assert Agree.parse("agree no", "ben") == Agree("ben", False)
    with pytest.raises(NotationError):
        Agree.parse("agree maybe", "ben")


def test_order_lists_every_permutation_and_checks_it():
    listed = Rank.options("ann", DICE)
    assert len(listed) == 6 and len(set(listed)) == 6
    assert Rank.error(Rank("ann", ("3", "1", "2")), DICE) is None
    assert Rank.error(Rank("ann", ("3", "1")), DICE) is not None
    assert Rank.error(Rank("ann", ("3", "3", "1")), DICE) is not None
    assert Rank.parse("rank 2,3,1", "ann") == Rank("ann", ("2", "3", "1"))


@pytest.mark.parametrize(
    "event",
    [Reroll("ann", ("1", "3")), Reroll("ann", ()), Pick("ben", "a"), Agree("ann", False), Rank("ben", ("2", "1"))],
)
def test_a_shaped_decision_reads_back_from_its_log_line(registry, event):
    codec = Codec(
        [registry.games["pile"]], [Variant("shapes", "pile", "shapes", object(), (Reroll, Pick, Agree, Rank))]
    )
    line = codec.encode(4, event)
    assert codec.decode_line("pile", line) == (4, event)


# -- memory with a public and a per-player part ----------------------------------------------
def test_memo_public_entries_are_seen_by_everyone_and_secrets_by_their_owner_only():
    memo = remember(EMPTY, "count", 2)
    memo = remember(memo, "spare", "2/5", player="ann")
    memo = remember(memo, "spare", "1/6", player="ben")
    assert recall(memo, "count") == 2
    assert recall(memo, "spare", player="ann") == "2/5"
    ann = memo.seen_by("ann")
    assert recall(ann, "count") == 2
    assert recall(ann, "spare", player="ann") == "2/5"
    assert recall(ann, "spare", "?", player="ben") == "?"
    assert "1/6" not in repr(ann)
    assert memo.seen_by(None) == memo


def test_memo_is_a_value_whatever_the_order_things_were_remembered_in():
    a = remember(remember(EMPTY, "x", 1), "y", 2)
    b = remember(remember(EMPTY, "y", 2), "x", 1)
    assert a == b and hash(a) == hash(b)
    assert remember(a, "x", 5) == remember(b, "x", 5)
    assert forget(a, "x") == remember(EMPTY, "y", 2)
    assert not EMPTY and a
    assert dict(remember(a, "s", 1, player="ann").items()) == {"x": 1, "y": 2, "s (ann)": 1}


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from([None, "ann", "ben"]), st.integers())))
def test_memo_recalls_the_last_value_remembered(writes):
    memo: Memo = EMPTY
    last = {}
    for name, player, value in writes:
        memo = remember(memo, name, value, player=player)
        last[name, player] = value
    for (name, player), value in last.items():
        assert recall(memo, name, player=player) == value
        seen = memo.seen_by(player) if player else memo.seen_by("nobody")
        assert recall(seen, name, player=player) == value


# -- a turn as a table of steps ---------------------------------------------------------------
@attrs.frozen
class Tick(Event):
    kind: ClassVar[str] = "tick"
    origin: ClassVar[str] = RULES


@attrs.define
class Work:
    phase: str = "choose"
    rerolled: tuple[str, ...] = ()
    ticks: int = 0


def _steps() -> Turn:
    def choose_apply(game, work, event):
        work.rerolled = event.items

    return Turn(
        {
            "choose": TurnStep(
                "choose",
                lambda game, state: Decide(("ann",)),
                (Reroll,),
                choose_apply,
                follows=lambda game, work: "tick" if work.rerolled else None,
                check=lambda game, state, decision: Reroll.error(decision, DICE),
                legal=lambda game, state, player: Reroll.options(player, DICE, least=1),
                asks=lambda game, state, player: "choose dice to roll again",
            ),
            "tick": TurnStep(
                "tick",
                lambda game, state: Forced(Tick()),
                (Tick,),
                lambda game, work, event: setattr(work, "ticks", work.ticks + 1),
                follows=lambda game, work: "over" if work.ticks else None,
            ),
            "over": TurnStep("over", lambda game, state: Over()),
        }
    )


def test_steps_answer_from_the_current_step_and_settle_past_steps_that_need_no_event():
    steps, work = _steps(), Work()
    assert steps.next(None, work) == Decide(("ann",))
    assert steps.asks(None, work, "ann") == "choose dice to roll again"
    assert len(steps.legal(None, work, "ann")) == 7
    assert steps.check(None, work, Tick()) == NOT_NOW
    assert steps.check(None, work, Reroll("ann", ("9",))) is not None
    assert steps.apply(None, work, Reroll("ann", ("2",)))
    assert (work.phase, work.rerolled) == ("tick", ("2",))
    assert steps.next(None, work) == Forced(Tick())
    assert not steps.apply(None, work, Reroll("ann", ("1",)))  # not this step's kind
    assert steps.apply(None, work, Tick())
    assert isinstance(steps.next(None, work), Over)


def test_a_step_leading_nowhere_is_an_error_naming_both_steps():
    steps = Turn({"a": TurnStep("a", lambda g, s: Over(), follows=lambda g, w: "b")})
    with pytest.raises(PluginError, match="'b'.*'a'"):
        steps.settle(None, Work(phase="a"))


def test_every_subset_is_legal_exactly_when_checked_legal():
    for size in range(len(DICE) + 1):
        for chosen in combinations(DICE, size):
            decision = Reroll("ann", chosen)
            assert (Reroll.error(decision, DICE, least=1) is None) == (decision in Reroll.options("ann", DICE, least=1))


@attrs.frozen
class Keep(YesNo):
    kind: ClassVar[str] = "keep"


def test_a_step_adding_a_decision_lists_checks_and_applies_it_beside_its_own():
    steps = _steps()
    choose = steps.table["choose"]
    kept = []
    added = choose.adding(
        Keep,
        lambda game, state, player: Keep.options(player) if not state.rerolled else [],
        lambda game, state, decision: None if decision.answer else "say yes",
        lambda game, work, event: kept.append(event.player),
    )
    steps = Turn({**steps.table, "choose": added})  # a turn's answers are compiled from its table once
    work = Work()
    legal = steps.legal(None, work, "ann")
    assert legal[:7] == choose.legal(None, work, "ann") and legal[7:] == [Keep("ann", True), Keep("ann", False)]
    assert (
        steps.check(None, work, Keep("ann", False)) == "say yes" and steps.check(None, work, Keep("ann", True)) is None
    )
    assert steps.check(None, work, Reroll("ann", ("9",))) == choose.check(None, work, Reroll("ann", ("9",)))
    assert steps.apply(None, work, Keep("ann", True)) and kept == ["ann"] and work.phase == "choose"
    assert steps.apply(None, work, Reroll("ann", ("2",))) and work.phase == "tick"  # its own decision as before
    assert added.accepts == (Reroll, Keep) and choose.accepts == (Reroll,)


# -- who may see a decision ---------------------------------------------------------------------
@attrs.frozen
class Take(One):
    kind: ClassVar[str] = "take"
    secret: ClassVar[bool] = True


@attrs.frozen
class Show(One):
    """Shown to its player and to the player it names, as ``seen_by`` says."""

    kind: ClassVar[str] = "show"

    def seen_by(self, viewer):
        return viewer in (None, self.player, self.option)


def test_a_shape_is_public_unless_declared_secret_then_its_player_alone_sees_it():
    from tabletop.model.shapes import redacted, seen

    assert seen(Pick("ann", "a"), "ben") and seen(Reroll("ann", ("1",)), "ben")
    assert not seen(Take("ann", "2/5"), "ben")
    assert seen(Take("ann", "2/5"), "ann") and seen(Take("ann", "2/5"), None)
    assert redacted(Take("ann", "2/5")) == "take (hidden)" and "2/5" not in redacted(Take("ann", "2/5"))
    assert seen(Show("ann", "cy"), "cy") and not seen(Show("ann", "cy"), "ben")
    assert seen(Tick(), "ben")  # an event that says nothing of itself: the game's own rules decide


# -- a secret dealt at setup --------------------------------------------------------------------
@attrs.frozen
class Hint(Deal):
    kind: ClassVar[str] = "hint"


POOL = {"a": 2, "b": 1}  # two a's and a b, two items each


def test_a_deal_lists_every_hand_once_as_likely_as_the_ways_to_deal_it():
    node = Hint.chance("ann", POOL, 2)
    assert node.outcomes == (Hint("ann", ("a", "a")), Hint("ann", ("a", "b")))
    assert node.weights == (1, 2)  # of the 3 pairs of the three items, 2 hold the b
    assert Hint.chance("ann", ("x", "y", "z"), 1).weights is None  # each once: alike
    assert Hint("ann", ("a", "b")).notation() == "hint a,b" and Hint("ann", ()).notation() == "hint -"
    with pytest.raises(ValueError, match="cannot be dealt"):
        Hint.chance("ann", POOL, 4)


def test_a_deal_is_its_players_alone_and_kept_in_their_part_of_the_memo():
    from tabletop.model.shapes import redacted, seen

    deal = Hint("ann", ("a", "b"))
    assert deal.origin == CHANCE
    assert seen(deal, "ann") and seen(deal, None) and not seen(deal, "ben")
    assert redacted(deal) == "hint (hidden)"
    step = TurnStep("setup", lambda game, state: Over(), (Tick,), lambda game, work, event: None)
    table = Hint.first({"setup": step}, POOL, 2)
    game, work = attrs.make_class("Game", ["players"])(("ann", "ben")), attrs.make_class("W", ["memo"])(EMPTY)
    assert table["setup"].node(game, work) == Hint.chance("ann", POOL, 2)
    table["setup"].apply(game, work, deal)
    assert table["setup"].node(game, work) == Hint.chance("ben", POOL, 2)
    table["setup"].apply(game, work, Hint("ben", ("a", "a")))
    assert table["setup"].node(game, work) == Over()  # every player dealt: the game's own setup
    assert Hint.dealt(work, "ann") == ("a", "b") and Hint.dealt(work.memo.seen_by("ben"), "ann") == ()
    assert recall(work.memo, "hint") == ("ann", "ben")  # who has been dealt is public


class GluxHints:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        return Hint.first((yield), POOL, 2)


class GlyphHints:
    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        return Hint.first((yield), POOL, 2)


class Hints:
    @hookimpl
    def register_variants(self):
        return [
            Variant("glux-hints", "glux", "a secret pair dealt to each", GluxHints(), (Hint,)),
            Variant("glyph-hints", "glyph-chess", "a secret pair dealt to each", GlyphHints(), (Hint,)),
        ]


@pytest.mark.parametrize("game, variant, every", [("glux", "glux-hints", 8), ("glyph-chess", "glyph-hints", 30)])
def test_a_deal_at_setup_conforms_in_both_games(game, variant, every):
    from tabletop import get_plugin_manager, testing
    from tabletop.host.registry import Registry

    manager = get_plugin_manager(environment=False)
    manager.register(Hints())
    registry = Registry(manager)
    header = registry.game(Header(game, ("ann", "ben", "cy"), (variant,)))
    assert header.next(header.initial()) == Hint.chance("ann", POOL, 2)
    # Views, hidden outcomes (every deal), the fast path, notation and log lines, at every ``every``-th decision.
    assert testing.conform(registry, game, ("ann", "ben", "cy"), (variant,), games=1, seed="hints", every=every) > 50


@pytest.mark.parametrize("game, variant", [("glux", "glux-hints"), ("glyph-chess", "glyph-hints")])
def test_a_search_deals_again_what_a_view_hides_as_the_deal_deals_it(game, variant):
    # A world made from ann's view holds her own pair as dealt, and a pair
    # for each other player drawn as the deal draws (a,b twice as often as
    # a,a); its view is ann's view again.
    from collections import Counter

    from tabletop import get_plugin_manager, testing
    from tabletop.host.registry import Registry
    from tabletop.play.live import settle

    manager = get_plugin_manager(environment=False)
    manager.register(Hints())
    registry = Registry(manager)
    match = Match(registry, Header(game, ("ann", "ben", "cy"), (variant,), {}, Randomness(seed="deal")))
    settle(match, "deal", {})
    made, state = match.game, match.state
    assert Hint.dealt(state, "ben")  # the deal is over
    view, rng = made.view(state, "ann"), random.Random(5)
    assert Hint.dealt(view, "ben") == ()
    drawn = Counter()
    for _ in range(600):
        world = made.determinize(view, "ann", rng)
        assert Hint.dealt(world, "ann") == Hint.dealt(state, "ann")
        assert made.view(world, "ann") == view
        drawn[Hint.dealt(world, "ben")] += 1
        drawn[Hint.dealt(world, "cy")] += 1
    assert set(drawn) == {("a", "a"), ("a", "b")}
    assert 1.6 < drawn[("a", "b")] / drawn[("a", "a")] < 2.5
    testing.views_are_views(made, state, "ben", rng)


@pytest.mark.parametrize("game, variant", [("glux", "glux-hints"), ("glyph-chess", "glyph-hints")])
def test_a_deal_reads_as_written_to_its_player_alone_in_both_games(game, variant):
    from tabletop import get_plugin_manager
    from tabletop.host.registry import Registry

    manager = get_plugin_manager(environment=False)
    manager.register(Hints())
    made = Registry(manager).game(Header(game, ("ann", "ben"), (variant,)))
    deal = Hint("ann", ("a", "b"))
    assert made.format(deal, "ann") == made.format(deal, None) == "ann hint a,b"
    assert made.format(deal, "ben") == "ann hint (hidden)"
