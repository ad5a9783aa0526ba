"""glux-rooms-dealt: before setup each player is dealt a secret room, no two the same (``room C``:
the core's ``Deal`` without replacement); one's own room scores double for oneself."""

from typing import ClassVar

import attrs

from tabletop import Deal, Variant, hookimpl, rulehook


@attrs.frozen
class Room(Deal):
    kind: ClassVar[str] = "room"


class RoomsDealt:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):  # one room each, from one pool of the board's rooms
        return Room.first((yield), lambda game, state, player: game.board.room_names, 1, replace=False)

    @rulehook(wrapper=True)
    def glux_score_room(self, state, room):
        points = yield
        return {player: vp * (1 + (room in Room.dealt(state, player))) for player, vp in points.items()}


@hookimpl
def register_variants():
    return [Variant("glux-rooms-dealt", "glux", "a secret room each, all different: double", RoomsDealt(), (Room,))]
