"""One line of a log as JSON, read strictly.

orjson reads the line: it refuses what is not UTF-8, lone surrogate escapes, a
byte-order mark, numbers that overflow, and nesting past 1,024 levels, all in
bounded time. What it lets through that the format forbids is a duplicate key
(it keeps the last). An event line is checked by counting bytes (a key given
twice leaves more ``":`` in the line than keys in what was read); any other
line that is not exactly what orjson writes back from it (hand-written,
spaced, reordered) is read a second time to look for duplicate keys.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from ..base.errors import LogFormatError, quote

#: The longest line a log may hold, in bytes (a header with a drawn board fits
#: many times over).
MAX_LINE = 1 << 20


def loads(line: bytes | str) -> Any:
    """The JSON value of ``line``; :class:`LogFormatError` says why it is not one."""
    try:
        data = orjson.loads(line)
    except (ValueError, RecursionError) as exc:
        raise LogFormatError(why_not(line, exc)) from None
    if type(data) is dict:
        raw = line if type(line) is bytes else line.encode("utf-8")
        # An event line is an object with another in it (its payload): if the
        # line holds exactly as many '":' as the two have keys, no key came
        # twice. A deeper object, or '":' inside a string, only sends a line
        # the long way.
        payload = data.get("payload")
        keys = len(data) + len(payload) if type(payload) is dict else len(data)
        if raw.count(b'":') != keys:
            _check_duplicates(data, raw)
    return data


def _check_duplicates(data: dict, raw: bytes) -> None:
    try:
        same = orjson.dumps(data) == raw
    except TypeError:  # nested deeper than orjson writes: not a line we wrote
        same = False
    if not same:
        _refuse_duplicates(raw)


def why_not(line: bytes | str, exc: Exception) -> str:
    """Why a line could not be read as JSON, in a few words."""
    raw = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8 text"
    text = str(exc)
    if raw.startswith(b"\xef\xbb\xbf"):
        return "not JSON: a byte-order mark starts the line"
    if "surrogate" in text:
        return "not JSON: a lone surrogate escape (\\ud800-\\udfff) is not a character"
    if "depth" in text or "recursion" in text or isinstance(exc, RecursionError):
        return "not JSON: nested too deeply"
    if "infinity" in text:
        return "not JSON: a number too large"
    return "not JSON"


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise LogFormatError(f"duplicate key {quote(key)} in a JSON object")
        seen[key] = value
    return seen


def _refuse_duplicates(raw: bytes) -> None:
    try:
        json.loads(raw, object_pairs_hook=_pairs)
    except (ValueError, RecursionError):
        # orjson read it; the standard reader's own limits (digits, depth) are
        # not the format's: only a duplicate key is refused here.
        return
