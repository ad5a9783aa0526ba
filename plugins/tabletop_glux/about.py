"""What ``tabletop games`` says of Glüx, read without importing the game
(the ``tabletop.games`` entry point; see :mod:`tabletop.host.installed`). A test
holds these to the game class's own."""

TITLE = "Glüx"
DESCRIPTION = "place light chips by counting squares; rooms are scored by majority"
PLAYERS = (2, 4)
OPTIONS = {"board": "a built-in board (two-players, three-four-players) or a board file"}
#: The ``tabletop`` entry points that serve Glüx alone: a log of another game loads none of them.
PLUGINS = ("glux", "glux-numbering", "glux-second-place-2p")
