"""glux-room-points: rooms score 5 and 3 victory points instead of 4 and 2.

Load it with ``tabletop --plugins variants/house_rules/glux_room_points.py``;
enable it with ``--variant glux-room-points`` (5 and 3) or choose the points:
``--variant glux-room-points:first=6,second=1``.
"""

import attrs

from tabletop import Variant, hookimpl, rulehook
from tabletop_glux import rank_room


@attrs.frozen
class RoomPoints:
    first: int = 5
    second: int = 3

    @rulehook
    def glux_score_room(self, pips, players):
        # The official majority (no second place with two players), other points.
        return rank_room(pips, second_place=players > 2, first=self.first, second=self.second)


@hookimpl
def register_variants():
    return [Variant("glux-room-points", "glux", "rooms score 5 and 3 (first, second)", RoomPoints)]
