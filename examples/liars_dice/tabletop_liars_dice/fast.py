"""The fast path: the same table of steps run on the mutable twin of the
state (``state.Work``), so that self-play and folding a whole log build no
state per event. Every answer is the plain rules' own: both call the steps
of ``steps.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop import Event

from .state import State, Work, freeze, thaw

if TYPE_CHECKING:
    from .game import LiarsDice


class Fast:
    def __init__(self, game: LiarsDice) -> None:
        self.game, self.table = game, game.steps

    def thaw(self, state: State) -> Work:
        return thaw(state)

    def freeze(self, live: Work) -> State:
        return freeze(live)

    def next(self, live: Work):
        return self.table.next(self.game, live)

    def check(self, live: Work, decision: Event) -> str | None:
        return self.table.check(self.game, live, decision)

    def legal(self, live: Work, player: str) -> Sequence[Event]:
        return self.table.legal(self.game, live, player)

    def apply(self, live: Work, event: Event) -> None:
        if not self.table.apply(self.game, live, event):
            raise TypeError(f"not an event of this step: {event!r}")
