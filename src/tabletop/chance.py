"""Seeds: where every chance outcome of a live game comes from.

Each chance event is derived from the seed and its own sequence number alone
(HMAC-SHA256), so the same seed and the same decisions give the same log byte
for byte, and anyone holding the seed can re-derive any outcome on its own.
A sealed game publishes only a commitment (a hash) to the seed until the end.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable

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
    digest = hmac.digest(seed.encode(), b"event %d" % seq, "sha256")
    return int.from_bytes(digest, "big")


def numbers(seed: str) -> Callable[[int], int]:
    """:func:`number` for one seed, its key encoded once: for loops that draw
    every chance event of a game (self-play)."""
    key = seed.encode()
    digest, from_bytes = hmac.digest, int.from_bytes

    def number_of(seq: int) -> int:
        return from_bytes(digest(key, b"event %d" % seq, "sha256"), "big")

    return number_of


def seal(salt: str, choice: dict) -> str:
    """The commitment to a secret decision (its log form, ``{"kind", "payload"}``)."""
    text = json.dumps(choice, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(f"{salt}\x00{text}".encode()).hexdigest()


def matches_seal(salt: str, choice: dict, commit: str) -> bool:
    return hmac.compare_digest(seal(salt, choice), commit)


def new_salt() -> str:
    return secrets.token_hex(16)
