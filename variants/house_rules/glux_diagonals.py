"""glux-diagonals: a house rule where chips may also be counted diagonally.

Load it with ``tabletop --plugins variants/house_rules/glux_diagonals.py``
and enable it with ``--variant glux-diagonals``.
"""

from tabletop import Variant, hookimpl, rulehook

DIAGONALS = ((1, 1), (1, -1), (-1, -1), (-1, 1))


class Diagonals:
    @rulehook(wrapper=True)
    def glux_directions(self):
        # Keep whatever directions the rules in force give, and add the diagonals.
        directions = yield
        return tuple(directions) + DIAGONALS


@hookimpl
def register_variants():
    rules = Diagonals()
    return [Variant("glux-diagonals", "glux", "chips may also be counted diagonally", rules)]
