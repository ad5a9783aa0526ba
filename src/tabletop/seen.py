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
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .events import Event
from .game import Game, Hidden

#: The viewer who may see everything: a finished game, a replay without ``--as``.
EVERYONE: None = None


def view(game: Game, state: Any, viewer: str | None) -> Any:
    """``state`` as ``viewer`` may know it (:data:`EVERYONE`: all of it)."""
    return state if viewer is None else game.view(state, viewer)


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
    return [event if game.sees(event, viewer) else Hidden(event.kind) for event in events]


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
