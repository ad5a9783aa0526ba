"""What a variant remembers: ``state.memo``.

A rule that needs memory (how often a player did something, a flag set once
per game) keeps it in the game state, so that it is part of every state a
replay passes, compared by ``diff`` and equal on every path. ``state.memo``
is a :class:`tabletop.Memo`: public entries every player sees and entries
kept for one player's eyes (``remember(memo, name, value, player=...)``),
values immutable (numbers, strings, tuples, frozensets); a player's view
carries only the public ones and their own. It is empty under the official
rules.

A variant updates its entry either where it applies its own events
(``glux_apply``), or after any event by wrapping ``glux_memo``::

    @rulehook(wrapper=True)
    def glux_memo(self, game, state, event, memo):
        memo = yield
        if event.kind == "place":
            covers = recall(state, "my-variant", 0)
            memo = remember(memo, "my-variant", covers + 1)
        return memo

``recall(state, name, default, player=None)`` reads an entry;
``remember(memo, name, value, player=None)`` returns the memo with one
entry set.
"""

from __future__ import annotations

from typing import Any

from tabletop import Event, Memo, rulehook

from .state import recall, remember

__all__ = ["glux_memo", "recall", "remember"]


@rulehook
def glux_memo(game: Any, state: Any, event: Event, memo: Memo) -> Memo:
    # The official rules remember nothing beyond the state itself.
    return memo
