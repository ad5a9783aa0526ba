"""glux-redraw: once per game, instead of placing, a player may put the hand
chip back into the bag and draw again (written ``redraw``); the draw ends the turn."""

from typing import ClassVar

import attrs

from tabletop import DECISION, Event, Variant, hookimpl, rulehook
from tabletop_glux import recall, remember


@attrs.frozen
class Redraw(Event):
    kind: ClassVar[str] = "redraw"
    origin: ClassVar[str] = DECISION
    ends_turn: ClassVar[bool] = True  # it takes the placement's place: the turn is counted by it
    player: str


class RedrawOnce:
    @rulehook(wrapper=True)
    def glux_decisions(self, game, state, seat):
        found = yield
        return found if seat in recall(state, "glux-redraw", ()) else (*found, Redraw(game.players[seat]))

    @rulehook
    def glux_check(self, game, state, decision):
        if isinstance(decision, Redraw):
            return "" if game.seats[decision.player] not in recall(state, "glux-redraw", ()) else "redrawn already"

    @rulehook
    def glux_apply(self, game, state, event):
        if isinstance(event, Redraw):  # the chip goes back; the turn goes on with a draw
            seat = game.seats[event.player]
            i = game.chips.index[state.hands[seat]]
            bag = state.bags[seat][:i] + (state.bags[seat][i] + 1,) + state.bags[seat][i + 1 :]
            memo = remember(state.memo, "glux-redraw", (*recall(state, "glux-redraw", ()), seat))
            bags, hands = list(state.bags), list(state.hands)
            bags[seat], hands[seat] = bag, None
            return attrs.evolve(state, bags=tuple(bags), hands=tuple(hands), drawing=True, memo=memo)

    @rulehook
    def glux_notate(self, decision):
        return "redraw" if isinstance(decision, Redraw) else None

    @rulehook
    def glux_parse(self, text, player):
        return Redraw(player) if text.strip().lower() == "redraw" else None


@hookimpl
def register_variants():
    return [
        Variant("glux-redraw", "glux", "once per game: put the hand chip back and draw again", RedrawOnce(), (Redraw,))
    ]
