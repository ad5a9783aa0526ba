"""A view (or, asked for by name, the whole state) as JSON data, for
``replay --json --step --state``: what a house rule's author reads to see
what each event did, field by field.

Every attrs class is an object of its fields by name, with the class's name
under ``"class"`` (no field can be called that); tuples and lists are
arrays; sets are arrays in a stable order; a :class:`~tabletop.Hidden` is
``{"hidden": WHAT, "count": N}``: what the player may not see is there as
hidden, with how many, never its values.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

import attrs

from ..model.game import Hidden

#: Views nest a few levels deep; anything deeper is given by its type's name.
DEEPEST = 16


def data(view: Any, depth: int = 0) -> Any:
    """``view`` as plain JSON values (see the module's text)."""
    if isinstance(view, Hidden):
        return {"hidden": view.what, "count": view.count}
    if view is None or isinstance(view, (bool, int, str)):
        return view
    if isinstance(view, float):
        return view if view == view and abs(view) != float("inf") else str(view)  # JSON has no NaN
    if isinstance(view, Enum):
        return data(view.value, depth)
    if depth >= DEEPEST:
        return f"<{type(view).__name__}>"
    if attrs.has(type(view)):
        found: dict[str, Any] = {"class": type(view).__name__}
        for field in attrs.fields(type(view)):
            found[field.name] = data(getattr(view, field.name), depth + 1)
        return found
    if isinstance(view, Mapping):
        if all(isinstance(key, str) for key in view):
            return {key: data(value, depth + 1) for key, value in view.items()}
        return [[data(key, depth + 1), data(value, depth + 1)] for key, value in view.items()]
    if isinstance(view, (set, frozenset)):
        return [data(item, depth + 1) for item in sorted(view, key=repr)]
    if isinstance(view, (tuple, list)):
        return [data(item, depth + 1) for item in view]
    if isinstance(view, bytes):
        return view.hex()
    return str(view)
