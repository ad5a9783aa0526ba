"""The seeress's master spell, foresee: for 1 die showing Seeress, look at
another player's coins (a rules event only the caster and that player read),
then send up to 2 of them to that player's used area (a second decision, the
``discard`` step). Her passive spell is in :mod:`~tabletop_glyph_chess.sight`."""

from __future__ import annotations

from ..pieces import SEERESS
from ..state import GLIMPSE
from .base import Spell


def check(game, state, seat, source, spots, target):
    if spots:
        return "foresee names a player, not spots", 0
    other = game.seats.get(target)
    if other is None or other == seat or state.eliminated[other]:
        return f"'{target}' is not another player in the game", 0
    return None, 0


def effect(game, work, seat, source, spots, target):
    work.phase, work.target = GLIMPSE, game.seats[target]


def options(ctx):
    seat, eliminated = ctx.seat, ctx.state.eliminated
    return [((), name, 0) for other, name in enumerate(ctx.game.players) if other != seat and not eliminated[other]]


FORESEE = Spell("foresee", SEERESS, "die", check, effect, options, "foresee c3 ben / D1", argument="player")
