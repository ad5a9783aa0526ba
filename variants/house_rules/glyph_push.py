"""glyph-push: a new spell. For 1 die showing Force Mage, the force mage pushes an adjacent enemy piece one
spot straight away from it onto an empty spot: ``push SPOT ENEMY / DIE`` (e.g. ``push g5 g6 / D2``)."""

from tabletop import Variant, hookimpl, rulehook
from tabletop_glyph_chess import FORCE_MAGE, Spell, relocate


class Push:
    def check(self, game, state, seat, source, spots, target):
        piece = state.board[spots[0]] if len(spots) == 1 else None
        to = game.geo.beyond(source, spots[0]) if piece else None
        ok = piece is not None and piece[0] != seat and to is not None and state.board[to] is None
        return (None, 0) if ok else ("push names an enemy piece next to the force mage, an empty spot behind it", 0)

    def options(self, game, state, seat, source, budget):
        ok = self.check
        return [((s,), "", 0) for s in game.geo.neighbours[source] if not ok(game, state, seat, source, [s], "")[0]]

    def effect(self, game, work, seat, source, spots, target):
        relocate(work, spots[0], game.geo.beyond(source, spots[0]))

    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        spell = Spell("push", FORCE_MAGE, "die", self.check, self.effect, self.options, "push g5 g6 / D2")
        return {**(yield), "push": spell}


@hookimpl
def register_variants():
    return [Variant("glyph-push", "glyph-chess", "the force mage pushes an adjacent enemy (1 die)", Push())]
