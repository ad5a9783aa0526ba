"""Liar's Dice's rule hooks: where a house rule may change the rules.

Each is a header-time parameter: asked once, when a game is made from its
header (``game.py``), never per move. The official rule answers last
(``official.py``); a variant's answer other than None comes first.
``game`` is the :class:`~tabletop_liars_dice.game.LiarsDice` being made,
with ``players``, ``sides`` (faces of a die) and, once the dice are known,
``total`` (every die at the table).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabletop import header_rule

if TYPE_CHECKING:
    from tabletop import TurnStep

Game = Any  # the LiarsDice being made


# -- the roll ---------------------------------------------------------------------
@header_rule
def liars_dice_dice(game: Game, seat: int) -> int | None:
    """How many dice ``seat`` rolls. Official: the game's ``dice`` option
    (1 unless given, as in OpenSpiel's ``liars_dice``).

    Example::

        class Handicap:
            @rulehook
            def liars_dice_dice(self, game, seat):
                return 1 if seat == 0 else 2
    """


# -- the bids ---------------------------------------------------------------------
@header_rule
def liars_dice_bids(game: Game) -> Sequence[tuple[int, int]] | None:
    """Every bid as ``(count, face)``, lowest first: a bid must come later
    in this order than the last one. Official: by count, then by face
    (OpenSpiel's ``reset-face``: 1x1, 1x2, ... 1x6, 2x1, ...).

    Example::

        class ResetQuantity:
            @rulehook(wrapper=True)
            def liars_dice_bids(self, game):
                bids = yield
                return sorted(bids, key=lambda bid: (bid[1], bid[0]))
    """


# -- the call ---------------------------------------------------------------------
@header_rule
def liars_dice_wild(game: Game) -> int | None:
    """The face that counts as every face when the cups are lifted, or 0
    for none. Official: the highest face (OpenSpiel's rule).

    Example::

        class NothingWild:
            @rulehook
            def liars_dice_wild(self, game):
                return 0
    """


# -- the turn ---------------------------------------------------------------------
@header_rule
def liars_dice_turn_steps(players: int) -> Mapping[str, TurnStep] | None:
    """The steps of the game, by name (``roll``, ``bid``, ``over``; see
    ``steps.py``): a variant may add a step, or a decision to one with
    ``TurnStep.adding``."""
