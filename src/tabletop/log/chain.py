"""A hash chain over a log's lines: each head commits to every line before it.

``head(0)`` is the hash of the header line; ``head(n)`` hashes ``head(n-1)``
with line n. A player who was sent a head can later prove that the log still
begins with what it had then (``tabletop verify FILE --head HASH``): rewriting
any earlier line changes every head after it.

A log of format 2 (a sealed game begun since that format) chains each event
line through a salted commitment instead of its bytes: the salt of line n is
``HMAC-SHA256(seed, "line n")``. A hidden draw has only a few possible lines,
so a head that hashed the line itself would tell anyone who can try each of
them which one it was; with the salt, only whoever holds the seed can, until
the seed is revealed at the end. A copy of the log for one player
(:mod:`tabletop.review.redaction`) then gives the commitment in place of a line the
player may not see, and the same heads still follow.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Iterator

PREFIX = "chain:"
#: The log format whose chain takes each event line through its salted commitment.
SALTED = 2

#: The seed of a salted log, or a function that reads it when it is needed.
Seed = str | Callable[[], str] | None


def first(header_line: bytes) -> str:
    return PREFIX + hashlib.sha256(b"tabletop chain\x00" + header_line).hexdigest()


def step(head: str, line: bytes) -> str:
    return PREFIX + hashlib.sha256(head.encode() + b"\n" + line).hexdigest()


def key(seed: str, number: int) -> bytes:
    """The salt of event line ``number`` (the event's number) of a salted
    log: 32 bytes nobody can work out without the seed."""
    return hmac.digest(seed.encode(), b"line %d" % number, "sha256")


def commitment(salt: bytes, line: bytes) -> str:
    """What a salted log's chain takes for an event line in place of its bytes."""
    return "sha256:" + hashlib.sha256(b"tabletop line\x00" + salt + line).hexdigest()


def salted(header_line: bytes) -> bool:
    """Whether the log whose header is ``header_line`` chains salted commitments
    (format 2). A header that cannot be read is taken as format 1: the replay
    that reads it says what is wrong."""
    from ..base.errors import TabletopError
    from . import jsonline

    try:
        data = jsonline.loads(header_line)
    except TabletopError:
        return False
    return isinstance(data, dict) and type(data.get("tabletop")) is int and data["tabletop"] == SALTED


def heads(lines: Iterable[bytes], seed: Seed = None) -> Iterator[str]:
    """The head after each line (the first is the header's). A salted log's
    heads need its ``seed``: without it, :class:`~tabletop.base.errors.CheckFailed`."""
    current = None
    secret = None
    for number, line in enumerate(lines):
        if current is None:
            current = first(line)
            if salted(line):
                secret = seed() if callable(seed) else seed
                if secret is None:
                    from ..base.errors import CheckFailed

                    raise CheckFailed(
                        "the chain of a sealed game of format 2 takes each line with a salt made from the seed: "
                        "its heads need the seed (the FILE.seed of whoever holds the game, or revealed at its end)"
                    )
        elif secret is not None:
            current = step(current, commitment(key(secret, number), line).encode())
        else:
            current = step(current, line)
        yield current


def head_of(lines: Iterable[bytes], seed: Seed = None) -> str:
    last = ""
    for current in heads(lines, seed):
        last = current
    return last
