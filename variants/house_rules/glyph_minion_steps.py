"""glyph-minion-steps: a minion may also step 1 spot by itself, paid with 1
summoner item (a U coin, a wild coin or a die showing U): a payment by
another type than the moving piece's.

Load it with ``tabletop --plugins variants/house_rules/glyph_minion_steps.py``
and enable it with ``--variant glyph-minion-steps``.
"""

from tabletop import Variant, hookimpl, rulehook
from tabletop_glyph_chess import MINION, SUMMONER


class MinionSteps:
    @rulehook
    def glyph_move_range(self, game, state, seat, piece, source):
        if piece == MINION:
            return 1

    @rulehook(wrapper=True)
    def glyph_move_costs(self, players):
        official = yield
        return lambda piece, distance: ("x", distance, SUMMONER) if piece == MINION else official(piece, distance)


@hookimpl
def register_variants():
    return [Variant("glyph-minion-steps", "glyph-chess", "a minion steps 1 spot for 1 summoner item", MinionSteps())]
