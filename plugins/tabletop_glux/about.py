"""Glüx as ``tabletop games`` lists it, read without importing the game,
and where the game is: the ``tabletop.games`` entry point, all the core
needs to register it (see :mod:`tabletop.host.abouts`). The game class is
made from it (``class Glux(Game, about=about)``), so each is written once."""

TITLE = "Glüx"
DESCRIPTION = "place light chips by counting squares; rooms are scored by majority"
PLAYERS = (2, 4)
OPTIONS = {"board": "a built-in board (two-players, three-four-players) or a board file"}
#: The game, its bots and its pictures, each imported when first needed.
GAME = "tabletop_glux.game:Glux"
BOTS = "tabletop_glux.bots:BOTS"
PICTURES = {"svg": "tabletop_glux.picture"}
#: The ``tabletop`` entry points that serve Glüx alone: a log of another game loads none of them.
PLUGINS = ("glux-numbering", "glux-second-place-2p")
