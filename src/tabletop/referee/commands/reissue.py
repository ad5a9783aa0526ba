"""``reissue: PLAYER``: the player gets a new secret by mail; the old one
stops working (see :class:`..passwords.Secrets`, which ``replace`` uses too)."""

from __future__ import annotations

from typing import Any

from . import MasterCommand


class Reissue(MasterCommand):
    name = "reissue"
    usage = "reissue: PLAYER"
    does = "mail PLAYER a new secret (the old one stops working)"
    order = 50
    about_a_player = True
    takes = ("player",)
    example = "ann"

    def arguments(self, value: str) -> dict[str, Any]:
        return {"player": value.strip()}

    def run(self, ref, now: float, stamp: str, *, player: str, **kwargs: Any) -> str:
        ref.secrets.reissue(player, stamp, replaced="")
        return f"a new secret was mailed to {player}; the old one no longer works"
