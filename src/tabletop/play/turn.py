"""The turn, run by the core: a game declares its steps (a table of
:class:`~tabletop.TurnStep`), its state and the state's mutable twin; the
:class:`Turn` made from them answers every question the engine asks, on
every path, from that one table:

========================  ==================================================
path                      asks the current step's
========================  ==================================================
``Game.next``             ``node``
``Game.check``            ``check`` (after the game's ``screen``, if any)
``Game.legal``            ``legal``
``Game.asks``             ``asks``
``Game.apply``            ``apply`` on a thawed twin, then :meth:`Turn.settle`
``Game.fast()``           the same, on a twin kept for a whole game
                          (:class:`TurnFast`)
engine's fast loops       ``Turn.nodes`` / ``checks`` / ``legals`` /
                          ``deciders`` by the name the twin keeps in ``at``
========================  ==================================================

So a log line goes one way to its rule: the event it parses to is checked
by the step the state is in (``Turn.checks[at]``, the step's ``check``) and
applied by it (``Turn.effects[at]``, the step's ``apply``), whether one
event is accepted (``Match.accept``), a folder is replayed
(``Match.follow``), bots play (``Match.race``) or a search plays out.

A game with a :class:`Turn` (``self.turn``) need not write ``next``,
``check``, ``apply``, ``legal``, ``asks`` or ``fast``: :class:`~tabletop.Game`
answers them from it. A game whose fast path keeps more than the state
(Glüx keeps each seat's reach) subclasses :class:`TurnFast`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..base.errors import PluginError
from ..base.naming import code_of
from ..model.events import Event
from ..model.nodes import Decide, Node
from ..model.steps import NOT_NOW, TurnStep, declared_decider, wait
from .sampling import declared_sampler

Check = Callable[[Any, Any, Event], "str | None"]


class Turn:
    """A table of steps in force and every answer it gives.

    - ``table``: ``{name: TurnStep}``; every step a step leads to must be in it.
    - ``work``: the state's mutable twin class (``tabletop.model.twin``), whose
      ``thaw`` and ``freeze`` the plain fold and the fast path use; None for
      a game whose rules answer only on the state (no fold).
    - ``phase(state)``: the name of the step a state (or twin) is in; by
      default its ``phase`` attribute. ``set_phase(work, name)`` goes into a
      step; by default it sets ``phase``.
    - ``screens``: whether a decision of a class the step does not take is
      refused with :data:`~tabletop.model.steps.NOT_NOW` before the step's check is
      asked (the default). A game whose steps' checks name what is wrong with
      any decision says False.
    - ``screen(game, state, decision)``: a check asked before every step's
      (a rule that holds in every step), or None.
    - ``guarded``: whether a step's ``legal`` lists decisions whoever asks,
      so that the turn first asks the node whether it is the player's
      decision (False: each step's ``legal`` answers for any player itself).
    """

    def __init__(
        self,
        table: Mapping[str, TurnStep],
        *,
        work: Any = None,
        phase: Callable[[Any], str] | None = None,
        set_phase: Callable[[Any, str], None] | None = None,
        screens: bool = True,
        screen: Check | None = None,
        guarded: bool = False,
    ) -> None:
        self.table: dict[str, TurnStep] = dict(table)
        self.work = work
        self.phase: Callable[[Any], str] = phase if phase is not None else _phase
        self.set_phase: Callable[[Any, str], None] = set_phase if set_phase is not None else _set_phase
        self.guarded = guarded
        table = self.table
        #: Each step's answers by its name: the engine's fast loops call them
        #: directly (one call per question, no wrapper).
        self.nodes = {name: step.node for name, step in table.items()}
        self.checks: dict[str, Check] = {name: _checking(step, screens, screen) for name, step in table.items()}
        self.legals = {name: step.legal for name, step in table.items()}
        self.effects = {name: step.apply or _no_effect for name, step in table.items()}
        self.follows = {name: step.follows for name, step in table.items()}
        #: The steps that may lead on without an event (their ``follows`` is
        #: not :func:`~tabletop.model.steps.wait`): only after these is settling asked.
        self.leading = frozenset(name for name, step in table.items() if step.follows is not wait)
        #: Who decides in each step whose node declares it
        #: (:func:`~tabletop.model.steps.decided_by`) with the step's own check, which
        #: every check here calls: a decision of that player which the check
        #: finds legal is folded without asking the node.
        self.deciders = {
            name: who for name, step in table.items() if (who := declared_decider(step.node, step.check)) is not None
        }
        self._shapes: tuple[type[Event], ...] | None = None

    # -- the plain answers -----------------------------------------------------------
    def step(self, state: Any) -> TurnStep:
        """The step ``state`` is in."""
        return self.table[self.phase(state)]

    def next(self, game: Any, state: Any) -> Node:
        return self.nodes[self.phase(state)](game, state)

    def check(self, game: Any, state: Any, decision: Event) -> str | None:
        return self.checks[self.phase(state)](game, state, decision)

    def legal(self, game: Any, state: Any, player: str) -> Sequence[Event]:
        at = self.phase(state)
        if self.guarded:
            node = self.nodes[at](game, state)
            if type(node) is not Decide or player not in node.players:
                return []
        return self.legals[at](game, state, player)

    def asks(self, game: Any, state: Any, player: str) -> str:
        return self.table[self.phase(state)].asks(game, state, player)

    def takes(self, state: Any, event: Event) -> bool:
        """Whether the step ``state`` is in takes events of ``event``'s kind."""
        step = self.table[self.phase(state)]
        return step.apply is not None and isinstance(event, step.accepts)

    def apply(self, game: Any, work: Any, event: Event) -> bool:
        """Apply ``event`` to the twin ``work`` with the current step's effect
        and settle; False (``work`` untouched) when the step does not take
        events of its kind."""
        if not self.takes(work, event):
            return False
        self.effects[self.phase(work)](game, work, event)
        self.settle(game, work)
        return True

    def fold(self, game: Any, state: Any, event: Event) -> Any:
        """The state after ``event``: the plain fold (thaw, apply, settle,
        freeze); None when the step ``state`` is in does not take events of
        its kind (a game may apply those otherwise)."""
        if not self.takes(state, event):
            return None
        work = self.work.thaw(state)
        self.effects[self.phase(work)](game, work, event)
        self.settle(game, work)
        return self.work.freeze(work)

    def settle(self, game: Any, work: Any) -> None:
        """Pass over the steps that need no event now, to the next one that does."""
        phase, follows, leading, table = self.phase, self.follows, self.leading, self.table
        at = phase(work)
        while at in leading:
            after = follows[at](game, work)
            if after is None:
                return
            if after not in table:
                # Named where the step that leads there says so: a house rule's, when it added it.

                raise PluginError(
                    f"turn step {at!r} leads to {after!r}, which is no step of the turn ({', '.join(map(repr, table))})",
                    where=code_of(follows[at]),
                )
            self.set_phase(work, after)
            at = phase(work)

    # -- the fast path ---------------------------------------------------------------
    def fast(self, game: Any) -> TurnFast | None:
        """The fast path of ``game`` on this turn (None without a twin)."""
        return None if self.work is None else TurnFast(game, self)

    @property
    def shapes(self) -> tuple[type[Event], ...]:
        """The core decision shapes (:mod:`tabletop.model.shapes`) the steps take,
        which read and write their own notation (worked out when first asked)."""
        if self._shapes is None:
            from ..model.shapes import Shape

            accepted = {cls: None for step in self.table.values() for cls in step.accepts}
            self._shapes = tuple(cls for cls in accepted if issubclass(cls, Shape))
        return self._shapes


class TurnFast:
    """A game's fast path (``tabletop.Fast``) on its :class:`Turn`: the same
    steps on one twin kept for a whole game. The twin keeps the name of the
    step it is in as ``at`` (an own attribute of the twin class), set by
    :meth:`thaw` and after every event.

    The engine's fast loops read :attr:`turn` and :attr:`game` and call the
    step's functions directly; :meth:`next`, :meth:`check`, :meth:`legal`
    and :meth:`apply` answer the same for everyone else."""

    def __init__(self, game: Any, turn: Turn) -> None:
        self.game = game
        self.turn = turn
        #: The random bot's draw in each step whose ``legal`` declares it
        #: (``tabletop.play.sampling.sampled_by``), by the step's name: self-play
        #: (``Match.race``) asks it instead of the listing. None in a turn
        #: whose listing asks the node first (``Turn.guarded``).
        self.samplers = (
            {}
            if turn.guarded
            else {
                name: sampler
                for name, step in turn.table.items()
                if (sampler := declared_sampler(step.legal)) is not None
            }
        )
        self._bind()

    def thaw(self, state: Any) -> Any:
        live = self.turn.work.thaw(state)
        live.at = self.turn.phase(live)
        return live

    def freeze(self, live: Any) -> Any:
        return self.turn.work.freeze(live)

    def _bind(self) -> None:
        # Closures over the tables rather than methods: they run for every
        # event of every self-played game, and a closure read from the
        # instance is called without binding a method.
        game, turn = self.game, self.turn
        nodes, checks, legals, effects = turn.nodes, turn.checks, turn.legals, turn.effects
        phase, leading, settle = turn.phase, turn.leading, turn.settle

        def next(live: Any) -> Node:
            return nodes[live.at](game, live)

        def check(live: Any, decision: Event) -> str | None:
            return checks[live.at](game, live, decision)

        def apply(live: Any, event: Event) -> None:
            effects[live.at](game, live, event)
            at = phase(live)
            if at in leading:
                settle(game, live)
                at = phase(live)
            live.at = at

        if turn.guarded:

            def legal(live: Any, player: str) -> Sequence[Event]:
                # ``self.next``: a fast path that keeps its node (Glyph
                # Chess's) is asked for the one it keeps.
                node = self.next(live)
                if type(node) is not Decide or player not in node.players:
                    return []
                return legals[live.at](game, live, player)

        else:

            def legal(live: Any, player: str) -> Sequence[Event]:
                return legals[live.at](game, live, player)

        self.next, self.check, self.apply, self.legal = next, check, apply, legal
        #: The turn's own ``apply``: the engine's fast loops write it out in
        #: place of a call while ``self.apply`` is still this one (a fast path
        #: that does more at each event replaces ``apply`` and is called).
        self.stepping = apply


def _checking(step: TurnStep, screens: bool, screen: Check | None) -> Check:
    """The check the turn asks in ``step``: the step's own, after the
    game's ``screen`` and, when ``screens``, after refusing what it does not take."""
    own, accepts = step.check, step.accepts
    if screen is None and not screens:
        return own
    if screen is None:

        def screened(game: Any, state: Any, decision: Event) -> str | None:
            if not isinstance(decision, accepts):
                return NOT_NOW
            return own(game, state, decision)

        return screened

    def checked(game: Any, state: Any, decision: Event) -> str | None:
        if screens and not isinstance(decision, accepts):
            return NOT_NOW
        reason = screen(game, state, decision)
        return reason if reason is not None else own(game, state, decision)

    return checked


def _no_effect(game: Any, work: Any, event: Event) -> None:
    raise TypeError(f"no step takes {event!r} here")


#: The default ``phase``: the state's ``phase`` attribute, read in C.
_phase = operator.attrgetter("phase")


def _set_phase(work: Any, name: str) -> None:
    work.phase = name
