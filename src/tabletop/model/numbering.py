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
from typing import TYPE_CHECKING, Any

import attrs

from ..base.errors import PluginError, UsageError
from .events import CHANCE, DECISION, Event

if TYPE_CHECKING:
    from .game import Game

#: Word 0: the decision spelt so far ends here.
END = "."
#: The most events of one class the default numbering lists (each is a word, or a chance outcome).
MOST_EVENTS = 1_000_000


def every(game: Game, cls: type[Event]) -> list[Event]:
    """Every event of ``cls`` with each field at each of its values
    (:meth:`Game.values`), as the first player's: the default of
    :meth:`Game.every`. A clear error names a field without values."""
    from .notation import field_types

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
