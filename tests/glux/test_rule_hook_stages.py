"""Every Glüx rule hook, changed by a small variant, stage by stage: setup,
the turn, placement (rules 1-6), the start-square option, exclusion and the
end, scoring, variant memory and decisions a variant adds. Each test checks
that the official rule holds without the variant and the changed rule with it."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest

from tabletop import (
    DECISION,
    RULES,
    Decide,
    Event,
    Forced,
    Over,
    Registry,
    Variant,
    get_plugin_manager,
    hookimpl,
    rulehook,
)
from tabletop.log.header import Header
from tabletop_glux.events import Draw, Exclude, FirstPlayer, Place
from tabletop_glux.state import recall, remember
from tabletop_glux.steps import VariantEvent

from .helpers import position, squares


@attrs.frozen
class Pass(Event):
    """A test event: a stuck player sits out one turn instead of being excluded."""

    kind: ClassVar[str] = "pass"
    origin: ClassVar[str] = RULES
    player: str


@attrs.frozen
class Redraw(Event):
    """A test decision: put the hand chip back and draw again."""

    kind: ClassVar[str] = "redraw"
    origin: ClassVar[str] = DECISION
    player: str


class Rules:
    """One rule hook per variant, each named after what it changes."""

    class MiddleStarts:
        @rulehook
        def glux_start_squares(self, board, players):
            return ["f5", "h5"]

    class AnnStarts:
        @rulehook
        def glux_who_may_start(self, players):
            return players[:1]

    class Anticlockwise:
        @rulehook
        def glux_turn_order(self, game, seat):
            n = len(game.players)
            return tuple((seat - step) % n for step in range(1, n + 1))

    class NoSecondPhase:
        @rulehook
        def glux_draw_after_placing(self, seat):
            return False

    class CountFromAnyChip:
        @rulehook
        def glux_counts_from(self, state, square):
            return bool(state.stacks[square])

    class CountTheUnderside:
        @rulehook
        def glux_distance(self, state, square):
            return 7 - state.stacks[square][-1][1]

    class OwnChipsLetPass:
        @rulehook
        def glux_may_pass(self, state, seat, square):
            stack = state.stacks[square]
            return not stack or stack[-1][0] == seat

    class HighStacks:
        @rulehook
        def glux_stack_height(self, players):
            return 3

    class MiddleRoomClosed:
        @rulehook
        def glux_may_land(self, game, square):
            if game.board.rooms[square] == game.board.middle:
                return False

    class OptionAlwaysOpen:
        @rulehook
        def glux_start_option(self, game, state, seat):
            return len(state.stacks[game.start_squares[seat]]) == 1

    class StuckPlayersPass:
        @rulehook
        def glux_stuck(self, game, seat):
            return Pass(game.players[seat])

        @rulehook
        def glux_apply(self, game, state, event):
            if isinstance(event, Pass):
                return attrs.evolve(state, turn=game.next_turn(state, game.seats[event.player]))

    class BigBagsOnly:
        @rulehook
        def glux_still_placing(self, state, seat):
            return state.hands[seat] is not None and not state.excluded[seat] and state.bag_size(seat) > 10

    class SuddenEnd:
        @rulehook
        def glux_game_over(self, game, state):
            return any(hand is None and not state.bag_size(seat) for seat, hand in enumerate(state.hands))

    class CoveredChipsCount:
        @rulehook
        def glux_room_pips(self, game, state, room):
            pips = {}
            for square in game.room_squares[room]:
                for seat, face in state.stacks[square]:
                    pips[game.players[seat]] = pips.get(game.players[seat], 0) + face
            return pips

    class FewestPointsWin:
        @rulehook
        def glux_winners(self, points):
            least = min(points.values())
            return tuple(p for p, vp in points.items() if vp == least)

    class CountCovers:
        @rulehook(wrapper=True)
        def glux_memo(self, game, state, event, memo):
            memo = yield
            if isinstance(event, Place) and state.stacks[game.board.indices[event.square]]:
                memo = remember(memo, "count-covers", recall(state, "count-covers", 0) + 1)
            return memo

    class RedrawOnce:
        @rulehook
        def glux_check(self, state, decision, game):
            if isinstance(decision, Redraw):
                return "you have redrawn once already" if recall(state, "redraw") else ""

        @rulehook
        def glux_apply(self, game, state, event):
            if isinstance(event, Redraw):
                seat = game.seats[event.player]
                bags = list(state.bags)
                i = ("1/6", "2/5", "3/4").index(state.hands[seat])
                bags[seat] = bags[seat][:i] + (bags[seat][i] + 1,) + bags[seat][i + 1 :]
                hands = state.hands[:seat] + (None,) + state.hands[seat + 1 :]
                return attrs.evolve(
                    state, bags=tuple(bags), hands=hands, drawing=True, memo=remember(state.memo, "redraw", True)
                )

        @rulehook(wrapper=True)
        def glux_decisions(self, game, state, seat):
            found = yield
            return (*found, Redraw(game.players[seat])) if not recall(state, "redraw") else found

        @rulehook
        def glux_notate(self, decision):
            if isinstance(decision, Redraw):
                return "redraw"

        @rulehook
        def glux_parse(self, text, player):
            if text.strip() == "redraw":
                return Redraw(player)


class StageVariants:
    @hookimpl
    def register_variants(self):
        return [
            Variant(f"test-{name}", "glux", name, rules())
            for name, rules in vars(Rules).items()
            if isinstance(rules, type)
        ]


@pytest.fixture(scope="module")
def registry() -> Registry:
    pm = get_plugin_manager(environment=False)
    pm.register(StageVariants())
    return Registry(pm)


def game(registry, *variants, players=("ann", "ben")):
    return registry.game(Header("glux", tuple(players), tuple(f"test-{v}" for v in variants)))


TWO = {"a1": [("ann", 2)], "m9": [("ben", 3)]}


# -- setup -------------------------------------------------------------------


def test_glux_start_squares_a_group_starts_in_the_middle(registry):
    assert [game(registry).board.name_of(s) for s in game(registry).start_squares] == ["a1", "m9"]
    middle = game(registry, "MiddleStarts")
    assert [middle.board.name_of(s) for s in middle.start_squares] == ["f5", "h5"]
    state = middle.apply(middle.apply(middle.initial(), Draw("ann", "1/6")), Draw("ben", "2/5"))
    from tabletop_glux.events import Start

    state = middle.apply(state, Start("ann", 6))
    assert state.stacks[middle.board.indices["f5"]] == ((0, 6),)


def test_glux_who_may_start_the_first_player_always_starts(registry):
    assert game(registry).first_player_node.outcomes == (FirstPlayer("ann"), FirstPlayer("ben"))
    assert game(registry, "AnnStarts").first_player_node.outcomes == (FirstPlayer("ann"),)


# -- a turn --------------------------------------------------------------------


def test_glux_turn_order_anticlockwise(registry):
    three = ("ann", "ben", "cat")
    chips = {"a1": [("ann", 2)], "m1": [("ben", 3)], "g13": [("cat", 3)]}
    for variants, after in (((), "ben"), (("Anticlockwise",), "cat")):
        g = game(registry, *variants, players=three)
        state = g.apply(position(g, chips), Place("ann", "a3", 4))
        state = g.apply(state, Draw("ann", "1/6"))
        assert g.next(state) == Decide((after,))


def test_glux_draw_after_placing_no_second_phase(registry):
    official, variant = game(registry), game(registry, "NoSecondPhase")
    assert official.apply(position(official, TWO), Place("ann", "a3", 4)).drawing
    after = variant.apply(position(variant, TWO), Place("ann", "a3", 4))
    assert not after.drawing and after.hands[0] is None and variant.next(after) == Decide(("ben",))


# -- placement: rules 1 to 6 ---------------------------------------------------------


def test_glux_counts_from_any_top_chip_of_anyone(registry):
    official, variant = game(registry), game(registry, "CountFromAnyChip")
    assert "m6" not in squares(official, position(official, TWO), "ann")
    assert "m6" in squares(variant, position(variant, TWO), "ann")
    assert variant.check(position(variant, TWO), Place("ann", "m6", 3)) is None


def test_glux_distance_count_the_underside(registry):
    official, variant = game(registry), game(registry, "CountTheUnderside")
    assert squares(official, position(official, TWO), "ann") == {"a3", "c1"}
    assert squares(variant, position(variant, TWO), "ann") == {"a6", "f1"}
    assert variant.check(position(variant, TWO), Place("ann", "f1", 3)) is None
    assert variant.check(position(variant, TWO), Place("ann", "c1", 3)) is not None


def test_glux_may_pass_over_ones_own_chips(registry):
    chips = {"a1": [("ann", 3)], "b1": [("ann", 1)], "a2": [("ben", 5)], "m9": [("ben", 3)]}
    official, variant = game(registry), game(registry, "OwnChipsLetPass")
    assert "d1" not in squares(official, position(official, chips), "ann")
    assert "d1" in squares(variant, position(variant, chips), "ann")
    assert variant.check(position(variant, chips), Place("ann", "d1", 3)) is None
    assert "a4" not in squares(variant, position(variant, chips), "ann")  # ben's chip still blocks


def test_glux_stack_height_three_chips_high(registry):
    chips = {"a1": [("ann", 2)], "a3": [("ben", 5), ("ann", 1)], "m9": [("ben", 3)]}
    official, variant = game(registry), game(registry, "HighStacks")
    assert official.check(position(official, chips), Place("ann", "a3", 3)) == "a3 holds two chips already"
    assert "a3" in squares(variant, position(variant, chips), "ann")
    after = variant.apply(position(variant, chips), Place("ann", "a3", 3))
    assert len(after.stacks[variant.board.indices["a3"]]) == 3
    assert variant.check(after, Place("ben", "a3", 3)) == "a3 holds three chips already"


def test_glux_may_land_not_in_the_middle_room(registry):
    chips = {"a1": [("ann", 2)], "f3": [("ann", 2)], "m9": [("ben", 3)]}
    official, variant = game(registry), game(registry, "MiddleRoomClosed")
    assert "f5" in squares(official, position(official, chips), "ann")
    assert "f5" not in squares(variant, position(variant, chips), "ann")
    assert variant.check(position(variant, chips), Place("ann", "f5", 3)) == "no chip may be placed on f5"
    # Rule 6 still holds under the variant: it answers only for the middle room.
    assert (
        variant.check(
            position(variant, {"a1": [("ann", 2)], "m7": [("ann", 2)], "m9": [("ben", 3)]}), Place("ann", "m9", 3)
        )
        == "m9 is ben's start square"
    )


# -- the start-square option, exclusion and the end ------------------------------------


def test_glux_start_option_open_even_after_use(registry):
    official, variant = game(registry), game(registry, "OptionAlwaysOpen")
    state = position(official, TWO, option_used=["ann"])
    assert official.check(state, Place("ann", "a1", 3, start=True)) == "the start-square option was used already"
    assert variant.check(state, Place("ann", "a1", 3, start=True)) is None
    assert Place("ann", "a1", 3, True) in list(variant.legal(state, "ann"))


def test_glux_stuck_players_pass_instead_of_being_excluded(registry):
    chips = {"a1": [("ann", 6), ("ann", 6)], "a2": [("ben", 1)], "b1": [("ben", 1)], "m9": [("ben", 3)]}
    official, variant = game(registry), game(registry, "StuckPlayersPass")
    state = position(official, chips, option_used=["ann"])
    assert official.next(state) == Forced(Exclude("ann"))
    assert variant.next(state) == Forced(Pass("ann"))
    after = variant.apply(state, Pass("ann"))
    assert not after.excluded[0] and variant.next(after) == Decide(("ben",))


def test_glux_still_placing_small_bags_sit_out(registry):
    official, variant = game(registry), game(registry, "BigBagsOnly")
    state = position(official, TWO, bags={"ann": (5, 5, 5), "ben": (3, 3, 3)})
    for g, after in ((official, "ben"), (variant, "ann")):
        moved = g.apply(g.apply(state, Place("ann", "a3", 4)), Draw("ann", "1/6"))
        assert g.next(moved) == Decide((after,))


def test_glux_game_over_when_the_first_player_is_finished(registry):
    official, variant = game(registry), game(registry, "SuddenEnd")
    state = position(official, TWO, hands={"ben": None}, bags={"ben": (0, 0, 0)})
    assert official.next(state) == Decide(("ann",))
    assert variant.next(state) == Over()


# -- scoring ----------------------------------------------------------------------


def test_glux_room_pips_covered_chips_count_too(registry):
    chips = {"a1": [("ann", 2)], "f5": [("ben", 6), ("ann", 1)], "m9": [("ben", 3)]}
    official, variant = game(registry), game(registry, "CoveredChipsCount")
    assert official.room_pips(position(official, chips))["E"] == {"ann": 1}
    assert variant.room_pips(position(variant, chips))["E"] == {"ben": 6, "ann": 1}
    # a1 and m9 are in rooms G and C: 4 VP each, whatever the variant.
    assert official.outcome(position(official, chips)).scores == {"ann": 8, "ben": 4}
    assert variant.outcome(position(variant, chips)).scores == {"ann": 4, "ben": 8}


def test_glux_winners_fewest_points_win(registry):
    chips = {"a1": [("ann", 1)], "f5": [("ann", 5)], "m9": [("ben", 3)]}
    official, variant = game(registry), game(registry, "FewestPointsWin")
    assert official.outcome(position(official, chips)).winners == ("ann",)
    assert variant.outcome(position(variant, chips)).winners == ("ben",)


# -- what variants remember, and decisions they add ---------------------------------------


def test_glux_memo_counts_covers(registry):
    chips = {"a1": [("ann", 2)], "a3": [("ben", 5)], "m9": [("ben", 3)]}
    official, variant = game(registry), game(registry, "CountCovers")
    assert official.apply(position(official, chips), Place("ann", "a3", 4)).memo.public == ()
    after = variant.apply(position(variant, chips), Place("ann", "a3", 4))
    assert after.memo.public == (("count-covers", 1),)
    after = variant.apply(after, Draw("ann", "1/6"))
    assert recall(after, "count-covers") == 1 and variant.describe(after)["memo count-covers"] == "1"


def test_glux_decisions_glux_check_glux_apply_a_redraw_once_per_game(registry):
    official, variant = game(registry), game(registry, "RedrawOnce")
    state = position(official, TWO, hands={"ann": "1/6"})
    assert Redraw("ann") not in list(official.legal(state, "ann"))
    assert official.check(state, Redraw("ann")) == "redraw is not a decision"
    legal = variant.legal(state, "ann")
    assert legal[-1] == Redraw("ann") and legal[:-1] == list(official.legal(state, "ann"))
    assert variant.check(state, Redraw("ann")) is None
    after = variant.apply(state, Redraw("ann"))
    assert after.hands[0] is None and after.bags[0] == (6, 5, 5)
    assert variant.next(after).outcomes[0] == Draw("ann", "1/6")  # the turn goes on with a draw
    after = variant.apply(after, Draw("ann", "2/5"))
    assert variant.next(after) == Decide(("ben",))
    assert variant.check(after, Redraw("ben")) == "you have redrawn once already"


def test_a_variants_events_by_the_decision_hooks_are_taken_by_the_steps_through_adding(registry):
    """``glux_decisions``, ``glux_check`` and ``glux_apply`` answer through
    ``TurnStep.adding``, as a variant's own step does: every step takes a
    variant's own events (``steps.VariantEvent``), and the turn folds them."""
    official, variant = game(registry), game(registry, "RedrawOnce")
    assert all(VariantEvent in step.accepts for step in variant.turn.table.values())
    assert not any(VariantEvent in step.accepts for step in official.turn.table.values())
    assert isinstance(Redraw("ann"), VariantEvent) and isinstance(Pass("ann"), VariantEvent)
    assert not any(isinstance(event, VariantEvent) for event in (Place("ann", "a3", 4), Draw("ann", "1/6")))
    state = position(variant, TWO, hands={"ann": "1/6"})
    after = variant.turn.fold(variant, state, Redraw("ann"))
    assert after is not None and after == variant.apply(state, Redraw("ann")) and after.drawing
    # A forced event of a variant's own, too (``glux_stuck``, then ``glux_apply``).
    passing = game(registry, "StuckPlayersPass")
    assert passing.turn.fold(passing, state, Pass("ann")).turn == 1


def test_glux_notate_and_glux_parse_a_redraw(registry):
    variant = game(registry, "RedrawOnce")
    state = position(variant, TWO)
    assert variant.notate(Redraw("ann")) == "redraw"
    assert variant.parse("redraw", "ann", state) == Redraw("ann")
    assert variant.format(Redraw("ann")) == "ann redraw"
    assert variant.parse("4@a3", "ann", state) == Place("ann", "a3", 4)


def test_glux_start_squares_off_the_board_is_one_clear_error():
    from tabletop import PluginError

    class OffTheBoard:
        @rulehook
        def glux_start_squares(self, players):
            return ["a1", "z99"]

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("off-board", "glux", "start squares off the board", OffTheBoard())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    with pytest.raises(
        PluginError, match="glux_start_squares gave a1, z99: 2 different squares of board 'two-players'"
    ):
        Registry(pm).game(Header("glux", ("ann", "ben"), ("off-board",)))


@pytest.mark.parametrize(
    ("size", "said"),
    [
        (0, "gave 0: a hand holds 1 to 6 chips"),
        (7, "gave 7: a hand holds 1 to 6 chips"),
        ("2", r"returned a str \('2'\), expected int"),
    ],
)
def test_glux_hand_size_out_of_range_is_one_clear_error(size, said):
    from tabletop import PluginError

    class Hand:
        @rulehook
        def glux_hand_size(self, players):
            return size

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("hand", "glux", "a hand of some size", Hand())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    with pytest.raises(PluginError, match=f": variant 'hand': glux_hand_size {said}$"):
        Registry(pm).game(Header("glux", ("ann", "ben"), ("hand",)))


def test_glux_turn_steps_a_table_without_an_official_step_is_one_clear_error():
    from tabletop import PluginError

    class NoDraw:
        @rulehook(wrapper=True)
        def glux_turn_steps(self, players):
            table = dict((yield))
            del table["draw"]
            return table

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("no-draw", "glux", "no draw step", NoDraw())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    with pytest.raises(
        PluginError,
        match=r"test_rule_hook_stages\.py:\d+: variant 'no-draw': glux_turn_steps gave a table with no step 'draw'$",
    ):
        Registry(pm).game(Header("glux", ("ann", "ben"), ("no-draw",)))


def test_glux_turn_steps_a_wrapped_step_changes_what_it_asks_and_keeps_the_game_and_fast_path():
    from tabletop.play.live import selfplay

    class Quiet:
        @rulehook(wrapper=True)
        def glux_turn_steps(self, players):
            table = dict((yield))
            table["place"] = attrs.evolve(table["place"], asks=lambda game, state, player: "your move")
            return table

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("quiet", "glux", "asks differently", Quiet())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    bot = registry.bot("random", "glux")
    header, match, events = selfplay(registry, "glux", ["ann", "ben"], [bot, bot], "quiet", ["quiet"])
    official = selfplay(registry, "glux", ["ann", "ben"], [bot, bot], "quiet")[2]
    assert events == official and match._fast is not None  # the same game, on the fast path
    game, state = match.game, match.game.initial()
    for event in events:
        if state.began and state.turn is not None and not state.drawing:
            assert game.asks(state, game.players[state.turn]) == "your move"
            break
        state = game.apply(state, event)
    else:
        raise AssertionError("no placement step reached")
