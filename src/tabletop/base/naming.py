"""How a message names a thing: where a plugin's code is, a word with its
article, a value by its kind, and why a function cannot be called as the
core calls it.

Every wing names plugin code in its errors, so these stand at the bottom,
importing nothing of tabletop but :mod:`tabletop.base.errors`.
"""

from __future__ import annotations

import inspect
from typing import Any

from .errors import describe


def code_of(function: Any) -> str | None:
    """``FILE:LINE`` of a function's code (through wrappers that say what
    they wrap, and a method's function), or of a class; None when it cannot
    be found. The one place that names where a plugin's code is: a
    function's is read from its code object, cheaply; a class's from its
    source."""
    # A hook of a plugin the core made from declarations (a game's about) is
    # where its declaration is, not where the core's code is: the object
    # maps each method's name to FILE:LINE.
    declared = getattr(getattr(function, "__self__", None), "tabletop_declared_at", None)
    if isinstance(declared, dict) and isinstance(declared.get(getattr(function, "__name__", None)), str):
        return declared[function.__name__]  # type: ignore[no-any-return]
    try:
        function = inspect.unwrap(function)  # a wrapper the core put around it (a tournament's clock)
    except ValueError:  # a cycle of wrappers
        return None
    code = getattr(getattr(function, "__func__", function), "__code__", None)
    if code is not None:
        return f"{code.co_filename}:{code.co_firstlineno}"
    try:
        return f"{inspect.getsourcefile(function)}:{inspect.getsourcelines(function)[1]}"
    except (TypeError, OSError):
        return None


def where(function: Any) -> str:
    """``FILE:LINE`` of a function or class, for errors about its definition
    (:func:`code_of`; ``?`` when it cannot be found)."""
    return code_of(function) or "?"


def article(word: str) -> str:
    """``word`` after its article: ``a plain``, ``an svg`` (a word without a
    vowel is said letter by letter)."""
    sounds = "aeiou" if any(c in "aeiouy" for c in word.lower()) else "aefhilmnorsx"
    return f"{'an' if word[:1].lower() in sounds else 'a'} {word}"


def a_value(value: Any) -> str:
    """A value as the message names it: its kind, and itself when short."""
    kind = type(value).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    if value is None:
        return "None"
    if isinstance(value, (bool, int, float, str)):
        return f"{article} {kind} ({describe(value) if not isinstance(value, bool) else value})"
    return f"{article} {kind}"


def takes(function: object, arguments: tuple[str, ...]) -> str | None:
    """Why ``function`` cannot be called with ``arguments`` (positional),
    or None: checked once, where it is registered, not at each call."""
    if not callable(function):
        return f"is {a_value(function)}, not a function"
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature: it is called as it is
        return None
    try:
        signature.bind(*arguments)
    except TypeError:
        name = getattr(function, "__name__", type(function).__name__)
        return f"{name}{signature} is not called as ({', '.join(arguments)})"
    return None
