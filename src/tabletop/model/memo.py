"""What variants remember: a public part every player sees, and a part per
player that only that player's view carries.

A game keeps one :class:`Memo` in its state. It is a value (frozen, compared
by content), so that the plain and the fast fold, ``diff`` and the views all
agree on it; a variant changes it only through :func:`remember`, under its
own name, so that several variants combine::

    memo = remember(state.memo, "my-variant", 3)                   # everyone knows
    memo = remember(memo, "my-variant", ("2/5",), player="ann")   # only ann knows
    recall(state.memo, "my-variant", 0)                            # 3
    recall(state.memo, "my-variant", (), player="ann")             # ("2/5",)

A game's ``view(state, player)`` keeps ``memo.seen_by(player)``: the public
entries and that player's own, never another player's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs


@attrs.frozen
class Memo:
    """Variants' memory: ``public`` entries ``(name, value)`` and ``secret``
    entries ``(player, name, value)``, each sorted, values immutable."""

    public: tuple[tuple[str, object], ...] = ()
    secret: tuple[tuple[str, str, object], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.public or self.secret)

    def seen_by(self, player: str | None) -> Memo:
        """The memo as ``player`` may know it (None: everything)."""
        if player is None or not self.secret:
            return self
        return Memo(self.public, tuple(entry for entry in self.secret if entry[0] == player))

    def items(self) -> Iterator[tuple[str, object]]:
        """Every entry with a label: ``NAME`` for public ones, ``NAME (PLAYER)``
        for a player's own (for ``describe`` and ``diff``)."""
        yield from self.public
        for player, name, value in self.secret:
            yield f"{name} ({player})", value


#: The memory of a game no variant remembers anything in.
EMPTY = Memo()


def recall(memo: Any, name: str, default: object = None, *, player: str | None = None) -> object:
    """What the variant ``name`` remembers (publicly, or for ``player``);
    ``default`` when nothing. ``memo`` may be a :class:`Memo` or a state with one."""
    if not isinstance(memo, Memo):
        memo = memo.memo
    if player is None:
        for key, value in memo.public:
            if key == name:
                return value
        return default
    for owner, key, value in memo.secret:
        if owner == player and key == name:
            return value
    return default


def remember(memo: Memo, name: str, value: object, *, player: str | None = None) -> Memo:
    """``memo`` with the variant ``name`` remembering ``value`` (immutable,
    e.g. a tuple), publicly or for ``player`` alone."""
    if player is None:
        public = tuple(sorted([(k, v) for k, v in memo.public if k != name] + [(name, value)], key=_first))
        return Memo(public, memo.secret)
    secret = tuple(
        sorted([e for e in memo.secret if (e[0], e[1]) != (player, name)] + [(player, name, value)], key=_two)
    )
    return Memo(memo.public, secret)


def forget(memo: Memo, name: str, *, player: str | None = None) -> Memo:
    """``memo`` without the variant ``name``'s entry (public, or ``player``'s)."""
    if player is None:
        return Memo(tuple(e for e in memo.public if e[0] != name), memo.secret)
    return Memo(memo.public, tuple(e for e in memo.secret if (e[0], e[1]) != (player, name)))


def _first(entry: tuple[str, object]) -> str:
    return entry[0]


def _two(entry: tuple[str, str, object]) -> tuple[str, str]:
    return entry[0], entry[1]
