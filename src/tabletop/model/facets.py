"""A state's facets and a plain board, worked out from the state's fields.

A game that writes no ``describe`` or ``render`` of its own gets these (see
:class:`tabletop.Game`): one facet per field of its state (an attrs class
or a dataclass), named after the field, and a board of one line per facet.
A value is written plainly: a number or a word as itself, None as ``-``, a
:class:`~tabletop.Hidden` as ``?``, an event as the game's line for it, a
tuple its items with spaces (a tuple in a tuple in brackets), a mapping its
keys and values.

They are handed the viewer's view, never the state (:mod:`tabletop.sight.seen`),
so they show exactly what the view holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import attrs

from .events import Event


def _text(game: Any, value: Any, viewer: str | None, nested: bool = False) -> str:
    if value is None:
        return "-"
    if value is True or value is False:
        return "yes" if value else "no"
    if isinstance(value, Event):
        return game.format(value, viewer)
    if isinstance(value, (tuple, list, frozenset)):
        inner = " ".join(_text(game, item, viewer, True) for item in value)
        return f"[{inner}]" if nested else inner or "-"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{key} {_text(game, item, viewer, True)}" for key, item in value.items())
        return f"[{inner}]" if nested else inner or "-"
    return str(value)


def _fields(state: Any) -> list[tuple[str, Any]]:
    if attrs.has(type(state)):
        return [(f.name, getattr(state, f.name)) for f in attrs.fields(type(state))]
    if dataclasses.is_dataclass(state) and not isinstance(state, type):
        return [(f.name, getattr(state, f.name)) for f in dataclasses.fields(state)]
    if isinstance(state, Mapping):
        return [(str(key), value) for key, value in state.items()]
    return [("state", state)]


def facets(game: Any, state: Any, viewer: str | None = None) -> dict[str, str]:
    """One facet per field of ``state`` (``viewer``'s view), by the field's name."""
    return {name: _text(game, value, viewer) for name, value in _fields(state)}


def board(game: Any, state: Any, viewer: str | None = None) -> str:
    """The facets of ``state`` as a board of text, one ``name: value`` a line."""
    title = game.title or game.name
    return "\n".join([title, *(f"{name}: {text}" for name, text in facets(game, state, viewer).items())])
