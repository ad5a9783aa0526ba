"""glyph-wild-sight: an enemy seeress's sight blocks only the seen piece's
own coins; wild coins still pay for it (for moves, spells and the
necromancer's escape alike).

Load it with ``tabletop --plugins variants/house_rules/glyph_wild_sight.py``
and enable it with ``--variant glyph-wild-sight``.
"""

from tabletop import Variant, hookimpl, rulehook
from tabletop_glyph_chess import Payers


class WildSight:
    @rulehook
    def glyph_payers(self, game, state, seat, spot, kind):
        if spot is not None and not game.may_use_coins(game=game, state=state, spot=spot):
            wild = frozenset(game.wild(state, seat)) - {kind}
            return Payers(frozenset({kind}), wild, "in sight of an enemy seeress (wild coins only)")


@hookimpl
def register_variants():
    return [Variant("glyph-wild-sight", "glyph-chess", "sight blocks a piece's own coins, not wild ones", WildSight())]
