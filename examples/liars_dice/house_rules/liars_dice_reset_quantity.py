"""liars-dice-reset-quantity: a bid must name a higher face, or the same face
and more dice (OpenSpiel's ``bidding_rule=reset-quantity``).

Load it with ``tabletop --plugins examples/liars_dice --plugins
examples/liars_dice/house_rules`` and enable it with ``--variant
liars-dice-reset-quantity``.
"""

from tabletop import Variant, hookimpl, rulehook


class ResetQuantity:
    @rulehook(wrapper=True)
    def liars_dice_bids(self, game):
        # The bids in force, ranked by face first: 1x1, 2x1, ... then 1x2, 2x2, ...
        bids = yield
        return sorted(bids, key=lambda bid: (bid[1], bid[0]))


@hookimpl
def register_variants():
    return [
        Variant(
            "liars-dice-reset-quantity",
            "liars-dice",
            "bid a higher face, or more dice of the same face",
            ResetQuantity(),
        )
    ]
