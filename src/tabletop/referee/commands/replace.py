"""``replace: PLAYER ADDRESS``: the seat goes to a new address, with a new
secret mailed there; the other players are told."""

from __future__ import annotations

from typing import Any

from ...base.errors import UsageError
from .. import mailin, seats
from ..gamedir import one_line
from . import MasterCommand


class Replace(MasterCommand):
    name = "replace"
    usage = "replace: PLAYER ADDRESS"
    does = "hand PLAYER to a new ADDRESS, with a new secret mailed there"
    order = 40
    about_a_player = True
    takes = ("player", "address")
    example = "ann anne@example.org"

    def arguments(self, value: str) -> dict[str, Any]:
        who, _, address = value.partition(" ")
        return {"player": who.strip(), "address": address.strip()}

    def run(self, ref, now: float, stamp: str, *, player: str, address: str | None = None, **kwargs: Any) -> str:
        if not address or not mailin.valid_address(address):
            raise UsageError(f"replace {player}: '{one_line(address or '')}' is not a single mail address")
        players = ref.settings.players
        if any(d["address"].lower() == address.lower() for p, d in players.items() if p != player):
            raise UsageError(f"replace {player}: {address} is another player's address")
        old = players[player]["address"]
        ref.settings.former = seats.passed_on(ref.settings, player, now)  # the old secret is told the seat passed
        players[player]["address"] = address
        ref.secrets.reissue(player, stamp, replaced=address)
        return f"{player} is now played from {address} (was {old}); a new secret was mailed"
