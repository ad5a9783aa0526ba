"""Three copies of Leduc poker (``leduc.py``), each leaking a card, as a
careless author might: what the conformance kit (``tabletop.testing``)
must find.

- ``leduc-line``: the log line of a deal names the card to every viewer.
- ``leduc-memory``: the game object keeps the last card dealt, and its board
  as text prints it (``last card dealt: J``) to everyone.
- ``leduc-peek``: the view shows the other player's card from the second
  round on, before any showdown (``cards: Q J``).

Load it with ``leduc.py``: ``tabletop.api.registry([LEDUC, LEDUC_LEAKS])``.
"""

from __future__ import annotations

from pathlib import Path

from tabletop import hookimpl
from tabletop.host.plugins import load_file

leduc = load_file(Path(__file__).with_name("leduc.py"))


class LineLeak(leduc.Leduc):
    name = "leduc-line"

    def format(self, event, viewer=None):
        if isinstance(event, leduc.Deal):
            return f"{event.player} is dealt {event.card}"  # to every viewer
        return super().format(event, viewer)


class MemoryLeak(leduc.Leduc):
    name = "leduc-memory"
    last = None

    def apply(self, state, event):
        if isinstance(event, (leduc.Deal, leduc.Board)):
            self.last = event.card  # a match's secret kept on the game object
        return super().apply(state, event)

    def render(self, state, viewer=None, color=False):
        return super().render(state, viewer, color) + f"\nlast card dealt: {self.last or '-'}"


class PeekLeak(leduc.Leduc):
    name = "leduc-peek"

    def view(self, state, player):
        if state.round >= 1:
            return state  # forgets to hide the other's card in the second round
        return super().view(state, player)


@hookimpl
def register_games():
    return [LineLeak, MemoryLeak, PeekLeak]
