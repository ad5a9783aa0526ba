"""An answer of a rule hook that Glüx cannot use: one line naming the variant.

A variant's answer of the right type may still make no game (a seat that
does not exist, a direction that goes nowhere, no winner at all). Each is
looked at where Glüx takes it: a header-time rule once when the game is
made, a per-game one on the final state, a per-move one only where a
variant answers it, where the answer is taken. The official rules are
trusted and never looked at per move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tabletop import PluginError
from tabletop.base.errors import describe

#: The items of an answer shown in the one line (the rest are "…").
SHOWN = 6


def refuse(rules: Any, hook: str, problem: str) -> PluginError:
    """The error for an answer of ``hook`` the game cannot use, naming the
    variant that gave it when the ``rules`` in force can say (``Rules.refuse``)."""
    refusing = getattr(rules, "refuse", None)
    return refusing(hook, problem) if refusing is not None else PluginError(f"{hook} {problem}")


def shown(answer: Any, depth: int = 0) -> str:
    """An answer as the one line shows it: a tuple's first items, each short."""
    if isinstance(answer, (tuple, list)) and depth < 2:
        items = [shown(item, depth + 1) for item in answer[:SHOWN]]
        if len(answer) > SHOWN:
            items.append("…")
        return "(" + ", ".join(items) + ("," if len(answer) == 1 else "") + ")"
    return describe(answer)


def players_problem(answer: Sequence[Any], players: Iterable[str], among: str) -> str | None:
    """What is wrong with ``answer`` as some of ``players`` (none, one not
    among them, one twice), or None; ``among`` says who they must be."""
    allowed = set(players)
    if not answer:
        return f"gave no player: one or more of {among} are needed, each once"
    if any(player not in allowed for player in answer) or len(set(answer)) != len(answer):
        return f"gave {shown(answer)}: one or more of {among} are needed, each once"
    return None
