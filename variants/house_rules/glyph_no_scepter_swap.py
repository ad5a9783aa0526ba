"""glyph-no-scepter-swap: the illusionist's swap may not take the scepter (a rule in a
spell's targets). Load with ``--plugins variants/house_rules/glyph_no_scepter_swap.py``."""

import attrs

from tabletop import Variant, hookimpl, rulehook
from tabletop_glyph_chess import SCEPTER


class NoScepterSwap:
    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        table = dict((yield))
        swap = table["swap"]

        def check(game, state, seat, source, spots, target):
            if len(spots) == 1 and state.board[spots[0]] == (seat, SCEPTER):
                return "the swap may not take the scepter", 0
            return swap.check(game, state, seat, source, spots, target)

        def options(ctx):
            return [option for option in swap.options(ctx) if ctx.board[option[0][0]][1] != SCEPTER]

        table["swap"] = attrs.evolve(swap, check=check, options=options)
        return table


@hookimpl
def register_variants():
    return [Variant("glyph-no-scepter-swap", "glyph-chess", "the swap may not take the scepter", NoScepterSwap())]
