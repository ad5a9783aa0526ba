"""Light chips: each has two faces that add up to 7 (1/6, 2/5, 3/4)."""

from __future__ import annotations

#: The three kinds of chip, by name, and their faces.
KINDS = ("1/6", "2/5", "3/4")
FACES = {"1/6": (1, 6), "2/5": (2, 5), "3/4": (3, 4)}
