"""Declarations a function carries about itself (a step's listing declares
its slots, a node who decides in it), holding for that function alone.

A wrapper made with ``functools.wraps`` copies the wrapped function's
attributes, so an attribute alone would let a house rule's wrapper claim
what only the function it wraps declared. A declaration keeps the function
it was made on, and is read only from that one: a wrapper, or any other
function, declares nothing, and the caller falls back to what asks the
function itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def declare(function: F, name: str, value: Any) -> F:
    """Make ``function`` declare ``value`` as ``name``; returns ``function``."""
    setattr(function, name, (function, value))
    return function


def declared(function: Any, name: str) -> Any:
    """What ``function`` itself declares as ``name`` (:func:`declare`), or None."""
    found = getattr(function, name, None)
    if found is None or found[0] is not function:
        return None
    return found[1]
