"""glyph-reroll-once: once per game, in your awakening, re-roll the dice of your choice (``mulligan 1,3``),
then awaken as usual: a subset decision (``tabletop.Subset``) offered in the awakening step (``offer``)."""

from typing import ClassVar

import attrs

from tabletop import Subset, Variant, hookimpl, rulehook
from tabletop_glyph_chess import offer


@attrs.frozen
class Mulligan(Subset):
    kind: ClassVar[str] = "mulligan"


def reroll(game, work, seat, event):  # roll the chosen dice, then back to the awakening
    work.phase, work.rolling, work.then = "rolling", [int(n) - 1 for n in event.items], "awaken"


class RerollOnce:
    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        every_die = lambda game, state, seat: [str(n) for n in range(1, len(state.dice) + 1)]  # noqa: E731
        return offer((yield), "awaken", Mulligan, every_die, reroll, once=True, least=1)


@hookimpl
def register_variants():
    return [Variant("glyph-reroll-once", "glyph-chess", "once a game, re-roll any dice", RerollOnce(), (Mulligan,))]
