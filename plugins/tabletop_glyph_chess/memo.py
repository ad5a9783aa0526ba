"""What a variant remembers: ``state.memo``, updated as each event takes
effect (``glyph_memo``), after Glüx's design.

A rule that needs memory (how many turns were played, who cast a spell last
turn) keeps it in the state, so that it is part of every state a replay
passes, compared by ``diff`` and equal on every path. A variant updates its
entry either where it changes the state itself (a step's effect, a hook such
as ``glyph_strike``: ``remember(work, ...)``), or at any event by wrapping
``glyph_memo``, asked before each event's effect with the state before it::

    @rulehook(wrapper=True)
    def glyph_memo(self, game, state, event, memo):
        memo = yield
        if game.turn_ends(event):  # the action of the player at turn
            memo = remember(memo, "turns", recall(state, "turns", 0) + 1)
        return memo

The asking is written once, around every step's effect (:func:`remembering`),
on the Work both paths change: the plain fold and the fast path remember
alike, and a variant keeping memory keeps the fast path. While no variant
implements the hook, the table of steps is the official one, untouched: the
official rule remembers nothing and is never asked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from tabletop import Event, Memo, TurnStep, rulehook

Effect = Callable[[Any, Any, Event], None]


@rulehook
def glyph_memo(game: Any, state: Any, event: Event, memo: Memo) -> Memo:
    # The official rules remember nothing beyond the state itself.
    return memo


def remembering(table: Mapping[str, TurnStep], rules: Any) -> Mapping[str, TurnStep]:
    """The table of steps with ``glyph_memo`` asked before each step's
    effect, on the Work; the table itself while the official rule alone is
    in force."""
    if rules.official("glyph_memo"):
        return table
    memo = rules.glyph_memo

    def remembered(effect: Effect) -> Effect:
        @functools.wraps(effect)
        def apply(game: Any, work: Any, event: Event) -> None:
            work.memo = memo(game=game, state=work, event=event, memo=work.memo)
            effect(game, work, event)

        return apply

    return {
        name: attrs.evolve(step, apply=remembered(step.apply)) if step.apply else step for name, step in table.items()
    }
