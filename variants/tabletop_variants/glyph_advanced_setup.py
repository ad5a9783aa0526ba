"""glyph-advanced-setup: each player secretly chooses the order of scepter and
glyph pieces on their edge (the scepter need not be central); all choices are
revealed together.

In the log each choice is sealed (a commitment) until every player has
chosen, so a later chooser, even reading the log, cannot see an earlier one;
then all are revealed and checked against their commitments.
"""

from __future__ import annotations

from tabletop import Variant, hookimpl, rulehook


class AdvancedSetup:
    @rulehook
    def glyph_secret_setup(self, players: int) -> bool:
        return True


@hookimpl
def register_variants():
    return [
        Variant(
            name="glyph-advanced-setup",
            game="glyph-chess",
            description="each player secretly arranges their own edge; revealed together",
            rules=AdvancedSetup(),
        )
    ]
