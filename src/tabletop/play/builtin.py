"""What the core itself registers, through the same hooks as any plugin."""

from __future__ import annotations

from ..host.extensions import Bot
from ..host.plugins import hookimpl


@hookimpl
def register_bots() -> list[Bot]:
    # Imported when the bots are first asked for, not by every command that loads the plugins.
    from .live import random_choice
    from .mcts import DEFAULT

    return [
        Bot("random", "plays any legal decision, chosen uniformly at random", random_choice, reads_state=False),
        Bot("mcts", "searches the game tree from its own view (information-set MCTS)", DEFAULT),
    ]
