"""A study's anchors: every record names its position by line, event number
and the hash chain's head there (:mod:`tabletop.log.chain`), so a study
never attaches to another game, nor to a log rewritten since.

The main line's heads are the log's; a variation's go on from the head
where it starts, over its own event lines.
"""

from __future__ import annotations

import contextlib
import hmac
import re
from pathlib import Path

from ..base.errors import CheckFailed, LogFormatError, TabletopError, UsageError, describe, shown
from ..log import chain, files
from ..model.events import Event
from ..play.engine import Match
from .records import ID, MAIN, Anchor, Variation, check_fields, line_name

_HEAD = re.compile(r"^chain:[0-9a-f]{64}\Z")


class Anchors:
    """The positions of a study's lines, and the anchors that name them (a part of
    :class:`~tabletop.review.study.Study`)."""

    log: Path
    events: list[Event]
    heads: list[str]
    variations: dict[str, Variation]

    def length(self, line: str) -> int:
        """The event number of the last position of ``line``."""
        if line == MAIN:
            return len(self.events)
        return self._variation(line).end

    def first(self, line: str) -> int:
        """The event number of the first position of ``line``."""
        return 0 if line == MAIN else self._variation(line).at.seq

    def head(self, line: str, seq: int) -> str:
        """The chain's head at event ``seq`` of ``line``."""
        if line == MAIN:
            return self.heads[seq]
        variation = self._variation(line)
        return variation.heads[seq - variation.at.seq]

    def anchor(self, line: str, seq: int) -> Anchor:
        """The anchor of event ``seq`` of ``line``, which must have it."""
        if line != MAIN and line not in self.variations:
            raise UsageError(f"no variation '{line}' in this study")
        if not self.first(line) <= seq <= self.length(line):
            raise UsageError(
                f"event {seq} is not on {line_name(line)} (events {self.first(line)} to {self.length(line)})"
            )
        return Anchor(line, seq, self.head(line, seq))

    def _variation(self, line: str) -> Variation:
        try:
            return self.variations[line]
        except KeyError:
            raise UsageError(f"no variation '{line}' in this study") from None

    def _anchored(self, data: dict, what: str, main_only: bool = False) -> Anchor:
        """The anchor a record read gives, checked against the log and the variations before it."""
        at = data["at"]
        if not isinstance(at, dict):
            raise LogFormatError(f"{what}: 'at' must be an object with line, seq and head")
        check_fields(at, {"line", "seq", "head"}, set(), f"{what}'s 'at'")
        line, seq, head = at["line"], at["seq"], at["head"]
        if not isinstance(line, str) or (line != MAIN and not ID.match(line)):
            raise LogFormatError(f"{what}: 'line' is 'main' or a variation's id, not {describe(line)}")
        if type(seq) is not int or seq < 0:
            raise LogFormatError(f"{what}: 'seq' must be an event number (0 or more), not {describe(seq)}")
        if not isinstance(head, str) or not _HEAD.match(head):
            raise LogFormatError(f"{what}: 'head' must be a chain hash ('chain:' and 64 hex digits)")
        if main_only and line != MAIN:
            raise LogFormatError(f"{what}: a judgement is of the main line")
        if line != MAIN and line not in self.variations:
            raise CheckFailed(f"{what} at event {seq} of variation {line}: no such variation before it")
        if not self.first(line) <= seq <= self.length(line):
            if line == MAIN:
                raise CheckFailed(f"{what} at event {seq}: {shown(self.log)} has only {len(self.events)} events")
            raise CheckFailed(
                f"{what} at event {seq} of variation {line}: it holds events {self.first(line)} to {self.length(line)}"
            )
        if not hmac.compare_digest(head, self.head(line, seq)):
            on = "" if line == MAIN else f" of variation {line}"
            raise CheckFailed(
                f"{what} at event {seq}{on}: its chain hash differs from {shown(self.log)}'s there "
                "(a note of another game, or of a log since rewritten)"
            )
        return Anchor(line, seq, head)


def log_heads(data: bytes, log: Path, match: Match) -> list[str]:
    """The chain's head after each line of the log (the header's first). A
    sealed game of format 2 salts its chain with the seed: it is read from
    the log's reveal, or from the ``FILE.seed`` of whoever holds the game."""

    def seed() -> str | None:
        if match.seed is not None:
            return match.seed
        from ..play.live import seed_file

        with contextlib.suppress(TabletopError):
            return files.read_text(seed_file(log), 1024, "the seed file").strip() or None
        return None

    lines = data.split(b"\n")[:-1]
    try:
        return list(chain.heads(lines, seed))
    except TabletopError as exc:
        raise exc.at(str(log)) from None
