"""A player's view as flat facts, and facts hashed into a fixed-size vector:
the observation the AI adapters give a game that declares no planes
(:mod:`tabletop.sight.planes`).

Machine learning wants a tensor of a fixed size for any position; a view is
a tree of attrs classes, tuples, dicts and numbers whose shape varies (how
many pieces, which spots hold them). :func:`features` lists it as ``path=value``
facts, and :func:`hashed` places each fact at a position picked by a hash
(the "hashing trick"): the same view always gives the same vector, on every
machine, and a fact hidden from the player (a :class:`~tabletop.Hidden`) is
only ever its count.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator
from typing import Any

import attrs

from ..model.game import Hidden

#: Views nest a few levels deep; anything deeper is summarised by its type.
DEEPEST = 12


def features(view: Any, path: str = "", depth: int = 0) -> Iterator[str]:
    """Every leaf of ``view`` as ``path=value``, in a stable order."""
    if isinstance(view, Hidden):
        yield f"{path}=hidden {view.what} {view.count}"
    elif view is None or isinstance(view, (bool, int, float, str, bytes)):
        yield f"{path}={view!r}"
    elif depth >= DEEPEST:
        yield f"{path}:{type(view).__name__}"
    elif attrs.has(type(view)):
        for field in attrs.fields(type(view)):
            yield from features(getattr(view, field.name), f"{path}.{field.name}", depth + 1)
    elif isinstance(view, dict):
        for key in sorted(view, key=repr):
            yield from features(view[key], f"{path}[{key!r}]", depth + 1)
    elif isinstance(view, (set, frozenset)):
        for item in sorted(view, key=repr):
            yield f"{path}∋{item!r}"
    elif isinstance(view, (tuple, list)):
        for i, item in enumerate(view):
            yield from features(item, f"{path}[{i}]", depth + 1)
    else:
        yield f"{path}={view!r}"


def hashed(facts: Iterable[str], size: int) -> set[int]:
    """The positions (0 to ``size`` - 1) that ``facts`` set."""
    return {_digest(f) % size for f in facts}


@functools.lru_cache(maxsize=1 << 16)
def _digest(fact: str) -> int:
    # Positions come from a cryptographic hash, not hash(): the same on every machine and run.
    return int.from_bytes(hashlib.blake2b(fact.encode(), digest_size=8).digest(), "big")
