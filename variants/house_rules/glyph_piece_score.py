"""glyph-piece-score: a final score as a whole (``glyph_outcome``, the one place a result comes
from): each player scores 1 per piece of theirs on the board, and the winner 10 more; who wins is
the rule book's (``stats``, ``simulate`` and the bots' search read these scores).

Load it with ``tabletop --plugins variants/house_rules/glyph_piece_score.py``
and enable it with ``--variant glyph-piece-score``.
"""

from tabletop import Outcome, Variant, hookimpl, rulehook


class PieceScore:
    @rulehook(wrapper=True)
    def glyph_outcome(self, game, state):
        outcome = yield
        pieces = [sum(p is not None and p[0] == seat for p in state.board) for seat in range(len(game.players))]
        scores = {p: pieces[s] + 10 * (p in outcome.winners) for s, p in enumerate(game.players)}
        return Outcome(scores, outcome.winners, outcome.note)


@hookimpl
def register_variants():
    return [Variant("glyph-piece-score", "glyph-chess", "score 1 per piece on the board, 10 for a win", PieceScore())]
