"""A study: notes, marks, variations and a bot's analysis beside a log, never in it.

A log holds what happened and nothing else (its format refuses any field it
does not define). What a player thinks of it lives in a **study file** beside
it (``game.jsonl`` has ``game.study.jsonl``), JSON Lines described by
``docs/study.schema.json``: a header naming the game, then one record a
line, appended whole as each is made, never rewritten:

- a **note**: a comment, a mark (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``),
  squares or spots to highlight and arrows, at one position;
- a **variation**: decisions legal at a position of the game (or of another
  variation) other than those played, with the chance outcomes that follow
  them drawn from a seed of the variation's own; ``more`` records continue it;
- an **analysis** (the bot and seed of a run of ``tabletop analyse``) and its
  **judgements**, one per decision: the mover's winning chance before and
  after it, and the decision the bot prefers.

Every record is anchored to a position: the line (``main``, or a variation's
id), the event number, and the hash chain's head there (:mod:`tabletop.log.chain`;
a variation's heads go on from the head where it starts, over its own event
lines). Loading a study checks every anchor against the log, every event of
every variation against the rules and its seed: a study never attaches to
another game, nor to a log rewritten since. A record at fault is one line
naming the study file's line and the record.

Whose eyes: a note or variation made as a player (``"as": "ann"``) is shown
to that player and to whoever may see everything; one made seeing everything
is shown only to whoever may see everything. A variation made as a player
is played in a world made up from that player's view (the game's
``determinize``, drawn from the variation's seed), so its legal decisions
and outcomes never tell the player what they could not know. A judgement is
shown to its mover and to whoever may see everything.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import json
import os
import random
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..base.caches import Bound
from ..base.errors import (
    CheckFailed,
    IllegalEventError,
    LogFormatError,
    TabletopError,
    UsageError,
    describe,
    quote,
    shown,
)
from ..host.registry import Registry
from ..log import chain, files, jsonline, logfile
from ..log.header import Header
from ..model.events import CHANCE, DECISION, Event, Resign, Seal, Unseal
from ..model.game import Game
from ..model.nodes import Chance, Decide, Forced
from ..play import chance
from ..play.engine import Match, Replay
from ..sight import seen

#: The study format's version (the header's ``study`` field).
VERSION = 1
#: A study file's name is its log's, with this in place of ``.jsonl``.
SUFFIX = ".study.jsonl"
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
#: Positions kept to play on from (the main line's and variations'): a
#: study plays on from a few hundred at most, each a state.
MAX_KEPT = Bound(512)
_ID = re.compile(r"^[nva][1-9][0-9]{0,8}\Z")
_SPOT = re.compile(r"^[A-Za-z0-9_.+-]{1,16}\Z")
_HEAD = re.compile(r"^chain:[0-9a-f]{64}\Z")
_FIELDS = {
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


class Study:
    """A log and its study, checked against each other (:func:`load`)."""

    def __init__(self, registry: Registry, log: Path, path: Path, header: Header, events: list[Event]) -> None:
        self.registry = registry
        self.log = Path(log)
        self.path = Path(path)
        self.header = header
        self.game = registry.game(header)
        #: The main line's events, and the chain's head after each position (0: the header).
        self.events = events
        self.heads: list[str] = []
        #: The log's bytes as they were read (what everything here is anchored to).
        self.source = b""
        self.notes: list[Note] = []
        self.variations: dict[str, Variation] = {}
        self.analyses: dict[str, Analysis] = {}
        self.judgements: dict[tuple[str, int], Judgement] = {}
        #: The study file's bytes read so far (the length of its whole lines), and its lines.
        self.size = 0
        self.lines = 0
        self._matches: dict[tuple[str, int], tuple[Any, int, str | None, dict[str, str]]] = {}
        #: A trial: what would be written is checked and taken in, and nothing is written.
        self.trial = False

    # -- reading --------------------------------------------------------------
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
                f"event {seq} is not on {_line_name(line)} (events {self.first(line)} to {self.length(line)})"
            )
        return Anchor(line, seq, self.head(line, seq))

    def seen_as(self, line: str) -> str | None:
        """Whose eyes a line is seen with (None: everything; the main line is anyone's)."""
        return None if line == MAIN else self._variation(line).seen_as

    def events_of(self, line: str, seq: int) -> list[Event]:
        """The events that lead to event ``seq`` of ``line``, the main line's first."""
        if line == MAIN:
            return self.events[:seq]
        variation = self._variation(line)
        return self.events_of(variation.at.line, variation.at.seq) + variation.events[: seq - variation.at.seq]

    def event(self, line: str, seq: int) -> Event:
        """Event ``seq`` of ``line`` (from its first event on)."""
        return self.events_of(line, seq)[-1]

    def describe(self, event: Event, viewer: str | None) -> str:
        """``event`` in the game's notation, as ``viewer`` may see it."""
        return Match(self.registry, self.header, self.game).describe(event, viewer)

    def notes_for(self, viewer: str | None) -> list[Note]:
        return [n for n in self.notes if sees(viewer, n.seen_as)]

    def variations_for(self, viewer: str | None) -> list[Variation]:
        return [v for v in self.variations.values() if sees(viewer, v.seen_as)]

    def judgements_of(self, analysis: str, viewer: str | None = None) -> list[Judgement]:
        """The judgements of one analysis, by event number, that ``viewer`` may be shown."""
        found = [j for (a, _), j in self.judgements.items() if a == analysis and sees(viewer, j.player)]
        return sorted(found, key=lambda j: j.at.seq)

    def latest_analysis(self) -> Analysis | None:
        return list(self.analyses.values())[-1] if self.analyses else None

    def _variation(self, line: str) -> Variation:
        try:
            return self.variations[line]
        except KeyError:
            raise UsageError(f"no variation '{line}' in this study") from None

    # -- positions ----------------------------------------------------------------
    def match(self, line: str, seq: int, seen_as: str | None = None, seed: str | None = None) -> Match:
        """A match at event ``seq`` of ``line``, to play on: the game itself on
        the main line, seen whole; seen as a player, a world made up from that
        player's view with ``seed`` (a variation's). On a variation: its world."""
        registry, header = self.registry, self.header
        made = Match(registry, header, self.game)
        if line == MAIN:
            # From the nearest position kept, on: a study's variations start at a few positions, often the same.
            start = max((k for (where, k) in self._matches if where == MAIN and k <= seq), default=None)
            if start is not None:
                made.restore(*self._matches[(MAIN, start)])
            for event in self.events[made.seq : seq]:
                made.apply(event)  # each was checked when the log was read
            self._keep(MAIN, made)
            if seen_as is not None:
                if seed is None:  # pragma: no cover - every caller names the seed of the world
                    raise UsageError("a world made up from a player's view needs a seed")
                made.restore(made_up(made.game, made.state, seen_as, seed), made.seq, made.revealed, made.seals)
            return made
        known = self._matches.get((line, seq))
        if known is not None:
            made.restore(*known)
            return made
        variation = self._variation(line)
        made = self.match(variation.at.line, variation.at.seq, variation.seen_as, variation.seed)
        for event in variation.events[: seq - variation.at.seq]:
            made.apply(event)
        self._keep(line, made)
        return made

    def _keep(self, line: str, match: Match) -> None:
        """Keep where ``match`` is on ``line`` (a few hundred positions at most)."""
        MAX_KEPT.keep(self._matches, (line, match.seq), (match.state, match.seq, match.revealed, dict(match.seals)))

    # -- writing ------------------------------------------------------------------
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

    def play(
        self, line: str, seq: int, decision: Event | str, player: str | None, seen_as: str | None, seed: str
    ) -> tuple[str, int]:
        """Play ``decision`` (an event, or the game's notation for ``player``)
        at event ``seq`` of ``line``: on along the line when the line holds
        it next, else on a variation, continued when this is its last
        position, else a new one with ``seed`` (seen as ``seen_as``). The
        chance outcomes and rule events that follow are drawn from the
        variation's seed. Returns the line and the event number reached.

        An illegal decision is refused with the rule's reason
        (:class:`~tabletop.base.errors.IllegalEventError`), and nothing is written."""
        found: list[tuple[str, int]] = []

        def build() -> list[dict[str, Any]]:
            self.anchor(line, seq)
            if line != MAIN and self.variations[line].seen_as != seen_as:
                raise UsageError(
                    f"variation {line} was made {_eyes(self.variations[line].seen_as)}, not {_eyes(seen_as)}"
                )
            here = self.match(line, seq, seen_as if line == MAIN else None, seed)
            event = self._decision(here, decision, player)
            # The line's own next decision, or a variation's first, is followed
            # as it is (legal where it was played); any other is checked here.
            if seq < self.length(line):
                ahead = self.event(line, seq + 1)
                if ahead == event and (line != MAIN or self.game.sees(ahead, seen_as)):
                    found.append((line, seq + 1))  # the line goes on with it: no new record
                    return []
            for variation in self.variations.values():
                if (
                    variation.at.line == line
                    and variation.at.seq == seq
                    and variation.seen_as == seen_as
                    and variation.events[:1] == [event]
                ):
                    found.append((variation.id, seq + 1))
                    return []
            self._check(here, event, seen_as)
            going_on = line != MAIN and seq == self.length(line)
            events = [event, *_settle(here, self.variations[line].seed if going_on else seed)]
            numbered = [self._encode(seq + k, e) for k, e in enumerate(events, start=1)]
            if going_on:
                found.append((line, seq + len(events)))
                return [{"kind": "more", "variation": line, "events": numbered}]
            record = {
                "kind": "variation",
                "id": self._next("v"),
                "at": self.anchor(line, seq).to_json(),
                "as": seen_as,
                "seed": seed,
                "events": numbered,
            }
            found.append((record["id"], seq + len(events)))
            return [record]

        self._write(build)
        return found[-1]

    def analysis_by(self, bot: str, seed: str) -> Analysis | None:
        """The analysis by ``bot`` with ``seed`` in the study, if any."""
        return next((a for a in self.analyses.values() if a.bot == bot and a.seed == seed), None)

    def judge(self, bot: str, seed: str, judgements: Iterable[dict[str, Any]]) -> None:
        """Write judgements of the analysis by ``bot`` with ``seed`` (begun with
        the first of them): each ``{"seq", "player", "before", "after", "best"}``
        (``best`` an event or None). A decision judged already is left as it is."""
        given = list(judgements)

        def build() -> list[dict[str, Any]]:
            records: list[dict[str, Any]] = []
            known = self.analysis_by(bot, seed)
            if known is None:
                ident = self._next("a")
                records.append({"kind": "analysis", "id": ident, "bot": bot, "seed": seed})
            else:
                ident = known.id
            for j in given:
                if (ident, j["seq"]) in self.judgements:
                    continue  # judged meanwhile by another run of the same analysis
                best = j["best"]
                records.append(
                    {
                        "kind": "judgement",
                        "analysis": ident,
                        "at": self.anchor(MAIN, j["seq"]).to_json(),
                        "player": j["player"],
                        "before": _rounded(j["before"]),
                        "after": _rounded(j["after"]),
                        "best": None if best is None else self._decision_json(best),
                    }
                )
            return records if len(records) > (known is None) else []

        self._write(build)

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

    def _next(self, prefix: str) -> str:
        taken = [*(n.id for n in self.notes), *self.variations, *self.analyses]
        numbers = [int(i[1:]) for i in taken if i[0] == prefix]
        return f"{prefix}{max(numbers, default=0) + 1}"

    def _decision(self, match: Match, decision: Event | str, player: str | None) -> Event:
        node = match.node
        if isinstance(node, Decide) and node.sealed:
            raise IllegalEventError("a secret decision is due here: a variation cannot be played from it")
        if not isinstance(node, Decide):
            raise IllegalEventError("no decision is due here")
        if isinstance(decision, str):
            who = player if player is not None else node.players[0]
            if who not in node.players:
                raise IllegalEventError(f"not {who}'s decision here: {' or '.join(node.players)} to decide")
            decision = match.game.parse(decision, who, match.state)
        if decision.origin != DECISION or isinstance(decision, (Seal, Unseal, Resign)):
            raise IllegalEventError(f"'{decision.kind}' is not a decision a variation may play")
        return decision

    def _check(self, match: Match, decision: Event, seen_as: str | None) -> None:
        """Refuse ``decision`` with the rule's reason unless it is legal in
        ``match``, then play it there."""
        reason = match.why_illegal(decision)
        if reason is not None:
            made_up = "" if seen_as is None else f" (in a world made up from {seen_as}'s view)"
            raise IllegalEventError(f"{match.describe(decision, seen_as)}: {reason}{made_up}")
        match.apply(decision)

    def _encode(self, seq: int, event: Event) -> dict[str, Any]:
        return json.loads(self.registry.codec.encode(seq, event))

    def _decision_json(self, event: Event) -> dict[str, Any]:
        data = self._encode(0, event)
        del data["seq"]
        return data

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

    def _checked_copy(self, lines: list[str], start: int = 1) -> Study:
        """A copy of this study with ``lines`` taken in (checked), the study
        itself unchanged: what is written is what a load will accept. What
        is refused is said of what was given, not of a line of the file."""
        try:
            return self._copy_with(lines, start)
        except TabletopError as exc:
            raise type(exc)(exc.message) from None

    def _copy_with(self, lines: list[str], start: int) -> Study:
        copy = Study(self.registry, self.log, self.path, self.header, self.events)
        copy.heads, copy.source = self.heads, self.source
        copy.notes = list(self.notes)
        copy.variations = {
            k: attrs.evolve(v, events=list(v.events), heads=list(v.heads)) for k, v in self.variations.items()
        }
        copy.analyses = dict(self.analyses)
        copy.judgements = dict(self.judgements)
        copy.lines = self.lines
        copy._matches = dict(self._matches)  # positions never change: a variation only grows
        for number, line in enumerate(lines, start=start):
            copy._take(line.encode("utf-8"), number)
        return copy

    def _adopt(self, copy: Study) -> None:
        self.notes, self.variations, self.analyses = copy.notes, copy.variations, copy.analyses
        self.judgements, self.lines = copy.judgements, copy.lines
        self._matches = copy._matches

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

    # -- checking -----------------------------------------------------------------
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
        _fields(data, {"study", "game", "players", "log", "head"}, set(), "the header")
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
        if kind not in _FIELDS:
            known = ", ".join(_FIELDS)
            raise LogFormatError(
                f"unknown record kind {quote(kind) if isinstance(kind, str) else describe(kind)} ({known})"
            )
        required, optional = _FIELDS[kind]
        _fields(data, required, optional, f"a {kind}")
        getattr(self, f"_take_{kind}")(data, number)

    def _named(self, data: dict, prefix: str) -> str:
        ident = data["id"]
        if not isinstance(ident, str) or not _ID.match(ident) or ident[0] != prefix:
            raise LogFormatError(
                f"a {data['kind']}'s id is '{prefix}' and a number (n1, v1, a1), not {describe(ident)}"
            )
        if ident in self.variations or ident in self.analyses or any(n.id == ident for n in self.notes):
            raise LogFormatError(f"{data['kind']} {ident}: the id is taken by an earlier record")
        return ident

    def _anchored(self, data: dict, what: str, main_only: bool = False) -> Anchor:
        at = data["at"]
        if not isinstance(at, dict):
            raise LogFormatError(f"{what}: 'at' must be an object with line, seq and head")
        _fields(at, {"line", "seq", "head"}, set(), f"{what}'s 'at'")
        line, seq, head = at["line"], at["seq"], at["head"]
        if not isinstance(line, str) or (line != MAIN and not _ID.match(line)):
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

    def _eyes(self, data: dict, what: str) -> str | None:
        seen_as = data.get("as")
        if seen_as is not None and seen_as not in self.header.players:
            raise LogFormatError(f"{what}: 'as' is null or a player of the game, not {describe(seen_as)}")
        return seen_as

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
        self.notes.append(Note(ident, at, seen_as, comment, mark, squares, tuple(pairs), number))  # type: ignore[arg-type]

    def _visible(self, at: Anchor, seen_as: str | None, what: str) -> None:
        line_eyes = self.seen_as(at.line)
        if at.line != MAIN and line_eyes != seen_as:
            raise CheckFailed(f"{what} is made {_eyes(seen_as)} on variation {at.line}, made {_eyes(line_eyes)}")

    def _take_variation(self, data: dict, number: int) -> None:
        ident = self._named(data, "v")
        what = f"variation {ident}"
        at = self._anchored(data, what)
        seed = data["seed"]
        if not isinstance(seed, str) or not 0 < len(seed) <= 256:
            raise LogFormatError(f"{what}: 'seed' must be 1 to 256 characters")
        seen_as = self._eyes(data, what)
        self._visible(at, seen_as, what)
        variation = Variation(ident, at, seed, seen_as, [], [at.head], number)
        self._go_on(variation, data["events"], what, new=True)
        self.variations[ident] = variation

    def _take_more(self, data: dict, number: int) -> None:
        ident = data["variation"]
        if not isinstance(ident, str) or ident not in self.variations:
            raise CheckFailed(f"more of variation {describe(ident)}: no such variation before it")
        self._go_on(self.variations[ident], data["events"], f"more of variation {ident}", new=False)

    def _go_on(self, variation: Variation, events: Any, what: str, new: bool) -> None:
        """Check ``events`` as the next of ``variation`` (a decision legal where
        it is played, then the chance outcomes its seed gives and the events the
        rules force, up to the next decision) and add them."""
        if not isinstance(events, list) or not events or len(events) > MAX_EVENTS:
            raise LogFormatError(f"{what}: 'events' must be a list of 1 to {MAX_EVENTS:,} events")
        if new:
            match = self.match(variation.at.line, variation.at.seq, variation.seen_as, variation.seed)
        else:
            match = self.match(variation.id, variation.end)
        codec, game = self.registry.codec, self.header.game
        head = variation.heads[-1]
        decided = False
        for data in events:
            expected = match.seq + 1
            try:
                seq, event = codec.decode(game, data)
            except TabletopError as exc:
                raise LogFormatError(f"{what}: {exc.message}") from None
            if seq != expected:
                raise CheckFailed(f"{what}: event {seq}: wrong sequence number (expected {expected})")
            said = f"{what}, event {seq} ({match.describe(event)})"
            node = match.node
            if event.origin == DECISION:
                if decided:
                    raise CheckFailed(f"{said}: one decision a record, then what follows it")
                if isinstance(event, (Seal, Unseal, Resign)):
                    raise CheckFailed(f"{said}: a variation plays open decisions only")
                decided = True
                reason = match.why_illegal(event)
                if reason is not None:
                    raise CheckFailed(f"{said}: {reason}")
            elif not decided:
                raise CheckFailed(f"{said}: a record of a variation begins with a decision")
            elif event.origin == CHANCE:
                if not isinstance(node, Chance):
                    raise CheckFailed(f"{said}: no chance outcome is due here")
                drawn = node.pick(chance.number(variation.seed, seq))
                if drawn != event:
                    raise CheckFailed(f"{said}: the variation's seed gives '{match.describe(drawn)}' here")
            else:
                reason = match.why_illegal(event)
                if reason is not None or not isinstance(node, Forced):
                    raise CheckFailed(f"{said}: {reason or 'the rules force nothing here'}")
            match.apply(event)
            head = chain.step(head, codec.encode(seq, event).encode("utf-8"))
            variation.events.append(event)
            variation.heads.append(head)
        if isinstance(match.node, (Chance, Forced)):
            raise CheckFailed(f"{what}: it stops at event {match.seq}, before the outcome or rule event due there")
        self._keep(variation.id, match)

    def _take_analysis(self, data: dict, number: int) -> None:
        ident = self._named(data, "a")
        bot, seed = data["bot"], data["seed"]
        for field, value in (("bot", bot), ("seed", seed)):
            if not isinstance(value, str) or not 0 < len(value) <= 256:
                raise LogFormatError(f"analysis {ident}: '{field}' must be 1 to 256 characters")
        self.analyses[ident] = Analysis(ident, bot, seed, number)

    def _take_judgement(self, data: dict, number: int) -> None:
        analysis = data["analysis"]
        if not isinstance(analysis, str) or analysis not in self.analyses:
            raise CheckFailed(f"a judgement of analysis {describe(analysis)}: no such analysis before it")
        at = self._anchored(data, f"a judgement of analysis {analysis}", main_only=True)
        what = f"the judgement of event {at.seq} by analysis {analysis}"
        if (analysis, at.seq) in self.judgements:
            raise CheckFailed(f"{what}: the decision is judged twice")
        event = self.events[at.seq - 1] if at.seq else None
        player = data["player"]
        if event is None or event.origin != DECISION or getattr(event, "player", None) != player:
            raise CheckFailed(f"{what}: event {at.seq} is no decision of {describe(player)}")
        values = []
        for field in ("before", "after"):
            value = data[field]
            if value is not None and (type(value) not in (int, float) or not 0 <= value <= 1):
                raise LogFormatError(f"{what}: '{field}' must be a chance from 0 to 1, or null")
            values.append(None if value is None else float(value))
        best = data["best"]
        if best is not None:
            if not isinstance(best, dict) or "seq" in best:
                raise LogFormatError(f"{what}: 'best' must be a decision (kind, player, payload), or null")
            try:
                best = self.registry.codec.decode(self.header.game, {"seq": 0, **best})[1]
            except TabletopError as exc:
                raise LogFormatError(f"{what}: 'best': {exc.message}") from None
            if best.origin != DECISION or getattr(best, "player", None) != player:
                raise CheckFailed(f"{what}: 'best' is no decision of {player}")
        self.judgements[(analysis, at.seq)] = Judgement(analysis, at, player, values[0], values[1], best, number)


def load(registry: Registry, log: Path, path: Path | None = None) -> Study:
    """The study of ``log`` (at ``path``, by default beside it: see
    :func:`default_path`), every record checked against the log; an empty
    study when there is no file yet. The log is read once and never written."""
    log = Path(log)
    path = Path(path) if path is not None else default_path(log)
    with files.open_regular(log) as handle:
        try:
            data = handle.read()
        except OSError as exc:
            raise UsageError(f"cannot read: {files.reason(exc)}", where=str(log)) from None
    replay = Replay(registry, log, io.BytesIO(data))
    events = [event for _, _, event in replay]
    match = replay.match
    study = Study(registry, log, path, replay.header, events)
    study.source = data
    study.heads = _heads(data, log, match)
    if not path.exists() and not os.path.islink(path):
        return study
    if is_same_file(path, log):
        raise UsageError("the study file is the log itself: a study is kept beside its log", where=str(path))
    with files.open_regular(path, "rb", "cannot read the study") as handle:
        for number, line in logfile.read_lines(path, handle):
            study._take(line, number)
        study.size = handle.tell()
    return study


def is_same_file(a: Path, b: Path) -> bool:
    with contextlib.suppress(OSError):
        return os.path.samefile(a, b)
    return False


def _heads(data: bytes, log: Path, match: Match) -> list[str]:
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


def _settle(match: Match, seed: str) -> list[Event]:
    """The chance outcomes (from the variation's ``seed``) and rule events that
    follow a decision in a variation, up to the next decision or the end."""
    events: list[Event] = []
    while len(events) < MAX_EVENTS:
        node = match.node
        if isinstance(node, Chance):
            event = node.pick(chance.number(seed, match.seq + 1))
        elif isinstance(node, Forced):
            event = node.event
        else:
            return events
        match.apply(event)
        events.append(event)
    raise IllegalEventError(f"the rules ran on for {MAX_EVENTS:,} events without a decision")


def _fields(data: dict, required: set[str], optional: set[str], what: str) -> None:
    missing = sorted(required - set(data))
    if missing:
        raise LogFormatError(f"{what} has no '{missing[0]}'")
    extra = sorted(set(data) - required - optional)
    if extra:
        raise LogFormatError(f"{what}: unknown field {quote(extra[0])}")


def _spots(values: Any, what: str, field: str) -> tuple[str, ...]:
    if not isinstance(values, list) or len(values) > MAX_SPOTS:
        raise LogFormatError(f"{what}: '{field}' must be a list of at most {MAX_SPOTS} names")
    for value in values:
        if not isinstance(value, str) or not _SPOT.match(value):
            raise LogFormatError(
                f"{what}: {describe(value)} in '{field}' is no square or spot name (1 to 16 letters, digits or _.+-)"
            )
    return tuple(values)


def made_up(game: Game, state: Any, seen_as: str, seed: str) -> Any:
    """The world a variation made as ``seen_as`` is played in: ``seen_as``'s
    view of ``state`` filled in by the game's ``determinize``, drawing from
    the variation's ``seed`` alone (nothing of ``state`` but the view)."""
    rng = random.Random(hashlib.sha256(b"tabletop world\x00" + seed.encode("utf-8")).digest())
    return game.determinize(seen.view(game, state, seen_as), seen_as, rng)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(float(value), 4)


def _dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _line_name(line: str) -> str:
    return "the game" if line == MAIN else f"variation {line}"


def _eyes(seen_as: str | None) -> str:
    return "seeing everything" if seen_as is None else f"as {seen_as}"


def _game_words(data: dict) -> str:
    players = data.get("players")
    names = ", ".join(p for p in players if isinstance(p, str)) if isinstance(players, list) else "?"
    game = data.get("game")
    return f"{game if isinstance(game, str) else '?'}: {names}"
