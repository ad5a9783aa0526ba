"""Games played at a real table: chance outcomes entered by hand.

A log whose header has ``"randomness": {}`` has no seed: its chance outcomes
happen at the table (a chip drawn from a real bag, a real die rolled) and are
recorded as they happen. Each is written in the game's notation for chance
outcomes (:meth:`Game.notate_outcome`, e.g. ``draw 2/5``) or as the game
describes it (``ann draws 2/5``, or without the player's name, ``draws 2/5``),
and must be one of the outcomes the rules allow at that point.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.errors import NotationError, UsageError
from ..log.header import Header
from ..model.events import Event
from ..model.nodes import Chance
from .engine import Match


def at_the_table(header: Header) -> bool:
    """Whether the log's chance outcomes are entered by hand (no seed, not sealed)."""
    randomness = header.randomness
    return randomness.seed is None and not randomness.sealed


def possible(match: Match) -> list[Event]:
    """The chance outcomes the rules allow now (none unless a chance outcome is due)."""
    node = match.node
    if not isinstance(node, Chance):
        return []
    weights = node.weights or (1,) * len(node.outcomes)
    return [o for o, w in zip(node.outcomes, weights) if w > 0]


def notation(match: Match, outcome: Event) -> str:
    """How a chance outcome is written: the game's notation for it, else its description."""
    written = match.game.notate_outcome(outcome)
    return written if written is not None else match.game.format(outcome)


def _names(match: Match, outcome: Event) -> set[str]:
    names = {notation(match, outcome), match.game.format(outcome)}
    player = getattr(outcome, "player", None)
    for name in list(names):
        if player and name.startswith(player + " "):
            names.add(name[len(player) + 1 :])
    return {_plain(n) for n in names}


def _plain(text: str) -> str:
    return " ".join(text.lower().split())


def parse_outcome(match: Match, text: str, player: str | None = None) -> Event:
    """The chance outcome ``text`` names among those possible now.

    ``player``, when given, must be whom the outcome concerns (the player who
    draws, say); outcomes that concern nobody in particular (a die) take any.
    """
    outcomes = possible(match)
    if not outcomes:
        raise UsageError("no chance outcome is due now")
    wanted = _plain(text)
    found = [o for o in outcomes if wanted in _names(match, o)]
    if not found:
        raise NotationError(f"{text!r} is not a possible outcome now; possible: {_listing(match, outcomes)}")
    outcome = found[0]
    concerns = getattr(outcome, "player", None)
    if player is not None and concerns is not None and concerns != player:
        raise UsageError(f"--player {player}: this chance outcome is {concerns}'s")
    return outcome


def _listing(match: Match, outcomes: Sequence[Event], most: int = 12) -> str:
    names = [notation(match, o) for o in outcomes]
    more = f", ... ({len(names) - most} more: tabletop moves lists them)" if len(names) > most else ""
    return ", ".join(names[:most]) + more
