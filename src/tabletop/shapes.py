"""Ready-made decision shapes for a variant's own decisions.

A variant that adds a decision subclasses one of these with its own ``kind``
and lists it in its ``Variant.events``; the shape brings the listing, the
check and the notation, so the variant writes only when the decision is open
and what it does::

    @attrs.frozen
    class Reroll(Subset):
        kind: ClassVar[str] = "reroll"

    Reroll.options(player, ("1", "2", "3"))          # every subset, in a fixed order
    Reroll.error(decision, ("1", "2", "3"))          # None, or why not
    Reroll.parse("reroll 1,3", "ann")               # Reroll("ann", ("1", "3"))
    Reroll("ann", ("1", "3")).notation()            # "reroll 1,3"

Items are short words (a die's number, a square's name, a coin); the shapes
keep them as strings so that a log line is plain JSON.

- :class:`One`: choose one of several options;
- :class:`Subset`: choose some of several items (none, all, or between
  ``least`` and ``most``);
- :class:`YesNo`: a yes or a no;
- :class:`Order`: put items in an order.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, permutations
from typing import ClassVar, TypeVar

import attrs

from .errors import NotationError
from .events import DECISION, Event

S = TypeVar("S", bound="Shape")

#: Listing every subset or order of many items is refused: 2**12 subsets,
#: 7! orders are already more than a player reads.
MAX_ITEMS = 12
MAX_ORDER = 7


@attrs.frozen
class Shape(Event):
    """Base of the decision shapes: a decision with a ``player``."""

    origin: ClassVar[str] = DECISION
    player: str

    def notation(self) -> str:
        """The decision as its player writes it: the kind, then its value."""
        raise NotImplementedError

    @classmethod
    def _words(cls, text: str) -> str | None:
        """What follows the kind in ``text``, or None when ``text`` is not of this kind."""
        words = text.strip().split(None, 1)
        if not words or words[0].lower() != cls.kind:
            return None
        return words[1].strip() if len(words) > 1 else ""


def _items(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.replace(" ", ",").split(",") if item.strip())


@attrs.frozen
class One(Shape):
    """Choose one of several options."""

    option: str

    @classmethod
    def options(cls: type[S], player: str, options: Sequence[str]) -> list[S]:
        return [cls(player, option) for option in options]  # type: ignore[call-arg]

    @classmethod
    def error(cls, decision: One, options: Sequence[str]) -> str | None:
        if decision.option not in options:
            return f"{decision.option!r} is not one of: {', '.join(options) or 'nothing'}"
        return None

    def notation(self) -> str:
        return f"{self.kind} {self.option}"

    @classmethod
    def parse(cls, text: str, player: str) -> One | None:
        rest = cls._words(text)
        if rest is None:
            return None
        if not rest or len(rest.split()) != 1:
            raise NotationError(f"write '{cls.kind} OPTION'")
        return cls(player, rest)


@attrs.frozen
class Subset(Shape):
    """Choose some of several items: the chosen ones, in the order the items
    were offered (so each subset has one spelling)."""

    items: tuple[str, ...]

    @classmethod
    def options(cls: type[S], player: str, items: Sequence[str], least: int = 0, most: int | None = None) -> list[S]:
        if len(items) > MAX_ITEMS:
            raise ValueError(f"{cls.kind}: too many items to list every subset ({len(items)} > {MAX_ITEMS})")
        top = len(items) if most is None else min(most, len(items))
        return [
            cls(player, chosen)  # type: ignore[call-arg]
            for size in range(least, top + 1)
            for chosen in combinations(tuple(items), size)
        ]

    @classmethod
    def error(cls, decision: Subset, items: Sequence[str], least: int = 0, most: int | None = None) -> str | None:
        chosen = decision.items
        unknown = [item for item in chosen if item not in items]
        if unknown:
            return f"{unknown[0]!r} is not one of: {', '.join(items) or 'nothing'}"
        if len(set(chosen)) != len(chosen):
            return "an item is chosen twice"
        if list(chosen) != [item for item in items if item in chosen]:
            return f"name the items in this order: {', '.join(items)}"
        if len(chosen) < least:
            return f"choose at least {least}"
        if most is not None and len(chosen) > most:
            return f"choose at most {most}"
        return None

    def notation(self) -> str:
        return f"{self.kind} {','.join(self.items) or '-'}"

    @classmethod
    def parse(cls, text: str, player: str) -> Subset | None:
        rest = cls._words(text)
        if rest is None:
            return None
        return cls(player, () if rest in ("", "-") else _items(rest))


@attrs.frozen
class YesNo(Shape):
    """A yes or a no."""

    answer: bool

    @classmethod
    def options(cls: type[S], player: str) -> list[S]:
        return [cls(player, True), cls(player, False)]  # type: ignore[call-arg]

    def notation(self) -> str:
        return f"{self.kind} {'yes' if self.answer else 'no'}"

    @classmethod
    def parse(cls, text: str, player: str) -> YesNo | None:
        rest = cls._words(text)
        if rest is None:
            return None
        if rest.lower() not in ("yes", "no"):
            raise NotationError(f"write '{cls.kind} yes' or '{cls.kind} no'")
        return cls(player, rest.lower() == "yes")


@attrs.frozen
class Order(Shape):
    """Put every one of several items in an order."""

    items: tuple[str, ...]

    @classmethod
    def options(cls: type[S], player: str, items: Sequence[str]) -> list[S]:
        if len(items) > MAX_ORDER:
            raise ValueError(f"{cls.kind}: too many items to list every order ({len(items)} > {MAX_ORDER})")
        return [cls(player, order) for order in permutations(tuple(items))]  # type: ignore[call-arg]

    @classmethod
    def error(cls, decision: Order, items: Sequence[str]) -> str | None:
        if sorted(decision.items) != sorted(items):
            return f"put every one of these in an order, each once: {', '.join(items)}"
        return None

    def notation(self) -> str:
        return f"{self.kind} {','.join(self.items)}"

    @classmethod
    def parse(cls, text: str, player: str) -> Order | None:
        rest = cls._words(text)
        if rest is None:
            return None
        return cls(player, _items(rest))
