"""The state of a Glüx game: stacks of chips on squares, bags, hands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop.model.memo import EMPTY, Memo
from tabletop.model.memo import recall as recall
from tabletop.model.memo import remember as remember
from tabletop.model.twin import LISTS, LISTS_OR_NONE, evolver, twin

if TYPE_CHECKING:
    from .chips import Chips

#: A chip on the board: (seat of its owner, the face showing).
Chip = tuple[int, int]


@attrs.frozen
class State:
    """Everything about a Glüx game at one moment. Players are seat numbers.

    ``hands`` holds, during setup, the start chip drawn and not yet placed;
    afterwards the hidden hand chip. ``turn`` is None during setup and once
    the game is over; ``drawing`` means the player at ``turn`` has placed and
    draws next.
    """

    stacks: tuple[tuple[Chip, ...], ...]
    #: For each seat, the squares where that seat's chip lies on top.
    tops: tuple[tuple[int, ...], ...]
    #: For each seat, how many chips of each kind are in the bag, in the order
    #: of the kinds in force (``game.chips.kinds``; officially ``KINDS``).
    bags: tuple[tuple[int, ...], ...]
    hands: tuple[str | None, ...]
    started: tuple[bool, ...]
    option_used: tuple[bool, ...]
    excluded: tuple[bool, ...]
    began: bool = False
    turn: int | None = None
    drawing: bool = False
    #: What variants remember (``tabletop.Memo``: public entries and each
    #: player's own); empty under the official rules.
    memo: Memo = EMPTY
    #: The variant's turn step the game is in (``steps.py``), or empty while
    #: in an official one (read from ``began``, ``turn`` and ``drawing``).
    step: str = ""
    #: For each seat, the chips in hand besides ``hands[seat]``, in the order
    #: drawn: a hand of more than one chip (``glux_hand_size``). Empty (``()``)
    #: while nobody holds more than one, as always under the official rules.
    held: tuple[tuple[str, ...], ...] = ()

    #: What only the fast path's mutable state keeps (``Work``): none here, so
    #: that the steps read a state of either kind alike.
    reach: ClassVar[None] = None
    fast: ClassVar[None] = None

    def bag_size(self, seat: int) -> int:
        return sum(self.bags[seat])

    def hand(self, seat: int) -> tuple[str, ...]:
        """Every chip in ``seat``'s hand (``hands[seat]`` first)."""
        return hand_of(self, seat)


@twin(State, tops=LISTS, bags=LISTS, held=LISTS_OR_NONE)
class Work:
    """A state that changes in place: the fields of ``State``, as lists
    (``tabletop.model.twin``; ``held`` is None while nobody holds more than one
    chip).

    Each event's effect is written once, against a ``Work``: the fast path
    keeps one for a whole game; the plain fold thaws the state, applies the
    same effect and freezes the result (``thaw``, ``freeze``). While the fast
    path keeps each seat's reach, ``index`` is the object that keeps it up to
    date as chips are placed (``fast.Fast``); else None."""

    #: Each seat's reach (square -> how many clear counts end there), or None
    #: while nobody asked for a whole list of placements (see ``fast.py``).
    reach: list[dict[int, int]] | None = None
    #: While the reach is kept: the squares holding a chip, one bit each.
    filled: int
    #: While the reach is kept: whether each square has room for a chip (rule 5).
    room: list[bool]
    index: object | None = None
    #: The fast path folding this state (``fast.Fast``), or None on the plain path.
    fast: Any = None
    #: On the fast path, the name of the step the state is in (``steps.step_of``),
    #: worked out once per event.
    at: str

    def bag_size(self, seat: int) -> int:
        return sum(self.bags[seat])

    def hand(self, seat: int) -> tuple[str, ...]:
        """Every chip in ``seat``'s hand (``hands[seat]`` first)."""
        return hand_of(self, seat)

    def give(self, seat: int, kind: str) -> None:
        """A chip of ``kind`` goes into ``seat``'s hand."""
        if self.hands[seat] is None:
            self.hands[seat] = kind
            return
        if self.held is None:
            self.held = [[] for _ in self.hands]
        self.held[seat].append(kind)

    def put_back(self, seat: int, kind: str, chips: Chips) -> None:
        """A chip of ``kind`` goes from ``seat``'s hand back into its bag
        (``chips``: the kinds in force, ``game.chips``, which say where in the bag)."""
        self.take(seat, kind)
        self.bags[seat][chips.index[kind]] += 1

    def take(self, seat: int, kind: str) -> None:
        """A chip of ``kind`` leaves ``seat``'s hand (it must hold one)."""
        held = self.held[seat] if self.held is not None else None
        if self.hands[seat] == kind:
            self.hands[seat] = held.pop(0) if held else None
        elif held is not None and kind in held:
            held.remove(kind)
        else:
            raise ValueError(f"seat {seat} holds no {kind} chip")


def hand_of(state: Any, seat: int) -> tuple[str, ...]:
    """Every chip in ``seat``'s hand, for a ``State`` or a ``Work``."""
    first = state.hands[seat]
    if first is None:
        return ()
    held = state.held
    return (first, *held[seat]) if held and held[seat] else (first,)


def hand_size(state: Any, seat: int) -> int:
    """How many chips ``seat`` holds."""
    if state.hands[seat] is None:
        return 0
    held = state.held
    return 1 + len(held[seat]) if held else 1


#: A mutable copy of a state (no reach kept), and the state equal to a Work.
thaw, freeze = Work.thaw, Work.freeze
#: ``state`` with some fields changed: ``attrs.evolve`` written out for
#: ``State`` (it is called for every event of every replay).
evolve = evolver(State)


def put(values: tuple, index: int, value: object) -> tuple:
    """``values`` with the item at ``index`` replaced."""
    return values[:index] + (value,) + values[index + 1 :]
