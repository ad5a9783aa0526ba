"""Glüx, the game plugin: what house rules and their tests may import.

Everything a variant of Glüx needs is here; the modules inside are named
after the rulebook's parts (see docs/glux.md) and may change.

- ``Glux``: the game (``game.board``, ``game.players``, ``game.seats``,
  ``game.start_squares``, ``game.targets(state, seat)``, ...).
- ``State``: its state; ``recall(state, name, default)`` and
  ``remember(memo, name, value)`` read and set what a variant remembers.
- The events: ``Draw``, ``Start``, ``FirstPlayer``, ``Place``, ``Exclude``.
- ``rank_room(pips, second_place, first=4, second=2)``: the majority in one
  room, for variants that change its points.
- ``KINDS`` and ``FACES``: the chips.
- ``Board`` (``game.board``): squares, rooms, the middle room, and its
  geometry: ``line(square, direction)``, ``neighbours(square, directions)``,
  ``rays(directions)``, ``room_of(square)``; ``ORTHOGONAL`` and ``DIAGONAL``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.base.lazy import names

if TYPE_CHECKING:
    from .board import DIAGONAL, ORTHOGONAL, Board
    from .chips import FACES, KINDS
    from .events import Draw, Exclude, FirstPlayer, Place, Start
    from .game import Glux
    from .scoring import rank_room
    from .state import State, recall, remember

#: Each name and the module it comes from: imported on first use, so that
#: importing a module of the package (``about``, for ``tabletop games``)
#: does not import the whole game.
_FROM = {
    "DIAGONAL": "board",
    "ORTHOGONAL": "board",
    "Board": "board",
    "FACES": "chips",
    "KINDS": "chips",
    "Draw": "events",
    "Exclude": "events",
    "FirstPlayer": "events",
    "Place": "events",
    "Start": "events",
    "Glux": "game",
    "rank_room": "scoring",
    "State": "state",
    "recall": "state",
    "remember": "state",
}


__getattr__, __dir__ = names(__name__, _FROM)


__all__ = [
    "DIAGONAL",
    "FACES",
    "KINDS",
    "ORTHOGONAL",
    "Board",
    "Draw",
    "Exclude",
    "FirstPlayer",
    "Glux",
    "Place",
    "Start",
    "State",
    "rank_room",
    "recall",
    "remember",
]
