"""What ``tabletop games`` says of Liar's Dice, read without importing the
game (the ``tabletop.games`` entry point of an installed package). The game
class reads the same constants, so they are written once."""

TITLE = "Liar's Dice"
DESCRIPTION = "roll dice under a cup, bid on every die at the table, call liar"
PLAYERS = (2, 4)
OPTIONS = {
    "dice": "dice each player rolls (default 1, as OpenSpiel; 1 to 5)",
    "sides": "faces of a die (default 6; 2 to 9)",
}
#: The ``tabletop`` entry points that serve Liar's Dice alone.
PLUGINS = ("liars-dice", "liars-dice-numbering")
