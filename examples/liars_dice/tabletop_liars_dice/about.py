"""What ``tabletop games`` says of Liar's Dice, read without importing the
game (the ``tabletop.games`` entry point of an installed package). The game
class is made from it (``class LiarsDice(Game, about=about)``), so it is
written once."""

from tabletop.model.options import Number

TITLE = "Liar's Dice"
DESCRIPTION = "roll dice under a cup, bid on every die at the table, call liar"
PLAYERS = (2, 4)
#: Bounds small enough that a game is quick to set up: a value outside them is refused in one line.
OPTIONS = {
    "dice": Number("dice each player rolls, as OpenSpiel", 1, 5, default=1),
    "sides": Number("faces of a die", 2, 9, default=6),
}
#: The ``tabletop`` entry points that serve Liar's Dice alone.
PLUGINS = ("liars-dice",)
