"""Options and rule parameters that refuse a bad value in one line naming it.

A game declares each option in :attr:`tabletop.Game.options` by its line of
help; an option whose value is a whole number within bounds is declared a
:class:`Number`, which *is* that line of help (what ``tabletop games``
shows, its bounds and default said at its end) and knows its bounds::

    options = {
        "dice": Number("dice each player rolls", 1, 5, default=1),
        "sides": Number("faces of a die", 2, 9, default=6),
    }

Then :meth:`Game.normalize_options` reads ``--option dice=2`` as the number
2, and :meth:`Game.check_options` refuses, in every header read from a log
as well, a value that is not a number of those bounds (``option 'dice': 6
is not a number from 1 to 5``); the game reads a value with
:meth:`Game.option` (the default when the header gives none). Options
declared by a plain string stay strings, unchecked but for their name.

A variant's parameter (an attrs field of its rules class, see
docs/hooks.md) refuses a bad value with :func:`between` as the field's
validator: ``limit: int = attrs.field(default=5, validator=between(1, 20))``.

Bounds keep every game quick to set up: a value a header may hold makes a
game of bounded size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..base.errors import UsageError, quote

#: A number is written with at most this many digits.
DIGITS = 18


class Number(str):
    """A whole-number option from ``low`` to ``high`` (``default`` when not given)."""

    help: str
    low: int
    high: int
    default: int | None

    def __new__(cls, help: str, low: int, high: int, default: int | None = None) -> Number:
        if not low <= high or (default is not None and not low <= default <= high):
            raise ValueError(f"{help!r}: the default {default} is not from {low} to {high}, or {low} > {high}")
        said = f"from {low} to {high}" + ("" if default is None else f"; default {default}")
        made = super().__new__(cls, f"{help} ({said})")
        made.help, made.low, made.high, made.default = help, low, high, default
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return Number, (self.help, self.low, self.high, self.default)

    def read(self, name: str, text: Any) -> int:
        """The number ``text`` (an option as given on the command line) writes."""
        word = str(text).strip()
        digits = word[1:] if word[:1] in "+-" else word
        if not (digits.isascii() and digits.isdigit() and len(digits) <= DIGITS):
            raise UsageError(f"option {quote(name)}: {quote(str(text))} is not a number")
        return self.check(name, int(word))

    def check(self, name: str, value: Any) -> int:
        """``value`` (as a header holds it), or the error naming the option."""
        if type(value) is not int or not self.low <= value <= self.high:
            raise UsageError(f"option {quote(name)}: {quote(value)} is not a number from {self.low} to {self.high}")
        return value


def read(declared: Mapping[str, str], given: Mapping[str, Any]) -> dict[str, Any]:
    """Options as the command line gives them, each declared :class:`Number` read as one."""
    return {
        name: kind.read(name, value) if isinstance(kind := declared.get(name), Number) else value
        for name, value in given.items()
    }


def check(declared: Mapping[str, str], held: Mapping[str, Any]) -> dict[str, Any]:
    """Options as a header holds them, each declared :class:`Number` checked."""
    return {
        name: kind.check(name, value) if isinstance(kind := declared.get(name), Number) else value
        for name, value in held.items()
    }


def default(declared: Mapping[str, str], name: str) -> Any:
    """The default of the option ``name`` (None when it has none)."""
    kind = declared.get(name)
    return kind.default if isinstance(kind, Number) else None


def between(low: int, high: int) -> Callable[[Any, Any, Any], None]:
    """An attrs validator for a variant's whole-number parameter: a value
    outside ``low`` to ``high`` is refused in one line naming the parameter."""

    def validate(rules: Any, field: Any, value: Any) -> None:
        if type(value) is not int or not low <= value <= high:
            raise UsageError(f"parameter {quote(field.name)}: {quote(value)} is not a number from {low} to {high}")

    return validate
