"""Where a Glüx turn ends, for a game's length in turns (``simulate``,
``stats``, the ``turns`` column).

A turn has two phases, placing the light chip and drawing a new one: it is
counted by its placement, and the draw after it belongs to it. The setup (the
start chips) is no turn, nor is a player's exclusion. A variant's own event
that ends a turn without a placement says so itself (its class's
``ends_turn``).
"""

from __future__ import annotations

from typing import Any

from tabletop import Event

from .events import Place


def turn_ends(game: Any, event: Event) -> bool:
    return type(event) is Place or getattr(type(event), "ends_turn", False)
