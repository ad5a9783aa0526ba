"""How long a game of Glüx can be, for the programs that must know
(OpenSpiel's ``max_game_length``; see ``tabletop.base.limits``).

Every Glüx decision puts one chip from a hand on the board: the start chip's
face, a placement, the start-square option. Chips come into a hand only from
its owner's bag, and a bag only ever loses chips, so a game holds at most as
many decisions as there are chips: the players times one bag
(``glux_bag``), 48 for two players. Each decision is one word of the game's
numbering, so that is the bound in words too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Glux

#: The rule hooks by which a variant adds decisions or changes what one does
#: (``glux-redraw`` puts a chip back, ``glux-put-back`` adds a step): with
#: any of them in force, the chips alone no longer bound the game.
ADDING = ("glux_decisions", "glux_apply", "glux_turn_steps")


def most_words(game: Glux) -> int | None:
    """The most decision words a game under the rules in force can take, or
    None when a variant in force may add decisions the chips do not bound."""
    if not all(map(game.rules.official, ADDING)):
        return None
    return len(game.players) * sum(game.bag)
