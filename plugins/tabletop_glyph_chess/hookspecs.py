"""Glyph Chess's rule hooks: the points where a variant may change the rules.

The official rules (``official.py``) implement every hook.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop import rulespec


@rulespec(firstresult=True)
def glyph_secret_setup(players: int) -> bool | None:
    """Whether players choose the order of their pieces secretly (True) instead
    of shuffling their glyph cards (False)."""


@rulespec(firstresult=True)
def glyph_costs() -> Mapping[str, str] | None:
    """What each spell costs, by spell name (``"swap"``, ``"blaze"``, ...):
    ``"item"`` (1 coin or die of the piece's type), ``"die"`` (1 die showing
    it), ``"die+x"`` (that die and X more items), ``"x"`` (X items)."""


@rulespec(firstresult=True)
def glyph_hand_limit(players: int) -> int | None:
    """A player with fewer coins in hand than this draws one in the awakening step."""
