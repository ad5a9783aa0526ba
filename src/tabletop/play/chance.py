"""Seeds: where every chance outcome of a live game comes from.

Each chance event is derived from the seed and its own sequence number alone
(HMAC-SHA256), so the same seed and the same decisions give the same log byte
for byte, and anyone holding the seed can re-derive any outcome on its own.
A sealed game publishes only a commitment (a hash) to the seed until the end.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from typing import Any

_COMMIT_PREFIX = b"tabletop seed\x00"


def new_seed() -> str:
    """A fresh secret seed: 128 random bits as hex."""
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The public commitment to ``seed`` written in a sealed game's header."""
    return "sha256:" + hashlib.sha256(_COMMIT_PREFIX + seed.encode()).hexdigest()


def matches(seed: str, commit: str) -> bool:
    """Whether ``seed`` is the one ``commit`` was made for."""
    return hmac.compare_digest(commitment(seed), commit)


def number(seed: str, seq: int) -> int:
    """The 256-bit number that picks the outcome of chance event ``seq``."""
    # hmac.digest: the same HMAC-SHA256 in one C call, several times faster than hmac.new().
    digest = hmac.digest(seed.encode(), _EVENT % seq, "sha256")
    return int.from_bytes(digest, "big")


def numbers(seed: str) -> Callable[[int], int]:
    """:func:`number` for one seed, its key prepared once: for loops that draw
    every chance event of a game (self-play).

    The same HMAC-SHA256 as :func:`number`, computed as RFC 2104 defines it,
    ``H((K ^ opad) + H((K ^ ipad) + message))``, with the hash states of the
    two padded keys made once and copied for each number: a copy and two
    short updates cost about a third of a fresh ``hmac.digest`` (OpenSSL sets
    up the key on every call). A property test holds it equal to
    :func:`number`, keys longer than a block included."""
    key = seed.encode()
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()  # RFC 2104: a key longer than a block is hashed first
    key = key.ljust(_BLOCK, b"\0")
    sha256 = _copyable_sha256()
    inner_copy = sha256(key.translate(_IPAD)).copy
    outer_copy = sha256(key.translate(_OPAD)).copy
    from_bytes = int.from_bytes
    messages = _messages()

    def number_of(seq: int) -> int:
        inner = inner_copy()
        inner.update(messages[seq] if 0 <= seq < _MADE else _EVENT % seq)
        outer = outer_copy()
        outer.update(inner.digest())
        return from_bytes(outer.digest(), "big")

    return number_of


#: The HMAC message of event number ``n``: ``_EVENT % n``.
_EVENT = b"event %d"
#: How many events' messages :func:`numbers` makes once (``_messages``).
_MADE = 4096


@functools.cache  # made when first needed: a command that plays no chance is spared it
def _messages() -> tuple[bytes, ...]:
    """The messages of events 0 to ``_MADE - 1``, made once: a number's
    message is then a look-up, not a formatting (a tenth of a number's time
    in self-play, where every game draws its numbers anew)."""
    return tuple(_EVENT % seq for seq in range(_MADE))


@functools.cache  # looked for when first needed: a command that plays no chance is spared the import
def _copyable_sha256() -> Callable[[bytes], Any]:
    """The SHA-256 whose hash states copy fastest: CPython's own (``_sha256``,
    ``_sha2`` from 3.12), when the build has it. :func:`numbers` copies two
    states for every number, and OpenSSL 3 copies one through its provider
    machinery, which makes a number about a fifth slower. The digests are
    the same: SHA-256 is SHA-256 (the property test compares with
    :func:`number`, which goes through OpenSSL)."""
    for module in ("_sha2", "_sha256"):
        try:
            return __import__(module).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    return hashlib.sha256


#: SHA-256's block size, and HMAC's key pads as byte translations (RFC 2104).
_BLOCK = 64
_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))


def seal(salt: str, choice: dict) -> str:
    """The commitment to a secret decision (its log form, ``{"kind", "payload"}``)."""
    text = json.dumps(choice, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(f"{salt}\x00{text}".encode()).hexdigest()


def matches_seal(salt: str, choice: dict, commit: str) -> bool:
    return hmac.compare_digest(seal(salt, choice), commit)


def new_salt() -> str:
    return secrets.token_hex(16)
