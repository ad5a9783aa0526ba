"""Which seats a bot plays: a seat's address ``bot:SPEC`` names the bot that
plays it (``bot:mcts:seconds=2``), as an address says who plays a
person's seat.

Apart from :mod:`.bots` (which plays them) because the game folder (a mail
to a bot's seat is never queued) and the votes (a bot casts none) need to
know it too, and :mod:`.bots` needs both of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .settings import Settings

#: How a seat's address names the bot that plays it.
PREFIX = "bot:"


def spec(address: str | None) -> str | None:
    """The bot an address names (``bot:mcts:seconds=2`` -> ``mcts:seconds=2``), or None."""
    if isinstance(address, str) and address.startswith(PREFIX):
        return address[len(PREFIX) :]
    return None


def of(settings: Settings, player: str) -> str | None:
    """The bot that plays ``player``'s seat, or None (a person does)."""
    data: dict[str, Any] = settings.players.get(player) or {}
    return spec(data.get("address"))
