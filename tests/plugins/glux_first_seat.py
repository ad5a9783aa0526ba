"""glux-first-seat (for the tests): the first seat always starts.

The setup step's node offers, where the official rules draw the start
player at random, the first seat as a ``Forced`` node instead: the event
(``first-player``, a chance event in the official rules) is forced here.
Every path must take it where it is forced: self-play writes it, and a
replay of that log accepts it.
"""

import attrs

from tabletop import Forced, Variant, hookimpl, rulehook
from tabletop_glux.events import FirstPlayer

NAME = "glux-first-seat"


def first_seat(node):
    def forced(game, state):
        offered = node(game, state)
        if isinstance(offered, type(game.first_player_node)) and offered == game.first_player_node:
            return Forced(FirstPlayer(game.players[0]))
        return offered

    return forced


class FirstSeat:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        table = dict((yield))
        table["setup"] = attrs.evolve(table["setup"], node=first_seat(table["setup"].node))
        return table


@hookimpl
def register_variants():
    return [Variant(NAME, "glux", "the first seat starts", FirstSeat())]
