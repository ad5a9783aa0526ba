"""glyph-turn-limit: after 40 turns with no winner the game ends (``glyph_memo`` counts the turns,
``glyph_game_over`` ends it), won by the most pieces on the board, a tie shared (``glyph_outcome``)."""

from tabletop import Outcome, Variant, hookimpl, rulehook
from tabletop_glyph_chess import recall, remember


class TurnLimit:
    @rulehook(wrapper=True)
    def glyph_memo(self, game, state, event, memo):
        memo = yield
        return remember(memo, "turns", recall(state, "turns", 0) + 1) if game.turn_ends(event) else memo

    @rulehook
    def glyph_game_over(self, game, state):
        return True if recall(state, "turns", 0) >= 40 else None

    @rulehook(wrapper=True)
    def glyph_outcome(self, game, state):
        outcome, seats = (yield), [piece[0] for piece in state.board if piece is not None]
        if state.phase != "over" or state.winner is not None:
            return outcome  # not over, or won by the rule book
        most = max(map(seats.count, range(len(game.players))))
        winners = tuple(p for s, p in enumerate(game.players) if seats.count(s) == most)
        return Outcome({p: int(p in winners) for p in game.players}, winners, "most pieces after 40 turns")


@hookimpl
def register_variants():
    return [Variant("glyph-turn-limit", "glyph-chess", "the game ends after 40 turns", TurnLimit())]
