"""glux-pass-once: a player may ``pass`` instead of placing (the turn ends), but not twice in a row."""

from tabletop import Variant, hookimpl, rulehook
from tabletop.model.shapes import Bare
from tabletop_glux import recall, remember


class Pass(Bare):  # a decision written as its kind alone
    kind = "pass"
    ends_turn = True  # the rules pass the turn on to the next seat, as after a placement


class PassOnce:
    @rulehook(wrapper=True)
    def glux_memo(self, event):  # whether each player's last turn was a pass
        memo = yield
        return remember(memo, f"pass {event.player}", event.kind == "pass") if event.kind in ("pass", "place") else memo

    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):  # offered to the player at turn to place, unless they passed last
        return Pass.offered((yield), "place", self.may)

    def may(self, game, state, player):
        return state.turn == game.seats[player] and not recall(state, f"pass {player}")


@hookimpl
def register_variants():
    return [Variant("glux-pass-once", "glux", "pass instead of placing, not twice in a row", PassOnce(), (Pass,))]
