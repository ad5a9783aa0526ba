"""glux-big-deal, for the AI adapters' tests: each player is dealt 6 of 12 secret goals
before setup (924 hands, more chance outcomes than Glüx's own)."""

from typing import ClassVar

import attrs

from tabletop import Deal, Variant, hookimpl, rulehook

GOALS = tuple("abcdefghijkl")


@attrs.frozen
class Goals(Deal):
    kind: ClassVar[str] = "goals"


class BigDeal:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        return Goals.first((yield), GOALS, 6)


@hookimpl
def register_variants():
    return [Variant("glux-big-deal", "glux", "6 of 12 secret goals each", BigDeal(), (Goals,))]
