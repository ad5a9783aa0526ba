"""A state's mutable twin, derived from the state's declared fields.

A game's state is a frozen attrs class: the engine keeps every state it
passed, and a fold is a value. Its rules change a state in place all the
same: each step's ``apply`` is written once, against a *twin* of the state
(the same fields, the tuples as lists), which the plain fold thaws from the
state and freezes back after one event, and the fast path keeps for a whole
game. :func:`twin` makes the twin's class, its ``thaw`` and its ``freeze``
from the state's fields, so that a field added to the state is one edit::

    @attrs.frozen
    class State:
        stacks: tuple[tuple[Chip, ...], ...]
        tops: tuple[tuple[int, ...], ...]
        turn: int | None = None

    @twin(State, tops=LISTS)
    class Work:
        \"\"\"The fields of State, mutable.\"\"\"

        #: The twin's own attributes, no part of the state: annotated, with
        #: the value ``thaw`` gives them (none: unset until the rules set it).
        fast: Any = None
        at: str

        def bag_size(self, seat): ...

    thaw, freeze = Work.thaw, Work.freeze

How each field goes between the two is its :class:`Shape`: a field declared
a tuple (``tuple[...]``) is a list on the twin (:data:`LIST`), any other is
the same value (:data:`SAME`: numbers, strings, ``None``, a ``Memo``, any
immutable value, replaced as a whole). A field whose rules change items of
its items (a bag's counts in each seat's bag) is declared :data:`LISTS`;
:data:`LISTS_OR_NONE` is that, kept ``None`` on the twin while the state's
field is empty (a hot path then tests it for nothing at the cost of a truth
test). ``freeze(thaw(state)) == state`` for every state; ``thaw`` and
``freeze`` are written out for the class once, as attrs writes an
``__init__``, so that a fold that thaws and freezes at every event pays for
the fields and nothing else.

What a game must not do: keep in its twin's own attributes anything the
state needs (``freeze`` reads the state's fields alone), or give a twin's
own attribute a mutable default (every twin would share it: refused).
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

import attrs


@attrs.frozen
class Shape:
    """How a field goes from the state to its twin and back: ``thaw`` and
    ``freeze`` are expressions in which ``{}`` stands for the field's value
    (on the state, on the twin)."""

    name: str
    thaw: str
    freeze: str


#: The same value on both (a value replaced as a whole).
SAME = Shape("same", "{}", "{}")
#: A tuple on the state, a list on the twin (its items replaced as wholes).
LIST = Shape("list", "list({})", "tuple({})")
#: A tuple of tuples on the state, a list of lists on the twin.
LISTS = Shape("lists", "[list(item) for item in {}]", "tuple(map(tuple, {}))")
#: :data:`LISTS`, but ``None`` on the twin while the state's field is empty,
#: and empty on the state whenever the twin's lists are all empty.
LISTS_OR_NONE = Shape(
    "lists or none",
    "[list(item) for item in {0}] if {0} else None",
    "tuple(map(tuple, {0})) if {0} is not None and any({0}) else ()",
)

#: What a twin's own attribute may start as: immutable (every twin shares
#: it) and written as its literal in ``thaw``.
_PLAIN = (type(None), bool, int, str)


def twin(frozen: type, **shapes: Shape) -> Callable[[type], type]:
    """The class decorator making the mutable twin of the attrs class
    ``frozen``: a slotted class with ``frozen``'s fields and the decorated
    class's own (its annotations), its methods, and ``thaw(state)`` and
    ``freeze(twin)`` (static methods). ``shapes`` gives the :class:`Shape`
    of the fields that are not as their declared type says (see the
    module's docstring)."""
    fields = attrs.fields(frozen)
    names = [field.name for field in fields]
    unknown = sorted(set(shapes) - set(names))
    if unknown:
        raise TypeError(f"{frozen.__name__} has no field {', '.join(map(repr, unknown))}")
    for field in fields:
        if not field.init:
            raise TypeError(f"{frozen.__name__}.{field.name} is not given to __init__: its twin cannot freeze it")
    declared = _declared_types(frozen)
    chosen = {name: shapes.get(name) or (LIST if _is_tuple(declared.get(name)) else SAME) for name in names}

    def make(body: type) -> type:
        if "__slots__" in vars(body) or "__init__" in vars(body):
            raise TypeError(
                f"{body.__name__}: a twin's own attributes are annotations, and twins are made by thaw "
                "(no __slots__, no __init__)"
            )
        namespace = {key: value for key, value in vars(body).items() if key not in ("__dict__", "__weakref__")}
        own = [name for name in vars(body).get("__annotations__", {}) if name not in names]
        clash = sorted(name for name in names if name in namespace and name != "__annotations__")
        if clash:
            raise TypeError(f"{body.__name__}: {', '.join(clash)} is a field of {frozen.__name__}")
        starts = {}
        for name in own:
            if name in namespace:
                value = namespace.pop(name)
                if not isinstance(value, _PLAIN):
                    raise TypeError(
                        f"{body.__name__}.{name} starts as a {type(value).__name__}: every twin would share it "
                        "(start it as None and make it in the rules)"
                    )
                starts[name] = value
        namespace["__slots__"] = (*names, *own)
        cls = type(body.__name__, body.__bases__, namespace)
        cls.thaw, cls.freeze = _written(frozen, cls, fields, chosen, starts)  # type: ignore[attr-defined]
        cls.frozen = frozen  # type: ignore[attr-defined]
        return cls

    return make


def _written(frozen: type, cls: type, fields: Any, chosen: dict[str, Shape], starts: dict[str, Any]) -> tuple[Any, Any]:
    """``thaw`` and ``freeze``, written out for these fields (from identifiers
    and the shapes' expressions only)."""
    thaw = ["def thaw(state):\n    twin = Twin()"]
    for field in fields:
        thaw.append(f"    twin.{field.name} = {chosen[field.name].thaw.format(f'state.{field.name}')}")
    namespace: dict[str, Any] = {"Twin": cls, "Frozen": frozen}
    for name, value in starts.items():
        thaw.append(f"    twin.{name} = {value!r}")  # None, a number or a string: its literal
    thaw.append("    return twin")
    given = _arguments(fields, {field.name: chosen[field.name].freeze.format(f"twin.{field.name}") for field in fields})
    freeze = f"def freeze(twin):\n    return Frozen({given})"
    source = "\n".join(thaw) + "\n\n" + freeze + "\n"
    exec(compile(source, f"<twin of {frozen.__qualname__}>", "exec"), namespace)  # noqa: S102 - identifiers only
    thawing, freezing = namespace["thaw"], namespace["freeze"]
    thawing.__qualname__ = f"{cls.__qualname__}.thaw"
    thawing.__doc__ = f"A mutable copy of a {frozen.__name__}."
    freezing.__qualname__ = f"{cls.__qualname__}.freeze"
    freezing.__doc__ = f"The {frozen.__name__} equal to a {cls.__name__}."
    return staticmethod(thawing), staticmethod(freezing)


def evolver(frozen: type) -> Callable[..., Any]:
    """``attrs.evolve`` for ``frozen``, written out for its fields once (as
    attrs writes an ``__init__``): ``evolve(state, **changes)``, for the
    plain fold, which calls it several times an event."""
    fields = attrs.fields(frozen)
    given = _arguments(
        fields, {field.name: f"c[{field.name!r}] if {field.name!r} in c else s.{field.name}" for field in fields}
    )
    namespace: dict[str, Any] = {"Frozen": frozen}
    source = f"def evolve(s, **c):\n    return Frozen({given})\n"
    exec(compile(source, f"<evolve of {frozen.__qualname__}>", "exec"), namespace)  # noqa: S102 - identifiers only
    evolve = namespace["evolve"]
    evolve.__doc__ = f"A {frozen.__name__} with the fields given changed."
    return evolve


def _arguments(fields: Any, values: dict[str, str]) -> str:
    """The arguments of ``__init__`` giving each field its value: in order,
    then the keyword-only ones by their names."""
    given = [values[field.name] for field in fields if not field.kw_only]
    given += [f"{field.alias}={values[field.name]}" for field in fields if field.kw_only]
    return ", ".join(given)


def _declared_types(frozen: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(frozen)
    except Exception as exc:
        raise TypeError(f"{frozen.__name__}: its fields' types cannot be read ({exc})") from None


def _is_tuple(declared: Any) -> bool:
    return declared is tuple or typing.get_origin(declared) is tuple
