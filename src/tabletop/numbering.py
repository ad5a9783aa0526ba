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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from . import rules as rulebook
from .errors import PluginError, UsageError
from .events import DECISION, Event
from .game import Game
from .header import Header
from .registry import Registry

#: Word 0: the decision spelt so far ends here.
END = "."


@attrs.frozen
class Numbering:
    """How a game's decisions are numbered (returned by ``register_numberings``)."""

    #: The game's name.
    game: str
    #: ``words(game)``: the vocabulary for this header, in a stable order.
    words: Callable[[Game], Sequence[str]]
    #: ``spell(game, decision)``: the words of a decision (at least one).
    spell: Callable[[Game, Event], Sequence[str]]
    #: ``most_outcomes(game)``: the most outcomes one chance node can have.
    most_outcomes: Callable[[Game], int]


def numbering_of(registry: Registry, game: str) -> Numbering:
    """The numbering registered for ``game``; a clear error when there is none."""
    found = [n for batch in registry.pm.hook.register_numberings() for n in batch or () if n.game == game]
    if not found:
        raise UsageError(f"{game} has no action numbering (a plugin registers one with register_numberings)")
    return found[0]


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
