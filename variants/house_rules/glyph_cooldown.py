"""glyph-cooldown: who cast a spell on their last turn may cast none this turn (remembered with ``glyph_memo``)."""

import attrs

from tabletop import Variant, hookimpl, rulehook
from tabletop_glyph_chess import Cast, recall, remember


def cooled(spell, no=lambda state, seat: seat in recall(state, "glyph-cooldown", ())):  # check, listing, count
    check = lambda g, s, seat, *a: ("you cast a spell last turn", 0) if no(s, seat) else spell.check(g, s, seat, *a)  # noqa: E731
    options = lambda ctx: () if no(ctx.state, ctx.seat) else spell.options(ctx)  # noqa: E731
    count = lambda g, s, seat, *a: 0 if no(s, seat) else spell.unlisted(g, s, seat, *a)  # noqa: E731
    return attrs.evolve(spell, check=check, options=options, unlisted=spell.unlisted and count)


class Cooldown:
    @rulehook(wrapper=True)
    def glyph_memo(self, game, state, event, memo):  # the seats that cast a spell on their last turn
        memo, others = (yield), set(recall(state, "glyph-cooldown", ())) - {state.turn}
        seats = tuple(sorted(others | {state.turn} if type(event) is Cast else others))
        return remember(memo, "glyph-cooldown", seats) if game.turn_ends(event) else memo  # a turn's one action

    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        return {name: cooled(spell) for name, spell in (yield).items()}


@hookimpl
def register_variants():
    return [Variant("glyph-cooldown", "glyph-chess", "no spell two turns in a row", Cooldown())]
