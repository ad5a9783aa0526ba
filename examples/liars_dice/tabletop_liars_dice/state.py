"""The state of a game of Liar's Dice, and its mutable twin.

A :class:`State` is a value: the engine keeps any state it passed, so
``apply`` never changes one. The steps of the turn (``steps.py``) are
written once, against a :class:`Work`, the same fields held mutably;
:func:`thaw` and :func:`freeze` go between the two.
"""

from __future__ import annotations

import attrs

from tabletop import Hidden

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


@attrs.define
class Work:
    """A :class:`State`'s fields, mutable: what a step's ``apply`` changes."""

    dice: list[Dice]
    phase: str
    turn: int
    bid: Bid | None
    caller: str | None


def thaw(state: State) -> Work:
    return Work(list(state.dice), state.phase, state.turn, state.bid, state.caller)


def freeze(work: Work) -> State:
    return State(tuple(work.dice), work.phase, work.turn, work.bid, work.caller)
