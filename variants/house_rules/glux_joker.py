"""glux-joker: each bag holds a joker chip besides its 24: it shows the face
its player chooses (1 to 6) when it is placed, and that face from then on
(docs/rulings.md). The chips are data: a kind of chip added (``draw joker``).

Load it with ``tabletop --plugins variants/house_rules/glux_joker.py`` and
enable it with ``--variant glux-joker`` (``glux-joker:jokers=2``: two a bag).
"""

import attrs

from tabletop import Variant, hookimpl, rulehook


@attrs.frozen
class Joker:
    jokers: int = attrs.field(default=1, metadata={"help": "joker chips in each bag"})

    @rulehook(wrapper=True)
    def glux_chips(self, players):
        return {**(yield), "joker": (1, 2, 3, 4, 5, 6)}  # after the others: a face they show is theirs

    @rulehook(wrapper=True)
    def glux_bag(self, players):
        return {**(yield), "joker": self.jokers}


@hookimpl
def register_variants():
    return [Variant("glux-joker", "glux", "a joker chip in each bag shows the face chosen when placed", Joker)]
