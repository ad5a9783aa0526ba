"""What a variant remembers: ``state.memo``.

A rule that needs memory (how often a player did something, a flag set once
per game) keeps it in the game state, so that it is part of every state a
replay passes, compared by ``diff`` and equal on every path. ``state.memo``
is a :class:`tabletop.Memo`: public entries every player sees and entries
kept for one player's eyes (``remember(memo, name, value, player=...)``),
values immutable (numbers, strings, tuples, frozensets); a player's view
carries only the public ones and their own. It is empty under the official
rules.

A variant updates its entry either where it applies its own events (a
step's effect, or ``glux_apply``), or at any event by wrapping
``glux_memo``, which is asked as each event takes effect, before the
effect, with the state before it::

    @rulehook(wrapper=True)
    def glux_memo(self, game, state, event, memo):
        memo = yield
        if event.kind == "place":
            covers = recall(state, "my-variant", 0)
            memo = remember(memo, "my-variant", covers + 1)
        return memo

The asking is written once, against the mutable state both paths change
(:func:`remembering` puts it before every step's effect): the plain fold
and the fast path remember alike, and a variant keeping memory keeps the
fast path. ``recall(state, name, default, player=None)`` reads an entry;
``remember(memo, name, value, player=None)`` returns the memo with one
entry set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from tabletop import Event, Memo, TurnStep, rulehook

from .state import recall, remember

__all__ = ["glux_memo", "recall", "remember", "remembered", "remembering"]

Effect = Callable[[Any, Any, Event], None]


@rulehook
def glux_memo(game: Any, state: Any, event: Event, memo: Memo) -> Memo:
    # The official rules remember nothing beyond the state itself.
    return memo


def remembered(game: Any, state: Any, event: Event) -> Memo:
    """The variants' memory as ``event`` takes effect on ``state`` (a
    ``State`` or the mutable state): ``glux_memo``'s answer."""
    return game.rules.glux_memo(game=game, state=state, event=event, memo=state.memo)


def remembering(table: Mapping[str, TurnStep], rules: Any) -> Mapping[str, TurnStep]:
    """The table of steps with ``glux_memo`` asked before each step's effect,
    on the mutable state; the table itself while the official rule alone is
    in force (it remembers nothing), so that the official turn stays one
    object, made once."""
    if rules.official("glux_memo"):
        return table
    return {
        name: attrs.evolve(step, apply=_remembering(step.apply)) if step.apply else step for name, step in table.items()
    }


def _remembering(effect: Effect) -> Effect:
    def apply(game: Any, work: Any, event: Event) -> None:
        work.memo = remembered(game, work, event)
        effect(game, work, event)

    return apply
