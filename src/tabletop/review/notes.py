"""A study's notes: a comment, a mark (``!``, ``?``, ``!!``, ``??``, ``!?``,
``?!``), squares or spots to highlight and arrows, at one position of the
game or of a variation.

A note made as a player is shown to that player and to whoever may see
everything; one made seeing everything, only to whoever may see everything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..base.errors import LogFormatError, describe
from .records import MARKS, MAX_COMMENT, MAX_SPOTS, Note, sees

_SPOT = re.compile(r"^[A-Za-z0-9_.+-]{1,16}\Z")


class Notes:
    """Notes, marks and comments (a part of :class:`~tabletop.review.study.Study`)."""

    notes: list[Note]

    def notes_for(self, viewer: str | None) -> list[Note]:
        return [n for n in self.notes if sees(viewer, n.seen_as)]

    def note(
        self,
        line: str,
        seq: int,
        seen_as: str | None,
        comment: str = "",
        mark: str | None = None,
        squares: Sequence[str] = (),
        arrows: Sequence[tuple[str, str]] = (),
    ) -> Note:
        """Write a note at event ``seq`` of ``line``."""

        def build() -> list[dict[str, Any]]:
            record: dict[str, Any] = {"kind": "note", "id": self._next("n"), "at": self.anchor(line, seq).to_json()}
            record["as"] = seen_as
            if comment:
                record["comment"] = comment
            if mark:
                record["mark"] = mark
            if squares:
                record["squares"] = list(squares)
            if arrows:
                record["arrows"] = [list(a) for a in arrows]
            return [record]

        self._write(build)
        return self.notes[-1]

    def _take_note(self, data: dict, number: int) -> None:
        ident = self._named(data, "n")
        what = f"note {ident}"
        at = self._anchored(data, what)
        comment = data.get("comment", "")
        if not isinstance(comment, str) or len(comment) > MAX_COMMENT:
            raise LogFormatError(f"{what}: 'comment' must be text of at most {MAX_COMMENT:,} characters")
        mark = data.get("mark")
        if mark is not None and mark not in MARKS:
            raise LogFormatError(f"{what}: 'mark' is one of {' '.join(MARKS)}, not {describe(mark)}")
        squares = _spots(data.get("squares", []), what, "squares")
        arrows = data.get("arrows", [])
        if not isinstance(arrows, list) or len(arrows) > MAX_SPOTS:
            raise LogFormatError(f"{what}: 'arrows' must be a list of at most {MAX_SPOTS} [from, to] pairs")
        pairs = []
        for arrow in arrows:
            if not isinstance(arrow, list) or len(arrow) != 2:
                raise LogFormatError(f"{what}: an arrow is a pair [from, to], not {describe(arrow)}")
            pairs.append(tuple(_spots(arrow, what, "arrows")))
        if not (comment or mark or squares or pairs):
            raise LogFormatError(f"{what}: a note holds a comment, a mark, squares or arrows")
        seen_as = self._eyes(data, what)
        self._visible(at, seen_as, what)
        self.note_ids.add(ident)
        self.notes.append(Note(ident, at, seen_as, comment, mark, squares, tuple(pairs), number))  # type: ignore[arg-type]


def _spots(values: Any, what: str, field: str) -> tuple[str, ...]:
    if not isinstance(values, list) or len(values) > MAX_SPOTS:
        raise LogFormatError(f"{what}: '{field}' must be a list of at most {MAX_SPOTS} names")
    for value in values:
        if not isinstance(value, str) or not _SPOT.match(value):
            raise LogFormatError(
                f"{what}: {describe(value)} in '{field}' is no square or spot name (1 to 16 letters, digits or _.+-)"
            )
    return tuple(values)
