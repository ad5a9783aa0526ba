"""glux-joker: each bag holds a joker chip that shows any face its player chooses when placed, and that face
from then on (docs/rulings.md); ``joker ann`` tells all. ``--variant glux-joker:jokers=2``: two a bag."""

import attrs

from tabletop import Shown, Variant, hookimpl, rulehook


class JokerShown(Shown):  # an event of the rules, for all to see: ``joker ann``
    kind = "joker"


@attrs.frozen
class Joker:
    jokers: int = attrs.field(default=1, metadata={"help": "joker chips in each bag"})

    @rulehook(wrapper=True)
    def glux_chips(self, players):
        return {**(yield), "joker": (1, 2, 3, 4, 5, 6)}  # after the others: a face they show is theirs

    @rulehook(wrapper=True)
    def glux_bag(self, players):
        return {**(yield), "joker": self.jokers}

    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):  # a joker put on the board, in setup or placed, is told
        return JokerShown.after((yield), lambda game, state, event: game.chip_placed(state, event) == "joker")


@hookimpl
def register_variants():
    return [Variant("glux-joker", "glux", "a joker in each bag shows any face chosen", Joker, (JokerShown,))]
