"""The necromancer's passive spell, the escape: when an enemy lands on it, its
owner may pay 1 necromancer coin or wild coin (never a die) to move it to the
spot the attacker came from. Each landing is a separate attack (FAQ Q16); on
a blaze the spot is the start of that one step (FAQ Q10); a blast does not
land on it (FAQ Q9); in an enemy seeress's sight no coin may be used (FAQ
Q11). The owner is asked only when they can pay.

What the escape costs is the hook ``glyph_escape_cost`` (a payment type: one
coin that may pay for it); which coins may pay, ``glyph_payers``, as for
every payment; the coins offered, ``glyph_escape_coins``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import rulehook

from .pieces import GLYPHS, NECROMANCER
from .state import State, Step, Work

if TYPE_CHECKING:
    from .game import GlyphChess


@rulehook
def glyph_escape_cost(game: GlyphChess, state: State | Work, spot: int) -> str:
    # One item of the necromancer's own type, paid with a coin.
    return NECROMANCER


@rulehook
def glyph_escape_coins(game: GlyphChess, state: State | Work, spot: int) -> list[str]:
    # The coins in hand that may pay the escape's cost for the necromancer on
    # ``spot`` (``glyph_payers``: officially its own and wild coins, none in
    # an enemy seeress's sight).
    seat = state.board[spot][0]
    kind = game.rules.glyph_escape_cost(game=game, state=state, spot=spot)
    if not kind:
        return []
    paid_by = game.payers(game=game, state=state, seat=seat, spot=spot, kind=kind)
    return [g for g, n in zip(GLYPHS, state.hands[seat]) if n and g in paid_by.coins]


def attacked_necromancer(state: State | Work, step: Step) -> bool:
    """Whether this landing attacks an enemy necromancer."""
    target = state.board[step.target]
    mover = state.board[step.source]
    return target is not None and target[1] == NECROMANCER and mover is not None and target[0] != mover[0]


def options(game: GlyphChess, state: State | Work) -> list[str]:
    """The coins the attacked necromancer's owner may pay now."""
    return list(game.escape_coins(game=game, state=state, spot=state.steps[0].target))
