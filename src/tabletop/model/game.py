"""The contract between the engine and a game plugin.

A game plugin subclasses :class:`Game` and returns the class from its
``register_games`` hook. The engine creates one instance per log (per header),
so an instance may keep what the header fixes (players, board, the rule hooks
in force) and compute it once.

States are values: ``apply`` returns a new state and never changes the one it
was given, so a replay can keep any state it passed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import attrs

from ..base.errors import IllegalEventError
from .events import Event
from .nodes import Node, Outcome

if TYPE_CHECKING:
    from .steps import Steps


@attrs.frozen
class Hidden:
    """What a view holds where its player may not see: ``count`` items of
    ``what`` (e.g. ``Hidden("coins", 3)``, ``Hidden("chip")``), never their values.

    A renderer recognises it by type rather than by the shape of a tuple.
    """

    what: str = ""
    count: int | None = None

    def __str__(self) -> str:
        return "?" if self.count is None else f"{self.count} hidden"


class Fast(Protocol):
    """A game's optional fast path: the same rules on a *mutable* state.

    The engine uses it to fold a whole log and for self-play, where no
    intermediate state is kept; ``--step``, ``diff`` and views keep the
    immutable states of the plain path. ``freeze(thaw(s))`` equals ``s``, and
    every method answers exactly as its plain counterpart does for the state
    ``freeze`` would give (a property test holds the two together).

    A game on the core's turn (:class:`tabletop.play.turn.Turn`) gets its fast
    path from it (:class:`tabletop.play.turn.TurnFast`), which also declares
    what :class:`tabletop.play.turn.Stepped` asks: the game and the turn it
    runs, and the engine's fast loops, which fold a batch of events
    (``Match.follow``) or play on (``Match.race``) asking the step the live
    state is in (``live.at``) directly, and take a decision of the player a
    step's node declares (:func:`tabletop.model.steps.decided_by`) without
    asking the node. The engine folds a game's own fast path, one that is
    no :class:`~tabletop.play.turn.TurnFast`, an event at a time through
    these methods, and leaves its self-play to the caller's loop.
    """

    def thaw(self, state: Any) -> Any:
        """A mutable copy of the immutable ``state``."""

    def freeze(self, live: Any) -> Any:
        """The immutable state equal to ``live``."""

    def next(self, live: Any) -> Node:
        """As :meth:`Game.next`."""

    def check(self, live: Any, decision: Event) -> str | None:
        """As :meth:`Game.check`."""

    def apply(self, live: Any, event: Event) -> None:
        """As :meth:`Game.apply`, changing ``live`` in place."""

    def legal(self, live: Any, player: str) -> Sequence[Event]:
        """As :meth:`Game.legal`."""


class Game:
    """Base class of every game. Class attributes describe the game; methods are
    the rules. ``rules`` is a :class:`~tabletop.Rules`: the rule hooks in force
    for this game (official rules plus the variants the header enables), each
    resolved once into a plain function.

    A game object is made once per header (less its seed) and serves every
    match of that header (``Registry.game``): what a match changes lives in
    its states, never in the game; a table the game fills as it goes is a
    function of the header alone."""

    #: The name used in logs and on the command line, e.g. ``"glux"``.
    name: ClassVar[str] = ""
    #: The name as printed, e.g. ``"Glüx"``.
    title: ClassVar[str] = ""
    #: One line for ``tabletop games``.
    description: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: Game options (``--option K=V``) and a one-line help for each.
    options: ClassVar[Mapping[str, str]] = {}
    #: The event classes this game writes.
    events: ClassVar[Sequence[type[Event]]] = ()
    #: The module or class holding the game's rule hookspecs (``@rulespec``).
    rule_specs: ClassVar[object | None] = None
    #: The official rules: default implementations of the rule hooks (a module
    #: or object, or a tuple of them, e.g. one per rule module).
    official_rules: ClassVar[object | tuple[object, ...] | None] = None

    #: The turn the core runs for this game (:class:`tabletop.play.turn.Turn`,
    #: what :class:`tabletop.model.steps.Steps` declares), or None: a game that
    #: makes one in ``__init__`` (from its table of steps) is answered
    #: ``next``, ``check``, ``apply``, ``legal``, ``asks`` and ``fast`` by
    #: it, and writes none of them.
    turn: Steps | None = None

    def __init__(self, players: Sequence[str], options: Mapping[str, Any], rules: Any) -> None:
        self.players = tuple(players)
        self.option_values = dict(options)
        self.rules = rules

    def __init_subclass__(cls, about: Any = None, **kwargs: Any) -> None:
        """``class Mine(Game, about=about)``: the title, description, players
        and options are those of the game's ``about`` module (``TITLE``,
        ``DESCRIPTION``, ``PLAYERS``, ``OPTIONS``: what ``tabletop games``
        reads without importing the game, see :mod:`tabletop.host.installed`),
        written there once."""
        super().__init_subclass__(**kwargs)
        if about is not None:
            cls.title = getattr(about, "TITLE", cls.title)
            cls.description = about.DESCRIPTION
            cls.min_players, cls.max_players = about.PLAYERS
            cls.options = dict(getattr(about, "OPTIONS", {}))

    # -- the header ------------------------------------------------------
    @classmethod
    def normalize_options(cls, options: Mapping[str, str], players: Sequence[str]) -> dict[str, Any]:
        """Turn ``--option`` strings into the options written in the header.

        Raise :class:`~tabletop.base.errors.UsageError` naming a bad option. The
        default accepts the declared options as strings, and reads an option
        declared a :class:`tabletop.model.options.Number` as a number within its
        bounds.
        """
        from . import options as declared

        _refuse_unknown(cls, options)
        return declared.read(cls.options, options)

    @classmethod
    def check_options(cls, options: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        """Check option values as a header holds them (read from a log, or
        just made by :meth:`normalize_options`) and return them.

        Called for every header before the game is made, so a log can hold
        nothing ``new`` would refuse: raise
        :class:`~tabletop.base.errors.UsageError` naming the option, and keep
        every value within bounds that make the game quick to set up. The
        default refuses undeclared options, and an option declared a
        :class:`tabletop.model.options.Number` that is not a number within its
        bounds.
        """
        from . import options as declared

        _refuse_unknown(cls, options)
        return declared.check(cls.options, options)

    def option(self, name: str) -> Any:
        """The value of the option ``name`` in this header, else its declared
        default (:class:`tabletop.model.options.Number`), else None."""
        if name in self.option_values:
            return self.option_values[name]
        from . import options as declared

        return declared.default(self.options, name)

    # -- the rules -------------------------------------------------------
    def initial(self) -> Any:
        """The state before the first event."""
        raise NotImplementedError

    def next(self, state: Any) -> Node:
        """Who or what acts next: :class:`Decide`, :class:`Chance`,
        :class:`Forced` or :class:`Over`."""
        return self._turn().next(self, state)

    def check(self, state: Any, decision: Event) -> str | None:
        """Why ``decision`` is illegal now, or None when it is legal. The engine
        has already checked that its player may decide now."""
        return self._turn().check(self, state, decision)

    def apply(self, state: Any, event: Event) -> Any:
        """The state after ``event`` (already validated). Must not change ``state``."""
        after = self._turn().fold(self, state, event)
        if after is None:  # the engine checks every event before it is applied
            raise TypeError(f"no step takes {event!r} now")
        return after

    def legal(self, state: Any, player: str) -> Sequence[Event]:
        """Every legal decision of ``player`` now, in a stable order."""
        return self._turn().legal(self, state, player)

    def outcome(self, state: Any) -> Outcome:
        """Scores and winners of a finished game (standings when not finished)."""
        raise NotImplementedError

    def resign(self, state: Any, player: str) -> Any:
        """The state after ``player`` resigns (any time before the end, in turn
        or not). Raise :class:`~tabletop.base.errors.IllegalEventError` when they
        may not resign now; a game without resignation keeps this default."""
        raise IllegalEventError(f"{self.title or self.name} has no resignation")

    def fast(self) -> Fast | None:
        """The game's fast path for this header, or None (the engine then
        folds logs with the plain methods above). By default, the turn's
        (:meth:`tabletop.play.turn.Turn.fast`) when the game has one."""
        return None if self.turn is None else self.turn.fast(self)

    def _turn(self) -> Steps:
        turn = self.turn
        if turn is None:
            raise NotImplementedError(
                f"{type(self).__name__} has no turn (tabletop.play.turn.Turn) and answers no rule"
            )
        return turn

    # -- payoffs: what the AI adapters pay (tabletop.ai) --------------------
    #: What the returns of every finished game add up to, whatever the
    #: header: 0 (zero-sum, the default), another number (constant-sum), or
    #: None (general-sum).
    payoff_sum: ClassVar[float | None] = 0.0

    def payoffs(self, state: Any) -> Mapping[str, float] | Sequence[float]:
        """Each player's return from the finished ``state`` (by name, or in
        seat order): all the game pays them, :meth:`rewards` included. By
        default a share of the victory (:func:`shares`): win/loss, whatever
        the scores."""
        return shares(self.outcome(state), self.players)

    def payoff_bounds(self) -> tuple[float, float]:
        """The least and the most one player's return can be under this
        header. By default those of :func:`shares`: -1/(n-1) and 1."""
        return -1.0 / max(len(self.players) - 1, 1), 1.0

    def rewards(self, before: Any, event: Event, after: Any) -> Mapping[str, float] | Sequence[float] | None:
        """What ``event`` pays each player as it happens (``before`` and
        ``after`` are the states around it): an advance on :meth:`payoffs`,
        whose rest comes at the end. None (the default): all at the end."""
        return None

    # -- what a player may know -----------------------------------------
    def view(self, state: Any, player: str | None) -> Any:
        """The state as ``player`` may know it (None: everything): what the
        hidden items are is replaced by :class:`Hidden`, and what the player
        knows of them stays (a count, the bag they came from).

        The core hands every path that shows the game to a person, or acts
        for a seat, this view and never the state (:mod:`tabletop.sight.seen`):
        :meth:`render`, :meth:`describe`, renderers and bots. The view of a
        view is that view, and :meth:`determinize` fills a view in
        (:mod:`tabletop.testing` holds a game to both)."""
        return state

    def sees(self, event: Event, player: str | None) -> bool:
        """Whether ``player`` may see all of ``event`` (else it is shown redacted)."""
        return True

    def determinize(self, view: Any, player: str, rng: Any) -> Any:
        """A full state consistent with ``view`` (what :meth:`view` gives
        ``player``), its hidden items drawn with ``rng`` (a ``random.Random``).

        Search bots plan on such states, so that they never use what their
        player may not know. The default, for games with nothing hidden,
        returns the view itself.
        """
        return view

    def evaluate(self, state: Any) -> Mapping[str, float] | None:
        """Each player's chances of winning from the unfinished ``state``, as
        the game judges them (numbers from 0 to 1; a share of the victory), or
        None (the default): no judgement, and search bots value a position by
        random playouts and the standings of :meth:`outcome`.

        Search bots call it on worlds they made up with :meth:`determinize`,
        so it may read the whole state. It is a heuristic: nothing checks a
        game or a log with it.
        """
        return None

    def prefer(self, state: Any, player: str, options: Sequence[Event], rng: Any) -> Event | None:
        """Of ``options`` (decisions legal for ``player`` in ``state``), the
        one a quick player would take, or None (the default): no preference.

        A search bot that widens its tree step by step (see
        :class:`~tabletop.MCTS`) tries it before the others, so a reply that
        refutes a line is found at once instead of among dozens. Like
        :meth:`evaluate`, it is only ever called on worlds a bot made up.
        """
        return None

    # -- text ------------------------------------------------------------
    # Each has a default worked out from the event classes (tabletop.model.notation)
    # and the state's fields (tabletop.model.facets): a game overrides what it wants.
    def format(self, event: Event, viewer: str | None = None) -> str:
        """``event`` in the game's notation, redacted for ``viewer``. By
        default its class's ``sentence`` (``ann bids 3x5``), or its
        ``unseen`` one where :meth:`sees` (or the event itself) says
        ``viewer`` may not see it whole."""
        from . import notation

        return notation.sentence(event, notation.visible(self, event, viewer))

    def notate(self, decision: Event) -> str:
        """A decision as its player writes it (no player name): what
        :meth:`parse` reads back. ``moves`` lists decisions this way. By
        default its class's ``written`` template (``{count}x{face}``), else
        its kind and fields (:mod:`tabletop.model.notation`)."""
        from . import notation

        return notation.notate(decision)

    def notate_outcome(self, outcome: Event) -> str | None:
        """A chance outcome as the players at a real table write it (e.g.
        ``draw 2/5``), or None to use :meth:`format`. ``play`` reads either
        in a log whose outcomes are entered by hand (``"randomness": {}``).
        By default its class's ``written`` template where it declares one."""
        if getattr(type(outcome), "written", None) is None:
            return None
        from . import notation

        return notation.notate(outcome)

    def parse(self, text: str, player: str, state: Any) -> Event:
        """A decision of ``player`` written in the game's notation.

        Raise :class:`~tabletop.base.errors.NotationError` when it cannot be read.
        By default the first of the game's decision classes (then those its
        turn's steps take) whose template reads ``text``.
        """
        from . import notation

        return notation.parse(notation.decisions(self), text, player)

    def render(self, state: Any, viewer: str | None = None, color: bool = False) -> str:
        """The board as text. ``state`` is ``viewer``'s view (see :meth:`view`):
        the core makes it, so the text shows all it is given. By default
        the title, then each facet of :meth:`describe` on a line."""
        from . import facets

        return facets.board(self, state, viewer)

    def describe(self, state: Any, viewer: str | None = None) -> dict[str, str]:
        """Named facets of ``state``, ``viewer``'s view (see :meth:`view`),
        compared by ``tabletop diff`` (e.g. ``{"board f7": "alice 6 over
        bob 2", "hand alice": "2/5"}``). By default one per field of the
        state, named after it (:mod:`tabletop.model.facets`)."""
        from . import facets

        return facets.facets(self, state, viewer)

    def turn_ends(self, event: Event) -> bool | None:
        """Whether ``event`` ends a turn, for a game's length in turns
        (``simulate``, ``stats``, the ``turns`` column): true for the one
        event each turn is counted by (a Glüx placement, the draw after it
        belonging to its turn; a Glyph Chess action, its answers and the
        reset roll after it belonging to its turn), false for any other,
        None where the game does not say. By default what the event's class
        says (``ends_turn: ClassVar[bool] = True``, so that a variant's own
        event may say it too), else None. A game that says nothing of any
        event has its turns counted as the decisions of its commonest kind."""
        return getattr(type(event), "ends_turn", None)

    # -- action numbers (tabletop.model.numbering), for OpenSpiel and PettingZoo ---
    def values(self, event: type[Event], field: str) -> Sequence[Any] | None:
        """Every value ``field`` of an ``event`` may hold under this header,
        in a stable order (Liar's Dice's ``face``: 1 to 6), or None (the
        default) where its type alone says (a bool's two) or nobody asks:
        the default action numbering numbers every decision these make."""
        return None

    def every(self, event: type[Event]) -> Sequence[Event]:
        """Every event of the class ``event`` the game may have under this
        header, as its first player's, in a stable order: the default action
        numbering's words (decisions, each written as :meth:`notate` writes
        it) and its bound on a chance node's outcomes. By default each field
        at each of its :meth:`values`."""
        from . import numbering

        return numbering.every(self, event)

    def asks(self, state: Any, player: str) -> str:
        """What is asked of ``player`` now, in a few words (e.g. "place the 2/5
        chip"): the step's ``asks`` on the core's turn, else "decide"."""
        return "decide" if self.turn is None else self.turn.asks(self, state, player)


def shares(outcome: Outcome, players: Sequence[str]) -> list[float]:
    """Each player's share of the victory, zero-sum: a sole winner gets 1
    and the others -1/(n-1); a shared victory splits the 1; no winner: 0
    for all (the default :meth:`Game.payoffs`)."""
    n = len(players)
    if not outcome.winners:
        return [0.0] * n
    share = 1 / len(outcome.winners)
    return [(n * (share if p in outcome.winners else 0.0) - 1) / max(n - 1, 1) for p in players]


def _refuse_unknown(game: type[Game], options: Mapping[str, Any]) -> None:
    """Refuse the first of ``options`` that ``game`` does not declare, naming
    it and the options there are (read from the command line or from a log's
    header alike)."""
    from ..base.errors import UsageError, quote

    for key in options:
        if key not in game.options:
            known = ", ".join(sorted(game.options)) or "none"
            raise UsageError(f"unknown option {quote(key)} for {game.name} (options: {known})")
