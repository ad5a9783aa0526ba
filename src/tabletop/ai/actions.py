"""The action space of one game as one header fixes it: each decision a
tuple of action numbers from the game's :class:`~tabletop.model.numbering.Numbering`,
entered a word at a time, as OpenSpiel and PettingZoo need."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..base.errors import PluginError, UsageError
from ..host import rules as rulebook
from ..host.registering import numbering, offered
from ..host.registry import Registry
from ..log.header import Header
from ..model.events import DECISION, Event
from ..model.game import Game
from ..model.numbering import END, Numbering


def numbering_of(registry: Registry, game: str) -> Numbering:
    """The numbering registered for ``game``, else the default one (from its event classes)."""
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
