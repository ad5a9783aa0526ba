"""glux-cover-fewer: a chip may cover only a chip showing fewer pips (rule 4
changed, by the face being placed).

Load it with ``tabletop --plugins variants/house_rules/glux_cover_fewer.py``
and enable it with ``--variant glux-cover-fewer``.
"""

from tabletop import Variant, hookimpl, rulehook


class CoverFewer:
    @rulehook
    def glux_may_cover(self, state, square, face):
        # Rule 4 lets any face go onto a single chip; here only a higher one.
        return state.stacks[square][-1][1] < face


@hookimpl
def register_variants():
    return [Variant("glux-cover-fewer", "glux", "cover only a chip showing fewer pips", CoverFewer())]
