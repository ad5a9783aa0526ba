"""A game's observation as named planes: what a network learns from.

The hashed form (:mod:`tabletop.sight.views`) serves any game without a line of
code, but a network learns little from it: each fact lands at a position a
hash picked, shared with other facts, and the board's geometry is lost. A
game may instead declare its observation as named planes of fixed shapes:
one plane per kind of piece and seat over the board, counts for what is held,
and so on. ``Game.planes()`` returns a :class:`Planes` for the game's header
(board size and players fix every shape), or None (the default: the adapters
keep the hashed form).

What is guaranteed: the OpenSpiel and PettingZoo adapters fill the planes
from the player's view only (:func:`tabletop.sight.seen.view`, as everything that
shows a game does), never from the state, so two states that differ only in
what the player may not see give the same planes.

What a game author must not do: read anything in ``fill`` but the view and
the viewer it is given, or write a value above a plane's declared ``high``
(PettingZoo's observation space is built from it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from ..base.caches import Bound
from ..base.errors import PluginError
from . import seen

#: The most words a decision being spelt is shown with (the OpenSpiel
#: adapter reads no longer spelling back either).
MOST_WORDS = 64


@attrs.frozen
class Plane:
    """One named part of an observation: ``shape`` numbers from 0 to ``high``."""

    name: str
    shape: tuple[int, ...]
    #: The most any of its numbers can be (1 for a plane of yes and no).
    high: float = 1.0
    #: What it holds, in a sentence, for the docs and for ``describe``.
    meaning: str = ""

    @property
    def size(self) -> int:
        return math.prod(self.shape)


#: ``fill(view, viewer, out)``: write ``viewer``'s view into ``out``, the
#: planes by name, each an array of its shape, all zeros.
Fill = Callable[[Any, str, Mapping[str, Any]], None]


class Planes:
    """A game's declared observation for one header: its planes, in order,
    and the function that fills them from a player's view.

    ``one_word``: every decision of the game is one word of its numbering
    (:mod:`tabletop.model.numbering`), so the adapters add no planes for the words
    of a decision being spelt."""

    def __init__(self, planes: Sequence[Plane], fill: Fill, *, one_word: bool = False) -> None:
        self.planes = tuple(planes)
        self.fill = fill
        self.one_word = one_word
        names = [p.name for p in self.planes]
        if len(set(names)) != len(names):
            raise PluginError(f"two planes are named {next(n for n in names if names.count(n) > 1)!r}")
        for plane in self.planes:
            if not plane.shape or not all(type(n) is int and n > 0 for n in plane.shape):
                raise PluginError(f"plane {plane.name!r}: a shape is one or more whole numbers above 0")
            if not plane.high > 0:
                raise PluginError(f"plane {plane.name!r}: its high must be above 0")
        self.offsets: dict[str, int] = {}
        at = 0
        for plane in self.planes:
            self.offsets[plane.name] = at
            at += plane.size
        #: How many numbers in all.
        self.size = at
        #: The most each number can be, in order (PettingZoo's ``Box``).
        self.high = np.concatenate([np.full(p.size, p.high, np.float32) for p in self.planes])

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The planes of ``vector`` by name, each a view of its shape."""
        return {
            p.name: vector[self.offsets[p.name] : self.offsets[p.name] + p.size].reshape(p.shape) for p in self.planes
        }

    def describe(self) -> list[tuple[str, tuple[int, ...], str]]:
        """Each plane's name, shape and meaning, in order."""
        return [(p.name, p.shape, p.meaning) for p in self.planes]


def planes_of(game: Any) -> Planes | None:
    """The planes ``game`` declares (``game.planes()``), or None."""
    declare = getattr(game, "planes", None)
    if declare is None:
        return None
    found = declare()
    if found is not None and not isinstance(found, Planes):
        raise PluginError(
            f"{game.name}: planes() gave {type(found).__name__}, not tabletop.sight.planes.Planes or None"
        )
    return found


def spelling_planes(words: Sequence[str]) -> tuple[Plane, ...]:
    """The planes the adapters add for a decision being spelt a word at a time."""
    n = len(words)
    return (
        Plane("spelt", (n,), MOST_WORDS, "how many times each word was chosen so far in the decision being spelt"),
        Plane("spelt first", (n,), 1, "the first word of the decision being spelt"),
        Plane("spelt last", (n,), 1, "the last word chosen in the decision being spelt"),
    )


#: The buffers an observation has named views of, by identity: an adapter
#: fills the same few again and again, so more are buffers already let go.
VIEWS_KEPT = Bound(8)


class Observation:
    """What the adapters show one seat: the game's planes filled from the
    seat's view, then (for a game whose decisions may take several words)
    the words of the decision it is spelling. One buffer, filled in place."""

    def __init__(self, planes: Planes, words: Sequence[str]) -> None:
        self.game_planes = planes
        extra = () if planes.one_word else spelling_planes(words)
        self.layout = Planes((*planes.planes, *extra), planes.fill, one_word=planes.one_word)
        self.size = self.layout.size
        self.high = self.layout.high
        self._spelling = None if planes.one_word else self.layout.offsets["spelt"]
        self._words = len(words)
        self._views: dict[int, tuple[np.ndarray, dict[str, np.ndarray]]] = {}
        self._buffer = self.new()

    def fill(self, game: Any, state: Any, viewer: str, prefix: Sequence[int], out: np.ndarray) -> np.ndarray:
        """Write what ``viewer`` is shown into ``out`` (a vector of ``size``)."""
        out.fill(0)
        self.game_planes.fill(seen.view(game, state, viewer), viewer, self._planes_of(out))
        if prefix:
            if self._spelling is None:
                raise PluginError(f"{game.name}: its planes say every decision is one word, but one takes more")
            at, n = self._spelling, self._words
            for word in prefix[:MOST_WORDS]:
                out[at + word] += 1
            out[at + n + prefix[0]] = 1
            out[at + 2 * n + prefix[-1]] = 1
        return out

    def _planes_of(self, out: np.ndarray) -> dict[str, np.ndarray]:
        # The named views of a buffer are made once: it is filled at every step.
        found = self._views.get(id(out))
        if found is None or found[0] is not out:
            found = VIEWS_KEPT.keep(self._views, id(out), (out, self.game_planes.split(out)))
        return found[1]

    def vector(self, game: Any, state: Any, viewer: str, prefix: Sequence[int] = ()) -> np.ndarray:
        """What ``viewer`` is shown, as a new vector."""
        return self.fill(game, state, viewer, prefix, self._buffer).copy()

    def new(self) -> np.ndarray:
        return np.zeros(self.size, np.float32)


def seat_order(players: Sequence[str], viewer: str) -> dict[int, int]:
    """Each seat's place counted from ``viewer`` (0) in seat order: planes
    per seat put the viewer's first, so that one network serves every seat."""
    me = players.index(viewer)
    n = len(players)
    return {seat: (seat - me) % n for seat in range(n)}
