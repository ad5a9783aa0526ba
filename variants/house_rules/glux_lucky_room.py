"""glux-lucky-room: before setup a room is drawn for everyone to see (``lucky C``, a public chance
outcome: the core's ``Lot`` shape); that room scores double. ``--variant glux-lucky-room``."""

from typing import ClassVar

import attrs

from tabletop import Variant, hookimpl, rulehook
from tabletop.model.shapes import Lot


@attrs.frozen
class Lucky(Lot):
    kind: ClassVar[str] = "lucky"


class LuckyRoom:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):  # one of the board's rooms, drawn before setup
        return Lucky.first((yield), lambda game, state: game.board.room_names, 1)

    @rulehook(wrapper=True)
    def glux_score_room(self, state, room):
        points = yield
        return {player: 2 * vp for player, vp in points.items()} if room in Lucky.drawn(state) else points


@hookimpl
def register_variants():
    return [Variant("glux-lucky-room", "glux", "a room drawn for all to see scores double", LuckyRoom(), (Lucky,))]
