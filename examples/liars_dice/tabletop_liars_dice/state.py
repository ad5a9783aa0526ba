"""The state of a game of Liar's Dice, and its mutable twin.

A :class:`State` is a value: the engine keeps any state it passed, so
``apply`` never changes one. The steps of the turn (``steps.py``) are
written once, against a :class:`Work`, the same fields held mutably; the
core derives it, :func:`thaw` and :func:`freeze` from the state's fields.
"""

from __future__ import annotations

import attrs

from tabletop import Hidden
from tabletop.model.twin import twin

from .events import Bid

#: The steps of the turn, by name (see ``steps.py``).
ROLL, BID, OVER = "roll", "bid", "over"

Dice = tuple[int | Hidden, ...]


@attrs.frozen
class State:
    #: Each seat's dice, lowest first (in a view, others' are ``Hidden("die")``
    #: until the call lifts the cups).
    dice: tuple[Dice, ...]
    #: The step the game is in: ``roll``, ``bid`` or ``over``.
    phase: str = ROLL
    #: The seat whose bid it is.
    turn: int = 0
    #: The last bid, None before the first.
    bid: Bid | None = None
    #: Who called liar, once someone has.
    caller: str | None = None


@twin(State)
class Work:
    """A :class:`State`'s fields, mutable: what a step's ``apply`` changes
    (made by ``tabletop.model.twin``; ``dice`` is a list)."""

    #: The step the Work is in, kept by the core's fast path (``tabletop.TurnFast``).
    at: str


thaw, freeze = Work.thaw, Work.freeze
