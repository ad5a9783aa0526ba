"""glux-second-place-2p: second place scores 2 VP in a 2-player game too.

Rulebook 000 of Glüx omits the line "in a game with two players, victory
points are awarded for the first position only"; groups who learned from it
play with second place in every game. This variant restores that reading.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop import Variant, hookimpl, rulehook
from tabletop_glux import rank_room


class SecondPlaceInTwoPlayerGames:
    @rulehook
    def glux_score_room(self, room: str, pips: Mapping[str, int], players: int) -> Mapping[str, int]:
        return rank_room(pips, second_place=True)


@hookimpl
def register_variants():
    return [
        Variant(
            name="glux-second-place-2p",
            game="glux",
            description="2-player games award 2 VP for second place in a room (rulebook 000)",
            rules=SecondPlaceInTwoPlayerGames(),
        )
    ]
