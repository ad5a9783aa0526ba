"""A seat's random numbers in one game: what a bot draws from, made from the
game's seed so that a seed repeats its game.

A seeded Mersenne Twister (``random.Random``) costs some 4 µs to make: more
than all the turns of a short game (a Liar's Dice game plays in about
15 µs), made again for every seat of every self-played game. Most bots ask
their generator for bits alone (the core's random bot and the draws from
slots ask ``getrandbits``), and a few bits: a game's first draws need no
twister. So a seat's numbers begin as a stream of bits, BLAKE2b of the seat's
key and a counter, read 512 bits at a time, which answers the first
:data:`STREAMED` calls of ``getrandbits``; the next one, or the first call of
anything else ``random.Random`` offers (``random()``, ``choice()``,
``shuffle()``...), makes the twister, seeded from the stream's next 256
bits, and from then on the twister answers every call (at C speed: a long
game pays for the twister once, as before, and a few calls more of a
slower ``getrandbits``).

Each seat has its own stream, from its own key: what one seat's bot draws
tells nothing of another's draws (a bot is shown its seat's view, and its
generator is part of what it is shown).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

#: Bytes of the stream read at a time (BLAKE2b's longest digest).
_CHUNK = 64
#: Calls of ``getrandbits`` the stream answers before the twister is made:
#: a short game's (a Liar's Dice seat draws some two), where the twister
#: would cost more than the game; a long game's would pay more for the
#: stream's slower calls than for the twister.
STREAMED = 8

_BLAKE2B = hashlib.blake2b
_FROM_BYTES = int.from_bytes
#: The first chunk's number, as the key's suffix.
_FIRST = (0).to_bytes(8, "big")


class SeatRandom:
    """The random numbers of one seat in one game, from ``key`` (bytes that
    name the seat and the game's seed). Offers every method of ``random.Random``:
    ``getrandbits`` from the stream until anything else is asked, then all of
    them from a twister seeded from the stream."""

    __slots__ = ("_hash", "_counter", "_bits", "_left", "_calls", "_twister", "getrandbits", "__weakref__")

    def __init__(self, key: bytes) -> None:
        # The key's hash is kept, not the key: the key holds the game's
        # seed, which a bot holding its generator must not be able to read.
        # Each chunk copies the hash and adds its number.
        self._hash = hashed = _BLAKE2B(key, digest_size=_CHUNK)
        # The first chunk now: nearly every seat draws, and made here it
        # costs no call of its own.
        first = hashed.copy()
        first.update(_FIRST)
        self._bits = _FROM_BYTES(first.digest(), "big")
        self._counter = 1
        self._left = _CHUNK * 8
        self._calls = STREAMED
        self._twister: random.Random | None = None
        #: Bits from the stream; the twister's own method once it is made.
        self.getrandbits = self._streamed

    def _chunk(self) -> int:
        """The stream's next 512 bits: BLAKE2b of the key and the chunk's number."""
        block = self._hash.copy()
        block.update(self._counter.to_bytes(8, "big"))
        self._counter += 1
        return _FROM_BYTES(block.digest(), "big")

    def _streamed(self, k: int) -> int:
        """``random.Random.getrandbits(k)``: the stream's next ``k`` bits, or
        the twister's once the stream has answered :data:`STREAMED` calls."""
        calls = self._calls = self._calls - 1
        left = self._left - k
        if left >= 0 and calls >= 0:
            self._left = left
            return (self._bits >> left) & ((1 << k) - 1)
        if calls < 0:
            return self.twister.getrandbits(k)
        return self._bits_of(k)

    def _bits_of(self, k: int) -> int:
        """The stream's next ``k`` bits."""
        left = self._left - k
        if left >= 0:
            self._left = left
            return (self._bits >> left) & ((1 << k) - 1)
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        # The bits left, then as many chunks as it takes.
        value, need = self._bits & ((1 << self._left) - 1), k - self._left
        while need > _CHUNK * 8:
            value = (value << (_CHUNK * 8)) | self._chunk()
            need -= _CHUNK * 8
        chunk = self._chunk()
        self._left = _CHUNK * 8 - need
        self._bits = chunk
        return (value << need) | (chunk >> self._left)

    @property
    def twister(self) -> random.Random:
        """The twister that answers from now on (made, from the stream, when first asked for)."""
        twister = self._twister
        if twister is None:
            twister = self._twister = random.Random(self._bits_of(256))
            self.getrandbits = twister.getrandbits
        return twister

    def __getattr__(self, name: str) -> Any:
        # Any other method or attribute of random.Random: the twister's.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.twister, name)

    def __repr__(self) -> str:
        return f"<SeatRandom {'twister' if self._twister is not None else 'stream'}>"
