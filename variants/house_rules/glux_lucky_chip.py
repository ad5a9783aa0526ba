"""glux-lucky-chip: the kind of your first hand chip is your lucky kind, kept
secret: in room majorities, your top chips of that kind count double pips.

Only you know your lucky kind (it is in your view of the game, not in
anyone else's) until the game ends and the rooms are scored.

Load it with ``tabletop --plugins variants/house_rules/glux_lucky_chip.py``
and enable it with ``--variant glux-lucky-chip``.
"""

from tabletop import Variant, hookimpl, rulehook
from tabletop_glux import recall, remember

NAME = "glux-lucky-chip"


class LuckyChip:
    @rulehook(wrapper=True)
    def glux_memo(self, game, state, event):
        memo = yield
        seat = game.seats.get(getattr(event, "player", None))
        # The first chip drawn after the start chip is placed: the first hand chip.
        if event.kind == "draw" and state.started[seat] and recall(state, NAME, player=event.player) is None:
            memo = remember(memo, NAME, event.chip, player=event.player)
        return memo

    @rulehook(wrapper=True)
    def glux_room_pips(self, game, state, room):
        pips = dict((yield))
        for square in game.room_squares[room]:
            if state.stacks[square]:
                seat, face = state.stacks[square][-1]
                player = game.players[seat]
                if face in game.chips.faces.get(recall(state, NAME, player=player), ()):
                    pips[player] += face
        return pips


@hookimpl
def register_variants():
    return [Variant(NAME, "glux", "your first hand chip's kind is secretly lucky: double pips in rooms", LuckyChip())]
