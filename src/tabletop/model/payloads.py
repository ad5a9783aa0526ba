"""An event's payload read and written by a function made once per event
class, for the classes whose fields are plain values (strings, integers,
booleans, floats and lists of them: every event the games have but a few).

Replay speed is the speed of reading payloads, and a command that reads one
short log should not wait for cattrs to be imported: cattrs stays the
reference (an event class with other fields, and the words for whatever is
wrong in a payload). A reader accepts exactly what the project's converter
accepts (:func:`tabletop.host.registry.make_converter`: the exact type, a bool is
no int, no unknown key) and refuses by returning None, never by guessing:
the caller then asks the converter, which says why.
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Callable
from typing import Any

import attrs

#: The types read as themselves: the value's type must be exactly this.
PLAIN = (str, int, bool, float)

Reader = Callable[[dict], Any]
Writer = Callable[[Any], dict]


def _types(cls: type) -> dict[str, Any] | None:
    try:
        module = sys.modules.get(cls.__module__)
        return typing.get_type_hints(cls, vars(module) if module else None)
    except Exception:  # a name the hints cannot resolve: the converter will do
        return None


def _plain(hint: Any) -> tuple[type, bool] | None:
    """(type, is a tuple of it) for a plain field type, else None."""
    if hint in PLAIN:
        return hint, False
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis and args[0] in PLAIN:
            return args[0], True
    return None


def compile_reader(cls: type) -> Reader | None:
    """A function from a payload (with its player in it, if any) to the
    event, or None when the payload is not exactly right; None when ``cls``
    has a field that is not plain."""
    if not attrs.has(cls):
        return None
    hints = _types(cls)
    if hints is None:
        return None
    fields = []  # (key, type, is a tuple, required)
    for field in attrs.fields(cls):
        if not field.init:
            continue
        if field.alias not in (None, field.name):
            return None  # the converter knows which of the two a payload uses
        plain = _plain(hints.get(field.name))
        if plain is None:
            return None
        required = field.default is attrs.NOTHING
        fields.append((field.alias or field.name, plain[0], plain[1], required))
    keys = frozenset(f[0] for f in fields)
    required = frozenset(f[0] for f in fields if f[3])
    simple = all(not f[2] for f in fields)
    checks = tuple((key, kind, many) for key, kind, many, _ in fields)

    def read(payload: dict) -> Any:
        # Every required key, no key not known, each value of exactly its type.
        if not required <= payload.keys() <= keys:
            return None
        if simple:
            for key, kind, _ in checks:
                if key in payload and type(payload[key]) is not kind:
                    return None
            return cls(**payload)
        values = {}
        for key, kind, many in checks:
            if key not in payload:
                continue
            value = payload[key]
            if many:
                if type(value) is not list or any(type(item) is not kind for item in value):
                    return None
                value = tuple(value)
            elif type(value) is not kind:
                return None
            values[key] = value
        return cls(**values)

    return read


def compile_writer(cls: type) -> Writer | None:
    """A function from an event to its payload (every field, in order, the
    player included), or None when ``cls`` has a field that is not plain."""
    if not attrs.has(cls):
        return None
    hints = _types(cls)
    if hints is None:
        return None
    names, lists = [], []
    for field in attrs.fields(cls):
        plain = _plain(hints.get(field.name))
        if plain is None:
            return None
        (lists if plain[1] else names).append(field.name)
    order = tuple(f.name for f in attrs.fields(cls))
    many = frozenset(lists)

    def write(event: Any) -> dict:
        # Lists where the event holds tuples, as the converter writes them.
        return {name: list(getattr(event, name)) if name in many else getattr(event, name) for name in order}

    return write
