"""Victory: a player whose scepter is on the centre as their turn begins
wins (:mod:`~tabletop_glyph_chess.scepter`); a player whose scepter falls is
eliminated, and the last one remaining wins. Glyph Chess has no points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import Outcome, rulehook

from .state import State, Work

if TYPE_CHECKING:
    from .game import GlyphChess


@rulehook
def glyph_outcome(game: GlyphChess, state: State | Work) -> Outcome:
    # Glyph Chess has no points: the score is the pieces a player has on the board.
    scores = {p: 0 for p in game.players}
    for piece in state.board:
        if piece is not None:
            scores[game.players[piece[0]]] += 1
    winners = (game.players[state.winner],) if state.winner is not None else ()
    note = ""
    if state.winner is not None:
        note = "last player standing" if sum(not e for e in state.eliminated) == 1 else "scepter on the centre"
    return Outcome(scores, winners, note)
