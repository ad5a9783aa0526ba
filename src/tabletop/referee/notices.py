"""What stands at the table beside the game, for every mail and ``pbem
status``: the votes open (:mod:`.votes`), the deadlines each player missed
and the seats offered (:mod:`.seats`). Conditional moves are never shown
(:mod:`.conditionals`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..play.engine import Match
from . import seats, votes

if TYPE_CHECKING:
    from .settings import Settings


def for_view(settings: Settings, match: Match, player: str | None) -> list[str]:
    """The paragraphs a view mail to ``player`` carries (none when nothing stands)."""
    return [text for text in (votes.open_summary(settings, player, match), seats.summary(settings)) if text]


def for_status(settings: Settings, match: Match) -> list[str]:
    """The lines ``pbem status`` adds: as any player may know them (who voted
    only once the turn ended), and the seats offered."""
    lines = [line.strip() for text in for_view(settings, match, None) for line in text.splitlines()]
    for offer in settings.offers or []:
        lines.append(f"{offer['seat']}'s seat offered to {offer['address']}")
    return lines


def as_data(settings: Settings, match: Match) -> dict[str, Any]:
    """The same for ``pbem status --json``."""
    players = votes.voters(settings, match)
    open_votes = {}
    for kind in votes.KINDS:
        voters = votes.counted(settings, kind, players)
        if voters:
            cast = votes.standing(settings)[kind]
            open_votes[kind] = {
                "votes": len(voters),
                "needed": votes.needed(settings, players),
                "known": [p for p in voters if cast[p] < match.seq],
            }
    return {
        "votes": open_votes,
        "missed": {p: int(d.get("missed") or 0) for p, d in settings.players.items()},
        "civil_disorder": [p for p, d in settings.players.items() if d.get("disorder")],
        "offered": sorted({o["seat"] for o in settings.offers or []}),
        "paused_by": settings.paused_by if settings.paused else None,
    }
