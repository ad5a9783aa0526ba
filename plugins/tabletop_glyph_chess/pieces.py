"""The pieces, the glyph types, and the colours of the seats."""

from __future__ import annotations

SCEPTER = "K"
MINION = "M"
SEERESS, ILLUSIONIST, ELEMENTALIST, FORCE_MAGE, NECROMANCER, SUMMONER = "S", "I", "E", "F", "N", "U"
#: The six glyph types: a glyph piece, its coins and a face of each die.
GLYPHS = (SEERESS, ILLUSIONIST, ELEMENTALIST, FORCE_MAGE, NECROMANCER, SUMMONER)
NAMES = {
    SCEPTER: "scepter",
    SEERESS: "seeress",
    ILLUSIONIST: "illusionist",
    ELEMENTALIST: "elementalist",
    FORCE_MAGE: "force mage",
    NECROMANCER: "necromancer",
    SUMMONER: "summoner",
    MINION: "minion",
}
COLOURS = ("gold", "silver", "bronze")
#: Coins per player: 2 of each glyph type.
COINS_PER_TYPE = 2
HAND_LIMIT = 5
DICE = 5
#: The most dice a game may share (``glyph_dice``): a die is written D1 to D9.
MOST_DICE = 9
MINIONS = 3


def a_coin(glyph: str) -> str:
    """``"an E coin"``, ``"a U coin"``: the article as the letter is said."""
    return f"{'an' if glyph in 'SIEFNAHLMORX' else 'a'} {glyph} coin"
