"""A seat's random numbers (``tabletop.play.seat_random``): a stream of bits
from the seat's key for a game's first draws, then a twister seeded from
the stream; the same key gives the same numbers, and each seat its own."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.play.live import bot_rng
from tabletop.play.sampling import below
from tabletop.play.seat_random import STREAMED, SeatRandom


def _stream(key: bytes, chunks: int) -> str:
    """The stream's first ``chunks`` chunks as a string of bits (BLAKE2b-512
    of the key followed by the chunk's number, eight bytes big-endian)."""
    bits = ""
    for n in range(chunks):
        digest = hashlib.blake2b(key + n.to_bytes(8, "big"), digest_size=64).digest()
        bits += format(int.from_bytes(digest, "big"), "0512b")
    return bits


@given(st.lists(st.integers(0, 1100), min_size=1, max_size=STREAMED))
def test_the_first_draws_are_the_stream_s_bits_in_order(sizes):
    rng = SeatRandom(b"bot ann seed")
    stream = _stream(b"bot ann seed", 18)
    at = 0
    for k in sizes:
        assert rng.getrandbits(k) == (int(stream[at : at + k], 2) if k else 0)
        at += k


def test_after_the_streamed_draws_a_twister_seeded_from_the_stream_answers():
    rng = SeatRandom(b"k")
    stream = _stream(b"k", 1)
    for _ in range(STREAMED):
        rng.getrandbits(5)
    twister = random.Random(int(stream[5 * STREAMED : 5 * STREAMED + 256], 2))
    assert [rng.getrandbits(7) for _ in range(50)] == [twister.getrandbits(7) for _ in range(50)]
    assert rng.random() == twister.random()


def test_any_other_method_makes_the_twister_at_once_and_getrandbits_follows_it():
    rng = SeatRandom(b"k")
    first = rng.getrandbits(3)
    twister = random.Random(int(_stream(b"k", 1)[3:259], 2))
    assert first == int(_stream(b"k", 1)[:3], 2)
    assert rng.choice("abcdefgh") == twister.choice("abcdefgh")
    deck = list(range(20))
    rng.shuffle(deck)
    twister.shuffle(mine := list(range(20)))
    assert deck == mine
    assert rng.getrandbits(30) == twister.getrandbits(30)
    assert rng.randrange(1000) == twister.randrange(1000)


def test_the_same_seat_and_seed_repeat_and_other_seats_or_seeds_do_not():
    def draws(seed, player):
        rng = bot_rng(seed, player)
        return [rng.getrandbits(16) for _ in range(3 * STREAMED)]

    assert draws("s", "ann") == draws("s", "ann")
    assert len({tuple(draws(seed, player)) for seed in ("s", "t") for player in ("ann", "ben")}) == 4


def test_bad_sizes_are_refused_as_random_refuses_them():
    with pytest.raises(ValueError):
        SeatRandom(b"k").getrandbits(-1)
    with pytest.raises(AttributeError):
        SeatRandom(b"k").no_such_method  # noqa: B018 - the attribute is the test


def test_draws_below_a_bound_from_the_stream_are_uniform():
    """The random bot's draw (``below``) from many seats' first draws: each
    of 6 numbers as often (chi-square, 5 degrees of freedom, p = 0.001)."""
    counts = Counter(below(SeatRandom(b"seat %d" % n), 6) for n in range(6000))
    chi = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert len(counts) == 6 and chi < 20.5


def test_the_generator_holds_no_readable_copy_of_its_key():
    # The key holds the game's seed, which a bot holding its seat's
    # generator must not read: no attribute of the generator holds it.
    key = b"bot p1 the-secret-seed"
    rng = SeatRandom(key)
    rng.getrandbits(5)
    for name in SeatRandom.__slots__:
        value = getattr(rng, name, None)
        assert b"the-secret-seed" not in repr(value).encode()
        if isinstance(value, bytes | bytearray):
            assert b"the-secret-seed" not in value
