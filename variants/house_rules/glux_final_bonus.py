"""glux-final-bonus: at the end, whoever has the most chips on top of a stack (all of
them, when tied) scores a bonus of 3 victory points (``glux_final_scores``, the final
score as a whole).

Load it with ``tabletop --plugins variants/house_rules/glux_final_bonus.py``
and enable it with ``--variant glux-final-bonus`` (or ``glux-final-bonus:bonus=5``).
"""

import attrs

from tabletop import Variant, hookimpl, rulehook


@attrs.frozen
class FinalBonus:
    bonus: int = attrs.field(default=3, metadata={"help": "VP for the most chips on top"})

    @rulehook(wrapper=True)
    def glux_final_scores(self, game, state, scores):
        scores = dict((yield))
        chips = {player: len(state.tops[game.seats[player]]) for player in scores}
        most = max(chips.values())
        return {player: vp + self.bonus * (chips[player] == most) for player, vp in scores.items()}


@hookimpl
def register_variants():
    return [Variant("glux-final-bonus", "glux", "the most chips on top scores a bonus", FinalBonus)]
