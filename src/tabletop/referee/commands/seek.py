"""``seek: PLAYER [ADDRESS ...]``: the seat is offered to substitutes, each
mailed a claim token of their own; the first ``claim:`` takes it (see
:mod:`..seats`)."""

from __future__ import annotations

from typing import Any

from ...base.errors import UsageError
from ..votes import in_game
from . import MasterCommand


class Seek(MasterCommand):
    name = "seek"
    usage = "seek: PLAYER [ADDRESS ...]"
    does = (
        "offer PLAYER's seat to substitutes (those named, else the game's); each address gets a claim token"
        " of its own, and the first 'claim:' mail takes the seat"
    )
    order = 60
    about_a_player = True
    takes = ("player",)
    repeats = (("--to", "addresses", "An address to offer the seat to (default: the substitutes)."),)
    example = "ann --to sub@example.org --to other@example.org"

    def arguments(self, value: str) -> dict[str, Any]:
        words = value.split()
        return {"player": words[0] if words else "", "addresses": words[1:]}

    def run(self, ref, now: float, stamp: str, *, player: str, addresses=None, **kwargs: Any) -> str:
        if ref.settings.ended:
            raise UsageError("the game was ended: no seat is free")
        if player not in in_game(ref.ledger.replay()):
            raise UsageError(f"{player} is no longer in the game: there is no seat to offer")
        mailed = ref.seats.offer(player, list(addresses or ref.settings.substitutes or []), stamp, now)
        return f"{player}'s seat was offered to {', '.join(mailed)}; the first claim takes it"
