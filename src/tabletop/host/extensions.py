"""The things plugins register besides games: variants and bots."""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from ..base.errors import PluginError
from ..base.naming import a_value, article, code_of, takes
from ..model.events import Event


def _tuple(events: Iterable[type[Event]]) -> tuple[type[Event], ...]:
    """``tuple``, as a converter: attrs reads a converter's signature, and the
    builtin's is parsed from its text by ``tokenize`` (a few milliseconds of
    every command's start-up)."""
    return tuple(events)


@attrs.frozen
class Variant:
    """A named change to one game's rules.

    ``rules`` is an object (a module or an instance) whose methods implement some
    of the game's rule hooks with ``@tabletop.rulehook``, or a class: then the
    variant takes parameters, the class's attrs fields (int, float, bool or
    str, with defaults), set as ``NAME:key=value,...`` and given to one
    instance per game. Enabling the variant in a header registers it in that
    game's own rule manager only.

    ``events`` are event classes of the variant's own (a new kind of decision),
    read and written in logs of its game.
    """

    name: str
    game: str
    description: str
    rules: object
    events: tuple[type[Event], ...] = attrs.field(default=(), converter=_tuple)


#: A bot's choice: ``choose(game, view, player, legal, rng) -> decision``, where
#: ``view`` is ``player``'s view of the game (see :mod:`tabletop.sight.seen`)
#: and ``rng`` the seat's random numbers, with every method of a
#: ``random.Random`` (``tabletop.play.seat_random.SeatRandom`` in a game).
Choose = Callable[[Any, Any, str, list[Event], Any], Event]


@attrs.frozen
class Bot:
    """A player program. ``game`` is None for a bot that plays any game.

    ``choose`` is handed its player's view, never the state: the core makes
    it (:func:`tabletop.sight.seen.choice`), so a bot cannot play on what its seat
    may not know. A bot that chooses from the legal decisions alone sets
    ``reads_state`` false: it is then given None for the view, and
    self-play runs on the game's fast path.
    """

    name: str
    description: str
    choose: Choose
    game: str | None = None
    reads_state: bool = True


@attrs.frozen
class Symbol:
    """One symbol of a board picture, for the viewer's legend.

    ``key`` is the ``data-symbol`` attribute that the picture puts on each
    element it draws with this symbol (the viewer lists the symbols the
    board shows, as the board changes); ``picture`` is SVG elements that
    draw the symbol in a 24 by 24 box; ``meaning`` says what it stands for.
    """

    key: str
    picture: str
    meaning: str


@attrs.frozen
class Legend:
    """What a game's pictures mean: the colour of each seat (in seat order:
    the score table's key), the symbols, and ``turn(game, state)``, the
    player whose turn it is in the turn order (None when no one's is: the
    viewer marks it in the score table, as it marks whose decision or chance
    outcome is due). ``chance`` names a chance outcome that is one player's
    ("draw", say), for the mark of whose it is due. ``points`` is False for
    a game won without points (its scores only mark the winners): the
    viewer then shows no row of scores."""

    seats: tuple[str, ...]
    symbols: tuple[Symbol, ...] = ()
    turn: Callable[[Any, Any], str | None] | None = attrs.field(default=None, eq=False)
    chance: str = "chance outcome"
    points: bool = True


@attrs.frozen
class Renderer:
    """A picture of one game's board in one format (``svg``, ...).

    ``render(game, view, viewer)`` returns the picture as text of ``view``:
    what ``viewer`` may know, made by the core from the state
    (:func:`tabletop.sight.seen.picture`; None: everything). A renderer may also
    take the keyword argument ``history``: the events so far, oldest first,
    as the viewer may know them (an event the viewer may not see whole is a
    :class:`~tabletop.Hidden` of its kind), so that it can number the
    picture and mark what the latest events changed. :meth:`draw` passes
    ``history`` only to a renderer that takes it.

    ``legend(game)``, when given, returns the :class:`Legend` of the
    pictures of that game (its seats, players and board): the viewer draws
    it as a key beside the board.
    """

    game: str
    format: str
    media_type: str
    render: Callable[..., str]
    legend: Callable[[Any], Legend] | None = attrs.field(default=None, eq=False)

    def draw(self, game: Any, view: Any, viewer: str | None = None, history: Sequence[Any] | None = None) -> str:
        """The picture of ``view`` (``viewer``'s view: see
        :func:`tabletop.sight.seen.picture`), marked by ``history`` when given.
        A renderer that draws anything but text is named in one line, with
        where its code is (:class:`~tabletop.PluginError`)."""
        drawn = _drawn(self.render, game, view, viewer, history)
        if type(drawn) is not str:
            raise PluginError(
                f"renderer '{self.format}' of {self.game} drew {type(drawn).__name__}, not text",
                where=code_of(self.render),
            )
        return drawn

    def key(self, game: Any) -> Legend | None:
        """The :class:`Legend` of ``game``'s pictures (None: the renderer
        gives none). A legend of another kind, or of parts of other kinds,
        is named in one line, with where the renderer's ``legend`` is
        (:class:`~tabletop.PluginError`)."""
        if self.legend is None:
            return None
        legend = self.legend(game)
        wrong = None if legend is None else _legend_fault(legend)
        if wrong is not None:
            raise PluginError(
                f"{article(self.format)} renderer for {self.game}: its legend {wrong}", where=code_of(self.legend)
            )
        return legend

    @classmethod
    def lazy(cls, game: str, format: str, media_type: str, module: str) -> Renderer:  # noqa: A002
        """A renderer whose functions are in ``module`` (a dotted name), one
        named for the format (``svg``) and ``legend``, imported when a picture
        is first drawn: drawing code stays out of commands that draw nothing."""

        def render(game: Any, view: Any, viewer: str | None, history: Sequence[Any] | None = None) -> str:
            return _drawn(getattr(importlib.import_module(module), format), game, view, viewer, history)

        def legend(game: Any) -> Legend:
            return importlib.import_module(module).legend(game)

        return cls(game, format, media_type, render, legend)


def _legend_fault(legend: Any) -> str | None:
    """What is wrong with ``legend`` as a :class:`Legend`, or None."""

    if not isinstance(legend, Legend):
        return f"gave {a_value(legend)}, not a tabletop.Legend"
    if not isinstance(legend.seats, (tuple, list)) or not all(isinstance(c, str) for c in legend.seats):
        return f"gave seats that are {a_value(legend.seats)}, not a colour (text) for each seat"
    if not isinstance(legend.symbols, (tuple, list)):
        return f"gave symbols that are {a_value(legend.symbols)}, not a list of tabletop.Symbol"
    for symbol in legend.symbols:
        if not isinstance(symbol, Symbol) or not all(
            isinstance(part, str) for part in (symbol.key, symbol.picture, symbol.meaning)
        ):
            return f"gave {a_value(symbol)} among its symbols, not a tabletop.Symbol of text"
    if not isinstance(legend.chance, str):
        return f"gave a chance word that is {a_value(legend.chance)}, not text"
    if type(legend.points) is not bool:
        return f"gave points {a_value(legend.points)}, not True or False"
    if legend.turn is not None:
        wrong = takes(legend.turn, ("game", "state"))
        if wrong:
            return f"gave a turn that {wrong}"
    return None


def _drawn(render: Callable[..., str], game: Any, view: Any, viewer: str | None, history: Any) -> str:
    """``render``'s picture, passed ``history`` only when given and taken."""
    if history is not None and _takes_history(render):
        return render(game, view, viewer, history=history)
    return render(game, view, viewer)


@functools.lru_cache(maxsize=64)
def _takes_history(render: Callable[..., str]) -> bool:
    try:
        parameters = inspect.signature(render).parameters
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        return False
    return "history" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())
