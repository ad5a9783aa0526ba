"""A game's status, as ``pbem status`` says it (a line each) and as data
(``pbem status --json``): the game, who it waits for and by when, what
stands beside it (:mod:`.notices`), the bots in seats, the observers and
the mail waiting or set aside."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.nodes import Decide, Over
from . import notices
from .clock import when
from .observers import listed

if TYPE_CHECKING:
    from .bots import Bots
    from .clock import Clock
    from .ledger import Ledger


class Status:
    def __init__(self, ledger: Ledger, clock: Clock, bots: Bots) -> None:
        self.ledger = ledger
        self.clock = clock
        self.bots = bots

    def data(self) -> dict[str, Any]:
        match = self.ledger.replay()
        node = match.node
        directory, settings = self.ledger.dir, self.ledger.settings
        data: dict[str, Any] = {
            "game_id": settings.game_id,
            "game": match.header.game,
            "players": list(match.header.players),
            "events": match.seq,
            "paused": bool(settings.paused),
            "ended": bool(settings.ended),
            "over": isinstance(node, Over),
            "waiting": [],
            "outbox": len(directory.waiting()),
            "undeliverable": _count(directory.undeliverable),
            "quarantined": _count(directory.quarantine_dir),
            "chain_head": self.ledger.head(),
            **notices.as_data(settings, match),
            "bots": self.bots.seated(match),
            "observers": len(listed(settings)),
        }
        if isinstance(node, Over):
            outcome = match.outcome()
            data["result"] = {
                "scores": {p: s for p, s in outcome.ranked()},
                "winners": list(outcome.winners),
                "verdict": outcome.verdict(),
            }
        elif isinstance(node, Decide):
            for player in node.players:
                deadline = self.clock.deadline_of(player)
                due = datetime.fromtimestamp(deadline, timezone.utc).isoformat() if deadline else None
                data["waiting"].append({"player": player, "due": due})
        return data

    def lines(self) -> list[str]:
        match = self.ledger.replay()
        directory, settings = self.ledger.dir, self.ledger.settings
        lines = [f"game '{settings.game_id}' ({match.header.game}): {match.seq} events"]
        if settings.ended:
            lines.append("ended by the game master")
        if settings.paused:
            by = "the players' vote" if settings.paused_by == "vote" else "the game master"
            lines.append(f"paused by {by}")
        node = match.node
        if isinstance(node, Over):
            outcome = match.outcome()
            lines.append("over: " + ", ".join(f"{p} {sc}" for p, sc in outcome.ranked()) + "; " + outcome.verdict())
        elif isinstance(node, Decide):
            for player in node.players:
                deadline = self.clock.deadline_of(player)
                due = f", due {when(deadline)}" if deadline else ""
                lines.append(f"waiting for {player}{due}")
        lines += notices.for_status(settings, match)
        lines += [
            f"{seat} is played by the bot '{bot['bot']}' ({bot['decisions']} decision{'s' * (bot['decisions'] != 1)})"
            for seat, bot in self.bots.seated(match).items()
        ]
        if listed(settings):
            lines.append(f"observers: {len(listed(settings))}")
        lines.append(f"outbox: {len(directory.waiting())} mail(s) waiting")
        if directory.undeliverable.is_dir():
            lines.append(f"undeliverable: {_count(directory.undeliverable)} mail(s)")
        if directory.quarantine_dir.is_dir():
            lines.append(f"quarantined: {_count(directory.quarantine_dir)} message(s)")
        lines.append(f"chain head: {self.ledger.head()}")
        return lines


def _count(folder: Path) -> int:
    """The mails kept in one of the game's folders (none while it is not made)."""
    return len(list(folder.glob("*.eml"))) if folder.is_dir() else 0
