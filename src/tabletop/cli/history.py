"""What the commands that look at a log's past share: reading it (``-`` is
standard input), stopping at ``--until`` (an error past the end), keeping the
events for the pictures that mark them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO

from ..base.errors import UsageError
from ..host.registry import Registry
from ..model.events import Event
from ..play.engine import Match, Replay

#: The name errors give standard input.
STDIN = "<stdin>"


class Stream:
    """Standard input as a log to read once, a block at a time (never whole:
    a log may be long), from where it starts."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw

    def seek(self, offset: int, whence: int = 0) -> int:
        # The reader asks for the start before reading; a pipe is there already.
        return 0

    def read(self, size: int = -1) -> bytes:
        # What has arrived, up to ``size`` bytes, without waiting for all of
        # them: a pipe fed as a game goes is read as it comes.
        read1 = getattr(self.raw, "read1", None)
        return read1(size) if read1 is not None else self.raw.read(size)

    def readline(self, size: int = -1) -> bytes:
        return self.raw.readline(size)


def open_replay(registry: Registry, path: Path) -> Replay:
    """A replay of the log at ``path``; ``-`` reads the log from standard input."""
    if str(path) == "-":
        return Replay(registry, Path(STDIN), Stream(sys.stdin.buffer))  # type: ignore[arg-type]
    return Replay(registry, path)


def past_the_end(until: int, match: Match, option: str = "--until") -> UsageError:
    return UsageError(f"{option} {until}: the log ends at event {match.seq}")


def run_until(replay: Replay, until: int | None, option: str = "--until") -> tuple[Match, list[Event]]:
    """Fold the log up to event ``until`` (all of it when None): the match and
    the events folded. An ``until`` past the last event is an error."""
    events: list[Event] = []
    for _, seq, event in replay:
        events.append(event)
        if until is not None and seq >= until:
            break
    match = replay.match
    if until is not None and match.seq < until:
        raise past_the_end(until, match, option)
    return match, events
