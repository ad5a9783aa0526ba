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

from .board import DIAGONAL, ORTHOGONAL, Board
from .chips import FACES, KINDS
from .events import Draw, Exclude, FirstPlayer, Place, Start
from .game import Glux
from .scoring import rank_room
from .state import State, recall, remember

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
