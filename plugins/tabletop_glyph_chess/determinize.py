"""What a player does not see, filled in: the coins in the other players' hands.

A player sees the board, the dice, every used area and, for each other
player, how many coins that player holds and which coins are in bag and hand
together (all coins less the used ones), but not which of them are in the
hand. A consistent full state deals each hidden hand from those coins, every
way of choosing them as likely as the draws that made it.
What a house rule dealt the other players in secret (``tabletop.Deal``) is
dealt again, as the deal itself deals it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tabletop import Deal, Hidden

from .pieces import GLYPHS
from .state import evolve

if TYPE_CHECKING:
    from .game import GlyphChess
    from .state import State


def determinize(game: GlyphChess, view: State, player: str, rng: random.Random) -> State:
    """A full state that ``player`` cannot tell from ``view``."""
    seat = game.seats[player]
    hands, bags = list(view.hands), list(view.bags)
    for other, hand in enumerate(view.hands):
        if other == seat or not isinstance(hand, Hidden):
            continue
        held = hand.count or 0
        pool = [g for g, n in enumerate(bags[other]) for _ in range(n)]
        drawn = [0] * len(GLYPHS)
        for g in rng.sample(pool, min(held, len(pool))):
            drawn[g] += 1
        hands[other] = tuple(drawn)
        bags[other] = tuple(n - d for n, d in zip(bags[other], drawn))
    world = evolve(view, hands=tuple(hands), bags=tuple(bags))
    # A house rule's secret deal (``tabletop.Deal``) the view hides, dealt again.
    return Deal.fill(game, world, player, rng)
