"""glux-no-cover: a chip may not cover another player's chip (rule 4 changed).

Load it with ``tabletop --plugins variants/house_rules/glux_no_cover.py``
and enable it with ``--variant glux-no-cover``.
"""

from tabletop import Variant, hookimpl, rulehook


class NoCover:
    @rulehook
    def glux_may_cover(self, state, seat, square):
        # Rule 4 lets a chip go onto any single chip; here only onto one's own.
        return state.stacks[square][-1][0] == seat


@hookimpl
def register_variants():
    return [Variant("glux-no-cover", "glux", "no covering another player's chip", NoCover())]
