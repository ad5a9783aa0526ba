"""glyph-long-scepter: the scepter moves up to 2 spots, for 1 die each.

Load it with ``tabletop --plugins variants/house_rules/glyph_long_scepter.py``
and enable it with ``--variant glyph-long-scepter``.
"""

from tabletop import Variant, hookimpl, rulehook
from tabletop_glyph_chess import SCEPTER


class LongScepter:
    @rulehook
    def glyph_move_range(self, game, state, seat, piece, source):
        if piece == SCEPTER:
            return 2

    @rulehook
    def glyph_move_cost(self, game, state, seat, piece, distance):
        if piece == SCEPTER:
            return "any-die", distance  # one die of any face per spot, never coins


@hookimpl
def register_variants():
    return [Variant("glyph-long-scepter", "glyph-chess", "the scepter moves up to 2 spots, 1 die each", LongScepter())]
