"""glyph-six-dice: the players share six glyph dice instead of five (``D1`` to
``D6``): the starting player rolls all six, and every payment may name ``D6``.

Load it with ``tabletop --plugins variants/house_rules/glyph_six_dice.py``
and enable it with ``--variant glyph-six-dice``.
"""

from tabletop import Variant, hookimpl, rulehook


class SixDice:
    @rulehook
    def glyph_dice(self, players):
        return 6


@hookimpl
def register_variants():
    return [Variant("glyph-six-dice", "glyph-chess", "six shared dice instead of five", SixDice())]
