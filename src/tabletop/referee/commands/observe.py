"""``observe: ADDRESS``: the game master adds an observer, who gets the game
as a watcher with no seat may know it from now on (see :mod:`..observers`)."""

from __future__ import annotations

from typing import Any

from . import MasterCommand


class Observe(MasterCommand):
    name = "observe"
    usage = "observe: ADDRESS"
    does = (
        "mail the game to ADDRESS from now on, as any onlooker may see it (no player's hidden chips, draws or"
        " secret choices), and the whole log at the end"
    )
    order = 70
    takes = ("address",)
    example = "carol@example.org"

    def arguments(self, value: str) -> dict[str, Any]:
        return {"address": value.strip()}

    def run(self, ref, now: float, stamp: str, *, address: str | None = None, **kwargs: Any) -> str:
        return ref.observers.add(address or "", stamp)
