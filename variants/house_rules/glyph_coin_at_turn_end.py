"""glyph-coin-at-turn-end: at the end of your own turn (the dice you spent re-rolled), draw a coin
from your bag (or, empty, from your used area): a coin owed at the turn's end (``glyph_turn_end``).

Load it with ``tabletop --plugins variants/house_rules/glyph_coin_at_turn_end.py``
and enable it with ``--variant glyph-coin-at-turn-end``.
"""

from tabletop import Variant, hookimpl, rulehook


class CoinAtTurnEnd:
    @rulehook
    def glyph_turn_end(self, game, state, seat):
        if not state.eliminated[seat] and (any(state.bags[seat]) or any(state.used[seat])):
            state.owed[seat] += 1  # drawn by the draw step, then the next player awakens
            return "draw"


@hookimpl
def register_variants():
    return [Variant("glyph-coin-at-turn-end", "glyph-chess", "draw a coin at the end of your turn", CoinAtTurnEnd())]
