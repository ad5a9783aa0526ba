"""What is worked out once and looked up after, kept within a bound.

A game remembers many things across events and games of a process: the
chance nodes of a draw, the ways to pay in a situation, the tables a
header-time rule compiles into. Each is a plain ``dict`` read on the hot
path (``cache.get(key)``, ``cache[key]``: a plain dict is what CPython looks
up fastest, a subclass of it is not), and each is kept within a
:class:`Bound`, which acts only when something is added after a miss::

    #: Why this size: what the keys are, how many a run meets, what an entry costs.
    KNOWN_WAYS = Bound(50_000)
    WAYS: dict = {}

    found = WAYS.get(key)
    if found is None:
        found = KNOWN_WAYS.keep(WAYS, key, work_out(key))

What a full cache forgets is the bound's policy:

- :data:`FORGET_ALL`: everything at once. The default: for what is cheap to
  work out again and looked up by keys that come back in runs (a game, a
  process's games), a full cache is most likely holding keys of runs gone
  by, and emptying it costs no bookkeeping on any look-up.
- :data:`FORGET_OLDEST`: the entry kept first (a ``dict`` keeps the order
  of insertion). For what is dear to make again, where the keys met last
  are the likeliest to come back (the games a registry made for the last
  headers it read).
- :data:`KEEP_FIRST`: nothing more once full; the entries already kept stay
  for good. For keys whose commonest values are met first (the first lines
  and numbers of a folder of logs), where forgetting would only make the
  cache fill again with rarer ones.

No policy moves an entry on a hit (as a least-recently-used cache must):
a hit stays one look-up. What is a pure function of a few hashable
arguments is better written with ``functools.lru_cache`` (its bound beside
it, ``maxsize``); a ``Bound`` is for a cache read inline, or one whose
keys are not the arguments of one function.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

V = TypeVar("V")

#: Forget every entry when full.
FORGET_ALL = "forget all"
#: Forget the entry kept first when full.
FORGET_OLDEST = "forget oldest"
#: Keep nothing more when full.
KEEP_FIRST = "keep first"

POLICIES = (FORGET_ALL, FORGET_OLDEST, KEEP_FIRST)


@attrs.frozen
class Bound:
    """At most ``limit`` entries in a cache, and what it forgets when full
    (``policy``, one of :data:`POLICIES`)."""

    limit: int
    policy: str = FORGET_ALL

    def __attrs_post_init__(self) -> None:
        if self.limit < 1:
            raise ValueError(f"a cache keeps at least one entry, not {self.limit}")
        if self.policy not in POLICIES:
            raise ValueError(f"no cache policy {self.policy!r} (policies: {', '.join(POLICIES)})")

    def keep(self, cache: dict[Any, Any], key: Any, value: V) -> V:
        """Keep ``value`` under ``key`` in ``cache`` (a key not in it: a
        miss), within this bound; ``value`` either way, so that a miss reads
        ``found = BOUND.keep(cache, key, make(key))``."""
        if len(cache) >= self.limit:
            policy = self.policy
            if policy == FORGET_ALL:
                cache.clear()
            elif policy == FORGET_OLDEST:
                del cache[next(iter(cache))]
            else:
                return value
        cache[key] = value
        return value
