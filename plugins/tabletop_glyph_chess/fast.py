"""The fast path: the same rules on one mutable :class:`~tabletop_glyph_chess.state.Work`
for a whole game (validating a log, self-play), with no state frozen between
events.

The rules are written once, against a Work; the plain path thaws a state,
carries out one event and freezes the result, and this path keeps the Work.
What the fast path adds:

- the legal actions as a lazy sequence (:class:`~tabletop_glyph_chess.actions.Actions`, the listing of every path): the actions are
  found and each one's ways to pay are counted, but an event is built only
  when it is asked for, so a bot's uniform choice builds one;
- the ways to pay remembered across listings and games by what they depend
  on (the listing itself is the one of the plain path,
  :func:`~tabletop_glyph_chess.actions.families`, whatever the variants);
- (for both paths) the 720 orders of a player's glyph cards looked up by
  dict (:class:`IndexedChance`) instead of compared one by one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop import Chance, Event, TurnFast

from .context import WAYS
from .state import State, Work, freeze

if TYPE_CHECKING:
    from .game import GlyphChess


class IndexedChance(Chance):
    """A chance node with many equally likely outcomes, which tells whether an
    event is one of them by a dict look-up. It equals the plain
    :class:`~tabletop.Chance` with the same outcomes."""

    __slots__ = ("_index",)

    def __init__(self, outcomes: tuple[Event, ...]) -> None:
        super().__init__(outcomes)
        object.__setattr__(self, "_index", frozenset(outcomes))

    def allows(self, event: Event) -> bool:
        try:
            return event in self._index
        except TypeError:  # an event that cannot be hashed is no outcome
            return False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chance):
            return NotImplemented
        return self.outcomes == other.outcomes and self.weights == other.weights

    __hash__ = Chance.__hash__


class Fast(TurnFast):
    """Glyph Chess's fast path: the core's turn (``tabletop.TurnFast``), with
    the node of the Work now kept until the next event (the engine and a bot
    ask for it again and again; the action step's asks whether the player
    can act, and the listing that follows reuses what it found)."""

    def __init__(self, game: GlyphChess) -> None:
        super().__init__(game, game.turn)
        self.ways = WAYS
        #: The node of the Work now: (the Work, the node), forgotten at every event.
        self._node: tuple[Work, Any] | None = None
        fold, asked = self.apply, self.next

        def next(live: Work) -> Any:
            known = self._node
            if known is not None and known[0] is live:
                return known[1]
            node = asked(live)
            self._node = (live, node)
            return node

        def apply(live: Work, event: Event) -> None:
            self._node = None
            fold(live, event)
            live.listed = None  # a listing context made before or on the way read another state

        # The turn's listing (guarded) asks this ``next``, and so the node kept.
        self.next, self.apply = next, apply

    def thaw(self, state: State) -> Work:
        self._node = None
        return super().thaw(state)

    def state(self, live: Work) -> State:
        """The immutable state (as :meth:`freeze`)."""
        return freeze(live)
