"""What a rule hook may answer, and the one line that blames a variant
whose implementation answers otherwise or raises.

A hookspec's return annotation is the contract (``bool | None``,
``Mapping[str, int] | None``, ...): ``None`` lets the next rule decide, any
other answer must be of the declared type. The official rules are the game's
own code and are trusted; a variant's implementation is checked by the
chains :mod:`tabletop.host.rules` compiles, where it answers:

- a scalar or a plain class (``bool``, ``int``, ``Event``) is one look-up of
  the answer's class in a set of classes already seen to pass (a ``bool``
  hook's set is ``{bool}`` from the start): next to nothing per call;
- a container (``Mapping[str, int]``, ``tuple[Event, ...]``) is looked at
  item by item, on every answer: such hooks are asked per game or per
  listing, not in a game's innermost loop.

A list where a ``bool`` is due is not taken as true: it is refused, naming
the variant, its file and line, the hook and what came back.
"""

from __future__ import annotations

import collections.abc as abc
import functools
import inspect
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base.errors import PluginError, TabletopError, describe
from ..base.naming import a_value, where

#: Containers are looked into this deep; anything deeper passes unlooked.
DEEPEST = 4
#: The items of a container looked at (a longer one is looked at in part).
MOST_ITEMS = 4096

Why = Callable[[Any, int], "str | None"]


class Expected:
    """A declared answer type: ``text`` as the hookspec writes it (less its
    ``None``), ``exact`` the classes whose instances pass at a glance (grows
    as answers of a plain class pass), ``why(value, depth)`` says what is
    wrong with a value, or None."""

    def __init__(self, text: str, why: Why, exact: set[type], plain: bool) -> None:
        self.text = text
        self.why = why
        self.exact = exact
        #: Whether passing depends on the class alone (then a class that
        #: passed once passes at a glance from then on).
        self.plain = plain


def expected(spec_function: Any) -> Expected | None:
    """What ``spec_function`` (a hookspec) declares its answer to be; None
    when it declares nothing that can be checked (no annotation, ``Any``, a
    name that cannot be resolved)."""
    function = inspect.unwrap(getattr(spec_function, "__func__", spec_function))
    declared = getattr(function, "__annotations__", {}).get("return", inspect.Signature.empty)
    if declared is inspect.Signature.empty:
        return None
    text = declared if isinstance(declared, str) else _text(declared)
    if isinstance(declared, str):
        try:
            declared = eval(declared, dict(getattr(function, "__globals__", {})), _Names(function))  # noqa: S307 - a hookspec's own annotation
        except Exception:
            return None
    checked = _answer(declared)
    if checked is None:
        return None
    why, exact, plain = checked
    return Expected(_less_none(text), why, exact, plain)


def gathered(item: Expected | None) -> Expected:
    """What a wrapper of a gathering hook answers: the list of every answer
    (each an ``item``)."""
    text = f"list[{item.text}]" if item is not None else "list"
    why = item.why if item is not None else None

    def answers(value: Any, depth: int) -> str | None:
        if not isinstance(value, list):
            return f"{a_value(value)}, not {text}"
        for i, found in enumerate(value):
            if i >= MOST_ITEMS:
                break
            wrong = why and why(found, depth + 1)
            if wrong:
                return f"holding {wrong}"
        return None

    return Expected(text, answers, set(), False)


class _Names(abc.Mapping):
    """Names a hookspec's annotation uses that its module imports only for
    type checkers (``if TYPE_CHECKING:``): those imports are made now."""

    def __init__(self, function: Any) -> None:
        self.module = getattr(function, "__globals__", {})

    def __getitem__(self, name: str) -> Any:
        if name in self.module or not name.isidentifier():
            raise KeyError(name)
        found = _checking_imports(self.module.get("__name__", ""))
        if name in found:
            return found[name]
        if name in vars(typing):
            return getattr(typing, name)
        raise KeyError(name)

    def __iter__(self) -> Any:
        return iter(())

    def __len__(self) -> int:
        return 0


@functools.lru_cache(maxsize=64)
def _checking_imports(module_name: str) -> dict[str, Any]:
    """What the ``if TYPE_CHECKING:`` blocks of a module import, imported
    (a name that cannot be is left out: its check is then skipped)."""
    import ast
    import sys

    module = sys.modules.get(module_name)
    try:
        tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    except (OSError, TypeError, SyntaxError):
        return {}
    found: dict[str, Any] = {}
    for node in tree.body:
        if not (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)):
            continue
        for statement in node.body:
            if not isinstance(statement, (ast.Import, ast.ImportFrom)):
                continue
            for alias in statement.names:
                one = ast.Module(body=[_only(statement, alias)], type_ignores=[])
                space: dict[str, Any] = {"__name__": module_name, "__package__": getattr(module, "__package__", None)}
                try:
                    exec(compile(one, f"<imports of {module_name}>", "exec"), space)  # noqa: S102 - the module's own imports
                except Exception:
                    continue
                name = alias.asname or alias.name.split(".")[0]
                if name in space:
                    found[name] = space[name]
    return found


def _only(statement: Any, alias: Any) -> Any:
    import ast

    if isinstance(statement, ast.ImportFrom):
        return ast.ImportFrom(module=statement.module, names=[alias], level=statement.level, lineno=1, col_offset=0)
    return ast.Import(names=[alias], lineno=1, col_offset=0)


def _text(declared: Any) -> str:
    return getattr(declared, "__name__", None) or str(declared).replace("typing.", "")


def _less_none(text: str) -> str:
    parts = [part.strip() for part in _split_union(text)]
    kept = [part for part in parts if part != "None"]
    return " | ".join(kept) if kept else text


def _split_union(text: str) -> list[str]:
    """``text`` split at its top-level ``|`` (not those inside brackets)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


# -- a type, as a check ---------------------------------------------------------------
def _answer(declared: Any) -> tuple[Why, set[type], bool] | None:
    """The check of a whole answer, with the classes that pass at a glance."""
    if declared is None or declared is type(None):
        return None
    if typing.get_origin(declared) in (typing.Union, types.UnionType):
        kept = tuple(arg for arg in typing.get_args(declared) if arg is not type(None))
        if not kept:
            return None
        declared = kept[0] if len(kept) == 1 else typing.Union[kept]  # noqa: UP007 - built from parts
    why = _why(declared)
    if why is None:
        return None
    exact = {declared} if declared in (bool, int, str, float) else set()
    plain = isinstance(declared, type) and typing.get_origin(declared) is None and declared is not float
    return why, exact, plain


def _why(declared: Any) -> Why | None:
    """A function ``why(value, depth)``: what is wrong with ``value`` as a
    ``declared``, or None; None when anything goes."""
    if declared is Any or declared is object or isinstance(declared, typing.TypeVar):
        return None
    if declared is None or declared is type(None):
        return lambda value, depth: None if value is None else f"{a_value(value)} where None is due"
    origin = typing.get_origin(declared)
    args = typing.get_args(declared)
    if origin in (typing.Union, types.UnionType):
        options = [_why(arg) for arg in args]
        if any(option is None for option in options):
            return None
        text = _text(declared)

        def union(value: Any, depth: int) -> str | None:
            for option in options:
                if option(value, depth) is None:  # type: ignore[misc]
                    return None
            return f"{a_value(value)}, not {text}"

        return union
    if origin is typing.Literal:
        return lambda value, depth: None if value in args else f"{a_value(value)}, not one of {args}"
    if declared is bool:
        return lambda value, depth: None if value.__class__ is bool else f"{a_value(value)}, not bool"
    if declared is int:
        return lambda value, depth: (
            None if isinstance(value, int) and value.__class__ is not bool else f"{a_value(value)}, not int"
        )
    if declared is float:
        return lambda value, depth: (
            None
            if isinstance(value, (int, float)) and value.__class__ is not bool
            else f"{a_value(value)}, not a number"
        )
    if origin is abc.Callable or declared is abc.Callable:
        return lambda value, depth: None if callable(value) else f"{a_value(value)}, not callable"
    if origin is None:
        if not isinstance(declared, type):
            return None
        name = declared.__name__
        return lambda value, depth: None if isinstance(value, declared) else f"{a_value(value)}, not {name}"
    return _container(declared, origin, args)


def _container(declared: Any, origin: Any, args: tuple[Any, ...]) -> Why | None:
    if not isinstance(origin, type):
        return None
    name = _text(declared)
    strings = (str, bytes)
    if issubclass(origin, abc.Mapping):
        keys = _why(args[0]) if args else None
        values = _why(args[1]) if len(args) > 1 else None

        def mapping(value: Any, depth: int) -> str | None:
            if not isinstance(value, abc.Mapping):
                return f"{a_value(value)}, not {name}"
            if depth >= DEEPEST:
                return None
            for i, (key, item) in enumerate(value.items()):
                if i >= MOST_ITEMS:
                    break
                wrong = keys and keys(key, depth + 1)
                if wrong:
                    return f"a key {_short(key)} that is {wrong}"
                wrong = values and values(item, depth + 1)
                if wrong:
                    return f"for {_short(key)} {wrong}"
            return None

        return mapping
    if origin is tuple and args and args[-1] is not Ellipsis:
        fields = [_why(arg) for arg in args]

        def fixed(value: Any, depth: int) -> str | None:
            if value.__class__ is not tuple and not isinstance(value, tuple):
                return f"{a_value(value)}, not {name}"
            if len(value) != len(fields):
                return f"a tuple of {len(value)}, not {name}"
            if depth >= DEEPEST:
                return None
            for i, (field, item) in enumerate(zip(fields, value)):
                wrong = field and field(item, depth + 1)
                if wrong:
                    return f"at [{i}] {wrong}"
            return None

        return fixed
    if issubclass(origin, (abc.Sequence, abc.Set, abc.Collection)) and not issubclass(origin, strings):
        items = _why(args[0]) if args else None

        def collection(value: Any, depth: int) -> str | None:
            # A str is a sequence of str: never what a hook that gives several things means.
            if not isinstance(value, origin) or isinstance(value, strings):
                return f"{a_value(value)}, not {name}"
            if items is None or depth >= DEEPEST:
                return None
            for i, item in enumerate(value):
                if i >= MOST_ITEMS:
                    break
                wrong = items(item, depth + 1)
                if wrong:
                    return f"holding {wrong}"
            return None

        return collection
    return lambda value, depth: None if isinstance(value, origin) else f"{a_value(value)}, not {name}"


def _short(value: Any) -> str:
    return describe(value) if isinstance(value, (str, int, float, bool)) or value is None else a_value(value)


# -- the line that blames a variant -------------------------------------------------------
class Blame:
    """A variant's implementation of a rule hook, for the errors it can cause."""

    def __init__(self, variant: str, hook: str, function: Any, expected: Expected | None) -> None:
        self.variant = variant
        self.hook = hook
        self.function = function
        self.expected = expected
        #: The classes whose instances pass at a glance (shared with ``expected``).
        self.exact: set[type] | frozenset[type] = expected.exact if expected is not None else frozenset()

    def where(self) -> str:

        return where(self.function)

    def error(self, problem: str, where: str | None = None) -> PluginError:
        return PluginError(f"variant '{self.variant}': {self.hook} {problem}", where=where or self.where())

    def check(self, value: Any) -> None:
        """Refuse ``value``, an answer that is not None, unless it is of the declared type."""
        expected = self.expected
        if expected is None:
            return
        wrong = expected.why(value, 0)
        if wrong is not None:
            said = f"returned {a_value(value)}, expected {expected.text}"
            # What is wrong inside a container is said too: the container itself is of the right kind.
            raise self.error(said if wrong.startswith(a_value(value) + ",") else f"{said} ({wrong})")
        if expected.plain:
            expected.exact.add(value.__class__)

    def raised(self, exc: BaseException) -> PluginError:
        """The error for ``exc``, raised by the implementation: one line, at
        the line of the variant's file it came from."""
        return self.error(f"raised {type(exc).__name__}: {exc}".rstrip(": "), self._line_of(exc))

    def dropped(self) -> PluginError:
        return self.error(
            "returned None where the rules it wraps gave an answer (a wrapper returns one: 'return (yield)')"
        )

    def silent(self) -> PluginError:
        return self.error("returns without yielding (a wrapper yields once: 'answer = yield')")

    def twice(self) -> PluginError:
        return self.error("yields more than once (a wrapper yields once: 'answer = yield')")

    def _line_of(self, exc: BaseException) -> str | None:
        """``FILE:LINE`` of the last line of the variant's own file that the
        exception passed through, else None (its ``def`` is named)."""
        code = getattr(inspect.unwrap(getattr(self.function, "__func__", self.function)), "__code__", None)
        if code is None:
            return None
        home = code.co_filename
        found = None
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == home:
                found = tb.tb_lineno
            tb = tb.tb_next
        return f"{Path(home)}:{found}" if found is not None else None


def passes(exc: BaseException) -> bool:
    """Whether ``exc`` goes on as it is: tabletop's own errors (a rule may
    refuse with one, say ``NotationError``) and what is not an error of the
    code (an interrupt, an exit)."""
    return isinstance(exc, TabletopError) or not isinstance(exc, Exception)
