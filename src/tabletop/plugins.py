"""Finding plugins and building the registry of games, variants and bots.

Plugins come from three places, in this order: the ``tabletop`` entry-point
group of installed distributions (the built-in games are found this way too),
the ``TABLETOP_PLUGINS`` environment variable (paths joined with ``os.pathsep``)
and ``--plugins PATH`` on the command line. A path is a ``.py`` file or a folder
whose ``.py`` files are each loaded.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs, installed
from .errors import PluginError

ENTRY_POINT_GROUP = installed.PLUGIN_GROUP
ENV_VAR = "TABLETOP_PLUGINS"

hookimpl = pluggy.HookimplMarker("tabletop")


def get_plugin_manager(
    paths: Sequence[str | os.PathLike[str]] = (),
    *,
    entry_points: bool = True,
    environment: bool = True,
    game: str | None = None,
    listing: bool = False,
) -> pluggy.PluginManager:
    """A fresh plugin manager with every plugin loaded and checked. With
    ``game``, the installed plugins that serve only other games (as their
    ``about`` says: see :mod:`tabletop.installed`) are left out. With
    ``listing``, only those installed plugins that may register a game no
    ``about`` tells of (the plugin files named are loaded all the same)."""
    pm = pluggy.PluginManager("tabletop")
    pm.add_hookspecs(hookspecs)
    if entry_points:
        for ep in installed.unlisted() if listing else installed.plugins_for(game):
            if pm.has_plugin(ep.name):
                continue
            try:
                plugin = ep.load()
            except Exception as exc:  # a broken third-party package must not crash us
                raise PluginError(f"cannot load plugin '{ep.name}' ({ep.value}): {_reason(exc)}") from None
            pm.register(plugin, name=ep.name)
    all_paths: list[str | os.PathLike[str]] = []
    if environment:
        all_paths += [p for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p]
    all_paths += list(paths)
    for module in load_paths(all_paths):
        if not pm.is_registered(module):
            try:
                pm.register(module, name=module.__name__)
            except pluggy.PluginValidationError as exc:
                raise _validation_error(module, exc) from None
    _check_pending(pm)
    return pm


def _hook_names() -> list[str]:
    return sorted(name for name in vars(hookspecs) if name.startswith("register_"))


def _validation_error(module: ModuleType, exc: pluggy.PluginValidationError) -> PluginError:
    # pluggy's message is several lines with a repr; say which hook and argument.
    for name in _hook_names():
        function = getattr(module, name, None)
        if function is None or not hasattr(function, "tabletop_impl"):
            continue
        wanted = inspect.signature(getattr(hookspecs, name)).parameters
        for arg in inspect.signature(function).parameters:
            if arg not in wanted:
                return PluginError(
                    f"hook '{name}' has no argument '{arg}' (it passes: {', '.join(wanted) or 'nothing'})",
                    where=_where(function),
                )
    return PluginError(f"plugin {getattr(module, '__file__', module.__name__)}: {str(exc).splitlines()[0]}")


def _check_pending(pm: pluggy.PluginManager) -> None:
    """An implementation of a hook tabletop does not have: name it, where it is,
    and the hooks that do exist."""
    for name, caller in vars(pm.hook).items():
        if not isinstance(caller, pluggy.HookCaller) or caller.spec is not None:
            continue
        for impl in caller.get_hookimpls():
            if impl.optionalhook:
                continue
            raise PluginError(
                f"'{name}' is not a tabletop hook (hooks: {', '.join(_hook_names())}; "
                "rule hooks are implemented with @rulehook in a variant)",
                where=_where(impl.function),
            )


def _where(function: object) -> str | None:
    # Only for a message: the rule book (and attrs with it) is imported when one is due.
    from .rules import where

    return where(function)


def load_paths(paths: Iterable[str | os.PathLike[str]]) -> list[ModuleType]:
    """Import each ``.py`` file named, or found directly in a folder named."""
    return [load_file(f) for f in plugin_files(paths)]


def plugin_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The ``.py`` files named, or found directly in a folder named (not
    those starting with ``_``), in the order they are loaded."""
    found = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += sorted(p for p in path.glob("*.py") if not p.name.startswith("_"))
        elif path.is_file():
            found.append(path)
        else:
            raise PluginError(f"{raw}: no such plugin file or folder")
    return found


def load_file(path: Path) -> ModuleType:
    """Import one plugin file under a name of its own, once per process."""
    resolved = path.resolve()
    name = "tabletop_plugin_" + "".join(c if c.isalnum() else "_" for c in str(resolved))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise PluginError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        line = _line_in(exc, resolved)
        where = f"{path}:{line}" if line else str(path)
        raise PluginError(f"cannot load plugin: {_reason(exc)}", where=where) from None
    return module


def _reason(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg}"
    return f"{type(exc).__name__}: {exc}"


def _line_in(exc: BaseException, path: Path) -> int | None:
    if isinstance(exc, SyntaxError) and exc.filename and Path(exc.filename).resolve() == path:
        return exc.lineno
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


# -- an error from a house rule's own code ----------------------------------------------
def at_fault(exc: BaseException, variants: Iterable[object] = ()) -> PluginError | None:
    """The one line for ``exc``, an error no part of tabletop turned into
    one, when it was raised in the code of a plugin file loaded by path (a
    house rule): code the game calls that is not a rule hook (a step of
    the turn, a spell's function, a check a variant's decision brings).
    It names the variant defined in that file (among ``variants``, the
    :class:`~tabletop.Variant` objects known), the file and line the error
    came from and what was raised. None when no house rule's code is on its
    way: an error of tabletop's own, to be seen whole."""
    if not isinstance(exc, Exception):
        return None
    files = {
        getattr(module, "__file__", None)
        for name, module in list(sys.modules.items())
        if name.startswith("tabletop_plugin_")
    }
    found = None
    tb = exc.__traceback__
    while tb is not None:  # the deepest line of a house rule's file: where it went wrong
        if tb.tb_frame.f_code.co_filename in files:
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    named = [getattr(v, "name", "?") for v in variants if _file_of(getattr(v, "rules", None)) == found[0]]
    # A file that defines no variant is a plugin of another kind (a bot, a renderer, a command).
    kind = "plugin" if not named else "house rule"
    who = f"variant '{named[0]}'" if len(named) == 1 else f"{kind} {Path(found[0]).name}"
    problem = f"{type(exc).__name__}: {exc}".rstrip(": ")
    return PluginError(f"{who}: its code raised {problem}", where=f"{found[0]}:{found[1]}")


def _file_of(rules: object) -> str | None:
    """The file a variant's rules (a module, a class or an instance) come from."""
    if rules is None:
        return None
    holder = rules if isinstance(rules, (type, ModuleType)) else type(rules)
    try:
        return inspect.getfile(holder)
    except (TypeError, OSError):
        return None


# -- what a plugin registers, checked as it registers it ------------------------------------
#: What is wrong with a thing a plugin registers, and the function or class
#: at fault (None: the hook that returned it).
Fault = tuple[str, object]

#: What a register hook returns that is never a list of things: a str or a
#: dict is iterable, but not what a plugin means to register.
NOT_A_LIST = (str, bytes, bytearray, dict)

#: The pictures the core draws itself, which no renderer replaces.
CORE_FORMATS = ("text", "png")

#: Values that are never a variant's rules (which are a module, an object or a class).
NOT_RULES = (bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset)


def offered(
    pm: pluggy.PluginManager, hook: str, what: str, check: Callable[[Any], Fault | None]
) -> Iterator[tuple[Any, Callable[..., Any]]]:
    """Each thing the plugins' ``hook`` (a ``register_*`` hook) returns, in
    the order pluggy would call them (the plugin registered last first),
    with the function that returned it (see :func:`where`). A hook that
    returns no list, or a list holding anything ``check`` finds wrong, is
    one line naming the hook, what is wrong and the file and line at fault
    (:class:`~tabletop.PluginError`, exit 2): the command stops before any
    of it is used."""
    for impl in reversed(getattr(pm.hook, hook).get_hookimpls()):
        function = impl.function
        if impl.hookwrapper or impl.wrapper:
            raise PluginError(f"{hook} returns what it registers: it is never a wrapper", where=where(function))
        found = function()
        if found is None:
            continue
        if isinstance(found, NOT_A_LIST) or not isinstance(found, Iterable):
            raise PluginError(f"{hook} returned {_a(found)}, not a list of {what}", where=where(function))
        for thing in found:
            fault = check(thing)
            if fault is not None:
                problem, culprit = fault
                raise PluginError(f"{hook}: {problem}", where=where(culprit) or where(function))
            yield thing, function


def where(culprit: object) -> str | None:
    """``FILE:LINE`` of a plugin's function or class, for the line that names it."""
    from .extensions import code_of

    return None if culprit is None else code_of(culprit)


def article(word: str) -> str:
    """``word`` after its article: ``a plain``, ``an svg`` (a word without a
    vowel is said letter by letter)."""
    sounds = "aeiou" if any(c in "aeiouy" for c in word.lower()) else "aefhilmnorsx"
    return f"{'an' if word[:1].lower() in sounds else 'a'} {word}"


def game(cls: Any) -> Fault | None:
    """What is wrong with ``cls`` as a game a plugin registers, or None."""
    from .game import Game

    if not isinstance(cls, type):
        return f"{_a(cls)} is not a game (a subclass of tabletop.Game)", None
    if not issubclass(cls, Game):
        return f"the class {cls.__name__} is not a game (a subclass of tabletop.Game)", cls
    if not _word(cls.name):
        return f"game {cls.__name__}: its name {_named(cls.name)}", cls
    called = f"game '{cls.name}'"
    for text in ("title", "description"):
        if not isinstance(getattr(cls, text), str):
            return f"{called}: its {text} is {_a(getattr(cls, text))}, not text", cls
    low, high = cls.min_players, cls.max_players
    if not (type(low) is int and type(high) is int and 1 <= low <= high):
        return (
            f"{called}: min_players and max_players must be whole numbers with 1 <= min_players <= max_players, "
            f"not {_a(low)} and {_a(high)}"
        ), cls
    if not isinstance(cls.options, Mapping) or not all(isinstance(name, str) for name in cls.options):
        return f"{called}: its options are {_a(cls.options)}, not a table of each option's name and help", cls
    wrong = _events(cls.events)
    if wrong:
        return f"{called}: {wrong}", cls
    for method in ("initial", "outcome"):
        if getattr(cls, method) is getattr(Game, method):
            return f"{called} has no {method}() of its own (every game writes it)", cls
    return None


def variant(thing: Any) -> Fault | None:
    """What is wrong with ``thing`` as a variant a plugin registers, or None."""
    import attrs

    from .extensions import Variant

    if not isinstance(thing, Variant):
        return f"{_a(thing)} is not a tabletop.Variant", None
    if not _word(thing.name, ":,="):
        return f"a variant's name {_named(thing.name, ':,=')}", None
    called = f"variant '{thing.name}'"
    if not isinstance(thing.game, str):
        return f"{called}: its game is {_a(thing.game)}, not a game's name", None
    if not isinstance(thing.description, str):
        return f"{called}: its description is {_a(thing.description)}, not text", None
    rules = thing.rules
    if rules is None or isinstance(rules, NOT_RULES):
        return f"{called}: its rules are {_a(rules)}, not a module, an object or a class with @rulehook methods", None
    if isinstance(rules, type) and not attrs.has(rules):
        try:
            inspect.signature(rules).bind()
        except TypeError:
            return (
                f"{called}: its rules class {rules.__name__} cannot be made without arguments "
                "(a variant with parameters gives an attrs class: its fields are the parameters)"
            ), rules
        except ValueError:  # no signature to read: it is tried when the variant is enabled
            pass
    wrong = _events(thing.events)
    return (f"{called}: {wrong}", None) if wrong else None


def bot(thing: Any) -> Fault | None:
    """What is wrong with ``thing`` as a bot a plugin registers, or None."""
    from .extensions import Bot

    if not isinstance(thing, Bot):
        return f"{_a(thing)} is not a tabletop.Bot", None
    if not _word(thing.name, ":,="):
        return f"a bot's name {_named(thing.name, ':,=')}", None
    called = f"bot '{thing.name}'"
    if not isinstance(thing.description, str):
        return f"{called}: its description is {_a(thing.description)}, not text", None
    if thing.game is not None and not isinstance(thing.game, str):
        return f"{called}: its game is {_a(thing.game)}, not a game's name (or None: every game)", None
    if type(thing.reads_state) is not bool:
        return f"{called}: reads_state is {_a(thing.reads_state)}, not True or False", None
    wrong = takes(thing.choose, ("game", "view", "player", "legal", "rng"))
    return (f"{called}: its choose {wrong}", thing.choose) if wrong else None


def renderer(thing: Any) -> Fault | None:
    """What is wrong with ``thing`` as a renderer a plugin registers, or None."""
    from .extensions import Renderer

    if not isinstance(thing, Renderer):
        return f"{_a(thing)} is not a tabletop.Renderer", None
    if not isinstance(thing.game, str):
        return f"a renderer's game is {_a(thing.game)}, not a game's name", None
    if not _word(thing.format):
        return f"a renderer of {thing.game}: its format {_named(thing.format)}", None
    called = f"{article(thing.format)} renderer for {thing.game}"
    if thing.format in CORE_FORMATS:
        return f"{called}: the {thing.format} picture is the core's own (a png is made from the svg one)", None
    if not isinstance(thing.media_type, str):
        return f"{called}: its media type is {_a(thing.media_type)}, not text (image/svg+xml, say)", None
    wrong = takes(thing.render, ("game", "view", "viewer"))
    if wrong:
        return f"{called}: its render {wrong}", thing.render
    wrong = None if thing.legend is None else takes(thing.legend, ("game",))
    return (f"{called}: its legend {wrong}", thing.legend) if wrong else None


def numbering(thing: Any) -> Fault | None:
    """What is wrong with ``thing`` as a numbering a plugin registers, or None."""
    from .numbering import Numbering

    if not isinstance(thing, Numbering):
        return f"{_a(thing)} is not a tabletop.numbering.Numbering", None
    if not isinstance(thing.game, str):
        return f"a numbering's game is {_a(thing.game)}, not a game's name", None
    for part, arguments in (("words", ("game",)), ("spell", ("game", "decision")), ("most_outcomes", ("game",))):
        wrong = takes(getattr(thing, part), arguments)
        if wrong:
            return f"the numbering of {thing.game}: its {part} {wrong}", getattr(thing, part)
    return None


def _word(name: object, also: str = "") -> bool:
    """Whether ``name`` can be written in a log's header and on a command line."""
    return (
        isinstance(name, str) and name.isprintable() and bool(name) and not any(c.isspace() or c in also for c in name)
    )


def _named(name: object, also: str = "") -> str:
    """Why ``name`` is no name (:func:`_word`)."""
    banned = "".join(f", '{c}'" for c in also)
    return f"must be a word (no spaces{banned}), not {_a(name)}"


def _events(events: object) -> str | None:
    """What is wrong with ``events`` as the event classes of a game or a variant."""
    import attrs

    from .events import Event

    if isinstance(events, NOT_A_LIST) or not isinstance(events, Iterable):
        return f"its events are {_a(events)}, not a list of event classes"
    for cls in events:
        if not (isinstance(cls, type) and issubclass(cls, Event) and attrs.has(cls)):
            return f"its events hold {_a(cls)}, not an event class (an attrs subclass of tabletop.Event)"
        if not _word(cls.kind):
            return f"its event class {cls.__name__} has the kind {_a(cls.kind)}, not a word"
    return None


def takes(function: object, arguments: tuple[str, ...]) -> str | None:
    """Why ``function`` cannot be called with ``arguments`` (positional),
    or None: checked once, where it is registered, not at each call."""
    if not callable(function):
        return f"is {_a(function)}, not a function"
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


def _a(value: object) -> str:
    from .answers import a_value

    return a_value(value)
