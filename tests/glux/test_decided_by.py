"""The placement step's node declares who decides in it (``decided_by``): the
player at turn, whenever any decision is legal, unless a rule in force may
end the game first. The engine's fast fold then takes a placement that the
step's check finds legal without asking the node. Over whole games, with and
without the shipped house rules, the declaration holds wherever it names a
player; where a rule may end the game it names nobody, and a replay still
meets the end."""

from __future__ import annotations

import functools
import io
from pathlib import Path

import attrs
import pytest

from tabletop import (
    Decide,
    IllegalEventError,
    Over,
    Registry,
    TurnStep,
    Variant,
    get_plugin_manager,
    hookimpl,
    rulehook,
)
from tabletop.log.header import Header
from tabletop.model.steps import decided_by, decider
from tabletop.play.engine import Replay
from tabletop.play.live import selfplay
from tabletop_glux import steps

from ..conftest import ROOT

HOUSE_RULES = ROOT / "variants" / "house_rules"


class EndAtTen:
    """The game ends once ten chips are on the board (a rule that may end it first)."""

    @rulehook
    def glux_game_over(self, game, state):
        return sum(len(stack) for stack in state.stacks) >= 10 or (state.began and state.turn is None)


class WrappedPlaceStep:
    """The placement step with its node wrapped (``functools.wraps``): the
    game is over once twelve chips are on the board, whoever could place."""

    @rulehook
    def glux_turn_steps(self, players):
        official = steps.STEPS[steps.PLACE]

        @functools.wraps(official.node)
        def node(game, state):
            if sum(len(stack) for stack in state.stacks) >= 12:
                return Over()
            return official.node(game, state)

        return {**steps.STEPS, steps.PLACE: attrs.evolve(official, node=node)}


class Test:
    @hookimpl
    def register_variants(self):
        return [
            Variant("end-at-ten", "glux", "the game ends at ten chips", EndAtTen()),
            Variant("wrapped-place-step", "glux", "the placement step's node wrapped", WrappedPlaceStep()),
        ]


@pytest.fixture(scope="module")
def registry() -> Registry:
    pm = get_plugin_manager(sorted(HOUSE_RULES.glob("glux_*.py")), environment=False)
    pm.register(Test())
    return Registry(pm)


VARIANTS = [
    (),
    ("glux-two-chips",),
    ("glux-put-back",),
    ("glux-cover-fewer",),
    ("glux-diagonals",),
    ("glux-wrapped-cover",),
    ("glux-lucky-chip", "glux-soft-ones"),
]


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "+".join(v) or "official")
@pytest.mark.parametrize("players", [2, 4])
def test_the_player_the_placement_step_declares_decides_whenever_a_decision_is_legal(registry, variants, players):
    names = ["ann", "ben", "cat", "dan"][:players]
    bot = registry.bot("random", "glux")
    asked = 0
    for seed in ("decided-1", "decided-2"):
        header, _, events = selfplay(registry, "glux", names, [bot] * players, seed, list(variants))
        game = registry.game(header)
        state = game.initial()
        for event in events:
            step = game.steps[steps.step_of(state)]
            who = decider(step)
            if who is not None:
                player = who(game, state)
                assert player == game.players[state.turn]
                # Whoever has a legal decision here, the node is that player's
                # decision: the declaration the fast fold relies on.
                for other in game.players:
                    if game.legal(state, other):
                        assert other == player
                        assert step.node(game, state) == Decide((player,))
                        asked += 1
            state = game.apply(state, event)
    if "glux-put-back" in variants:  # adds a decision to the step: nothing declared
        assert asked == 0
    else:
        assert asked > 20 * players  # the placement step was really met, turn after turn


def test_a_rule_that_may_end_the_game_leaves_the_node_to_be_asked(registry):
    bot = registry.bot("random", "glux")
    header, match, events = selfplay(registry, "glux", ["ann", "ben"], [bot, bot], "end", ["end-at-ten"])
    game = match.game
    assert game.over_asked is not None
    assert steps._placer(game, game.initial()) is None
    assert sum(len(stack) for stack in match.state.stacks) == 10
    # A placement after the end is refused by the replay, as the node (Over) says.
    lines = list(registry.codec.log(header, events))
    text = "\n".join(lines) + "\n"
    replayed = Replay(registry, Path("end.jsonl"), io.BytesIO(text.encode())).run()
    assert replayed.over and replayed.state == match.state
    # A game played on under the official rules, read under this one: the
    # eleventh chip is refused, though a legal placement by the player at turn.
    header, _, events = selfplay(registry, "glux", ["ann", "ben"], [bot, bot], "end")
    lines = list(registry.codec.log(attrs.evolve(header, variants=("end-at-ten",)), events))
    with pytest.raises(IllegalEventError, match="game is over|no more events"):
        Replay(registry, Path("end.jsonl"), io.BytesIO(("\n".join(lines) + "\n").encode())).run()


def test_a_wrapped_node_declares_nothing_and_is_asked(registry):
    bot = registry.bot("random", "glux")
    header, match, events = selfplay(registry, "glux", ["ann", "ben"], [bot, bot], "wrapped", ["wrapped-place-step"])
    wrapped = match.game.steps[steps.PLACE]
    assert wrapped.node.__wrapped__ is steps.STEPS[steps.PLACE].node  # functools.wraps copied the attributes...
    assert decider(wrapped) is None  # ...but not the declaration
    assert decider(steps.STEPS[steps.PLACE]) is steps._placer
    assert sum(len(stack) for stack in match.state.stacks) == 12
    text = "\n".join(registry.codec.log(header, events)) + "\n"
    assert Replay(registry, Path("w.jsonl"), io.BytesIO(text.encode())).run().state == match.state
    # A game played on under the official rules, read under the wrapped
    # step: the first placement past twelve chips is refused, though it is
    # a legal placement by the player at turn.
    header, _, events = selfplay(registry, "glux", ["ann", "ben"], [bot, bot], "wrapped")
    lines = list(registry.codec.log(attrs.evolve(header, variants=("wrapped-place-step",)), events))
    with pytest.raises(IllegalEventError, match="game is over|no more events"):
        Replay(registry, Path("w.jsonl"), io.BytesIO(("\n".join(lines) + "\n").encode())).run()


def test_a_decision_added_to_the_step_drops_the_declaration(registry):
    """glux-put-back adds a decision to the placement step: a player with no
    placement may still put chips back, while the official node offers the
    exclusion. The step's check is then another, and its node is asked."""
    game = registry.game(Header("glux", ("ann", "ben"), ("glux-put-back",)))
    place = game.steps[steps.PLACE]
    assert place.node is steps.STEPS[steps.PLACE].node
    assert decider(place) is None


def test_decided_by_declares_a_function_with_its_check_alone():
    def who(game, state):
        return "ann"

    def check(game, state, decision):
        return None

    @decided_by(who, check)
    def node(game, state):
        return Decide(("ann",))

    def other(game, state):
        return Decide(("ann",))

    assert decider(TurnStep("s", node, check=check)) is who
    assert decider(TurnStep("s", node)) is None  # another check
    assert decider(TurnStep("s", other, check=check)) is None
    other.__dict__.update(node.__dict__)  # what functools.wraps does
    assert decider(TurnStep("s", other, check=check)) is None
