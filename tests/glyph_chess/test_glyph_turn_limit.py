"""glyph-turn-limit (variants/house_rules/glyph_turn_limit.py): the turns
counted as each event takes effect (``glyph_memo``), the game ended by a
variant (``glyph_game_over``) and its winners named by the whole result
(``glyph_outcome``)."""

from __future__ import annotations

import pytest

from tabletop import Chance, Decide, Over, Registry
from tabletop_glyph_chess import recall, steps
from tabletop_glyph_chess.state import OVER

from ..fastpath import compare
from .helpers import game_at, house_rules, position, replayed, self_played

LIMIT = ["glyph-turn-limit"]


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_turn_limit.py")


def first_legal(game, state):
    """Every decision the first legal one, every chance the first outcome, until the game is over."""
    while state.phase != OVER:
        node = game.next(state)
        options = game.legal(state, node.players[0]) if isinstance(node, Decide) else None
        state = game.apply(
            state, options[0] if options else node.outcomes[0] if isinstance(node, Chance) else node.event
        )
    return state


def test_glyph_game_over_glyph_turn_limit_ends_the_game_after_the_40th_turns_action(house):
    # ben's seeress is dead: ann has a piece more on the board.
    game, state = game_at(house, position({"ann": {"g3": "F"}}, fates={"ben": {"S": "killed"}}), LIMIT)
    assert recall(state, "turns", 0) == 0
    state = first_legal(game, state)
    assert recall(state, "turns") == 40 and state.winner is None and game.next(state) == Over()
    assert game.legal(state, "ann") == game.legal(state, "ben") == []
    outcome = game.outcome(state)
    pieces = [sum(p is not None and p[0] == s for p in state.board) for s in (0, 1)]
    assert outcome.note == "most pieces after 40 turns" and pieces[0] != pieces[1]
    assert outcome.winners == (("ann",) if pieces[0] > pieces[1] else ("ben",))
    assert outcome.scores == {p: int(p in outcome.winners) for p in ("ann", "ben")}
    official, at = game_at(house, position({"ann": {"g3": "F"}}, fates={"ben": {"S": "killed"}}))
    assert game.outcome(at) == official.outcome(at)  # standings while not over: the rule book's


def test_glyph_turn_limit_neither_hook_is_asked_under_the_official_rules(house):
    game, state = game_at(house, position({"ann": {"g3": "F"}}))
    assert all(game.steps[name] is step for name, step in steps.STEPS.items())  # the official table, untouched
    game, state = game_at(house, position({"ann": {"g3": "F"}}), LIMIT)
    assert all(game.steps[name] is not step for name, step in steps.STEPS.items() if name != OVER)


def test_glyph_turn_limit_whole_games_replay_and_the_fast_path_agrees(house, tmp_path):
    for number, (header, events) in enumerate(self_played(house, LIMIT[0], 3)):
        match = replayed(house, tmp_path / f"{number}.jsonl", header, events)
        assert match.over and sum(match.game.turn_ends(e) for e in events) <= 40
        assert recall(match.state, "turns") == sum(match.game.turn_ends(e) for e in events)
        assert match.game.outcome(match.state).winners
    assert compare(house, "glyph-chess", ("ann", "ben"), "limit", LIMIT) > 35
    assert compare(house, "glyph-chess", ("ann", "ben", "cat"), "limit3", LIMIT) > 35
