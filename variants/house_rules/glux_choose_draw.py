"""glux-choose-draw: after placing, take the chip of your choice from your
bag instead of drawing one at random. Which kind is taken stays secret.

A variant's own decision in one of the core's shapes (``tabletop.One``),
declared ``secret``: the others read that a chip was taken, never which,
on every path that shows the game (see docs/house-rules.md).

Load it with ``tabletop --plugins variants/house_rules/glux_choose_draw.py``
and enable it with ``--variant glux-choose-draw``.
"""

from typing import ClassVar

import attrs

from tabletop import Decide, One, TurnStep, Variant, hookimpl, rulehook


@attrs.frozen
class Take(One):
    kind: ClassVar[str] = "take"
    secret: ClassVar[bool] = True  # the others see that a chip was taken, not which


def kinds(game, state, player):
    seat = game.seats[player]
    return () if state.turn != seat else tuple(k for k, n in zip(game.chips.kinds, state.bags[seat]) if n)


def take(game, work, event):
    seat = game.seats[event.player]
    work.bags[seat][game.chips.index[event.option]] -= 1
    work.hands[seat], work.drawing = event.option, False
    work.turn = game.next_turn(work, seat)


class ChooseDraw:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        table = dict((yield))
        table["draw"] = TurnStep(
            "draw",
            lambda game, state: Decide((game.players[state.turn],)),
            (Take,),
            take,
            check=lambda game, state, decision: Take.error(decision, kinds(game, state, decision.player)),
            legal=lambda game, state, player: Take.options(player, kinds(game, state, player)),
            asks=lambda game, state, player: "take a chip from your bag",
        )
        return table


@hookimpl
def register_variants():
    return [Variant("glux-choose-draw", "glux", "take the chip of your choice", ChooseDraw(), (Take,))]
