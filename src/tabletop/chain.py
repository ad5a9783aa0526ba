"""A hash chain over a log's lines: each head commits to every line before it.

``head(0)`` is the hash of the header line; ``head(n)`` hashes ``head(n-1)``
with line n. A player who was sent a head can later prove that the log still
begins with what it had then (``tabletop verify FILE --head HASH``): rewriting
any earlier line changes every head after it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator

PREFIX = "chain:"


def first(header_line: bytes) -> str:
    return PREFIX + hashlib.sha256(b"tabletop chain\x00" + header_line).hexdigest()


def step(head: str, line: bytes) -> str:
    return PREFIX + hashlib.sha256(head.encode() + b"\n" + line).hexdigest()


def heads(lines: Iterable[bytes]) -> Iterator[str]:
    """The head after each line (the first is the header's)."""
    current = None
    for line in lines:
        current = first(line) if current is None else step(current, line)
        yield current


def head_of(lines: Iterable[bytes]) -> str:
    last = ""
    for current in heads(lines):
        last = current
    return last
