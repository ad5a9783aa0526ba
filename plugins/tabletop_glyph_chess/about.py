"""What ``tabletop games`` says of Glyph Chess, read without importing the
game (the ``tabletop.games`` entry point; see :mod:`tabletop.host.installed`). A
test holds these to the game class's own."""

TITLE = "Glyph Chess"
DESCRIPTION = "wizards on a hex board; spells paid in coins and shared dice; reach the centre"
PLAYERS = (2, 3)
OPTIONS = {
    "radius": "spots from the centre to an edge (default 6: 7 spots an edge)",
    "position": "a JSON file with a position to start from (pieces, dice, coins)",
}
#: The ``tabletop`` entry points that serve Glyph Chess alone: a log of another game loads none of them.
PLUGINS = ("glyph-chess", "glyph-chess-numbering", "glyph-advanced-setup")
