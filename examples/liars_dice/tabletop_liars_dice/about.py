"""Liar's Dice as ``tabletop games`` lists it, and where the game is: all
tabletop needs to register the game, installed (the ``tabletop.games``
entry point) or in a folder given to ``--plugins``. The game class is made
from it (``class LiarsDice(Game, about=about)``), so each is written once."""

from tabletop.model.options import Number

TITLE = "Liar's Dice"
DESCRIPTION = "roll dice under a cup, bid on every die at the table, call liar"
PLAYERS = (2, 4)
#: Bounds small enough that a game is quick to set up: a value outside them is refused in one line.
OPTIONS = {
    "dice": Number("dice each player rolls, as OpenSpiel", 1, 5, default=1),
    "sides": Number("faces of a die", 2, 9, default=6),
}
#: The game and its bots, each imported when first needed: with these, this
#: module is all tabletop needs to register the game.
GAME = "tabletop_liars_dice.game:LiarsDice"
BOTS = "tabletop_liars_dice.bots:BOTS"
