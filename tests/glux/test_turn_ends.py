"""Where a Glüx turn ends (``turn_end.py``), as the core counts a game's length
in turns (``simulate``, ``stats``): a turn is counted by its placement, the draw
after it belonging to it; setup and exclusion are no turns; a variant's own
event that ends a turn without a placement says so itself (``ends_turn``)."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest

from tabletop import DECISION, Event, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.many.stats import turns_of
from tabletop.play.live import selfplay
from tabletop_glux.events import Draw, Exclude, FirstPlayer, Place, Start

from .helpers import make_game, position


@attrs.frozen
class Pass(Event):
    """glux-pass (a variant of these tests): instead of placing, the player at
    turn passes, keeping the chip in hand; the pass ends the turn."""

    kind: ClassVar[str] = "pass"
    origin: ClassVar[str] = DECISION
    ends_turn: ClassVar[bool] = True
    player: str


class PassInstead:
    @rulehook(wrapper=True)
    def glux_decisions(self, game, state, seat):
        found = yield
        return (*found, Pass(game.players[seat]))

    @rulehook
    def glux_check(self, game, state, decision):
        if isinstance(decision, Pass):
            return "" if state.turn == game.seats[decision.player] and not state.drawing else "not your turn to place"
        return None

    @rulehook
    def glux_apply(self, game, state, event):
        if isinstance(event, Pass):
            return attrs.evolve(state, turn=game.next_turn(state, game.seats[event.player]))
        return None

    @rulehook
    def glux_notate(self, decision):
        return "pass" if isinstance(decision, Pass) else None

    @rulehook
    def glux_parse(self, text, player):
        return Pass(player) if text.strip() == "pass" else None


class PassVariant:
    @hookimpl
    def register_variants(self):
        return [Variant("glux-pass", "glux", "pass instead of placing; the pass ends the turn", PassInstead(), (Pass,))]


@pytest.fixture(scope="module")
def with_pass() -> Registry:
    pm = get_plugin_manager([], environment=False)
    pm.register(PassVariant())
    return Registry(pm)


def test_turn_ends_a_turn_is_counted_by_its_placement_not_by_the_draw_after_it(registry):
    game = make_game(registry)
    assert game.turn_ends(Place("ann", "c3", 4)) is True
    assert game.turn_ends(Place("ann", "a1", 6, start=True)) is True  # the start-square option is a placement too
    # The draw belongs to the turn of the placement before it; setup and exclusion are no turns.
    for event in (Draw("ann", "1/6"), Start("ann", 6), FirstPlayer("ann"), Exclude("ben")):
        assert game.turn_ends(event) is False, event


def test_turn_ends_a_whole_official_game_has_as_many_turns_as_placements(registry):
    _, match, events = selfplay(registry, "glux", ["ann", "ben"], [registry.bot("random", "glux")] * 2, "turns")
    assert match.over
    placements = sum(type(e) is Place for e in events)
    assert placements > 20 and turns_of(match.game, events) == placements


def test_turn_ends_a_variants_own_event_that_ends_a_turn_is_counted(with_pass):
    game = make_game(with_pass, ("ann", "ben", "cat"), variants=["glux-pass"])
    state = position(game, {"c3": [("ann", 4)], "m1": [("ben", 2)]}, turn="ann")
    passed = Pass("ann")
    assert passed in game.legal(state, "ann") and game.check(state, passed) is None
    state = game.apply(state, passed)
    assert state.turn == game.seats["ben"] and state.hands == ("3/4", "3/4", "3/4")  # ann's turn is over, chip kept
    placed = Place("ben", "m1", 3, start=True)
    assert game.check(state, placed) is None
    state = game.apply(state, placed)
    drawn = Draw("ben", "1/6")
    state = game.apply(state, drawn)
    assert state.turn == game.seats["cat"]
    assert game.turn_ends(passed) is True
    assert [game.turn_ends(e) for e in (passed, placed, drawn)] == [True, True, False]
    assert turns_of(game, [passed, placed, drawn]) == 2


def test_turn_ends_an_event_that_says_nothing_ends_no_turn(with_pass):
    # A variant's own event whose class says nothing of turns ends none.
    @attrs.frozen
    class Peek(Event):
        kind: ClassVar[str] = "peek"
        player: str

    @attrs.frozen
    class Hold(Event):
        kind: ClassVar[str] = "hold"
        ends_turn: ClassVar[bool] = False
        player: str

    game = make_game(with_pass, variants=["glux-pass"])
    assert game.turn_ends(Peek("ann")) is False and game.turn_ends(Hold("ann")) is False
    assert turns_of(game, [Peek("ann"), Hold("ben"), Pass("ann")]) == 1


def test_turn_ends_a_redraw_under_glux_redraw_ends_its_turn(tmp_path):
    """glux-redraw's redraw takes the place of a placement: the turn it ends
    is counted by it, so a game with a redraw is one turn longer than its
    placements."""
    from tabletop.api import registry as registry_of

    from ..conftest import ROOT

    house = registry_of([ROOT / "variants" / "house_rules" / "glux_redraw.py"])
    for seed in range(20):
        _, match, events = selfplay(
            house, "glux", ["ann", "ben"], [house.bot("random", "glux")] * 2, f"redraw-{seed}", variants=["glux-redraw"]
        )
        redraws = [e for e in events if e.kind == "redraw"]
        if redraws:
            break
    assert redraws, "no random game of twenty redrew"
    placements = sum(type(e) is Place for e in events)
    assert turns_of(match.game, events) == placements + len(redraws)
