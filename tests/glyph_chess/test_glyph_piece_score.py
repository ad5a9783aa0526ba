"""glyph-piece-score (variants/house_rules/glyph_piece_score.py): a final score
as a whole, by the hook that already gives the whole result (``glyph_outcome``):
1 per piece on the board, 10 more for the winner; who wins is the rule book's."""

from __future__ import annotations

import pytest

from tabletop import Registry
from tabletop_glyph_chess.state import OVER

from ..fastpath import compare
from .helpers import act, game_at, house_rules, position, replayed, self_played, to_action

SCORE = ["glyph-piece-score"]


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_piece_score.py")


def test_glyph_piece_score_counts_the_pieces_and_the_win(house):
    # ann's scepter next to the centre steps on it; as her next turn begins she wins.
    data = position({"ann": {"f6": "K"}}, fates={"ben": {"S": "killed", "I": "burnt"}})
    game, state = game_at(house, data, SCORE)
    assert game.outcome(state).scores == {"ann": 7, "ben": 5}  # standings: no winner yet
    state = to_action(game, state)
    state = act(game, state, "ann", f"f6-{game.geo.names[game.geo.center]} / D1")
    while state.phase != OVER:
        state = game.apply(
            state, next(iter(game.legal(state, game.players[state.turn])), None) or game.next(state).outcomes[0]
        )
    assert state.winner == 0
    outcome = game.outcome(state)
    assert outcome.winners == ("ann",) and outcome.note == "scepter on the centre"
    assert outcome.scores == {"ann": 17, "ben": 5}


def test_glyph_piece_score_whole_games_replay_and_the_fast_path_agrees(house, tmp_path):
    for number, (header, events) in enumerate(self_played(house, SCORE[0], 2)):
        match = replayed(house, tmp_path / f"{number}.jsonl", header, events)
        outcome = match.game.outcome(match.state)
        (winner,) = outcome.winners
        assert outcome.scores[winner] > 10 and all(s < 10 for p, s in outcome.scores.items() if p != winner)
    assert compare(house, "glyph-chess", ("ann", "ben"), "score", SCORE, max_events=200) > 100
