"""One player's copy of a log: what they may not see stands as a commitment,
and the copy still verifies against the full log's chain.

A sealed game of format 2 chains each event line through a salted commitment
(:mod:`tabletop.log.chain`): ``sha256("tabletop line" 0 salt line)``, the salt of
line n being ``HMAC-SHA256(seed, "line n")``. A player's copy (``tabletop
export LOG --as PLAYER``) keeps every line the player may see, each with its
salt, and gives only the commitment of every other line, with the event's
number, kind and player (public: the table sees ann draw a chip, not which).
From the copy alone anyone computes every chain head the full log has, so
the copy is checked against a head the referee mailed (``tabletop verify
COPY --head HEAD``); and nobody learns a hidden line by hashing each line it
could be: that needs its salt, which only the seed gives. Once the seed is
revealed, each hidden line is derived again from it (a draw from the seed,
what the rules force) and must open its commitment.

The copy is a file of JSON lines (docs/log-format.md, "A player's copy"):

* line 1: the log's header, with ``"copy": PLAYER`` and ``"head"`` added;
* a line the player may see: the log's line, with ``"key"`` (its salt in
  hex) and ``"head"`` added;
* any other line: ``{"seq", "kind", "player" (when the event has one),
  "hidden": COMMITMENT, "head"}``.

Each ``head`` is the chain head after that line: a line changed by hand is
found where its head no longer follows, and the copy's last head is the full
log's head at that event. The fields are added at the end of the log's own
line, so the line is read back byte for byte.

A copy is replayed as its player saw the game. Until the seed is known, each
hidden event is played as a stand-in (an outcome the rules allow there, of
the same kind and player) in a state the player cannot tell from the true
one; when a public decision does not fit the stand-ins, the hidden part of
the state is dealt again from the player's view (:meth:`Game.determinize`)
until it does. The player's view of that state is the player's view of the
game: a stand-in is never shown, only the view, which does not hold it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import attrs

from ..base.errors import CheckFailed, IllegalEventError, LogFormatError, TabletopError, UsageError, quote, shown
from ..host.registry import Registry
from ..log import chain, files, jsonline
from ..log.header import Header
from ..log.logfile import read_lines
from ..model.events import Event, Reveal
from ..model.nodes import Chance, Decide, Forced
from ..play import chance
from ..play.engine import Match, Replay
from ..sight import seen

_HEX = re.compile(rb"^[0-9a-f]{64}\Z")
_COMMITMENT = re.compile(r"^sha256:[0-9a-f]{64}\Z")
_HEAD = re.compile(r"^chain:[0-9a-f]{64}\Z")
#: How many times the hidden part of a copy's state is dealt again before a
#: public event that fits none of the deals is called illegal, and how many
#: deals a whole copy may take (a game as played takes a few per hundred
#: events; a copy made up to need many would otherwise take hours).
DEALS = 5000
MOST_DEALS = 200_000


@attrs.frozen
class Line:
    """One event line of a copy."""

    #: Its line number in the copy, and its event number.
    number: int
    seq: int
    #: The head the copy gives after this line.
    head: str
    #: A line the player may see: the log's line, its event and its salt.
    original: bytes | None = None
    event: Event | None = None
    salt: bytes | None = None
    #: A line the player may not see: its commitment, kind and player.
    hidden: str | None = None
    kind: str = ""
    player: str | None = None

    def commitment(self) -> str:
        """What the chain takes for this line."""
        if self.hidden is not None:
            return self.hidden
        assert self.salt is not None and self.original is not None
        return chain.commitment(self.salt, self.original)


@attrs.frozen
class Copy:
    """A player's copy of a log, read and checked line by line (not yet
    against a head, nor folded)."""

    path: Path
    player: str
    header: Header
    header_line: bytes
    header_head: str
    lines: tuple[Line, ...]

    @property
    def revealed(self) -> str | None:
        """The seed revealed at the end of the game, when the copy goes that far."""
        last = self.lines[-1].event if self.lines else None
        return last.seed if isinstance(last, Reveal) else None

    @property
    def hidden(self) -> int:
        return sum(1 for line in self.lines if line.hidden is not None)

    def heads(self) -> list[str]:
        """The chain head after each line, worked out from the copy (the
        header's first); a line whose head is not the one the copy gives is
        named (:class:`CheckFailed`)."""
        current = chain.first(self.header_line)
        if current != self.header_head:
            raise _changed(self.path, 1)
        found = [current]
        for line in self.lines:
            current = chain.step(current, line.commitment().encode())
            if current != line.head:
                raise _changed(self.path, line.number)
            found.append(current)
        return found


def _changed(path: Path, number: int) -> CheckFailed:
    return CheckFailed(
        "the chain does not give the head this line carries: the line (or its key or commitment) "
        "was changed after the copy was made",
        where=f"{path}:{number}",
    )


# -- writing -----------------------------------------------------------------------
@attrs.frozen
class Written:
    """A copy made: its lines (without their newlines), how many are hidden,
    and its last chain head (the log's)."""

    lines: tuple[bytes, ...]
    hidden: int
    head: str


def write(registry: Registry, path: Path, player: str, seed: str) -> Written:
    """``player``'s copy of the log at ``path``, a sealed game of format 2
    whose seed is ``seed``."""
    replay = Replay(registry, path)
    header = replay.header
    if header.version != chain.SALTED:
        raise UsageError(
            "a copy for one player needs a sealed game of format 2 (tabletop new --sealed, tabletop pbem init): "
            "this log's chain hashes each line as it is, so a hidden draw could be found by hashing each draw "
            "it could be",
            where=f"{path}:1",
        )
    if player not in header.players:
        raise UsageError(f"--as {quote(player)}: not a player of this game ({', '.join(header.players)})")
    if not chance.matches(seed, header.randomness.commitment or ""):
        raise UsageError("the seed does not match the commitment in the header", where=str(path))
    match = replay.match
    game = match.game
    codec = registry.codec
    raw = read_lines(path)
    _, header_line = next(raw)
    head = chain.first(header_line)
    out = [_extend(header_line, {"copy": player, "head": head})]
    count = 0
    for (lineno, seq, event), (_, line) in zip(replay, raw):
        salt = chain.key(seed, seq)
        commitment = chain.commitment(salt, line)
        head = chain.step(head, commitment.encode())
        if game.sees(event, player):
            out.append(_extend(line, {"key": salt.hex(), "head": head}))
            continue
        if codec.encode(seq, event).encode() != line:
            # Once the seed is out, a hidden line is written again from what the
            # seed and the rules give: only a line as tabletop writes it opens.
            raise UsageError(
                f"event {seq} is not written as tabletop writes its lines: its commitment could not be checked",
                where=f"{path}:{lineno}",
            )
        hidden: dict[str, Any] = {"seq": seq, "kind": event.kind}
        if codec.has_player(type(event)):
            hidden["player"] = event.player  # type: ignore[attr-defined]
        hidden["hidden"] = commitment
        hidden["head"] = head
        out.append(_dumps(hidden))
        count += 1
    return Written(tuple(out), count, head)


def _extend(line: bytes, fields: dict[str, str]) -> bytes:
    """``line`` (a JSON object) with ``fields`` added at its end."""
    return line[:-1] + _suffix(fields)


def _suffix(fields: dict[str, str]) -> bytes:
    return b"".join(b"," + _dumps(k) + b":" + _dumps(v) for k, v in fields.items()) + b"}"


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


# -- reading -----------------------------------------------------------------------
def is_copy(path: Path) -> bool:
    """Whether the file at ``path`` begins as a player's copy of a log does."""
    try:
        with files.open_regular(Path(path)) as handle:
            first = first_line(handle)
    except (OSError, TabletopError):
        return False
    return begins_as_copy(first)


def first_line(handle: IO[bytes]) -> Any:
    """The JSON of the first line ``handle`` gives, or None when it cannot be read."""
    try:
        return jsonline.loads(handle.readline(jsonline.MAX_LINE + 1))
    except (OSError, TabletopError):
        return None


def begins_as_copy(first: Any) -> bool:
    """Whether ``first``, the JSON of a file's first line, begins a player's copy of a log."""
    return isinstance(first, dict) and "copy" in first and "tabletop" in first


def read(registry: Registry, path: Path, handle: IO[bytes] | None = None) -> Copy:
    """A player's copy, each line read strictly: the log's own lines as a log's
    are, the hidden ones as the format says (from ``handle`` when it is open
    already). Errors name the line."""
    path = Path(path)
    numbered = read_lines(path, handle)
    _, first = next(numbered)
    data = _object(path, 1, first)
    player, head = data.get("copy"), data.get("head")
    if type(player) is not str or type(head) is not str or not _HEAD.match(head):
        raise LogFormatError("not a player's copy of a log: line 1 has no 'copy' and 'head'", where=f"{path}:1")
    header_line = _original(path, 1, first, {"copy": player, "head": head})
    try:
        header = Header.from_json(jsonline.loads(header_line))
    except TabletopError as exc:
        raise exc.at(f"{path}:1") from None
    if header.version != chain.SALTED or player not in header.players:
        raise LogFormatError(
            f"a copy is of a sealed game of format 2, for one of its players (not {quote(player)})", where=f"{path}:1"
        )
    codec = registry.codec
    try:
        codec.kinds[header.game]
    except KeyError:
        raise UsageError(f"unknown game {quote(header.game)}", where=f"{path}:1") from None
    lines = []
    for number, text in numbered:
        where = f"{path}:{number}"
        seq = number - 1
        fields = _object(path, number, text)
        if "hidden" in fields:
            lines.append(_hidden(fields, seq, number, where, header, codec))
            continue
        salt, carried = fields.get("key"), fields.get("head")
        if (
            type(salt) is not str
            or not _HEX.match(salt.encode())
            or type(carried) is not str
            or not _HEAD.match(carried)
        ):
            raise LogFormatError("a line of a copy has 'key' (64 hex digits) and 'head' at its end", where=where)
        original = _original(path, number, text, {"key": salt, "head": carried})
        try:
            found, event = codec.decode_line(header.game, original)
        except TabletopError as exc:
            raise exc.at(where) from None
        if found != seq:
            raise _numbering(found, seq, where)
        lines.append(Line(number, seq, carried, original=original, event=event, salt=bytes.fromhex(salt)))
    return Copy(path, player, header, header_line, head, tuple(lines))


def _object(path: Path, number: int, text: bytes) -> dict[str, Any]:
    try:
        data = jsonline.loads(text)
    except TabletopError as exc:
        raise exc.at(f"{path}:{number}") from None
    if not isinstance(data, dict):
        raise LogFormatError("a line of a copy is a JSON object", where=f"{path}:{number}")
    return data


def _original(path: Path, number: int, text: bytes, fields: dict[str, str]) -> bytes:
    """The log's own line, from a copy's line that adds ``fields`` at its end."""
    suffix = _suffix(fields)
    if not text.endswith(suffix) or len(text) <= len(suffix):
        names = " and ".join(f"'{k}'" for k in fields)
        raise LogFormatError(f"{names} must end the line, as the copy writes them", where=f"{path}:{number}")
    return text[: -len(suffix)] + b"}"


def _hidden(fields: dict[str, Any], seq: int, number: int, where: str, header: Header, codec: Any) -> Line:
    expected = {"seq", "kind", "hidden", "head"} | ({"player"} if "player" in fields else set())
    extra = set(fields) - expected
    if extra:
        raise LogFormatError(f"a hidden line has no field {quote(sorted(extra)[0])}", where=where)
    found, kind, player = fields.get("seq"), fields.get("kind"), fields.get("player")
    hidden, head = fields.get("hidden"), fields.get("head")
    if type(found) is not int:
        raise LogFormatError("a hidden line has an integer 'seq'", where=where)
    if found != seq:
        raise _numbering(found, seq, where)
    cls = codec.kinds[header.game].get(kind) if type(kind) is str else None
    if cls is None:
        raise LogFormatError(f"event {seq}: unknown event kind {quote(kind)} for {header.game}", where=where)
    if ("player" in fields) != codec.has_player(cls) or (player is not None and player not in header.players):
        raise LogFormatError(f"event {seq} ({kind}): 'player' names the player of a {kind}", where=where)
    if type(hidden) is not str or not _COMMITMENT.match(hidden) or type(head) is not str or not _HEAD.match(head):
        raise LogFormatError("a hidden line has 'hidden' ('sha256:' and 64 hex digits) and 'head'", where=where)
    return Line(number, seq, head, hidden=hidden, kind=kind, player=player)


def _numbering(found: int, seq: int, where: str) -> CheckFailed:
    # A copy is made whole: a line out of its place was removed or moved since.
    if found > seq:
        return CheckFailed(f"event {found} where event {seq} is due: a line was removed before it", where=where)
    return CheckFailed(f"event {found} where event {seq} is due: a line was moved or added", where=where)


# -- folding -----------------------------------------------------------------------
@attrs.frozen
class _Step:
    """An event of a copy as folded: the match as it was before it, the event
    played (a stand-in for a hidden one), and the match after it."""

    line: Line
    before: tuple[Any, int, str | None, dict[str, str]]
    event: Event
    after: tuple[Any, int, str | None, dict[str, str]]


class CopyReplay:
    """A copy folded event by event, as :class:`~tabletop.play.engine.Replay` folds
    a log: iterate for ``(lineno, seq, event)``, :attr:`match` after each.

    With the seed (``seed``, or revealed at the end of the copy), every hidden
    line is derived again and must open its commitment, every draw is the
    seed's, and :attr:`match` holds the game itself. Without it, a hidden
    event is a stand-in and :attr:`match` a state its player cannot tell from
    the game's; only :attr:`viewer`'s view of it is to be shown.

    The whole copy is folded before the first event is given: a public event
    that fits none of the states dealt where it comes may need the hidden
    part dealt again a few events before it (whether a player could escape
    an attack depends on the coins in their hand), and each state given is
    one the whole rest of the copy fits.
    """

    #: How many events back the hidden part of the state may be dealt again.
    BACK = 16

    def __init__(
        self, registry: Registry, path: Path, seed: str | None = None, handle: IO[bytes] | None = None
    ) -> None:
        self.registry = registry
        self.path = Path(path)
        self.copy = read(registry, self.path, handle)
        self.header = self.copy.header
        self.viewer = self.copy.player
        try:
            self.match = Match(registry, self.header)
        except TabletopError as exc:
            raise exc.at(f"{self.path}:1") from None
        self.seed = seed if seed is not None else self.copy.revealed
        if self.seed is not None and not chance.matches(self.seed, self.header.randomness.commitment or ""):
            raise CheckFailed("this seed does not match the commitment in the header", where=f"{self.path}:1")
        self.lines = 1
        #: How many chance outcomes were checked against the seed, and hidden lines opened.
        self.checked = 0
        self.opened = 0
        self._rng = random.Random(f"tabletop copy {self.viewer}")
        self._steps: list[_Step] | None = None
        #: How many times the hidden part of the state was dealt again.
        self.deals = 0

    def check_viewer(self, viewer: str | None, option: str = "--as") -> str:
        """The player to show the copy to: its own, whatever else is asked is refused."""
        if viewer is not None and viewer != self.viewer:
            raise UsageError(
                f"{option} {quote(viewer)}: {shown(self.path)} is {self.viewer}'s copy; it shows only what "
                f"{self.viewer} may see",
            )
        return self.viewer

    def __iter__(self) -> Iterator[tuple[int, int, Event]]:
        steps = self.fold()
        match = self.match
        for step in steps:
            match.restore(*step.after)
            self.lines = step.line.number
            yield step.line.number, step.line.seq, step.event

    def run(self, until: int | None = None) -> Match:
        for _, seq, _ in self:
            if until is not None and seq >= until:
                break
        return self.match

    def close(self) -> None:
        """Nothing to close: a copy is read whole."""

    def fold(self) -> list[_Step]:
        """Every event of the copy, folded (once)."""
        if self._steps is not None:
            return self._steps
        match = self.match
        steps: list[_Step] = []
        for line in self.copy.lines:
            before = _snapshot(match)
            try:
                if self.seed is not None:
                    event = self._open(line) if line.hidden is not None else self._check_with_seed(line)
                else:
                    event = self._fit(line)
                    if event is None:
                        event = self._deal_again(steps, line)
                match.accept(event, line.seq)
            except TabletopError as exc:
                raise exc.at(f"{self.path}:{line.number}") from None
            steps.append(_Step(line, before, event, _snapshot(match)))
        self._steps = steps
        return steps

    # -- with the seed: every hidden line opened ----------------------------------
    def _check_with_seed(self, line: Line) -> Event:
        assert self.seed is not None and line.salt is not None and line.event is not None
        event = line.event
        if line.salt != chain.key(self.seed, line.seq):
            raise CheckFailed(f"event {line.seq}: its key is not the one the seed gives")
        node = self.match.node
        if isinstance(node, Chance):
            expected = node.pick(chance.number(self.seed, line.seq))
            if expected != event:
                match = self.match
                raise CheckFailed(
                    f"event {line.seq}: the seed gives '{match.describe(expected)}', the copy has "
                    f"'{match.describe(event)}'"
                )
            self.checked += 1
        return event

    def _open(self, line: Line) -> Event:
        """The hidden event, derived again from the seed and the rules; it must
        open the line's commitment."""
        assert self.seed is not None
        match, codec = self.match, self.registry.codec
        salt = chain.key(self.seed, line.seq)
        node = match.node
        if isinstance(node, Chance):
            candidates: Sequence[Event] = [node.pick(chance.number(self.seed, line.seq))]
            self.checked += 1
        elif isinstance(node, Forced):
            candidates = [node.event]
        elif isinstance(node, Decide) and line.player in node.players:
            # A hidden decision: the seed gives its salt, and the rules the few it can be.
            candidates = [d for d in match.legal(line.player) if d.kind == line.kind]
        else:
            candidates = []
        for event in candidates:
            if chance_line(codec, line.seq, event, salt) == line.hidden:
                self._as_stated(line, event)
                self.opened += 1
                return event
        said = f": the seed and the rules give '{match.describe(candidates[0])}'" if len(candidates) == 1 else ""
        raise CheckFailed(f"event {line.seq} ({line.kind}) does not open its commitment{said}")

    def _as_stated(self, line: Line, event: Event) -> None:
        """The kind and player a hidden line states in the clear are the opened
        event's: the commitment covers the event, not what the copy says of
        it, so a copy shown as proof could otherwise misstate whose event a
        line was."""
        player = event.player if self.registry.codec.has_player(type(event)) else None  # type: ignore[attr-defined]
        if event.kind != line.kind:
            raise CheckFailed(f"event {line.seq}: the copy says it is a {line.kind}, it opens as a {event.kind}")
        if player != line.player:
            whose = f"{player}'s" if player is not None else "no player's"
            said = f"{line.player}'s" if line.player is not None else "no player's"
            raise CheckFailed(f"event {line.seq} ({line.kind}): the copy says it is {said}, it opens as {whose}")

    # -- without it: stand-ins --------------------------------------------------------
    def _fit(self, line: Line) -> Event | None:
        """The line's event, if it may come now; for a hidden line, a stand-in
        the rules allow now. None when there is none."""
        match = self.match
        if line.event is not None:
            return line.event if match.why_illegal(line.event) is None else None
        node = match.node

        def fits(event: Event) -> bool:
            return event.kind == line.kind and getattr(event, "player", None) == line.player

        found: list[tuple[Event, int]] = []
        if isinstance(node, Chance):
            weights = node.weights or (1,) * len(node.outcomes)
            found = [(o, w) for o, w in zip(node.outcomes, weights) if w > 0 and fits(o)]
        elif isinstance(node, Forced):
            found = [(node.event, 1)] if fits(node.event) else []
        elif isinstance(node, Decide) and not node.sealed and line.player in node.players:
            found = [(d, 1) for d in match.legal(line.player) if fits(d)]
        if not found:
            return None
        events, weights = zip(*found)
        return self._rng.choices(events, weights=weights)[0]

    def _deal_again(self, steps: list[_Step], line: Line) -> Event:
        """The hidden part of the state dealt again from the viewer's view, here
        or up to :attr:`BACK` events before, until ``line`` fits and so does
        every event since; the steps since then are replaced. The event of
        ``line``, to be played now."""
        match = self.match
        game = match.game
        here = _snapshot(match)
        for back in range(min(self.BACK, len(steps)) + 1):
            start = len(steps) - back
            snapshot = steps[start].before if back else here
            view = seen.view(game, snapshot[0], self.viewer)
            for _ in range(DEALS // (self.BACK + 1)):
                self.deals += 1
                if self.deals > MOST_DEALS:
                    match.restore(*here)
                    raise IllegalEventError(
                        f"event {line.seq}: {MOST_DEALS:,} deals of what {self.viewer} may not see, and the copy "
                        "still does not fit: it is not of one game"
                    )
                dealt = game.determinize(view, self.viewer, self._rng)
                match.restore(dealt, *snapshot[1:])
                again = []
                for step in steps[start:]:
                    before = _snapshot(match)
                    event = self._fit(step.line)
                    if event is None:
                        break
                    match.accept(event, step.line.seq)
                    again.append(_Step(step.line, before, event, _snapshot(match)))
                else:
                    event = self._fit(line)
                    if event is not None:
                        steps[start:] = again
                        return event
        match.restore(*here)
        what = f"a {line.kind}{' of ' + line.player if line.player else ''}" if line.event is None else "this event"
        raise IllegalEventError(
            f"event {line.seq}: no state {self.viewer}'s view allows makes {what} legal here "
            f"(dealt again {DEALS} times, up to {self.BACK} events back): the copy is not of one game"
        )


def _snapshot(match: Match) -> tuple[Any, int, str | None, dict[str, str]]:
    return match.state, match.seq, match.revealed, dict(match.seals)


def chance_line(codec: Any, seq: int, event: Event, salt: bytes) -> str:
    """The commitment of ``event`` written as line ``seq`` of a log."""
    return chain.commitment(salt, codec.encode(seq, event).encode())


def verify(
    registry: Registry, path: Path, heads: Sequence[str] = (), seed: str | None = None
) -> tuple[CopyReplay, list[tuple[str, int]], str]:
    """Check a copy: every line's head follows from the lines before it, each
    of ``heads`` is one of them, every event is legal (and with the seed,
    every hidden line opens and every draw is the seed's). The folded copy,
    each head with its event number, and the copy's last head."""
    replay = CopyReplay(registry, path, seed)
    found_heads = replay.copy.heads()
    found = []
    for head in heads:
        try:
            found.append((head, found_heads.index(head)))
        except ValueError:
            last = replay.copy.lines[-1].number if replay.copy.lines else 1
            raise CheckFailed(
                f"no line of the copy has the head {head}: the copy, or the log it was made from, was changed "
                "since that head was sent (or it is of another game)",
                where=f"{path}:{last}",
            ) from None
    replay.run()
    return replay, found, found_heads[-1]
