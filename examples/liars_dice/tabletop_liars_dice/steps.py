"""The steps of a game as a table of core ``TurnStep``s: for each, the node
it offers, the events it takes and what they do, the check, the listing and
what follows. The rule hook ``liars_dice_turn_steps`` gives the table in
force; the plain rules and the fast path both run it (``game.py``,
``fast.py``).

=====  ==================================  ===========================
step   offers                              follows
=====  ==================================  ===========================
roll   the next die of the next roller     bid, once every die is rolled
bid    the bids of the seat at turn, and   over, once liar is called
       liar once there is a bid
over   nothing                             -
=====  ==================================  ===========================
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop import Over, TurnStep, rulehook

from . import bidding, roll
from .events import Bid, Liar, Roll
from .state import BID, OVER, ROLL

STEPS: dict[str, TurnStep] = {
    ROLL: TurnStep(ROLL, roll.node, (Roll,), roll.roll, roll.rolled),
    BID: TurnStep(
        BID,
        bidding.node,
        (Bid, Liar),
        bidding.apply,
        bidding.called,
        bidding.check,
        bidding.legal,
        bidding.asks,
    ),
    OVER: TurnStep(OVER, lambda game, state: Over()),
}


@rulehook
def liars_dice_turn_steps(players: int) -> Mapping[str, TurnStep]:
    return STEPS
