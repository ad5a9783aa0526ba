"""Placing a light chip: rules 1-7 and the "Important" paragraph of the rulebook."""

from __future__ import annotations

import pytest

from tabletop import Decide, Forced, IllegalEventError
from tabletop.log.header import Header, Randomness
from tabletop.play.engine import Match
from tabletop.play.live import settle
from tabletop_glux.chips import FACES
from tabletop_glux.events import Draw, Exclude, Place, Start

from .helpers import make_game, position, squares


@pytest.fixture
def game(registry):
    return make_game(registry)


def test_turn_place_the_hand_chip_then_draw(game):
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}, hands={"ann": "1/6"})
    state = game.apply(state, Place("ann", "a3", 6))
    assert state.stacks[game.board.square("a3")] == ((0, 6),)
    assert state.hands[0] is None
    node = game.next(state)
    assert node.outcomes == (Draw("ann", "1/6"), Draw("ann", "2/5"), Draw("ann", "3/4"))
    assert node.weights == (5, 5, 5)
    state = game.apply(state, Draw("ann", "2/5"))
    assert state.hands[0] == "2/5" and state.bags[0] == (5, 4, 5)
    assert game.next(state) == Decide(("ben",))


def test_rule_1_count_from_any_of_ones_own_chips(game):
    state = position(game, {"a1": [("ann", 2)], "g5": [("ann", 1)], "m9": [("ben", 3)]})
    assert {"a3", "c1", "g6", "h5", "g4", "f5"} <= squares(game, state, "ann")


def test_rule_2_count_orthogonally_never_diagonally(game):
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    assert squares(game, state, "ann") == {"a3", "c1"}
    assert (
        game.check(state, Place("ann", "c3", 3)) == "no chip of yours counts exactly to c3 along a clear straight line"
    )


def test_rule_2_count_exactly_the_pips_of_the_starting_chip(game):
    state = position(game, {"a1": [("ann", 5)], "m9": [("ben", 3)]})
    assert squares(game, state, "ann") == {"a6", "f1"}
    assert game.check(state, Place("ann", "a5", 3)) is not None


def test_rule_2_count_from_the_top_chip_of_a_stack(game):
    state = position(game, {"a1": [("ann", 2)], "e5": [("ben", 6), ("ann", 1)], "m9": [("ben", 3)]})
    assert {"e6", "e4", "d5", "f5"} <= squares(game, state, "ann")
    assert "e11" not in squares(game, state, "ben")


def test_rule_3_the_way_is_blocked_by_another_players_chip(game):
    state = position(game, {"a1": [("ann", 3)], "a2": [("ben", 4)], "m9": [("ben", 3)]})
    assert "a4" not in squares(game, state, "ann")


def test_rule_3_the_way_is_blocked_by_ones_own_chip(game):
    state = position(game, {"a1": [("ann", 3)], "b1": [("ann", 1)], "m9": [("ben", 3)]})
    assert "d1" not in squares(game, state, "ann")


def test_rule_4_may_cover_a_single_chip_of_another_player(game):
    state = position(game, {"a1": [("ann", 2)], "a3": [("ben", 5)], "m9": [("ben", 3)]})
    assert game.check(state, Place("ann", "a3", 4)) is None
    after = game.apply(state, Place("ann", "a3", 4))
    assert after.stacks[game.board.square("a3")] == ((1, 5), (0, 4))


def test_rule_4_may_cover_a_single_chip_of_ones_own(game):
    state = position(game, {"a1": [("ann", 2)], "a3": [("ann", 5)], "m9": [("ben", 3)]})
    assert game.check(state, Place("ann", "a3", 3)) is None


def test_rule_4_only_the_top_chip_counts(game):
    state = position(game, {"a1": [("ann", 2)], "a3": [("ben", 5)], "m9": [("ben", 3)]})
    after = game.apply(state, Place("ann", "a3", 4))
    covered = game.board.square("a3")
    assert covered not in after.tops[1]  # ben can no longer count from it
    assert "a8" not in squares(game, after, "ben")
    assert squares(game, after, "ann") >= {"a7"}  # ann counts 4 from her top chip


def test_rule_5_never_onto_a_stack_of_two(game):
    state = position(game, {"a1": [("ann", 2)], "a3": [("ben", 5), ("ben", 1)], "m9": [("ben", 3)]})
    assert "a3" not in squares(game, state, "ann")
    assert game.check(state, Place("ann", "a3", 3)) == "a3 holds two chips already"


def test_rule_6_never_onto_another_players_start_square(game):
    state = position(game, {"a1": [("ann", 2)], "m7": [("ann", 2)], "m9": [("ben", 3)]})
    assert "m9" not in squares(game, state, "ann")
    assert game.check(state, Place("ann", "m9", 3)) == "m9 is ben's start square"


def test_rule_6_never_onto_another_players_start_square_the_first_seats_too(game):
    # The first seat's start square is named for its owner as any other is.
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)], "m7": [("ben", 2)]}, turn="ben")
    assert "a1" not in squares(game, state, "ben")
    assert game.check(state, Place("ben", "a1", 3)) == "a1 is ann's start square"


def test_rule_6_ones_own_start_square_by_counting_is_allowed(game):
    state = position(game, {"a1": [("ann", 2)], "a3": [("ann", 2)], "m9": [("ben", 3)]})
    assert "a1" in squares(game, state, "ann")
    after = game.apply(state, Place("ann", "a1", 3))
    assert after.option_used[0] is False
    assert not game.option_open(after, 0)  # two chips there now: the option is gone


def test_rule_7_once_per_game_onto_ones_own_start_chip_without_counting(game):
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    assert game.check(state, Place("ann", "a1", 4, start=True)) is None
    assert Place("ann", "a1", 4, start=True) in game.legal(state, "ann")
    after = game.apply(state, Place("ann", "a1", 4, start=True))
    assert after.option_used[0] is True
    assert after.stacks[game.board.square("a1")] == ((0, 2), (0, 4))


def test_rule_7_the_option_is_used_only_once(game):
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}, option_used=["ann"])
    assert game.check(state, Place("ann", "a1", 4, start=True)) == "the start-square option was used already"


def test_rule_7_only_while_the_start_square_holds_one_chip(game):
    state = position(game, {"a1": [("ann", 2), ("ann", 5)], "m9": [("ben", 3)]})
    reason = game.check(state, Place("ann", "a1", 4, start=True))
    assert reason == "the start-square option needs exactly one chip on the start square"


def test_rule_7_only_while_the_start_square_holds_one_chip_none_is_not_one(game):
    # "Exactly one": an empty start square (a position no official game
    # reaches, but a variant's or a hand-made one may) closes the option too,
    # for the same stated reason.
    state = position(game, {"m9": [("ben", 3)]})
    reason = game.check(state, Place("ann", "a1", 4, start=True))
    assert reason == "the start-square option needs exactly one chip on the start square"


def test_important_start_option_is_forced_when_no_counting_placement(game):
    # ann's only chip counts off the board in every direction but one, which is blocked.
    state = position(game, {"a1": [("ann", 6)], "a3": [("ben", 1)], "m9": [("ben", 3)]})
    assert squares(game, state, "ann") == {"g1"}
    blocked = position(game, {"a1": [("ann", 6)], "a3": [("ben", 1)], "c1": [("ben", 1)], "m9": [("ben", 3)]})
    assert squares(game, blocked, "ann") == set()
    assert game.next(blocked) == Decide(("ann",))
    assert game.legal(blocked, "ann") == [Place("ann", "a1", 3, start=True), Place("ann", "a1", 4, start=True)]


def test_important_excluded_when_no_placement_and_option_used(game):
    state = position(
        game, {"a1": [("ann", 6)], "a3": [("ben", 1)], "c1": [("ben", 1)], "m9": [("ben", 3)]}, option_used=["ann"]
    )
    assert game.next(state) == Forced(Exclude("ann"))
    after = game.apply(state, Exclude("ann"))
    assert after.excluded == (True, False)
    assert game.next(after) == Decide(("ben",))


def test_important_an_excluded_player_is_skipped_but_still_scored(game):
    state = position(game, {"a1": [("ann", 6)], "b1": [("ann", 6)], "m9": [("ben", 3)]}, excluded=["ann"], turn="ben")
    after = game.apply(state, Place("ben", "m6", 3))
    after = game.apply(after, Draw("ben", "1/6"))
    assert after.turn == 1  # ben again: ann is out
    assert game.outcome(after).scores["ann"] == 4  # room G: 12 pips


def test_a_finished_player_is_skipped(game):
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}, hands={"ben": None}, bags={"ben": (0, 0, 0)})
    after = game.apply(state, Place("ann", "a3", 3))
    after = game.apply(after, Draw("ann", "1/6"))
    assert game.next(after) == Decide(("ann",))


def test_end_when_no_player_can_place(game):
    state = position(
        game,
        {"a1": [("ann", 2)], "m9": [("ben", 3)]},
        hands={"ann": "1/6", "ben": None},
        bags={"ann": (0, 0, 0), "ben": (0, 0, 0)},
    )
    after = game.apply(state, Place("ann", "a3", 1))
    assert after.turn is None
    assert game.next(after).__class__.__name__ == "Over"


def test_end_when_everyone_left_is_excluded(game):
    state = position(
        game,
        {"a1": [("ann", 6)], "a3": [("ben", 1)], "c1": [("ben", 1)], "m9": [("ben", 3)]},
        option_used=["ann"],
        excluded=["ben"],
    )
    after = game.apply(state, Exclude("ann"))
    assert game.next(after).__class__.__name__ == "Over"


def test_in_a_full_game_every_player_places_all_24_chips(registry):
    from tabletop.play.live import selfplay

    bot = registry.bot("random", "glux")
    for seed in ("full-1", "full-2", "full-3"):
        header, match, events = selfplay(registry, "glux", ["a", "b", "c", "d"], [bot] * 4, seed)
        if any(e.kind == "exclude" for e in events):
            continue
        placed = [sum(len(s) for s in match.state.stacks)]
        assert placed == [96]
        assert all(len(tops) >= 1 for tops in match.state.tops)


def test_placing_on_a_square_that_is_not_on_the_board(game):
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    assert game.check(state, Place("ann", "z99", 3)) == "z99 is not a square of this board"


def test_the_face_must_be_on_the_hand_chip(game):
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}, hands={"ann": "1/6"})
    assert game.check(state, Place("ann", "a3", 3)) == "your chip is 1/6; face 3 is not on it"


def test_no_placement_before_setup_is_over(registry):
    match = Match(registry, Header("glux", ("ann", "ben"), randomness=Randomness(seed="x")))
    settle(match, "x")
    face = FACES[match.state.hands[0]][0]
    match.accept(Start("ann", face))
    with pytest.raises(IllegalEventError, match="event 4 \\(ann 3@a3\\): not ann's turn: ben to decide"):
        match.accept(Place("ann", "a3", 3))
    with pytest.raises(IllegalEventError, match="event 4 \\(ben 3@m7\\): the game is still being set up"):
        match.accept(Place("ben", "m7", 3))


def test_rule_7_the_plain_fold_records_that_the_option_was_used(game):
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    after = game.apply(state, Place("ann", "a1", 4, start=True))
    assert after.option_used == (True, False)
    fast = game.fast()
    live = fast.thaw(state)
    fast.apply(live, Place("ann", "a1", 4, start=True))
    assert fast.freeze(live) == after


def test_rule_7_closed_on_a_start_square_of_two_chips_while_unused(game):
    # Counting onto one's own start square (rule 6 allows it) ends the option
    # though it was never used: rule 7 needs exactly one chip there.
    from tabletop_glux.start_option import glux_start_option

    state = position(game, {"a1": [("ann", 2), ("ann", 3)], "m9": [("ben", 3)]})
    assert not glux_start_option(game=game, state=state, seat=0)
    assert not game.option_open(state, 0)
    assert not any(p.start for p in game.legal(state, "ann"))
    used = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}, option_used=["ann"])
    assert not glux_start_option(game=game, state=used, seat=0)
    assert game.check(used, Place("ann", "a1", 4, start=True)) == "the start-square option was used already"
    assert glux_start_option(game=game, state=position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}), seat=0)


def test_rule_7_asks_rule_5_a_stack_height_of_one_closes_the_option(registry):
    from tabletop import Variant, get_plugin_manager, hookimpl, rulehook
    from tabletop.host.registry import Registry

    class Flat:
        @rulehook
        def glux_stack_height(self, players):
            return 1

    class Plugin:
        @staticmethod
        @hookimpl
        def register_variants():
            return [Variant("flat", "glux", "no stacking", Flat())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin, name="flat-plugin")
    game = make_game(Registry(pm), variants=("flat",))
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    assert game.start_option(state, 0)  # rule 7 itself is open...
    assert not game.option_open(state, 0)  # ...but rule 5 refuses the square
    assert game.check(state, Place("ann", "a1", 4, start=True)) == "a1 holds one chip already"


def test_game_over_only_once_setup_is_over_and_nobody_is_to_play(game):
    from tabletop_glux.end import glux_game_over

    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    assert not glux_game_over(game=game, state=state)
    assert glux_game_over(game=game, state=attrs_evolve(state, turn=None))
    assert not glux_game_over(game=game, state=game.initial())  # setup: nobody's turn yet
    assert not glux_game_over(game=game, state=attrs_evolve(game.initial(), turn=0))


def attrs_evolve(state, **changes):
    import attrs

    return attrs.evolve(state, **changes)


def test_rule_5_a_full_stack_of_four_is_named_in_words(registry):
    from tabletop import get_plugin_manager
    from tabletop.host.registry import Registry

    from ..conftest import ROOT

    pm = get_plugin_manager([ROOT / "variants" / "house_rules" / "glux_stack_height.py"], environment=False)
    game = make_game(Registry(pm), variants=("glux-stack-height:height=4",))
    full = [("ben", 5), ("ben", 1), ("ann", 2), ("ben", 3)]
    state = position(game, {"a1": [("ann", 2)], "a3": full, "m9": [("ben", 3)]})
    assert game.check(state, Place("ann", "a3", 3)) == "a3 holds four chips already"


def test_rule_2_a_chip_that_counts_no_squares_reaches_nothing(registry):
    # The generic counting path (any variant of rules 1-3): a distance of 0
    # counts nowhere, not even to the far end of a clear line.
    from tabletop import Variant, get_plugin_manager, hookimpl, rulehook
    from tabletop.host.registry import Registry

    class SixesRest:
        @rulehook
        def glux_distance(self, state, square):
            return 0 if state.stacks[square][-1][1] == 6 else None

    class Plugin:
        @staticmethod
        @hookimpl
        def register_variants():
            return [Variant("sixes-rest", "glux", "a chip showing 6 counts nothing", SixesRest())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin, name="sixes-plugin")
    game = make_game(Registry(pm), variants=("sixes-rest",))
    state = position(game, {"a1": [("ann", 6)], "m9": [("ben", 3)]})
    assert squares(game, state, "ann") == set()
    assert game.check(state, Place("ann", "a9", 3)).startswith("no chip of yours counts exactly to a9")
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    assert squares(game, state, "ann") == {"a3", "c1"}


def test_the_listed_placements_equal_a_list_only_of_the_same_placements(game):
    # The listing is a lazy sequence; it compares as the plain list would.
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    listed = game.legal(state, "ann")
    plain = list(listed)
    assert len(plain) > 2
    assert listed == plain and listed == tuple(plain)
    assert listed != plain[:-1] and listed != plain + plain[:1] and listed != plain[::-1]
    assert listed != "not a list of placements"
