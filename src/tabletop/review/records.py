"""What a study holds, record by record: notes, variations, analyses and
their judgements, each at a position named by its anchor
(:mod:`tabletop.review.study` reads and writes them).

Here too are the words every part of a study shares: the main line's name,
the marks and what they mean, the thresholds of a judgement, the bounds on
a record, and whose eyes a record may be shown to.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from ..base.errors import LogFormatError, quote
from ..model.events import Event

#: The main line of the game, as an anchor names it.
MAIN = "main"
#: The marks a note may give a position, as chess players write them.
MARKS = ("!", "?", "!!", "??", "!?", "?!")
#: What the marks mean, in words.
MARK_WORDS = {
    "!": "a good decision",
    "?": "a mistake",
    "!!": "a brilliant decision",
    "??": "a blunder",
    "!?": "an interesting decision",
    "?!": "a dubious decision",
}
#: The drops in the mover's winning chance (a share of the victory, from 0
#: to 1) from which a decision is an inaccuracy, a mistake, a blunder:
#: lichess's 0.1, 0.2 and 0.3 on its scale of winning chances from -1 to 1,
#: halved onto a chance from 0 to 1.
THRESHOLDS = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
#: The marks of a judgement, mildest first.
JUDGED = ("inaccuracy", "mistake", "blunder")

#: Bounds on what one record may hold (a study is read in bounded time).
MAX_COMMENT = 10_000
MAX_SPOTS = 64
MAX_EVENTS = 10_000
#: A record's id: its kind's letter (note, variation, analysis) and a number.
ID = re.compile(r"^[nva][1-9][0-9]{0,8}\Z")


def judged(drop: float | None) -> str | None:
    """The mark a drop in winning chance earns: ``blunder``, ``mistake``, ``inaccuracy`` or None."""
    if drop is None:
        return None
    for mark, threshold in THRESHOLDS:
        if drop >= threshold - 1e-12:
            return mark
    return None


def sees(viewer: str | None, seen_as: str | None) -> bool:
    """Whether ``viewer`` (None: everything) may be shown what was made seeing as ``seen_as``."""
    return viewer is None or viewer == seen_as


def eyes(seen_as: str | None) -> str:
    """Whose eyes a record was made with, in words."""
    return "seeing everything" if seen_as is None else f"as {seen_as}"


def line_name(line: str) -> str:
    """A line (``main`` or a variation's id), in words."""
    return "the game" if line == MAIN else f"variation {line}"


def check_fields(data: dict, required: set[str], optional: set[str], what: str) -> None:
    """Refuse ``data`` (a record, or part of one) missing a field it needs or holding one it may not."""
    missing = sorted(required - set(data))
    if missing:
        raise LogFormatError(f"{what} has no '{missing[0]}'")
    extra = sorted(set(data) - required - optional)
    if extra:
        raise LogFormatError(f"{what}: unknown field {quote(extra[0])}")


@attrs.frozen
class Anchor:
    """A position: a line (``main`` or a variation's id), an event number on
    it, and the hash chain's head after that event."""

    line: str
    seq: int
    head: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "seq": self.seq, "head": self.head}


@attrs.frozen
class Note:
    id: str
    at: Anchor
    seen_as: str | None
    comment: str = ""
    mark: str | None = None
    squares: tuple[str, ...] = ()
    arrows: tuple[tuple[str, str], ...] = ()
    #: The study file's line that holds it.
    where: int = 0


@attrs.define
class Variation:
    """Decisions other than those played, from a position on, with the chance
    outcomes that follow them drawn from the variation's own seed."""

    id: str
    at: Anchor
    seed: str
    seen_as: str | None
    events: list[Event]
    #: The chain's head after each position: ``heads[0]`` is the anchor's.
    heads: list[str]
    where: int = 0

    @property
    def end(self) -> int:
        """The event number of its last position."""
        return self.at.seq + len(self.events)


@attrs.frozen
class Analysis:
    """One run of ``tabletop analyse``: the bot and the seed its searches draw from."""

    id: str
    bot: str
    seed: str
    where: int = 0


@attrs.frozen
class Judgement:
    """The analysis of one decision of the main line, from its mover's information only."""

    analysis: str
    at: Anchor
    player: str
    #: The mover's winning chance before the decision (with the decision the
    #: bot prefers) and after it, as the bot estimates them.
    before: float | None
    after: float | None
    #: The decision the bot prefers (None: the bot found none better to name).
    best: Event | None
    where: int = 0

    @property
    def drop(self) -> float | None:
        """How much the decision lowered the mover's winning chance (never below 0)."""
        if self.before is None or self.after is None:
            return None
        return max(0.0, self.before - self.after)

    @property
    def mark(self) -> str | None:
        return judged(self.drop)
