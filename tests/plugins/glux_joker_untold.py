"""glux-joker-untold (for the tests): glux-joker as it was first written, a
joker in each bag with no event telling the table that one was placed.

A placement names only the face it shows (``2@i8``) and the joker's draw
is hidden from the others, yet every other seat's view shows the chips of
each kind in bag and hand together, so a joker placed shows in the views
with no event saying so. The conformance kit's twin histories must find it
(tests/test_conformance_findings.py); the shipped rule tells it
(variants/house_rules/glux_joker.py, ``joker ann``).
"""

import attrs

from tabletop import Variant, hookimpl, rulehook


@attrs.frozen
class Untold:
    @rulehook(wrapper=True)
    def glux_chips(self, players):
        return {**(yield), "joker": (1, 2, 3, 4, 5, 6)}

    @rulehook(wrapper=True)
    def glux_bag(self, players):
        return {**(yield), "joker": 1}


@hookimpl
def register_variants():
    return [Variant("glux-joker-untold", "glux", "a joker in each bag, placed with no word", Untold)]
