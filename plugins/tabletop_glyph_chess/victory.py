"""Victory: a player whose scepter is on the centre as their turn begins
wins (:mod:`~tabletop_glyph_chess.scepter`); a player whose scepter falls is
eliminated, and the last one remaining wins.

Glyph Chess has no points: the score is 1 for the winner and 0 for the
others (not the pieces left, which said nothing about the result), and the
outcome's note says what decided the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import Outcome, rulehook

from .state import State, Work

if TYPE_CHECKING:
    from .game import GlyphChess


@rulehook
def glyph_outcome(game: GlyphChess, state: State | Work) -> Outcome:
    players = game.players
    scores = {p: 0 for p in players}
    if state.winner is None:
        return Outcome(scores, ())
    winner = players[state.winner]
    scores[winner] = 1
    # What decided the game, as the rule book words its two ways to win.
    note = "last player standing" if state.eliminated.count(False) == 1 else "scepter on the centre"
    return Outcome(scores, (winner,), note)
