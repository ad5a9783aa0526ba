"""Stable action numbers for a game's decisions, as OpenSpiel and PettingZoo need.

Both ecosystems want a finite action space with one number per action that
means the same thing in every state. A game gives that through a
:class:`Numbering` (the ``register_numberings`` hook): its *words*, a finite
vocabulary fixed by the header (board, players, variants), and the words
that spell each decision. Action ``i`` is word ``i``; word 0 is :data:`END`.

A decision of one word (a Glüx placement) is one action. A longer decision
(a Glyph Chess move: from, to, what is paid) is entered a word at a time:
the actions open at each step are the next words of the legal decisions
that begin with the words chosen so far, and as soon as only one legal
decision begins that way it is taken. :data:`END` is open where a legal
decision ends and longer ones go on. Every legal decision is reachable this
way and nothing else is, so the game played word by word is the game.

A game that registers no numbering is numbered from its event classes:
each decision is one word, its notation (:meth:`Game.notate`); the words
are those of every decision :meth:`Game.every` gives (by default, every
value of each field, from :meth:`Game.values`), in the order of the game's
``events``; a chance node has at most as many outcomes as there are
events of the game's chance classes. A game that wants its words in an
order of its own (Liar's Dice: OpenSpiel's) overrides :meth:`Game.every`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from math import prod
from typing import Any

import attrs

from ..base.errors import PluginError, UsageError
from ..log.header import Header
from ..model.events import CHANCE, DECISION, Event
from ..model.game import Game
from . import rules as rulebook
from .registry import Registry

#: Word 0: the decision spelt so far ends here.
END = "."
#: The most events of one class the default numbering lists (each is a word, or a chance outcome).
MOST_EVENTS = 1_000_000


def every(game: Game, cls: type[Event]) -> list[Event]:
    """Every event of ``cls`` with each field at each of its values
    (:meth:`Game.values`), as the first player's: the default of
    :meth:`Game.every`. A clear error names a field without values."""
    from ..model.notation import field_types

    names = [f.name for f in attrs.fields(cls) if f.init and f.name != "player"]
    hints = field_types(cls)
    values = []
    for name in names:
        found = game.values(cls, name)
        if found is None:
            found = _known_values(hints.get(name))
        if found is None:
            raise UsageError(
                f"{game.name} has no action numbering: the field {name!r} of its {cls.kind!r} events "
                "has no values (the game gives them with Game.values, or registers a numbering with register_numberings)"
            )
        values.append(tuple(found))
    if prod(map(len, values)) > MOST_EVENTS:
        raise PluginError(
            f"{game.name}: its {cls.kind!r} events' values make more than {MOST_EVENTS:,} of them to number"
        )
    mine = {"player": game.players[0]} if any(f.name == "player" for f in attrs.fields(cls)) else {}
    return [cls(**mine, **dict(zip(names, chosen))) for chosen in product(*values)]


def _known_values(hint: Any) -> tuple[Any, ...] | None:
    """The values a field's type alone gives: a bool's two."""
    return (False, True) if hint is bool else None


def written_words(game: Game) -> list[str]:
    """The default words: the notation of every decision of the game's
    decision classes (:meth:`Game.every`), in the order of its ``events``."""
    decisions = [cls for cls in type(game).events if cls.origin == DECISION]
    return list(dict.fromkeys(game.notate(decision) for cls in decisions for decision in game.every(cls)))


def notated(game: Game, decision: Event) -> tuple[str, ...]:
    """The default spelling: one word, the decision's notation."""
    return (game.notate(decision),)


def chance_outcomes(game: Game) -> int:
    """The default bound on a chance node's outcomes: every event of the
    game's chance classes (:meth:`Game.every`), at least one."""
    return max(1, sum(len(game.every(cls)) for cls in type(game).events if cls.origin == CHANCE))


@attrs.frozen
class Numbering:
    """How a game's decisions are numbered (returned by ``register_numberings``;
    a game that registers none is numbered by the defaults)."""

    #: The game's name.
    game: str
    #: ``words(game)``: the vocabulary for this header, in a stable order.
    words: Callable[[Game], Sequence[str]] = written_words
    #: ``spell(game, decision)``: the words of a decision (at least one).
    spell: Callable[[Game, Event], Sequence[str]] = notated
    #: ``most_outcomes(game)``: the most outcomes one chance node can have.
    most_outcomes: Callable[[Game], int] = chance_outcomes


def numbering_of(registry: Registry, game: str) -> Numbering:
    """The numbering registered for ``game``, else the default one (from its event classes)."""
    from .registering import numbering, offered

    offers = offered(registry.pm, "register_numberings", "Numbering objects", numbering)
    found = [n for n, _ in offers if n.game == game]
    return found[0] if found else Numbering(game)


class Actions:
    """The action space of one game as one header fixes it."""

    def __init__(self, numbering: Numbering, game: Game, extra: Sequence[type[Event]] = ()) -> None:
        self.numbering = numbering
        self.game = game
        words = [END, *numbering.words(game)]
        # A variant's own decision that names nothing but its player (glux-redraw's
        # ``redraw``) is one word, after the game's own, in the header's order.
        for cls in extra:
            fields = [f.name for f in attrs.fields(cls)] if attrs.has(cls) else []
            if cls.origin == DECISION and fields == ["player"]:
                words.append(" ".join(numbering.spell(game, cls(game.players[0]))))
        self.words: tuple[str, ...] = tuple(dict.fromkeys(words))
        self.number = {w: i for i, w in enumerate(self.words)}

    def __len__(self) -> int:
        return len(self.words)

    def of(self, decision: Event) -> tuple[int, ...]:
        """The action numbers that spell ``decision``."""
        words = self.numbering.spell(self.game, decision)
        try:
            return tuple(self.number[w] for w in words)
        except KeyError as exc:
            raise PluginError(
                f"{self.game.name}: the decision {' '.join(words)!r} has a word ({exc.args[0]!r}) "
                "outside the game's numbering"
            ) from None

    def menu(self, legal: Sequence[Event]) -> Menu:
        """The legal decisions of one player now, spelt in action numbers."""
        entries = tuple((self.of(d), d) for d in legal)
        if len({spelt for spelt, _ in entries}) != len(entries):
            raise PluginError(f"{self.game.name}: two legal decisions are spelt with the same words")
        return Menu(entries)


class _Branch:
    """The legal decisions whose words begin the same way."""

    __slots__ = ("children", "ends", "count", "some")

    def __init__(self) -> None:
        self.children: dict[int, _Branch] = {}
        #: The decision whose words end here, if any.
        self.ends: Event | None = None
        #: How many decisions begin this way, and one of them.
        self.count = 0
        self.some: Event | None = None


class Menu:
    """Legal decisions and their spellings, to be chosen a word at a time
    (a tree of their words, built once per decision point)."""

    def __init__(self, entries: tuple[tuple[tuple[int, ...], Event], ...]) -> None:
        self.entries = entries
        self.root = _Branch()
        for spelt, decision in entries:
            branch = self.root
            branch.count += 1
            branch.some = decision
            for action in spelt:
                branch = branch.children.setdefault(action, _Branch())
                branch.count += 1
                branch.some = decision
            branch.ends = decision

    def _at(self, prefix: tuple[int, ...]) -> _Branch:
        branch = self.root
        for action in prefix:
            found = branch.children.get(action)
            if found is None:
                raise UsageError(f"no legal decision begins with the actions {list(prefix)}")
            branch = found
        return branch

    def open(self, prefix: tuple[int, ...] = ()) -> list[int]:
        """The actions open after ``prefix`` (sorted)."""
        branch = self._at(prefix)
        found = sorted(branch.children)
        return [0, *found] if branch.ends is not None and found else found

    def take(self, prefix: tuple[int, ...], action: int) -> tuple[tuple[int, ...], Event | None]:
        """After ``action``: the words chosen so far and the decision, once
        only one legal decision begins with them (else None)."""
        branch = self._at(prefix)
        if action == 0:
            if branch.ends is None:
                raise UsageError("no legal decision ends here")
            return (), branch.ends
        child = branch.children.get(action)
        if child is None:
            raise UsageError(f"action {action} is not open here")
        if child.count == 1:
            return (), child.some
        return (*prefix, action), None


def actions_for(registry: Registry, header: Header, game: Game) -> Actions:
    """The action space of ``game`` (the game made from ``header``)."""
    numbering = numbering_of(registry, game.name)
    names = dict.fromkeys(rulebook.split_entry(entry)[0] for entry in header.variants)
    extra = [cls for name in names for cls in registry.variants[name].events]
    return Actions(numbering, game, extra)
