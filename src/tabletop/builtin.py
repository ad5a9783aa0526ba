"""What the core itself registers, through the same hooks as any plugin."""

from __future__ import annotations

from .extensions import Bot
from .live import random_choice
from .mcts import DEFAULT
from .plugins import hookimpl


@hookimpl
def register_bots() -> list[Bot]:
    return [
        Bot("random", "plays any legal decision, chosen uniformly at random", random_choice, reads_state=False),
        Bot("mcts", "searches the game tree from its own view (information-set MCTS)", DEFAULT),
    ]
