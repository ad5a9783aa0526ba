"""glyph-coin-trade: as your action, pay 2 coins of any types (to your used area) to take a coin of your
choice from your bag: ``trade F / S S``, an action of a variant's own (``Paid``, ``action``)."""

from typing import ClassVar

import attrs

from tabletop import Variant, hookimpl, rulehook
from tabletop_glyph_chess import GLYPHS, Paid, action


@attrs.frozen
class Trade(Paid):
    kind: ClassVar[str] = "trade"


class CoinTrade:
    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        in_bag = lambda game, state, seat: [g for g, n in zip(GLYPHS, state.bags[seat]) if n]  # noqa: E731
        take = lambda game, work, seat, glyph: work.move_coin(seat, glyph, "bags", "hands")  # noqa: E731
        return action((yield), Trade, in_bag, ("coin", 2, None), take)  # for 2 coins of any types


@hookimpl
def register_variants():
    return [Variant("glyph-coin-trade", "glyph-chess", "trade 2 coins for one from your bag", CoinTrade(), (Trade,))]
