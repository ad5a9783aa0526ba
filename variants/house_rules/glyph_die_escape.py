"""glyph-die-escape: the necromancer's escape may also be paid with a die
showing the necromancer (``escape D2``), not only with a necromancer or wild
coin; a die pays even in an enemy seeress's sight, where no coin may.

Load it with ``tabletop --plugins variants/house_rules/glyph_die_escape.py``
and enable it with ``--variant glyph-die-escape``.
"""

from tabletop import Variant, hookimpl, rulehook
from tabletop_glyph_chess import NECROMANCER


class DieEscape:
    @rulehook
    def glyph_escape_cost(self, game, state, spot):
        return "item", NECROMANCER  # one item: a coin or a die that may pay for a necromancer


@hookimpl
def register_variants():
    return [Variant("glyph-die-escape", "glyph-chess", "the escape may be paid with a die", DieEscape())]
