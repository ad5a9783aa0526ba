"""glux-middle-double: the middle room scores double.

Load it with ``tabletop --plugins variants/house_rules/glux_middle_double.py``
and enable it with ``--variant glux-middle-double``.
"""

from tabletop import Variant, hookimpl, rulehook


class MiddleDouble:
    @rulehook(wrapper=True)
    def glux_score_room(self, game, room):
        # Whatever the rules in force give a room, twice that in the middle room.
        points = yield
        if room != game.board.middle:
            return points
        return {player: 2 * vp for player, vp in points.items()}


@hookimpl
def register_variants():
    return [Variant("glux-middle-double", "glux", "the middle room scores double", MiddleDouble())]
