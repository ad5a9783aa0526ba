"""What a seat is shown: every path that shows a game, or acts for a seat, asks here.

Only the engine and the referee hold a game's whole state. Everything that
shows the game to a person, or acts for a seat (a bot, the board as text,
a picture, the facets ``diff`` compares, hot-seat, pages, mails, the AI
adapters' observations), is handed the seat's view, made here from the state
by the game's :meth:`~tabletop.Game.view`. A game's ``render``, ``describe``,
renderers and bots are therefore only ever given a view: a game author who
forgets to hide something in them cannot leak it.

The whole state is shown only when it is asked for by name: ``viewer`` None
(:data:`EVERYONE`), as ``replay`` without ``--as`` or a finished game does.

A watcher with no seat (an observer of a game by mail) is :data:`PUBLIC`:
shown the :func:`public` view, which hides whatever any seat's view hides.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..model.events import Event
from ..model.game import Game, Hidden

#: The viewer who may see everything: a finished game, a replay without ``--as``.
EVERYONE: None = None
#: The viewer with no seat: an observer, shown only what every seat may see.
#: No player is called this (a name has 1 to 32 characters), so a game's
#: ``sees``, ``format``, ``render`` and renderers take it as a viewer who holds
#: no hand; its view is made here (:func:`public`), never by the game.
PUBLIC = ""


def view(game: Game, state: Any, viewer: str | None) -> Any:
    """``state`` as ``viewer`` may know it (:data:`EVERYONE`: all of it;
    :data:`PUBLIC`: what every seat may know)."""
    if viewer is None:
        return state
    if viewer == PUBLIC:
        return public(game, state)
    return game.view(state, viewer)


def public(game: Game, state: Any) -> Any:
    """``state`` as a watcher with no seat may know it: each seat's view
    taken of the one before, so whatever any seat's view hides stays hidden
    (a view keeps hidden what it is handed hidden: the view of a view is
    that view). No game needs to know of watchers."""
    for player in game.players:
        state = game.view(state, player)
    return state


def sees(game: Game, event: Event, viewer: str | None) -> bool:
    """Whether ``viewer`` may see all of ``event``: :data:`PUBLIC` sees only
    what every seat sees."""
    if viewer == PUBLIC:
        return all(game.sees(event, player) for player in game.players)
    return game.sees(event, viewer)


def told(game: Game, event: Event, viewer: str | None) -> str | None:
    """The viewer whose account of ``event`` ``viewer`` is given: itself, or
    for :data:`PUBLIC`, a seat that may not see the event (its account is
    the redacted one), else :data:`PUBLIC` (the event is no seat's secret)."""
    if viewer != PUBLIC:
        return viewer
    return next((player for player in game.players if not game.sees(event, player)), PUBLIC)


def text(game: Game, state: Any, viewer: str | None, color: bool = False) -> str:
    """The board as text, drawn from ``viewer``'s view."""
    return game.render(view(game, state, viewer), viewer, color)


def asks(game: Game, state: Any, player: str) -> str:
    """What is asked of ``player`` now, read from ``player``'s own view."""
    return game.asks(view(game, state, player), player)


def facets(game: Game, state: Any, viewer: str | None = EVERYONE) -> dict[str, str]:
    """The named facets ``diff`` compares, read from ``viewer``'s view."""
    return dict(game.describe(view(game, state, viewer), viewer))


def history(game: Game, events: Sequence[Event], viewer: str | None) -> list[Event | Hidden]:
    """``events`` as ``viewer`` may know them: each one the viewer may not
    see whole is a :class:`~tabletop.Hidden` of its kind, in its place (the
    count and order of events are public)."""
    if viewer is None:
        return list(events)
    return [event if sees(game, event, viewer) else Hidden(event.kind) for event in events]


def picture(renderer: Any, game: Game, state: Any, viewer: str | None, events: Sequence[Event] | None = None) -> str:
    """``renderer``'s picture of ``viewer``'s view, marked by the events
    so far as ``viewer`` may know them."""
    known = None if events is None else history(game, events, viewer)
    return renderer.draw(game, view(game, state, viewer), viewer, known)


def turn(legend: Any, game: Game, state: Any, viewer: str | None) -> str | None:
    """Whose turn it is in the turn order, as the legend reads it from ``viewer``'s view."""
    if legend is None or legend.turn is None:
        return None
    return legend.turn(game, view(game, state, viewer))


def choice(bot: Any, game: Game, state: Any, player: str, legal: Sequence[Event], rng: random.Random) -> Event:
    """The decision ``bot`` takes for ``player``, given ``player``'s view only
    (None for a bot that reads no state: it chooses from ``legal`` alone)."""
    known = view(game, state, player) if bot.reads_state else None
    return bot.choose(game, known, player, legal, rng)


def scores(game: Game, state: Any, viewer: str | None) -> Mapping[str, Any]:
    """The standings as ``viewer`` may know them: scored on the view, so a
    score never tells what the view hides."""
    return game.outcome(view(game, state, viewer)).scores
