"""glyph-deal: before setup, each player is dealt a secret patron glyph type (``patron E``) whose
coins are wild for them: a chance outcome of the core's deal shape (``tabletop.Deal``), seen by
its player alone, the others reading ``ann patron (hidden)``. Enable it with ``--variant glyph-deal``."""

from typing import ClassVar

import attrs

from tabletop import Deal, Variant, hookimpl, rulehook
from tabletop_glyph_chess import GLYPHS


@attrs.frozen
class Patron(Deal):
    kind: ClassVar[str] = "patron"


class Patrons:
    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        return Patron.first((yield), GLYPHS, 1)  # one of the six types to each player, before setup

    @rulehook(wrapper=True)
    def glyph_wild_coins(self, game, state, seat):
        return (yield) | frozenset(Patron.dealt(state, game.players[seat]))


@hookimpl
def register_variants():
    return [Variant("glyph-deal", "glyph-chess", "a secret patron type: its coins are wild", Patrons(), (Patron,))]
