"""glyph-hand-limit: players draw up to a hand of ``limit`` coins (5 in the rule book).

Load it with ``tabletop --plugins variants/house_rules/glyph_hand_limit.py``
and enable it with ``--variant glyph-hand-limit:limit=7``.
"""

import attrs

from tabletop import Variant, hookimpl, rulehook


@attrs.frozen
class HandLimit:
    limit: int = 5

    @rulehook
    def glyph_hand_limit(self, players):
        return self.limit


@hookimpl
def register_variants():
    return [Variant("glyph-hand-limit", "glyph-chess", "draw up to a hand of LIMIT coins", HandLimit)]
