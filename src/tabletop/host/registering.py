"""What a plugin registers, checked as it registers it: a game class, a
variant, a bot, a renderer or a numbering that tabletop could not use is
one line naming the ``register_*`` hook, what is wrong and the plugin's
file and line (:class:`~tabletop.PluginError`, exit 2), before any of it
is used. Checked once, where each is registered: nothing is asked per
decision or per event."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import pluggy

from ..base.errors import PluginError
from ..base.naming import a_value, article, code_of, takes

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
            raise PluginError(f"{hook} returns what it registers: it is never a wrapper", where=code_of(function))
        found = function()
        if found is None:
            continue
        if isinstance(found, NOT_A_LIST) or not isinstance(found, Iterable):
            raise PluginError(f"{hook} returned {a_value(found)}, not a list of {what}", where=code_of(function))
        for thing in found:
            fault = check(thing)
            if fault is not None:
                problem, culprit = fault
                raise PluginError(f"{hook}: {problem}", where=code_of(culprit) or code_of(function))
            yield thing, function


def game(cls: Any) -> Fault | None:
    """What is wrong with ``cls`` as a game a plugin registers, or None."""
    from ..model.game import Game

    if not isinstance(cls, type):
        return f"{a_value(cls)} is not a game (a subclass of tabletop.Game)", None
    if not issubclass(cls, Game):
        return f"the class {cls.__name__} is not a game (a subclass of tabletop.Game)", cls
    if not _word(cls.name):
        return f"game {cls.__name__}: its name {_named(cls.name)}", cls
    called = f"game '{cls.name}'"
    for text in ("title", "description"):
        if not isinstance(getattr(cls, text), str):
            return f"{called}: its {text} is {a_value(getattr(cls, text))}, not text", cls
    low, high = cls.min_players, cls.max_players
    if not (type(low) is int and type(high) is int and 1 <= low <= high):
        return (
            f"{called}: min_players and max_players must be whole numbers with 1 <= min_players <= max_players, "
            f"not {a_value(low)} and {a_value(high)}"
        ), cls
    if not isinstance(cls.options, Mapping) or not all(isinstance(name, str) for name in cls.options):
        return f"{called}: its options are {a_value(cls.options)}, not a table of each option's name and help", cls
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

    fault, called = _entry(thing, Variant, "variant")
    if fault is not None:
        return fault
    if not isinstance(thing.game, str):
        return f"{called}: its game is {a_value(thing.game)}, not a game's name", None
    rules = thing.rules
    if rules is None or isinstance(rules, NOT_RULES):
        return (
            f"{called}: its rules are {a_value(rules)}, not a module, an object or a class with @rulehook methods",
            None,
        )
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

    fault, called = _entry(thing, Bot, "bot")
    if fault is not None:
        return fault
    if thing.game is not None and not isinstance(thing.game, str):
        return f"{called}: its game is {a_value(thing.game)}, not a game's name (or None: every game)", None
    if type(thing.reads_state) is not bool:
        return f"{called}: reads_state is {a_value(thing.reads_state)}, not True or False", None
    wrong = takes(thing.choose, ("game", "view", "player", "legal", "rng"))
    return (f"{called}: its choose {wrong}", thing.choose) if wrong else None


def renderer(thing: Any) -> Fault | None:
    """What is wrong with ``thing`` as a renderer a plugin registers, or None."""
    from .extensions import Renderer

    if not isinstance(thing, Renderer):
        return f"{a_value(thing)} is not a tabletop.Renderer", None
    if not isinstance(thing.game, str):
        return f"a renderer's game is {a_value(thing.game)}, not a game's name", None
    if not _word(thing.format):
        return f"a renderer of {thing.game}: its format {_named(thing.format)}", None
    called = f"{article(thing.format)} renderer for {thing.game}"
    if thing.format in CORE_FORMATS:
        return f"{called}: the {thing.format} picture is the core's own (a png is made from the svg one)", None
    if not isinstance(thing.media_type, str):
        return f"{called}: its media type is {a_value(thing.media_type)}, not text (image/svg+xml, say)", None
    wrong = takes(thing.render, ("game", "view", "viewer"))
    if wrong:
        return f"{called}: its render {wrong}", thing.render
    wrong = None if thing.legend is None else takes(thing.legend, ("game",))
    return (f"{called}: its legend {wrong}", thing.legend) if wrong else None


def numbering(thing: Any) -> Fault | None:
    """What is wrong with ``thing`` as a numbering a plugin registers, or None."""
    from ..model.numbering import Numbering

    if not isinstance(thing, Numbering):
        return f"{a_value(thing)} is not a tabletop.model.numbering.Numbering", None
    if not isinstance(thing.game, str):
        return f"a numbering's game is {a_value(thing.game)}, not a game's name", None
    for part, arguments in (("words", ("game",)), ("spell", ("game", "decision")), ("most_outcomes", ("game",))):
        wrong = takes(getattr(thing, part), arguments)
        if wrong:
            return f"the numbering of {thing.game}: its {part} {wrong}", getattr(thing, part)
    return None


def _entry(thing: Any, cls: type, what: str) -> tuple[Fault | None, str]:
    """What a variant and a bot are both checked for: their class, a name a
    header and a command line can give (``NAME:key=value``), a description
    in text. The fault or None, and how the thing is called in a line."""
    if not isinstance(thing, cls):
        return (f"{a_value(thing)} is not a tabletop.{cls.__name__}", None), what
    if not _word(thing.name, ":,="):
        return (f"a {what}'s name {_named(thing.name, ':,=')}", None), what
    called = f"{what} '{thing.name}'"
    if not isinstance(thing.description, str):
        return (f"{called}: its description is {a_value(thing.description)}, not text", None), called
    return None, called


def _word(name: object, also: str = "") -> bool:
    """Whether ``name`` can be written in a log's header and on a command line."""
    return (
        isinstance(name, str) and name.isprintable() and bool(name) and not any(c.isspace() or c in also for c in name)
    )


def _named(name: object, also: str = "") -> str:
    """Why ``name`` is no name (:func:`_word`)."""
    banned = "".join(f", '{c}'" for c in also)
    return f"must be a word (no spaces{banned}), not {a_value(name)}"


def _events(events: object) -> str | None:
    """What is wrong with ``events`` as the event classes of a game or a variant."""
    import attrs

    from ..model.events import Event

    if isinstance(events, NOT_A_LIST) or not isinstance(events, Iterable):
        return f"its events are {a_value(events)}, not a list of event classes"
    for cls in events:
        if not (isinstance(cls, type) and issubclass(cls, Event) and attrs.has(cls)):
            return f"its events hold {a_value(cls)}, not an event class (an attrs subclass of tabletop.Event)"
        if not _word(cls.kind):
            return f"its event class {cls.__name__} has the kind {a_value(cls.kind)}, not a word"
    return None
