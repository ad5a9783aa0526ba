"""glux-soft-ones: a 1/6 chip covers nothing, not even by the start-square
option (rule 4 changed, by the chip being placed).

Load it with ``tabletop --plugins variants/house_rules/glux_soft_ones.py``
and enable it with ``--variant glux-soft-ones``.
"""

from tabletop import Variant, hookimpl, rulehook


class SoftOnes:
    @rulehook
    def glux_may_cover(self, chip):
        # Only the 2/5 and 3/4 chips may go on top of another chip.
        return False if chip == "1/6" else None


@hookimpl
def register_variants():
    return [Variant("glux-soft-ones", "glux", "a 1/6 chip covers nothing", SoftOnes())]
