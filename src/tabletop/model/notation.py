"""A decision's notation and any event's sentence, worked out from its event class.

A game that writes no ``notate``, ``parse``, ``notate_outcome`` or
``format`` of its own gets these (see :class:`tabletop.Game`). An event is
written from its fields by a template, a class attribute in
:meth:`str.format` style naming the fields (never ``player``)::

    @attrs.frozen
    class Bid(Event):
        kind: ClassVar[str] = "bid"
        written: ClassVar[str] = "{count}x{face}"        # 3x5
        sentence: ClassVar[str] = "{player} bids {written}"  # ann bids 3x5
        player: str
        count: int
        face: int

Without ``written`` an event is written as its kind, then each field but
``player`` (``liar``; ``roll 5``); without ``sentence`` a line of a log
reads ``PLAYER WRITTEN`` (``ann liar``). ``unseen`` is the sentence a
viewer who may not see the event reads (``{player} rolls a die``; by
default ``PLAYER KIND (hidden)``): it names no field but ``player``. A value is written as itself; a bool ``yes`` or ``no``; a tuple its
items joined by commas (``-`` for none). Parsing reads a template back,
case and spaces aside; a field written as text is one word. A core
decision shape (:mod:`tabletop.model.shapes`) writes and reads itself.

What a game must not do: give two classes templates that read the same
text (the first class listed would take it, and the conformance kit finds
the decision that does not read back as itself), or put in ``unseen`` a
field the viewer may not see.
"""

from __future__ import annotations

import functools
import re
import sys
import typing
from collections.abc import Mapping, Sequence
from string import Formatter
from typing import Any

import attrs

from ..base.errors import NotationError, PluginError, quote
from .events import DECISION, Event
from .shapes import Shape, redacted, seen

#: Longer text is not a decision of any game (read in bounded time).
LONGEST = 200

#: How each field type reads back: the pattern of one value.
_PATTERNS = {int: r"[+-]?\d{1,18}", str: r"[^\s]+?", bool: r"yes|no"}
#: A tuple's items, commas between them (``-`` for none).
_ITEMS = r"[^\s]+"
_NONE = "-"


def value_text(value: Any) -> str:
    """A field's value as a template writes it."""
    if value is True or value is False:
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(map(value_text, value)) or _NONE
    if value is None:
        return _NONE
    return str(value)


def field_types(cls: type) -> dict[str, Any]:
    """The declared type of each field of the attrs class ``cls``."""
    module = sys.modules.get(cls.__module__)
    try:
        return typing.get_type_hints(cls, vars(module) if module else None)
    except Exception as exc:
        raise PluginError(f"{cls.__name__}: cannot read its fields' types: {exc}") from None


def _plain(cls: type, name: str, hint: Any) -> tuple[type, bool]:
    """(the type of one value, whether the field is a tuple of them)."""
    if hint in _PATTERNS:
        return hint, False
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis and args[0] in (int, str):
            return args[0], True
    raise PluginError(
        f"{cls.__name__}: the field {name!r} has no written form (int, str, bool or a tuple of int or str); "
        "the game writes its own notate and parse"
    )


@attrs.frozen
class Template:
    """How one event class is written and read back."""

    cls: type
    text: str
    #: The fields the template writes, each with (type, is a tuple).
    fields: Mapping[str, tuple[type, bool]]
    pattern: re.Pattern[str]
    #: What to write, for a reader told how: ``COUNTxFACE``.
    usage: str
    has_player: bool

    def write(self, event: Any) -> str:
        return self.text.format(**{name: value_text(getattr(event, name)) for name in self.fields})

    def read(self, text: str, player: str) -> Event | None:
        found = self.pattern.match(text)
        if found is None:
            return None
        values = {name: _value(kind, many, found.group(name)) for name, (kind, many) in self.fields.items()}
        if self.has_player:
            values["player"] = player
        try:
            return self.cls(**values)
        except (TypeError, ValueError) as exc:
            raise NotationError(f"cannot read {quote(text)}: {exc}") from None


def _value(kind: type, many: bool, text: str) -> Any:
    if many:
        return () if text == _NONE else tuple(_value(kind, False, item) for item in text.split(",") if item)
    if kind is int:
        return int(text)
    if kind is bool:
        return text.lower() == "yes"
    return text


def _literal(text: str) -> str:
    """A template's literal text as a pattern: any case, spaces where it
    has them (at least one), none needed around a word."""
    words = text.split()
    inner = r"\s+".join(map(re.escape, words))
    before = r"\s+" if text[:1].isspace() else r"\s*"
    after = r"\s+" if text[-1:].isspace() else r"\s*"
    return before + inner + after if words else r"\s+"


#: The event classes of the games and variants a process has loaded: a few
#: dozen (a test run that loads plugins afresh makes more, each a few hundred bytes).
@functools.lru_cache(maxsize=512)
def template(cls: type) -> Template:
    """How events of ``cls`` are written (its ``written``, else its kind and fields)."""
    if not attrs.has(cls):
        raise PluginError(f"{cls.__name__}: not an attrs event class; the game writes its own notate and parse")
    hints = field_types(cls)
    names = [f.name for f in attrs.fields(cls) if f.init]
    own = [name for name in names if name != "player"]
    text = getattr(cls, "written", None)
    if text is None:
        text = " ".join([cls.kind, *(f"{{{name}}}" for name in own)])
    pieces, fields, usage = [], {}, []
    for literal, name, _, _ in Formatter().parse(text):
        if literal:
            pieces.append(_literal(literal))
            usage.append(literal)
        if name is None:
            continue
        if name not in own or name in fields:
            raise PluginError(
                f"{cls.__name__}.written: {{{name}}} is not a field written once (fields: {', '.join(own)})"
            )
        kind, many = fields[name] = _plain(cls, name, hints.get(name))
        pieces.append(f"(?P<{name}>{_ITEMS if many else _PATTERNS[kind]})")
        usage.append(name.upper())
    missing = [
        f.name
        for f in attrs.fields(cls)
        if f.init and f.name in own and f.name not in fields and f.default is attrs.NOTHING
    ]
    if missing:
        raise PluginError(f"{cls.__name__}.written leaves out {', '.join(missing)}, which has no default")
    pattern = re.compile(r"\s*" + "".join(pieces) + r"\s*\Z", re.IGNORECASE)
    return Template(cls, text, fields, pattern, "".join(usage).strip(), "player" in names)


def decisions(game: Any) -> tuple[type[Event], ...]:
    """The decision classes of ``game``: its own, then those its turn's
    steps take that it does not list (a variant's, of a core shape or not)."""
    found = [cls for cls in type(game).events if cls.origin == DECISION]
    turn = getattr(game, "turn", None)
    table = getattr(turn, "table", None)
    if isinstance(table, Mapping):
        found += [cls for step in table.values() for cls in step.accepts if cls.origin == DECISION]
    return tuple(dict.fromkeys(found))


def notate(decision: Event) -> str:
    """A decision as its player writes it."""
    if isinstance(decision, Shape):
        return decision.notation()
    return template(type(decision)).write(decision)


def parse(classes: Sequence[type[Event]], text: str, player: str) -> Event:
    """The decision of ``player`` that ``text`` writes, of one of ``classes``
    (the first whose template reads it)."""
    if len(text) > LONGEST:
        raise NotationError(f"cannot read a decision of {len(text)} characters (at most {LONGEST})")
    usage = []
    for cls in classes:
        if issubclass(cls, Shape):
            found = cls.parse(text, player)  # type: ignore[attr-defined]
            usage.append(f"{cls.kind} ...")
        else:
            written = template(cls)
            found = written.read(text, player)
            usage.append(written.usage)
        if found is not None:
            return found
    raise NotationError(f"cannot read {quote(text)}: write {' or '.join(usage) or 'nothing (no decision)'}")


def sentence(event: Event, visible: bool) -> str:
    """``event`` as a line of a log: whole when ``visible``, else as a viewer
    who may not see it reads it."""
    player = getattr(event, "player", None)
    if not visible:
        unseen = getattr(type(event), "unseen", None)
        if unseen is not None:
            return _filled(event, "unseen", unseen, {"player": player})
        hidden = redacted(event)
        return f"{player} {hidden}" if player is not None else hidden
    written = notate(event)
    said = getattr(type(event), "sentence", None)
    if said is None:
        return f"{player} {written}" if player is not None else written
    fields = {f.name: value_text(getattr(event, f.name)) for f in attrs.fields(type(event))}
    return _filled(event, "sentence", said, {**fields, "written": written})


def _filled(event: Event, name: str, text: str, values: dict[str, Any]) -> str:
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError) as exc:
        raise PluginError(
            f"{type(event).__name__}.{name}: {text!r} names what it may not ({exc}; it may name {', '.join(values)})"
        ) from None


def visible(game: Any, event: Event, viewer: str | None) -> bool:
    """Whether ``viewer`` may see all of ``event``: the game's ``sees`` and the event's own say."""
    return game.sees(event, viewer) and seen(event, viewer)
