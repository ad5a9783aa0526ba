"""What the core itself registers, through the same hooks as any plugin."""

from __future__ import annotations

from typing import Any

from .extensions import Bot
from .mcts import DEFAULT
from .plugins import hookimpl


def random_choice(*args: Any) -> Any:
    """:func:`tabletop.live.random_choice`, imported when a random bot first plays
    (not by every command that loads the plugins)."""
    from .live import random_choice

    return random_choice(*args)


@hookimpl
def register_bots() -> list[Bot]:
    return [
        Bot("random", "plays any legal decision, chosen uniformly at random", random_choice, reads_state=False),
        Bot("mcts", "searches the game tree from its own view (information-set MCTS)", DEFAULT),
    ]
