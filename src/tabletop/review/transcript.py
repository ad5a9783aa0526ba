"""Transcripts: a game as a text to read, mail and annotate, and back to its
log byte for byte.

A transcript is PGN-like (docs/transcripts.md): a block of tags, one per
line (``[Game "glux"]``), a blank line, then the game. Each decision starts
a line, written ``PLAYER: NOTATION`` in the game's notation; a number
``12.`` starts the line of the decision that opens a turn, counted as the
players count: a new number each time the turn order comes back to the
first player, setup not counted. Chance outcomes and what the rules decide
follow the decision they come after, each in angle brackets, in the game's
words (``<ann: draw 2/5>``, ``<D1 rolls E>``). ``{...}`` is a comment and
``(...)`` a variation, as in PGN: a study's notes, read back anchored to the
event they follow.

Reading one back (:func:`rebuild`) plays it through the rules: each decision
is read in the game's notation, each chance outcome is the one the seed
gives (with a seed: what is written must be what the seed gives) or, at a
real table, the one written; what the rules decide must be what is written.
Where the game's words could not be read back as exactly the event the log
holds, the transcript gives the event itself: ``={...}``, its line as JSON.
Writing checks each item that way, so every log tabletop writes comes back
the same, byte for byte.
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..base.errors import (
    CheckFailed,
    IllegalEventError,
    LogFormatError,
    NotationError,
    TabletopError,
    UsageError,
    quote,
)
from ..host.registry import Registry
from ..log import files
from ..log.header import Header, check_players, check_seed
from ..log.logfile import read_lines
from ..model.events import CHANCE, DECISION, Event, Resign, Reveal, Seal, Unseal
from ..model.nodes import Chance, Decide, Forced, Node
from ..play import chance
from ..play.engine import Match, Replay
from ..play.standing import result
from ..play.table import possible
from ..sight import seen

#: The transcript format this module writes and reads.
VERSION = 1
#: The largest transcript read, in bytes, and its longest line.
MAX_SIZE = 1 << 26
MAX_LINE = 1 << 21
#: How deep variations may nest.
MAX_DEPTH = 64
#: PGN's tags that say where and when a game was played: read, kept, not needed.
INFORMATION = ("Event", "Site", "Date", "Round", "Annotator")
#: The tags of a transcript, in the order they are written.
TAGS = ("Tabletop", "Game", "Players", "Variant", "Options", "Seed", "Commitment", "Randomness", "Events", "Result")
#: The words of the core's decisions (tabletop's own, in every game).
SEAL, UNSEAL, RESIGN = "seal", "unseal", "resign"
#: How a revealed seed is written (as ``Match.describe`` says it).
REVEALED = "the seed is revealed: "
#: An outcome line longer than this goes on on the next line.
WIDTH = 100

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) ("(?:[^"\\]|\\.)*")\]$')
_TURN = re.compile(r"(\d{1,9})\.(?=\s|$)")
_NAME = re.compile(r"([^\s:<>{}()=]+):(?=\s|$)")
_WORD = re.compile(r"\s(\S+)")
#: A comment's text up to its closing brace (``\}`` and ``\\`` escaped), and an escape in it.
_COMMENT = re.compile(r"((?:[^\\}]|\\.)*)\}", re.S)
_ESCAPED = re.compile(r"\\(.)", re.S)
#: What ends a decision's notation: the start of another item.
_STOPS = "<{()"


# -- the parts of a transcript ----------------------------------------------------
@attrs.frozen
class Item:
    """One item of a transcript's game, at line ``line``.

    ``kind`` is ``turn`` (``text`` the number), ``decision`` (``player``
    and ``text``, the notation), ``words`` (an outcome or what the rules
    decide, ``text`` inside the brackets), ``exact`` (``value``: an event's
    line as JSON, without its number), ``comment`` (``text``) or
    ``variation`` (``items``)."""

    kind: str
    line: int
    text: str = ""
    player: str | None = None
    value: Any = None
    items: tuple[Item, ...] = ()

    @property
    def event_like(self) -> bool:
        return self.kind in ("decision", "words", "exact")


@attrs.frozen
class Note:
    """A comment or a variation of a transcript, after event ``after`` (0:
    before the first). A variation is an alternative to event ``after``, as
    in PGN: its first decision is played instead of that one."""

    after: int
    line: int
    comment: str | None = None
    variation: tuple[Item, ...] = ()


@attrs.frozen
class Transcript:
    """A transcript read: its tags, the header they make, and its game."""

    where: str
    tags: Mapping[str, Any]
    tag_lines: Mapping[str, int]
    header: Header
    items: tuple[Item, ...]

    def events(self) -> list[Item]:
        return [item for item in self.items if item.event_like]

    def notes(self) -> list[Note]:
        """The comments and variations, each anchored after the event it follows."""
        found, count = [], 0
        for item in self.items:
            if item.event_like:
                count += 1
            elif item.kind == "comment":
                found.append(Note(count, item.line, comment=item.text))
            elif item.kind == "variation":
                found.append(Note(count, item.line, variation=item.items))
        return found


# -- turns ---------------------------------------------------------------------------
class Turns:
    """Turn numbers as the players count them: a new number each time the
    turn order comes back to the first player (the first whose turn it is
    once setup is over), setup not counted.

    Whose turn it is comes from the game's legend (the key to its pictures,
    :class:`~tabletop.Legend`); a game without one counts the turns of the
    players who decide, in seat order, but for the kinds of decision that
    several players were open to make at once (setup, like secret ones)."""

    def __init__(self, registry: Registry, match: Match) -> None:
        self.match = match
        self.legend = None
        try:
            renderer = registry.renderer(match.header.game, "svg")
        except TabletopError:
            renderer = None
        if renderer is not None:
            self.legend = renderer.key(match.game)
        self.seats = {p: i for i, p in enumerate(match.header.players)}
        #: Kinds of decision several players were open to make at once.
        self.together: set[str] = set()
        self.first: str | None = None
        self.last: str | None = None
        self.number = 0

    def whose(self, decision: Event) -> str | None:
        if self.legend is not None and self.legend.turn is not None:
            return seen.turn(self.legend, self.match.game, self.match.state, seen.EVERYONE)
        node = self.match.node
        if isinstance(node, Decide) and len(node.players) > 1:
            self.together.add(decision.kind)
        if isinstance(decision, (Seal, Unseal)) or decision.kind in self.together:
            return None  # a kind of decision all make at once is no one's turn: setup
        return getattr(decision, "player", None)

    def next(self, decision: Event) -> int | None:
        """The number of the turn ``decision`` opens (before it is applied), or None."""
        whose = self.whose(decision)
        if whose is None or whose == self.last:
            return None
        opens = None
        if self.first is None:
            self.first, self.number, opens = whose, 1, 1
        elif self.last is None or self._place(whose) <= self._place(self.last):
            self.number += 1
            opens = self.number
        self.last = whose
        return opens

    def _place(self, player: str) -> int:
        assert self.first is not None
        return (self.seats[player] - self.seats[self.first]) % len(self.seats)


# -- words -----------------------------------------------------------------------------
def decision_words(match: Match, event: Event) -> str:
    """A decision as a transcript writes it, without its player."""
    if isinstance(event, Seal):
        return f"{SEAL} {event.commitment}"
    if isinstance(event, Unseal):
        return f"{UNSEAL} {event.salt} {match.game.notate(match.unsealed(event))}"
    if isinstance(event, Resign):
        return RESIGN
    return match.game.notate(event)


def outcome_words(match: Match, event: Event) -> str:
    """A chance outcome or an event the rules decide, in the game's words."""
    if event.origin == CHANCE:
        written = match.game.notate_outcome(event)
        if written is not None:
            player = getattr(event, "player", None)
            return f"{player}: {written}" if player else written
    return match.describe(event)


def read_decision(match: Match, player: str, text: str) -> Event:
    """The decision ``text`` of ``player`` names now (the core's words first)."""
    word, _, rest = text.partition(" ")
    if word == RESIGN and not rest:
        return Resign(player)
    if word == SEAL and rest and " " not in rest:
        return Seal(player, rest)
    if word == UNSEAL:
        salt, _, notation = rest.partition(" ")
        if not salt or not notation:
            raise NotationError("write 'unseal SALT DECISION'")
        inner = match.game.parse(notation, player, match.state)
        line = match.registry.codec.unstructure(inner)
        line.pop("player", None)
        return Unseal(player, salt, {"kind": inner.kind, "payload": line})
    return match.game.parse(text, player, match.state)


def read_outcome(match: Match, text: str, seed: str | None) -> Event:
    """The chance outcome or rules event ``text`` names now: with ``seed``,
    the seed's outcome, which ``text`` must name."""
    node = match.node
    seq = match.seq + 1
    if isinstance(node, Chance):
        if seed is not None:
            expected = node.pick(chance.number(seed, seq))
            if outcome_words(match, expected) != text:
                raise CheckFailed(
                    f"event {seq}: the seed gives '{outcome_words(match, expected)}', the transcript has {quote(text)}"
                )
            return expected
        found = [o for o in possible(match) if outcome_words(match, o) == text]
        if len(found) == 1:
            return found[0]
        from ..play.table import parse_outcome

        # Written by hand: as ``play`` reads an outcome at a table (its player's name first, or not).
        name, colon, rest = text.partition(": ")
        player = name if colon and name in match.header.players else None
        try:
            return parse_outcome(match, rest if player else text, player)
        except TabletopError as exc:
            raise IllegalEventError(f"event {seq}: {exc.message}") from None
    if isinstance(node, Forced):
        written = outcome_words(match, node.event)
        if written != text:
            raise IllegalEventError(f"event {seq}: the rules give '{written}' here, the transcript has {quote(text)}")
        return node.event
    if text.startswith(REVEALED) and match.over:
        return Reveal(text[len(REVEALED) :])
    raise IllegalEventError(f"event {seq}: {_due(node)} comes next, not {quote(text)}")


def _due(node: Node) -> str:
    if isinstance(node, Decide):
        return f"a decision by {' or '.join(node.players)}"
    return "nothing" if not isinstance(node, (Chance, Forced)) else "a chance outcome"


# -- writing ---------------------------------------------------------------------------
@attrs.frozen
class Written:
    """A transcript written: its text, notes on what it cannot give back
    exactly, how many events it holds, and whether it shows the hidden draws
    of a sealed game that is not over."""

    text: str
    warnings: tuple[str, ...]
    events: int
    secret: bool


def write(registry: Registry, path: Path, notes: Mapping[int, Sequence[str]] | None = None) -> Written:
    """The transcript of the log at ``path``. ``notes``: what to write after
    event N (0: before the first), as transcript text: comments made with
    :func:`comment`, variations (see :func:`from_study`)."""
    raw = [line for _, line in read_lines(path)]
    replay = Replay(registry, path)
    header = replay.header
    match = replay.match
    codec = registry.codec
    warnings = []
    if header.line().encode() != raw[0]:
        warnings.append(f"{path}:1: the header is not written as tabletop writes it; import gives it back as it does")
    seed = header.randomness.seed or _revealed_at_end(registry, header, raw)
    if seed is not None and not (header.randomness.seed or chance.matches(seed, header.randomness.commitment or "")):
        seed = None  # the replay refuses a reveal that does not match
    turns = Turns(registry, match)
    lines: list[str] = []
    current: list[str] = []
    indent = ""

    def flush() -> None:
        if current:
            lines.append(" ".join(current))
            current.clear()

    def add(piece: str) -> None:
        # Outcomes go on on the next line, indented, past the width.
        if current and len(" ".join(current)) + 1 + len(piece) > WIDTH:
            flush()
            current.append(indent + "  " + piece)
        else:
            current.append(piece)

    for note in (notes or {}).get(0, ()):
        add(note)

    def before(match: Match, seq: int, event: Event) -> None:
        nonlocal indent
        line = codec.encode(seq, event)
        if line.encode() != raw[seq] and not any(": not written as" in w for w in warnings):  # the first says it
            warnings.append(
                f"{path}:{seq + 1}: not written as tabletop writes its lines; import gives it back as tabletop does"
            )
        if event.origin == DECISION:
            flush()
            number = turns.next(event)
            if number is not None:
                indent = " " * len(f"{number}. ")
                current.append(f"{number}.")
            elif indent:
                current.append(indent[:-1])
            current.append(_decision_item(match, seq, event, line, codec))
        else:
            add(_outcome_item(match, seq, event, line, codec, seed, path))
        for note in (notes or {}).get(seq, ()):
            add(note)

    replay.before = before
    match.hurry()  # the game's fast path, when it has one: a state is made only where a decision is read
    for _ in replay:
        pass
    flush()
    tags = _tags(header, match)
    text = "\n".join([*tags, "", *lines]) + "\n"
    secret = header.randomness.sealed and match.revealed is None
    return Written(text, tuple(warnings), match.seq, secret)


def comment(text: str) -> str:
    """A comment as a transcript writes it: ``}`` and ``\\`` escaped."""
    return "{" + text.replace("\\", "\\\\").replace("}", "\\}") + "}"


def from_study(study: Any) -> dict[int, list[str]]:
    """A study's notes and variations (:mod:`tabletop.review.study`) as transcript
    text, by the event of the main line each follows: a note after the event
    it is anchored to (its mark first), a variation after the decision it is
    an alternative to (as in PGN), with the notes and variations on it inside."""
    from .study import MAIN

    pieces: dict[int, list[str]] = {}
    _annotate(study, MAIN, 0, len(study.events), pieces)
    return pieces


def _annotate(study: Any, line: str, first: int, last: int, pieces: dict[int, list[str]]) -> None:
    """Into ``pieces``: the notes and variations on ``line``, by the event (from
    ``first`` to ``last``) they are written after."""
    for note in study.notes:
        if note.at.line == line:
            pieces.setdefault(note.at.seq, []).append(comment(_note_words(note)))
    for variation in study.variations.values():
        if variation.at.line == line:
            after = min(variation.at.seq + 1, last) if last > first else first
            pieces.setdefault(after, []).append(_variation_text(study, variation))


def _note_words(note: Any) -> str:
    words = [note.mark or "", note.comment]
    if note.squares:
        words.append(f"[%csl {','.join(note.squares)}]")
    if note.arrows:
        words.append(f"[%cal {','.join(a + '-' + b for a, b in note.arrows)}]")
    return " ".join(w for w in words if w)


def _variation_text(study: Any, variation: Any) -> str:
    """A variation as transcript text: ``(...)``, its decisions and outcomes
    written as the main line's are, from the position it starts at."""
    codec = study.registry.codec
    match = study.match(variation.at.line, variation.at.seq, variation.seen_as, variation.seed)
    inner: dict[int, list[str]] = {}
    _annotate(study, variation.id, variation.at.seq, variation.end, inner)
    parts: list[str] = [*inner.get(variation.at.seq, ())] if variation.at.seq == variation.end else []
    for seq, event in enumerate(variation.events, start=variation.at.seq + 1):
        line = codec.encode(seq, event)
        if event.origin == DECISION:
            parts.append(_decision_item(match, seq, event, line, codec))
        else:
            parts.append(_outcome_item(match, seq, event, line, codec, None, Path(study.log)))
        match.apply(event)
        parts += inner.get(seq, ())
    return "(" + " ".join(parts) + ")"


def _revealed_at_end(registry: Registry, header: Header, raw: list[bytes]) -> str | None:
    """The seed a sealed game's last line reveals, if it does."""
    if not header.randomness.sealed or len(raw) < 2:
        return None
    try:
        _, event = registry.codec.decode_line(header.game, raw[-1])
    except TabletopError:
        return None
    return event.seed if isinstance(event, Reveal) else None


def _decision_item(match: Match, seq: int, event: Event, line: str, codec: Any) -> str:
    player = event.player  # type: ignore[attr-defined]
    try:
        text = decision_words(match, event)
        if (
            _plain(text)
            and _reads_as(match.header.players, player, text)
            and _same(codec, seq, read_decision(match, player, text), event, line)
        ):
            return f"{player}: {text}"
    except Exception:  # a notation that does not read back is written exactly instead
        pass
    return _exact(codec, seq, event)


def _outcome_item(match: Match, seq: int, event: Event, line: str, codec: Any, seed: str | None, path: Path) -> str:
    node = match.node
    if seed is not None and isinstance(node, Chance) and event.origin == CHANCE:
        expected = node.pick(chance.number(seed, seq))
        if expected != event:
            raise CheckFailed(
                f"event {seq}: the seed gives '{match.describe(expected)}', the log has '{match.describe(event)}'",
                where=f"{path}:{seq + 1}",
            )
    try:
        text = outcome_words(match, event)
        if ">" not in text and "\n" not in text and _same(codec, seq, read_outcome(match, text, seed), event, line):
            return f"<{text}>"
    except Exception:  # words that name another outcome too: the event is written exactly
        pass
    return _exact(codec, seq, event)


def _same(codec: Any, seq: int, read: Event, event: Event, line: str) -> bool:
    """Whether the event read back is written as ``line``, the event's line."""
    if read != event:
        return False
    # Equal events are written alike, but for a sealed choice's keys, which
    # compare equal in any order (and are written in the order they came).
    return not isinstance(event, Unseal) or codec.encode(seq, read) == line


def _plain(text: str) -> bool:
    return (
        bool(text.strip())
        and text == text.strip()
        and "\n" not in text
        and "={" not in text
        and not any(c in text for c in _STOPS)
    )


def _reads_as(players: Sequence[str], player: str, text: str) -> bool:
    """Whether ``PLAYER: text`` is read back as one decision with that text."""
    if ":" not in text and "." not in text:
        return True  # nothing in it could start another item
    items = list(_scan(f"{player}: {text}", 1, set(players)))
    return len(items) == 1 and items[0].kind == "decision" and items[0].text == text


def _exact(codec: Any, seq: int, event: Event) -> str:
    data = json.loads(codec.encode(seq, event))
    del data["seq"]
    return "=" + json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _tags(header: Header, match: Match) -> list[str]:
    def tag(name: str, value: str) -> str:
        return f"[{name} {json.dumps(value, ensure_ascii=False)}]"

    out = [tag("Tabletop", str(header.version)), tag("Game", header.game), tag("Players", ", ".join(header.players))]
    out += [tag("Variant", v) for v in header.variants]
    if header.options:
        out.append(tag("Options", json.dumps(dict(header.options), ensure_ascii=False, separators=(",", ":"))))
    randomness = header.randomness
    if randomness.seed is not None:
        out.append(tag("Seed", randomness.seed))
    elif randomness.commitment is not None:
        out.append(tag("Commitment", randomness.commitment))
    else:
        out.append(tag("Randomness", "table"))
    out.append(tag("Events", str(match.seq)))
    if match.over:
        out.append(tag("Result", result(match)))
    return out


# -- reading ---------------------------------------------------------------------------
def read(registry: Registry, path: Path) -> Transcript:
    """A transcript read from ``path``: tags checked, the game tokenized (not
    yet played). Errors name the line at fault."""
    return parse(registry, load(path), "<stdin>" if str(path) == "-" else str(path))


def load(path: Path) -> bytes:
    """The bytes of a transcript (``-``: standard input), never more than :data:`MAX_SIZE`."""
    if str(path) == "-":
        return sys.stdin.buffer.read(MAX_SIZE + 1)
    with files.open_regular(Path(path)) as handle:
        try:
            return handle.read(MAX_SIZE + 1)
        except OSError as exc:
            raise UsageError(f"cannot read: {files.reason(exc)}", where=str(path)) from None


def peek_game(data: bytes) -> str | None:
    """The game a transcript's [Game] tag names, or None (:func:`parse` says why)."""
    m = re.search(rb'^\[Game ("(?:[^"\\\n]|\\.)*")\]\s*$', data[:MAX_LINE], re.M)
    try:
        game = json.loads(m.group(1)) if m else None
    except ValueError:
        return None
    return game if isinstance(game, str) else None


def parse(registry: Registry, data: bytes, where: str) -> Transcript:
    if len(data) > MAX_SIZE:
        raise UsageError(f"larger than {MAX_SIZE >> 20} MiB: not a transcript tabletop writes", where=where)
    text = _text(data, where)
    lines = text.split("\n")
    tags: dict[str, Any] = {}
    tag_lines: dict[str, int] = {}
    number = 0
    while number < len(lines) and not lines[number].strip():
        number += 1
    if number == len(lines) or not lines[number].startswith('[Tabletop "'):
        raise LogFormatError(
            'not a tabletop transcript: it begins with a [Tabletop "1"] tag', where=f"{where}:{number + 1}"
        )
    while number < len(lines) and lines[number].strip():
        _tag(lines[number].strip(), number + 1, where, tags, tag_lines)
        number += 1
    header = _header(registry, tags, tag_lines, where)
    players = set(header.players)
    body = "\n".join(lines[number:])
    items = tuple(_items(body, number + 1, players, where))
    return Transcript(where, tags, tag_lines, header, items)


def _text(data: bytes, where: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        number = data[: exc.start].count(b"\n") + 1
        raise LogFormatError("not UTF-8 text", where=f"{where}:{number}") from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark some editors add
    text = text.replace("\r\n", "\n")  # a transcript may come through mail
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE:
            raise LogFormatError(f"line longer than {MAX_LINE:,} characters", where=f"{where}:{number}")
        if not (line.isprintable() or all(c.isprintable() or c == "\t" for c in line)):
            raise LogFormatError("not text: the line holds a control character", where=f"{where}:{number}")
    return text


def _tag(line: str, number: int, where: str, tags: dict[str, Any], tag_lines: dict[str, int]) -> None:
    at = f"{where}:{number}"
    m = _TAG.match(line)
    if not m:
        raise LogFormatError('not a tag: a tag is [Name "value"], one per line, before the game', where=at)
    name = m.group(1)
    try:
        value = json.loads(m.group(2))
    except ValueError:
        raise LogFormatError(
            f"the [{name}] tag's value is not a string (escape only \\\" and \\\\)", where=at
        ) from None
    if name not in TAGS and name not in INFORMATION:
        raise LogFormatError(f"unknown tag [{name}] (tags: {', '.join(TAGS + INFORMATION)})", where=at)
    if name == "Variant":
        tags.setdefault(name, []).append((value, number))
        tag_lines.setdefault(name, number)
        return
    if name in tags:
        raise LogFormatError(f"the [{name}] tag is given twice", where=at)
    tags[name], tag_lines[name] = value, number


def _header(registry: Registry, tags: dict[str, Any], tag_lines: dict[str, int], where: str) -> Header:
    """The log's header the tags give, each tag checked: what is wrong is said at its tag's line."""

    def at(name: str) -> str:
        # A tag that is missing is said at [Tabletop], the line every transcript opens with.
        return f"{where}:{tag_lines.get(name, tag_lines['Tabletop'])}"

    version = _version(tags, at)
    cls, players = _game_and_players(registry, tags, at)
    variants = _variants(registry, tags, cls.name, where)
    options = _options(tags, at)
    randomness = _randomness(tags, at)
    for name in ("Events",):
        if name in tags and not (tags[name].isdigit() and len(tags[name]) <= 9):
            raise LogFormatError(f"the [{name}] tag holds a number", where=at(name))
    data = {
        "tabletop": int(version),
        "game": tags["Game"],
        "players": players,
        "variants": variants,
        "options": options,
        "randomness": randomness,
    }
    return _made_header(registry, data, tags, at)


def _version(tags: dict[str, Any], at: Callable[[str], str]) -> str:
    """The log format the [Tabletop] tag names, once the tags every transcript has are there."""
    version = tags["Tabletop"]
    if version not in ("1", "2"):
        raise LogFormatError(
            f"unsupported log format {quote(version)} (this tabletop reads 1 and 2)", where=at("Tabletop")
        )
    for name in ("Game", "Players"):
        if name not in tags:
            raise LogFormatError(f"the [{name}] tag is missing", where=at("Tabletop"))
    return version


def _game_and_players(registry: Registry, tags: dict[str, Any], at: Callable[[str], str]) -> tuple[Any, list[str]]:
    try:
        cls = registry.game_class(tags["Game"])
    except TabletopError as exc:
        raise exc.at(at("Game")) from None
    players = tags["Players"].split(", ")
    try:
        check_players(players)
    except TabletopError as exc:
        raise exc.at(at("Players")) from None
    return cls, players


def _variants(registry: Registry, tags: dict[str, Any], game: str, where: str) -> list[str]:
    # Each [Variant] tag is said at its own line: a transcript may give several.
    variants = []
    for entry, number in tags.get("Variant", []):
        try:
            canonical = registry.variant_entry(entry, game)
        except TabletopError as exc:
            raise exc.at(f"{where}:{number}") from None
        if canonical != entry:
            raise LogFormatError(f"write the variant as {quote(canonical)}", where=f"{where}:{number}")
        variants.append(entry)
    return variants


def _options(tags: dict[str, Any], at: Callable[[str], str]) -> Any:
    if "Options" not in tags:
        return {}
    try:
        options = json.loads(tags["Options"])
    except ValueError:
        options = None
    if not isinstance(options, dict):
        raise LogFormatError("the [Options] tag holds the options as a JSON object", where=at("Options"))
    return options


def _randomness(tags: dict[str, Any], at: Callable[[str], str]) -> dict[str, str]:
    """Where the draws come from: a seed, a commitment to one, or a real table."""
    given = [name for name in ("Seed", "Commitment", "Randomness") if name in tags]
    if len(given) != 1:
        raise LogFormatError(
            'one of [Seed "..."], [Commitment "sha256:..."] or [Randomness "table"] says where draws come from',
            where=at(given[1] if given else "Tabletop"),
        )
    if "Seed" in tags:
        try:
            check_seed(tags["Seed"], "the seed")
        except TabletopError as exc:
            raise exc.at(at("Seed")) from None
        return {"seed": tags["Seed"]}
    if "Commitment" in tags:
        return {"commitment": tags["Commitment"]}
    if tags["Randomness"] != "table":
        raise LogFormatError('[Randomness "table"]: the outcomes were recorded at a real table', where=at("Randomness"))
    return {}


def _made_header(registry: Registry, data: dict[str, Any], tags: dict[str, Any], at: Callable[[str], str]) -> Header:
    """The header of ``data``, and its game made: what the header's own checks
    refuse is said at the tag most likely at fault."""
    try:
        header = Header.from_json(data)
        registry.game(header)
    except TabletopError as exc:
        name = (
            "Options"
            if "option" in exc.message and "Options" in tags
            else "Commitment"
            if "commitment" in exc.message
            else "Game"
        )
        raise exc.at(at(name)) from None
    return header


def _items(body: str, first: int, players: set[str], where: str) -> Iterator[Item]:
    """The items of a transcript's game, variations nested."""
    stack: list[tuple[int, list[Item]]] = []
    out: list[Item] = []
    for item in _scan(body, first, players, where):
        if item.kind == "open":
            if len(stack) >= MAX_DEPTH:
                raise LogFormatError(f"variations nested more than {MAX_DEPTH} deep", where=f"{where}:{item.line}")
            stack.append((item.line, out))
            out = []
        elif item.kind == "close":
            if not stack:
                raise LogFormatError("')' closes no variation", where=f"{where}:{item.line}")
            line, outer = stack.pop()
            outer.append(Item("variation", line, items=tuple(out)))
            out = outer
        else:
            out.append(item)
    if stack:
        raise LogFormatError("'(' opens a variation that is not closed", where=f"{where}:{stack[-1][0]}")
    yield from out


def _scan(text: str, first: int, players: set[str], where: str = "") -> Iterator[Item]:
    """The items of ``text`` (line ``first`` on), a variation's brackets as
    items of their own (``open``, ``close``)."""
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def line_of(pos: int) -> int:
        return first + bisect.bisect_right(starts, pos) - 1

    decoder = json.JSONDecoder()
    pos, end = 0, len(text)
    while pos < end:
        c = text[pos]
        if c.isspace():
            pos += 1
            continue
        line = line_of(pos)
        at = f"{where}:{line}"
        if c == "<":
            close = text.find(">", pos)
            newline = text.find("\n", pos)
            if close < 0 or (0 <= newline < close):
                raise LogFormatError("'<' without its '>' on the same line", where=at)
            yield Item("words", line, text[pos + 1 : close].strip())
            pos = close + 1
        elif c == "{":
            m = _COMMENT.match(text, pos + 1)
            if m is None:
                raise LogFormatError("'{' opens a comment that is not closed", where=at)
            yield Item("comment", line, _ESCAPED.sub(r"\1", m.group(1)))
            pos = m.end()
        elif c == "(":
            yield Item("open", line)
            pos += 1
        elif c == ")":
            yield Item("close", line)
            pos += 1
        elif c == "=":
            try:
                value, stop = decoder.raw_decode(text, pos + 1)
            except (ValueError, RecursionError):
                raise LogFormatError("'=' is followed by an event's line as JSON", where=at) from None
            if not isinstance(value, dict):
                raise LogFormatError("'=' is followed by an event's line as JSON (an object)", where=at)
            yield Item("exact", line, text[pos:stop], value=value)
            pos = stop
        elif (m := _TURN.match(text, pos)) is not None:
            yield Item("turn", line, m.group(1))
            pos = m.end()
        elif (m := _NAME.match(text, pos)) is not None:
            player = m.group(1)
            if player not in players:
                raise LogFormatError(f"{quote(player)} is not a player of this game", where=at)
            stop = _decision_end(text, m.end(), players)
            notation = text[m.end() : stop].strip()
            if not notation:
                raise LogFormatError(
                    f"{player}: what did {player} decide? (a decision in the game's notation)", where=at
                )
            yield Item("decision", line, notation, player=player)
            pos = stop
        else:
            word = text[pos:].split(None, 1)[0]
            raise LogFormatError(
                f"cannot read {quote(word)}: a decision is PLAYER: NOTATION, an outcome <...>, a comment {{...}}",
                where=at,
            )


def _decision_end(text: str, pos: int, players: set[str]) -> int:
    """Where the notation that starts at ``pos`` ends: at the end of its line,
    before another item's bracket or an event written exactly (``={``), or
    before a turn number or a player's name that begins another decision on
    the same line."""
    newline = text.find("\n", pos)
    stop = len(text) if newline < 0 else newline
    for c in ("={", *_STOPS):  # "={" first: its brace is a stop of its own
        i = text.find(c, pos, stop)
        if i >= 0:
            stop = i
    i = pos
    while True:
        m = _WORD.search(text, i, stop)
        if m is None:
            return stop
        word = m.group(1)
        if (word.endswith(":") and word[:-1] in players) or _TURN.fullmatch(word):
            return m.start()
        i = m.end()


# -- playing a transcript back into a log ---------------------------------------------
@attrs.frozen
class Rebuilt:
    """A log made from a transcript: its lines, the match, and where its
    chance outcomes came from (``seed``: checked against it)."""

    lines: tuple[str, ...]
    match: Match
    checked: int
    seed: str | None


def rebuild(registry: Registry, transcript: Transcript) -> Rebuilt:
    """Play ``transcript`` through the rules into the lines of its log."""
    where = transcript.where
    header = transcript.header
    codec = registry.codec
    match = Match(registry, header)
    match.hurry()
    items = transcript.events()
    seed = header.randomness.seed or _revealed(transcript, items, match)
    turns = Turns(registry, match)
    lines = [header.line()]
    checked = 0
    number: Item | None = None
    last = transcript.tag_lines["Tabletop"]
    for item in transcript.items:
        if item.kind == "turn":
            number = item
            continue
        if not item.event_like:
            continue
        last = item.line
        seq = match.seq + 1
        try:
            node = match.node
            if item.kind == "decision":
                assert item.player is not None
                try:
                    event = read_decision(match, item.player, item.text)
                except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                    # A game's notation reader that fails on odd text: the text is not a decision.
                    raise NotationError(f"cannot read {quote(item.text)} as a decision of {item.player}") from None
            elif item.kind == "words":
                event = read_outcome(match, item.text, seed)
            else:
                event = _decoded(registry, header, seq, item.value)
                if seed is not None and isinstance(node, Chance) and event.origin == CHANCE:
                    expected = node.pick(chance.number(seed, seq))
                    if expected != event:
                        raise CheckFailed(
                            f"event {seq}: the seed gives '{outcome_words(match, expected)}', the transcript has "
                            f"'{outcome_words(match, event)}'"
                        )
            if seed is not None and isinstance(node, Chance) and event.origin == CHANCE:
                checked += 1
            if event.origin == DECISION:
                opens = turns.next(event)
                if number is not None and (opens is None or str(opens) != number.text):
                    said = f"turn {opens} begins here" if opens is not None else "no turn begins here"
                    raise LogFormatError(f"{number.text}. is not this turn's number: {said}")
            number = None
            match.accept(event, seq)
        except TabletopError as exc:
            raise exc.at(f"{where}:{item.line}") from None
        lines.append(codec.encode(seq, event))
    _check_tags(transcript, match, last)
    return Rebuilt(tuple(lines), match, checked, seed)


def _decoded(registry: Registry, header: Header, seq: int, value: dict) -> Event:
    if "seq" in value:
        raise LogFormatError("an exact event is written without its 'seq'")
    return registry.codec.decode(header.game, {"seq": seq, **value})[1]


def _revealed(transcript: Transcript, items: list[Item], match: Match) -> str | None:
    """The seed a sealed game's transcript reveals at its end, checked."""
    if not transcript.header.randomness.sealed or not items:
        return None
    last = items[-1]
    seed = None
    if last.kind == "words" and last.text.startswith(REVEALED):
        seed = last.text[len(REVEALED) :]
    elif last.kind == "exact" and last.value.get("kind") == "reveal":
        seed = (last.value.get("payload") or {}).get("seed")
    if not isinstance(seed, str):
        return None
    if not chance.matches(seed, transcript.header.randomness.commitment or ""):
        raise CheckFailed(
            "the revealed seed does not match the commitment in the [Commitment] tag",
            where=f"{transcript.where}:{last.line}",
        )
    return seed


def _check_tags(transcript: Transcript, match: Match, last: int) -> None:
    tags, where = transcript.tags, transcript.where
    if "Events" in tags and int(tags["Events"]) != match.seq:
        raise CheckFailed(
            f"the game ends after event {match.seq}, and its [Events] tag says {tags['Events']}: "
            "the transcript is cut short (or was changed)",
            where=f"{where}:{last}",
        )
    if "Result" in tags:
        at = f"{where}:{transcript.tag_lines['Result']}"
        if not match.over:
            raise CheckFailed(f"the [Result] tag says the game is over; it goes on after event {match.seq}", where=at)
        if result(match) != tags["Result"]:
            raise CheckFailed(f"the game ends {quote(result(match), 120)}, not as the [Result] tag says", where=at)
