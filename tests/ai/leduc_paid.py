"""Leduc poker (``tests/plugins/leduc.py``) paying as it goes: a player's
chips are taken as they go into the pot (``rewards``), and the pot is paid
back at the end, so that the game's payoffs (the chips won or lost) are the
same. For the adapters' rewards during play (tests/ai/test_payoffs.py)."""

from __future__ import annotations

from pathlib import Path

from tabletop import hookimpl
from tabletop.host.plugins import load_file

leduc = load_file(Path(__file__).resolve().parents[1] / "plugins" / "leduc.py")


class PaidLeduc(leduc.Leduc):
    name = "leduc-paid"
    title = "Leduc poker, paid as it goes"

    def rewards(self, before, event, after):
        return [b - a for a, b in zip(after.pot, before.pot)]


@hookimpl
def register_games():
    return [PaidLeduc]
