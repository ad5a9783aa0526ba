"""glux-pass-once (variants/house_rules/glux_pass_once.py): instead of placing,
a player may pass, but not twice in a row. The pass is a bare decision of the
core (``Bare``, offered in the placement step) whose class ends the turn
(``ends_turn``): the rules pass the turn to the next seat by the game's own
turn order (``steps.passing``), on the plain and the fast path, and for a
variant's event taken by the decision hooks too."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest

from tabletop import DECISION, Chance, Event, Registry, Variant, get_plugin_manager, hookimpl, rulehook, testing
from tabletop.base.errors import NotationError
from tabletop.play.engine import Match
from tabletop.play.live import selfplay

from ..conftest import ROOT
from ..fastpath import compare
from .helpers import make_game, position

HOUSE_RULES = ROOT / "variants" / "house_rules"
VARIANT = ("glux-pass-once",)
THREE = ("ann", "ben", "cy")


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager([HOUSE_RULES / "glux_pass_once.py"], environment=False))


def test_glux_pass_once_the_turn_passes_on_and_nobody_passes_twice_in_a_row(house):
    passes = 0
    for number in range(6):
        bots = [house.bot("random", "glux")] * 3
        header, played, events = selfplay(house, "glux", THREE, bots, f"pass-{number}", VARIANT)
        match, last = Match(house, header), {}
        for event in events:
            if event.kind in ("pass", "place") and match.state.began:
                seat = match.game.seats[event.player]
                assert match.state.turn == seat
                if event.kind == "pass":
                    passes += 1
                    assert last.get(event.player) != "pass", (number, event)  # not twice in a row
                    after = match.game.apply(match.state, event)
                    assert after.turn == match.game.next_turn(match.state, seat) and not after.drawing
                    assert match.game.turn_ends(event)
                last[event.player] = event.kind
            match.accept(event)
        assert match.over and match.state == played.state
    assert passes > 10


def placed(game, state, player):
    """``state`` after ``player``'s first listed placement and the draws after it."""
    state = game.apply(state, next(d for d in game.legal(state, player) if d.kind == "place"))
    while isinstance(game.next(state), Chance):
        state = game.apply(state, game.next(state).outcomes[0])
    return state


def test_glux_pass_once_a_second_pass_is_refused_until_one_has_placed(house):
    game = make_game(house, THREE, VARIANT)
    state = position(game, {"a1": [("ann", 6)], "m13": [("ben", 6)], "a13": [("cy", 6)]}, turn="ann")
    (pass_,) = [d for d in game.legal(state, "ann") if d.kind == "pass"]
    assert game.notate(pass_) == "pass" and game.parse("pass", "ann", state) == pass_
    assert [d for d in game.legal(state, "ben") if d.kind == "pass"] == []  # not ben's turn
    assert "not open now" in game.check(state, type(pass_)("ben"))
    with pytest.raises(NotationError):
        game.parse("pass now", "ann", state)
    state = game.apply(state, pass_)
    assert state.turn == game.seats["ben"]  # the next seat, clockwise
    state = placed(game, placed(game, state, "ben"), "cy")
    assert state.turn == game.seats["ann"]
    assert "not open now" in game.check(state, pass_) and pass_ not in game.legal(state, "ann")
    state = placed(game, placed(game, placed(game, state, "ann"), "ben"), "cy")
    assert state.turn == game.seats["ann"] and pass_ in game.legal(state, "ann")  # placed since: open again


def test_glux_pass_once_conforms_and_the_fast_path_agrees(house):
    assert make_game(house, THREE, VARIANT).fast() is not None
    assert compare(house, "glux", THREE, "pass", VARIANT) > 50
    assert compare(house, "glux", ("ann", "ben"), "pass-2", VARIANT) > 30
    assert testing.conform(house, "glux", THREE, VARIANT, games=1, seed="pass", every=10) > 50


# -- the same by the decision hooks: the rules pass the turn on after glux_apply ------------------------
@attrs.frozen
class Skip(Event):
    kind: ClassVar[str] = "skip"
    origin: ClassVar[str] = DECISION
    ends_turn: ClassVar[bool] = True
    player: str


class SkipInstead:
    @rulehook(wrapper=True)
    def glux_decisions(self, game, state, seat):
        return (*(yield), Skip(game.players[seat]))

    @rulehook
    def glux_check(self, game, state, decision):
        return ("" if state.turn == game.seats[decision.player] else "not now") if isinstance(decision, Skip) else None

    @rulehook
    def glux_apply(self, state, event):
        return state if isinstance(event, Skip) else None  # the turn is left where it is: the rules pass it on


class SkipVariant:
    @hookimpl
    def register_variants(self):
        return [Variant("glux-skip", "glux", "skip a turn", SkipInstead(), (Skip,))]


def test_an_event_ending_the_turn_by_the_decision_hooks_passes_it_to_the_next_seat():
    manager = get_plugin_manager([], environment=False)
    manager.register(SkipVariant())
    game = make_game(Registry(manager), THREE, ("glux-skip",))
    state = position(game, {"a1": [("ann", 6)]}, turn="cy")
    after = game.apply(state, Skip("cy"))
    assert after.turn == game.seats["ann"] and after.stacks == state.stacks  # clockwise: ann follows cy
    assert game.apply(position(game, {}, turn="cy", excluded=("ann",)), Skip("cy")).turn == game.seats["ben"]
