"""The study file: ``game.jsonl`` has ``game.study.jsonl`` beside it, JSON
Lines described by ``docs/study.schema.json``: a header naming the game,
then one record a line, appended whole as each is made, never rewritten.

Every record is checked as it is read, and every record written is checked
as a load will check it before it is written. A record at fault is one
line naming the study file's line and the record.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from ..base.errors import CheckFailed, LogFormatError, TabletopError, UsageError, describe, quote, shown
from ..host.registry import Registry
from ..log import files, jsonline, logfile
from ..log.header import Header
from ..model.events import Event
from .records import ID, Analysis, Judgement, Note, Variation, check_fields

#: The study format's version (the header's ``study`` field).
VERSION = 1
#: A study file's name is its log's, with this in place of ``.jsonl``.
SUFFIX = ".study.jsonl"
#: The fields each kind of record must have, and those it may have.
FIELDS = {
    "note": ({"kind", "id", "at"}, {"as", "comment", "mark", "squares", "arrows"}),
    "variation": ({"kind", "id", "at", "seed", "events"}, {"as"}),
    "more": ({"kind", "variation", "events"}, set()),
    "analysis": ({"kind", "id", "bot", "seed"}, set()),
    "judgement": ({"kind", "analysis", "at", "player", "before", "after", "best"}, set()),
}


def default_path(log: Path) -> Path:
    """Where the study of ``log`` is kept: ``game.jsonl`` gives ``game.study.jsonl``."""
    log = Path(log)
    stem = log.name[: -len(".jsonl")] if log.name.endswith(".jsonl") else log.name
    return log.with_name(stem + SUFFIX)


def is_study(path: Path | str) -> bool:
    """Whether ``path`` is named as a study file (never a log: folders of logs leave it out)."""
    return str(path).endswith(SUFFIX)


def is_same_file(a: Path, b: Path) -> bool:
    with contextlib.suppress(OSError):
        return os.path.samefile(a, b)
    return False


class StudyFile:
    """Reading and writing a study's file (a part of :class:`~tabletop.review.study.Study`)."""

    registry: Registry
    log: Path
    path: Path
    header: Header
    heads: list[str]
    notes: list[Note]
    variations: dict[str, Variation]
    analyses: dict[str, Analysis]
    judgements: dict[tuple[str, int], Judgement]
    #: The study file's bytes read so far (the length of its whole lines), and its lines.
    size: int
    lines: int
    trial: bool
    _matches: dict[tuple[str, int], tuple[Any, int, str | None, dict[str, str]]]

    @property
    def exists(self) -> bool:
        return self.lines > 0

    def header_record(self) -> dict[str, Any]:
        return {
            "study": VERSION,
            "game": self.header.game,
            "players": list(self.header.players),
            "log": self.log.name,
            "head": self.heads[0],
        }

    def check_writable(self) -> None:
        """Refuse now, in one line, a study file that cannot be written (nothing is changed)."""
        if self.path.exists() or os.path.islink(self.path):
            handle = files.open_regular(self.path, "r+b", "cannot write the study")
            handle.close()
            return
        folder = self.path.parent if str(self.path.parent) else Path(".")
        if not folder.is_dir():
            raise UsageError(f"cannot write the study: no such folder: {shown(folder)}", where=str(self.path))
        if not os.access(folder, os.W_OK | os.X_OK):
            raise UsageError("cannot write the study: the folder is not writable", where=str(self.path))

    # -- writing ------------------------------------------------------------------
    def _next(self, prefix: str) -> str:
        taken = [*(n.id for n in self.notes), *self.variations, *self.analyses]
        numbers = [int(i[1:]) for i in taken if i[0] == prefix]
        return f"{prefix}{max(numbers, default=0) + 1}"

    def _encode(self, seq: int, event: Event) -> dict[str, Any]:
        return json.loads(self.registry.codec.encode(seq, event))

    def _write(self, build: Callable[[], list[dict[str, Any]]]) -> None:
        """Append the records ``build`` makes (made under the lock, after
        taking in what others appended meanwhile), each checked as a load
        checks it; a new study file is written whole with its header. A
        failure changes nothing."""
        if self.trial:
            records = build()
            if records:
                start = self.lines + 1 if self.lines else 1
                lines = list(map(_dumps, records))
                if not self.lines:
                    lines.insert(0, _dumps(self.header_record()))
                self._adopt(self._checked_copy(lines, start=start))
            return
        if not self.path.exists() and not os.path.islink(self.path):
            records = build()
            if not records:
                return
            lines = [_dumps(self.header_record()), *map(_dumps, records)]
            taken = self._checked_copy(lines)
            try:
                logfile.create(self.path, lines)
            except UsageError:
                if not self.path.exists():
                    raise
                # Made meanwhile by another writer: append to it instead.
            else:
                self._adopt(taken)
                self.size = len(logfile.encode(lines))
                return
        with logfile.locked(self.path) as handle:
            self._catch_up(handle)
            records = build()
            if not records:
                return
            lines = list(map(_dumps, records))
            taken = self._checked_copy(lines, start=self.lines + 1)
            logfile.append(handle, lines)
            self._adopt(taken)
            self.size = handle.seek(0, os.SEEK_END)

    def _checked_copy(self, lines: list[str], start: int = 1) -> StudyFile:
        """A copy of this study with ``lines`` taken in (checked), the study
        itself unchanged: what is written is what a load will accept. What
        is refused is said of what was given, not of a line of the file."""
        try:
            return self._copy_with(lines, start)
        except TabletopError as exc:
            raise type(exc)(exc.message) from None

    def _copy_with(self, lines: list[str], start: int) -> StudyFile:
        # The log, its events and heads are never changed: the copy shares them.
        taken = copy.copy(self)
        taken.notes = list(self.notes)
        taken.note_ids = set(self.note_ids)
        taken.variations = {
            k: attrs.evolve(v, events=list(v.events), heads=list(v.heads)) for k, v in self.variations.items()
        }
        taken.analyses = dict(self.analyses)
        taken.judgements = dict(self.judgements)
        taken._matches = dict(self._matches)  # positions never change: a variation only grows
        for number, line in enumerate(lines, start=start):
            taken._take(line.encode("utf-8"), number)
        return taken

    def _adopt(self, taken: StudyFile) -> None:
        self.notes, self.variations, self.analyses = taken.notes, taken.variations, taken.analyses
        self.note_ids = taken.note_ids
        self.judgements, self.lines = taken.judgements, taken.lines
        self._matches = taken._matches

    def _catch_up(self, handle: Any) -> None:
        """Take in the lines another writer appended since this study was read."""
        end = handle.seek(0, os.SEEK_END)
        if end == self.size:
            return
        if end < self.size:
            raise UsageError("the study file was cut short while it was open; open it again", where=str(self.path))
        for number, line in logfile.read_lines(self.path, handle, (self.size, self.lines)):
            self._take(line, number)
        self.size = end

    # -- reading ------------------------------------------------------------------
    def _take(self, line: bytes, number: int) -> None:
        """Check line ``number`` of the study file and take it in."""
        where = f"{self.path}:{number}"
        try:
            data = jsonline.loads(line)
        except TabletopError as exc:
            raise exc.at(where) from None
        if number == 1:
            self._check_header(data, where)
            self.lines = 1
            return
        try:
            self._record(data, number)
        except TabletopError as exc:
            raise exc.at(where) from None
        self.lines = number

    def _check_header(self, data: Any, where: str) -> None:
        if not isinstance(data, dict) or "study" not in data:
            raise LogFormatError("not a study file (line 1 has no 'study' format version)", where=where)
        if type(data["study"]) is not int or data["study"] != VERSION:
            raise LogFormatError(f"unsupported study format version {quote(data['study'])}", where=where)
        check_fields(data, {"study", "game", "players", "log", "head"}, set(), "the header")
        if data["game"] != self.header.game or data["players"] != list(self.header.players):
            raise CheckFailed(
                f"a study of another game ({_game_words(data)}), not of {shown(self.log)} "
                f"({self.header.game}: {', '.join(self.header.players)})",
                where=where,
            )
        if data["head"] != self.heads[0]:
            raise CheckFailed(
                f"a study of another game: its header's chain hash differs from {shown(self.log)}'s "
                "(another game of the same players, or a header since rewritten)",
                where=where,
            )

    def _record(self, data: Any, number: int) -> None:
        if not isinstance(data, dict):
            raise LogFormatError(f"a record must be a JSON object, not {describe(data)}")
        kind = data.get("kind")
        if kind not in FIELDS:
            known = ", ".join(FIELDS)
            raise LogFormatError(
                f"unknown record kind {quote(kind) if isinstance(kind, str) else describe(kind)} ({known})"
            )
        required, optional = FIELDS[kind]
        check_fields(data, required, optional, f"a {kind}")
        # Each kind is taken in by the part of the study that holds it (_take_note, _take_variation, ...).
        getattr(self, f"_take_{kind}")(data, number)

    def _named(self, data: dict, prefix: str) -> str:
        ident = data["id"]
        if not isinstance(ident, str) or not ID.match(ident) or ident[0] != prefix:
            raise LogFormatError(
                f"a {data['kind']}'s id is '{prefix}' and a number (n1, v1, a1), not {describe(ident)}"
            )
        if ident in self.variations or ident in self.analyses or ident in self.note_ids:
            raise LogFormatError(f"{data['kind']} {ident}: the id is taken by an earlier record")
        return ident

    def _eyes(self, data: dict, what: str) -> str | None:
        seen_as = data.get("as")
        if seen_as is not None and seen_as not in self.header.players:
            raise LogFormatError(f"{what}: 'as' is null or a player of the game, not {describe(seen_as)}")
        return seen_as


def read(study: StudyFile) -> None:
    """Take in the study file at ``study.path``, every record checked against
    the log; nothing when there is no file yet."""
    path = study.path
    if not path.exists() and not os.path.islink(path):
        return
    if is_same_file(path, study.log):
        raise UsageError("the study file is the log itself: a study is kept beside its log", where=str(path))
    with files.open_regular(path, "rb", "cannot read the study") as handle:
        for number, line in logfile.read_lines(path, handle):
            study._take(line, number)
        study.size = handle.tell()


def _dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _game_words(data: dict) -> str:
    players = data.get("players")
    names = ", ".join(p for p in players if isinstance(p, str)) if isinstance(players, list) else "?"
    game = data.get("game")
    return f"{game if isinstance(game, str) else '?'}: {names}"
