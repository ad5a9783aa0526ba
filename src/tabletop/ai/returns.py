"""What a finished game pays each player, for learning algorithms."""

from __future__ import annotations

from collections.abc import Sequence

from ..model.nodes import Outcome


def returns_of(outcome: Outcome, players: Sequence[str]) -> list[float]:
    """Each player's return: a zero-sum share of the victory. A sole winner
    gets 1 and the others -1/(n-1); a shared victory splits the 1; no
    winner: 0 for all."""
    n = len(players)
    if not outcome.winners:
        return [0.0] * n
    share = 1 / len(outcome.winners)
    return [(n * (share if p in outcome.winners else 0.0) - 1) / (n - 1) for p in players]
