"""The state of a Glyph Chess game, frozen (:class:`State`) and at work (:class:`Work`).

Players are seat numbers (0 gold, 1 silver, 2 bronze). Spots are indices of
the :class:`~tabletop_glyph_chess.hexes.HexBoard`. Coins are counted per glyph
type, in ``GLYPHS`` order.

The rules carry out an event on a :class:`Work`, a mutable copy with the same
fields (lists where the state has tuples), and the plain path freezes it
again: one new state per event. The fast path keeps one ``Work`` for a whole
game. Everything that only reads (listing, checking, the rule hooks that
answer questions) works on either.

A variant that needs memory keeps it in ``memo``: read it with
:func:`recall`, change it (on a ``Work``, in a hook that changes the state,
or on the memo ``glyph_memo`` is told, as each event takes effect) with
:func:`remember`. Values must be immutable (numbers, strings, tuples).
"""

from __future__ import annotations

from typing import Any

import attrs

from tabletop.model import memo as memory
from tabletop.model.memo import EMPTY, Memo
from tabletop.model.memo import recall as recall
from tabletop.model.twin import LISTS, evolver, twin

from .pieces import GLYPHS

#: A piece on the board: (seat of its owner, its letter).
Piece = tuple[int, str]
Counts = tuple[int, ...]

ALIVE, KILLED, BURNT = "alive", "killed", "burnt"

# The phases of a turn (and of setup) that wait for an event.
SETUP = "setup"  # shuffles or arrangements, then the first rolls and draws
AWAKEN = "awaken"  # may re-roll dice showing dead types
ROLLING = "rolling"  # dice in ``rolling`` are being rolled
DRAW = "draw"  # draws a coin
ACT = "act"  # one move or one spell
ESCAPE = "escape"  # a necromancer's owner decides whether to escape
GLIMPSE = "glimpse"  # the seeress looks (a rules event)
DISCARD = "discard"  # the seeress's caster picks coins to discard
OVER = "over"


@attrs.frozen
class Step:
    """One landing of a piece, which may attack: from ``source`` onto ``target``.

    ``burn`` when the piece incinerates (the elementalist) instead of killing.
    """

    source: int
    target: int
    burn: bool = False


@attrs.frozen
class State:
    board: tuple[Piece | None, ...]
    #: For each seat, each glyph piece's fate: alive, killed (revivable) or burnt.
    #: The illusionist is killed only when both its pieces are off the board.
    fates: tuple[tuple[str, ...], ...]
    hands: tuple[Counts, ...]
    bags: tuple[Counts, ...]
    used: tuple[Counts, ...]
    dice: tuple[str | None, ...]
    eliminated: tuple[bool, ...]
    phase: str = SETUP
    turn: int = 0
    #: Dice still to roll in this phase, in order, and the phase after them
    #: (``"turn"``: the next player's turn begins).
    rolling: tuple[int, ...] = ()
    then: str = ""
    #: Dice spent this turn: re-rolled in the reset step.
    spent: tuple[int, ...] = ()
    #: Landings still to happen in the action being resolved.
    steps: tuple[Step, ...] = ()
    #: The player the seeress looks at, while her spell is resolved.
    target: int | None = None
    #: Setup: which seats have their pieces on the board.
    placed: tuple[bool, ...] = ()
    #: Coins still to draw, per seat, before the player at turn awakens: in
    #: setup, the starting coins; after a turn, what a variant's
    #: ``glyph_turn_end`` owes (the draw step draws them, then the awakening).
    owed: tuple[int, ...] = ()
    winner: int | None = None
    #: What variants remember (``tabletop.Memo``: public entries and each
    #: player's own); empty under the official rules.
    memo: Memo = EMPTY

    def wild(self, seat: int) -> set[str]:
        """The seat's coin types that are wild: those of its dead glyph pieces."""
        return {g for g, fate in zip(GLYPHS, self.fates[seat]) if fate != ALIVE}

    def players_left(self) -> list[int]:
        return [s for s, out in enumerate(self.eliminated) if not out]


#: ``state`` with the fields given changed: ``attrs.evolve`` written out for
#: ``State`` (replay calls it several times an event).
evolve = evolver(State)


def put(values: tuple, index: int, value: object) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def add(counts: Counts, glyph: str, n: int) -> Counts:
    i = GLYPHS.index(glyph)
    return put(counts, i, counts[i] + n)


def coins_list(counts: Counts) -> tuple[str, ...]:
    return tuple(g for g, n in zip(GLYPHS, counts) for _ in range(n))


@twin(State, fates=LISTS, hands=LISTS, bags=LISTS, used=LISTS)
class Work:
    """A state being changed: the fields of :class:`State`, with lists for
    tuples (``fates``, ``hands``, ``bags`` and ``used`` are lists of lists);
    ``memo`` is the same immutable value, replaced when a variant remembers
    (``tabletop.model.twin``)."""

    #: No part of the state: the listing context the action step's node
    #: made for this Work (whether the player can act), which the listing
    #: that follows reuses; whoever changes the Work sets it to None first
    #: (the fast path at every event), and :func:`thaw` starts without.
    listed: Any = None

    wild = State.wild
    players_left = State.players_left

    def move_coin(self, seat: int, glyph: str, source: str, target: str) -> None:
        """Move one of ``seat``'s ``glyph`` coins from one of its places to
        another: ``"bags"``, ``"hands"`` or ``"used"`` (a variant's action
        that moves coins; the game's own rules write their counts directly)."""
        i = GLYPHS.index(glyph)
        getattr(self, source)[seat][i] -= 1
        getattr(self, target)[seat][i] += 1

    #: The step the Work is in (its phase), kept by the core's fast path
    #: (``tabletop.TurnFast``) for the engine's fast loops.
    at: str


#: A mutable copy of a state, and the state a Work has reached.
thaw, freeze = Work.thaw, Work.freeze


def remember(work: Work | Memo, name: str, value: object, *, player: str | None = None) -> Memo:
    """Keep ``value`` (immutable) under the variant's ``name`` in the state
    being changed, for everyone or for ``player``'s eyes only, and return the
    memo that holds it; given a memo itself (what ``glyph_memo`` is told and
    answers), only return the memo with the entry set."""
    if isinstance(work, Memo):
        return memory.remember(work, name, value, player=player)
    memo = work.memo = memory.remember(work.memo, name, value, player=player)
    return memo
