"""What a player does not see, filled in: the chips in the other players' hands.

A player sees every chip on the board and, for each other player, how many
chips of each kind remain in bag and hand together (all chips less those
placed), but not which of them is in the hand. A consistent full state draws
each hidden hand chip from those remaining, as likely as the draw itself was.
What a house rule dealt the other players in secret (``tabletop.Deal``) is
dealt again, as the deal itself deals it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tabletop import Deal, Hidden

from .state import evolve, put

if TYPE_CHECKING:
    from .game import Glux
    from .state import State


def determinize(game: Glux, view: State, player: str, rng: random.Random) -> State:
    """A full state that ``player`` cannot tell from ``view``."""
    seat = game.seats[player]
    kinds = game.chips.kinds
    hands, bags, held = view.hands, view.bags, view.held
    for other, hand in enumerate(view.hands):
        if other == seat or not isinstance(hand, Hidden):
            continue
        # The hand chip, then each further chip of a hand of several.
        drawn = []
        for _ in range(1 + (len(held[other]) if held else 0)):
            remaining = bags[other]
            if not sum(remaining):  # pragma: no cover - a hidden hand always comes from these chips
                break
            i = rng.choices(range(len(kinds)), weights=remaining)[0]
            drawn.append(kinds[i])
            bags = put(bags, other, put(remaining, i, remaining[i] - 1))
        if drawn:
            hands = put(hands, other, drawn[0])
            if held:
                held = put(held, other, tuple(drawn[1:]))
    world = view if hands is view.hands else evolve(view, hands=hands, bags=bags, held=held)
    # A house rule's secret deal (``tabletop.Deal``) the view hides, dealt again.
    return Deal.fill(game, world, player, rng)
