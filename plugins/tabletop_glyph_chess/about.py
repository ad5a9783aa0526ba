"""Glyph Chess as ``tabletop games`` lists it, read without importing the
game, and where the game is: the ``tabletop.games`` entry point, all the
core needs to register it (see :mod:`tabletop.host.abouts`). The game class
is made from it (``class GlyphChess(Game, about=about)``), so each is
written once."""

TITLE = "Glyph Chess"
DESCRIPTION = "wizards on a hex board; spells paid in coins and shared dice; reach the centre"
PLAYERS = (2, 3)
OPTIONS = {
    "radius": "spots from the centre to an edge (default 6: 7 spots an edge)",
    "position": "a JSON file with a position to start from (pieces, dice, coins)",
}
#: The game, its bots and its pictures, each imported when first needed.
GAME = "tabletop_glyph_chess.game:GlyphChess"
BOTS = "tabletop_glyph_chess.bots:BOTS"
PICTURES = {"svg": "tabletop_glyph_chess.picture"}
#: The ``tabletop`` entry points that serve Glyph Chess alone: a log of another game loads none of them.
PLUGINS = ("glyph-chess-numbering", "glyph-advanced-setup")
