"""Light chips: each has two faces that add up to 7 (1/6, 2/5, 3/4)."""

from __future__ import annotations

#: The three kinds of chip, by name, and their faces.
KINDS = ("1/6", "2/5", "3/4")
FACES = {"1/6": (1, 6), "2/5": (2, 5), "3/4": (3, 4)}
#: The kind of chip each face is on (each face is on one kind only).
KIND_OF_FACE = {face: kind for kind, faces in FACES.items() for face in faces}
