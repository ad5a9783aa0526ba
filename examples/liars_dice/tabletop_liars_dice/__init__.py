"""Liar's Dice, the template game of docs/writing-a-game.md: what a house
rule may import."""

from .events import Bid, Liar, Roll
from .game import LiarsDice
from .state import State

__all__ = ["Bid", "Liar", "LiarsDice", "Roll", "State"]
