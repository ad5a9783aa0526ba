"""liars-dice-no-wild: no face is wild; a die counts only as its own face.

Load it with ``tabletop --plugins examples/liars_dice --plugins
examples/liars_dice/house_rules`` and enable it with ``--variant
liars-dice-no-wild``.
"""

from tabletop import Variant, hookimpl, rulehook


class NothingWild:
    @rulehook
    def liars_dice_wild(self, game):
        return 0


@hookimpl
def register_variants():
    return [Variant("liars-dice-no-wild", "liars-dice", "no face is wild", NothingWild())]
