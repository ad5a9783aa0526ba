"""glux-two-chips: each player holds two chips in hand, places either of
them (any face of either), and draws back to two after placing.

A hand of several chips is a state the rules give (``glux_hand_size``):
``state.hand(seat)`` lists every chip held; a placement names the face, and
the chip showing it leaves the hand.

Load it with ``tabletop --plugins variants/house_rules/glux_two_chips.py``
and enable it with ``--variant glux-two-chips``.
"""

from tabletop import Variant, hookimpl, rulehook


class TwoChips:
    @rulehook
    def glux_hand_size(self, players):
        return 2


@hookimpl
def register_variants():
    return [Variant("glux-two-chips", "glux", "hold two chips, place either, draw back to two", TwoChips())]
