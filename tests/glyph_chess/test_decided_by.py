"""The action step's node declares who decides in it (``decided_by``): the
player at turn, whenever an action is legal. The engine's fast fold then
takes an action that the step's check finds legal without asking whether
the player can act at all. Over whole games, with 2 and 3 players, with and
without the shipped house rules, the declaration holds: wherever anyone has
a legal decision in the step, the node is that player's decision; and a log
replays to the state the plain fold reaches."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tabletop import Decide, Match, Registry, get_plugin_manager
from tabletop.model.steps import decider
from tabletop.play.engine import Replay
from tabletop.play.live import selfplay
from tabletop_glyph_chess import steps

from .test_fast import HOUSE_RULES, VARIANTS


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager(HOUSE_RULES, environment=False))


@pytest.mark.parametrize("variants", VARIANTS[:4] + VARIANTS[6:], ids=lambda v: "+".join(v) or "official")
@pytest.mark.parametrize("players", [2, 3])
def test_the_player_the_action_step_declares_decides_whenever_an_action_is_legal(house, variants, players):
    names = ["ann", "ben", "cat"][:players]
    bot = house.bot("random", "glyph-chess")
    header, played, events = selfplay(house, "glyph-chess", names, [bot] * players, "decides", list(variants))
    game = house.game(header)
    match = Match(house, header)
    asked = 0
    for event in events:
        state = match.state
        step = game.steps[state.phase]
        who = decider(step)
        if who is not None:
            player = who(game, state)
            assert player == game.players[state.turn]
            node = step.node(game, state)
            for other in game.players:
                if game.legal(state, other):
                    assert other == player and node == Decide((player,))
                    asked += 1
        match.apply(event)
    assert asked > 5 * players  # the action step was really met, turn after turn
    text = "\n".join(house.codec.log(header, events)) + "\n"
    assert Replay(house, Path("d.jsonl"), io.BytesIO(text.encode())).run().state == played.state


def test_only_the_action_step_declares():
    declared = {name for name, step in steps.STEPS.items() if decider(step) is not None}
    assert declared == {steps.ACT}
