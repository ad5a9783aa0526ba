"""Light chips: the kinds of chip and the faces each may show.

Components: "24 each of 4 colors, 8 each of 1/6, 2/5, and 3/4": officially
three kinds, each with two faces that add up to 7. The kinds in force are a
header-time rule (``glux_chips``; how many of each a bag holds is
``glux_bag``), compiled once per game into a :class:`Chips` table
(``game.chips``) that every part reads: bags, hands, draws, the faces a
placement may show, views, the text board and the AI planes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from tabletop import rulehook

#: The official kinds of chip, by name, and their faces.
KINDS = ("1/6", "2/5", "3/4")
FACES = {"1/6": (1, 6), "2/5": (2, 5), "3/4": (3, 4)}

#: The most pips a face shows: a chip counts at most six squares (the
#: board's tables of counts, ``Board.paths``, and the notation ``FACE@SQUARE``
#: go to 6).
MOST_PIPS = 6
#: The most kinds of chip a game may have: each is a count in every bag.
MOST_KINDS = 16
#: A kind's name as logs and notation write it (``draw 2/5``, ``putback
#: 1/6,3/4``): no space, no comma, none of the characters that separate a
#: variant's parameters or a player's name.
KIND_NAME = re.compile(r'[^\s,=:@#"\\]{1,16}')


@rulehook
def glux_chips(players: int) -> Mapping[str, tuple[int, ...]]:
    # Three kinds, 1/6, 2/5 and 3/4, whose two faces add up to 7.
    return FACES


class Chips:
    """The chips in force in one game: ``kinds`` (names, in the order bags
    count them), ``faces[kind]`` (lowest first), ``index[kind]`` (its place
    in a bag's counts) and ``bag`` (each bag at setup, in that order)."""

    __slots__ = ("kinds", "faces", "index", "bag", "_kind_of_face")

    def __init__(self, faces: Mapping[str, tuple[int, ...]], bag: tuple[int, ...]) -> None:
        self.kinds = tuple(faces)
        self.faces = {kind: tuple(faces[kind]) for kind in self.kinds}
        self.index = {kind: i for i, kind in enumerate(self.kinds)}
        self.bag = bag
        # The first kind showing each face: the official kinds share no face.
        kind_of_face: dict[int, str] = {}
        for kind in self.kinds:
            for face in self.faces[kind]:
                kind_of_face.setdefault(face, kind)
        self._kind_of_face = kind_of_face

    def placed(self, hand: Iterable[str], face: int) -> str | None:
        """The chip of ``hand`` that goes on the board showing ``face``: of
        the kinds in hand showing it, the first in the order of ``kinds``
        (an ordinary chip before a variant's added one), or None."""
        kind = self._kind_of_face.get(face)
        hand = tuple(hand)
        if kind in hand:
            return kind
        for kind in self.kinds:
            if kind in hand and face in self.faces[kind]:
                return kind
        return None

    def in_hand(self, hand: Iterable[str]) -> tuple[str, ...]:
        """The kinds of ``hand``, each once, in the order of ``kinds``."""
        hand = tuple(hand)
        return tuple(kind for kind in self.kinds if kind in hand)

    def hand_faces(self, hand: Iterable[str]) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Each kind of ``hand`` (in the order of ``kinds``) with the faces it
        places: those no kind before it shows (a face is placed with the
        first chip showing it, :meth:`placed`)."""
        seen: set[int] = set()
        found = []
        for kind in self.in_hand(hand):
            faces = tuple(face for face in self.faces[kind] if face not in seen)
            seen.update(faces)
            if faces:
                found.append((kind, faces))
        return tuple(found)

    def described(self) -> str:
        """The kinds, as a line of text says them (``1/6, 2/5, 3/4``)."""
        return ", ".join(self.kinds)

    def __repr__(self) -> str:
        return f"Chips({self.faces!r}, bag={self.bag!r})"


def problem(chips: Mapping[str, tuple[int, ...]]) -> str | None:
    """What is wrong with ``glux_chips``'s answer for a game, or None."""
    if not chips:
        return "gave no kind of chip"
    if len(chips) > MOST_KINDS:
        return f"gave {len(chips)} kinds of chip: at most {MOST_KINDS}"
    for kind, faces in chips.items():
        if not KIND_NAME.fullmatch(kind):
            return f"gave a kind named {kind!r}: a kind is 1 to 16 characters, with no space or comma"
        if not faces or any(
            type(face) is not int or not 1 <= face <= MOST_PIPS or (i and face <= faces[i - 1])
            for i, face in enumerate(faces)
        ):
            return (
                f"gave the kind {kind} the faces {tuple(faces)}: "
                f"each face shows 1 to {MOST_PIPS} pips, and a kind lists them once each, lowest first"
            )
    return None
