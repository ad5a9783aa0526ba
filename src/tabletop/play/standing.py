"""Where a game stands, in words and as data: whose decision it is, the
result, and the summary that ``replay --json`` prints. Shared by the command
line and the viewer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..base.errors import UsageError
from ..model.nodes import Chance, Decide, Forced, Over
from ..sight import seen

if TYPE_CHECKING:
    from .engine import Match


def check_viewer(match: Match, viewer: str | None, option: str = "--as", where: str | None = None) -> None:
    """A ``viewer`` who is no player of ``match`` is refused, naming the
    option, and the log it is no player of when ``where`` says which."""
    if viewer is not None and viewer not in match.header.players:
        players = ", ".join(match.header.players)
        raise UsageError(f"{option} '{viewer}': not a player of this game ({players})", where=where)


def status(match: Match, viewer: str | None = None) -> str:
    """One line: whose decision it is, or the final result."""
    node = match.node
    if isinstance(node, Over):
        return "Game over. " + result(match)
    if isinstance(node, Decide):
        parts = []
        for player in node.players:
            if viewer in (None, player):
                parts.append(f"{player} to {seen.asks(match.game, match.state, player)}")
            else:
                parts.append(f"{player} to decide")
        return "; ".join(parts) + "."
    if isinstance(node, Chance):
        # Whose it is, when every possible outcome is one player's (a draw into their hand).
        whose = {getattr(o, "player", None) for o in node.outcomes}
        if len(whose) == 1 and None not in whose:
            return f"A chance outcome for {whose.pop()} is due."
        return "A chance outcome is due."
    assert isinstance(node, Forced)
    return "The rules decide next."


def result(match: Match) -> str:
    outcome = match.outcome()
    scores = ", ".join(f"{p} {s}" for p, s in outcome.ranked())
    return f"{scores}; {outcome.verdict()}."


def next_actor(match: Match) -> dict[str, Any] | None:
    node = match.node
    if isinstance(node, Decide):
        return {"kind": "decision", "players": list(node.players)}
    if isinstance(node, Chance):
        return {"kind": "chance"}
    if isinstance(node, Forced):
        return {"kind": "rules"}
    return None


def summary(match: Match, path: str, viewer: str | None = None) -> Mapping[str, Any]:
    """The stable machine-readable summary that ``replay --json`` prints."""
    outcome = match.outcome()
    return {
        "file": path,
        "game": match.header.game,
        "players": list(match.header.players),
        "variants": list(match.header.variants),
        "events": match.seq,
        "finished": match.over,
        "scores": dict(outcome.scores),
        "winners": list(outcome.winners) if match.over else [],
        "next": next_actor(match),
        "as": viewer,
    }
