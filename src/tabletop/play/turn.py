"""The turn, run by the core: a game declares its steps (a table of
:class:`~tabletop.TurnStep`), its state and the state's mutable twin; the
:class:`Turn` made from them answers every question the engine asks, on
every path, from that one table.

The step dispatch (finding the step a state is in, then calling its
``node``, ``check``, ``legal``, ``asks`` or ``apply`` and settling after
it) is written here once, on the plain path and on the fast one:

========================  ==================================================
path                      asks the current step's
========================  ==================================================
``Game.next``             ``node``
``Game.check``            ``check`` (after the game's ``screen``, if any)
``Game.legal``            ``legal``
``Game.asks``             ``asks``
``Game.apply``            ``apply`` on a thawed twin, then :attr:`Turn.settle`
``Game.fast()``           the same, on a twin kept for a whole game
                          (:class:`TurnFast`), which keeps the name of its
                          step in ``at``
``Match.follow``          ``node`` (or, in a step whose node declares who
                          decides, nothing), ``check`` and ``apply`` on the
                          twin, a batch of events at a time
                          (:meth:`TurnFast.follow`)
``Match.race``            ``node``, ``legal`` (or the random bot's draw
                          from a step's slots, or the draw its listing
                          declares) and ``apply`` on the
                          twin, until the bots cannot play on
                          (:meth:`TurnFast.race`)
========================  ==================================================

So a log line goes one way to its rule: the event it parses to is checked
by the step the state is in (the step's ``check``) and applied by it (the
step's ``apply``), whether one event is accepted (``Match.accept``), a
folder is replayed (``Match.follow``), bots play (``Match.race``) or a
search plays out. The engine reads no table of steps and finds no step:
it calls what :class:`~tabletop.model.steps.Steps` (a game's turn) and :class:`Stepped` (a fast
path on it) declare. (The fast loops ask the steps' functions themselves,
one call per question, and fold with the fast path's ``apply``: they run
for every event replayed or self-played.)

A game with a :class:`Turn` (``self.turn``) need not write ``next``,
``check``, ``apply``, ``legal``, ``asks`` or ``fast``: :class:`~tabletop.Game`
answers them from it. A game whose fast path keeps more than the state
(Glüx keeps each seat's reach) subclasses :class:`TurnFast`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from typing import Any, Protocol

from ..base.errors import IllegalEventError, PluginError
from ..base.naming import code_of
from ..model.events import CHANCE, DECISION, Event
from ..model.nodes import Chance, Decide, Forced, Node
from ..model.steps import NOT_NOW, TurnStep, declared_decider, wait
from .sampling import declared_sampler, declared_slots, slot_sampler, uniform

Check = Callable[[Any, Any, Event], "str | None"]
#: A bot's ``choose(game, state, player, legal, rng)``.
Choose = Callable[[Any, Any, str, Sequence[Event], Any], Event]


class Stepped(Protocol):
    """The contract between the engine and a fast path on the core's turn:
    the general fast path's answers (:class:`tabletop.Fast`: ``thaw``,
    ``freeze``, ``next``, ``check``, ``legal``, ``apply``), the game and
    the turn it runs, and the engine's two fast loops, which ask the steps
    themselves: ``Match.follow`` hands it a batch of events to check and
    fold (:meth:`follow`), ``Match.race`` the bots to play on with
    (:meth:`race`). :class:`TurnFast` is the core's, and the engine takes a
    fast path for one when it is a :class:`TurnFast` (a game's own fast
    path, a plain :class:`tabletop.Fast`, is folded an event at a time)."""

    #: The game the fast path runs.
    game: Any
    #: The turn it runs.
    turn: Turn
    #: The random bot's draw in each step whose listing declares one, by name.
    samplers: Mapping[str, Callable[[Any, Any, str, Any], Any]]

    def thaw(self, state: Any) -> Any: ...

    def freeze(self, live: Any) -> Any: ...

    def next(self, live: Any) -> Node: ...

    def check(self, live: Any, decision: Event) -> str | None: ...

    def legal(self, live: Any, player: str) -> Sequence[Event]: ...

    def apply(self, live: Any, event: Event) -> None: ...

    def follow(
        self, live: Any, events: Iterator[tuple[int, Event]], reached: list[int], unusual: Container[type]
    ) -> tuple[int, Event, Node | None] | None:
        """See :meth:`TurnFast.follow`."""

    def race(
        self,
        live: Any,
        choose: Mapping[str, Choose],
        rngs: Mapping[str, Any],
        number: Callable[[int], float],
        events: list[Event],
        reached: list[int],
        max_events: int,
    ) -> Node | None:
        """See :meth:`TurnFast.race`."""


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
        #: Each step's answers by its name, which the dispatch below (and
        #: :class:`TurnFast`'s) calls directly: one call per question.
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
        #: The random bot's draw in each step whose ``legal`` declares it
        #: (``tabletop.play.sampling.sampled_by``), by the step's name: self-play
        #: (``Match.race``, through :meth:`TurnFast.race`) asks it instead of
        #: the listing. Empty in a turn whose listing asks the node first
        #: (``guarded``).
        #: A step whose ``legal`` declares a space of slots
        #: (``tabletop.play.sampling.slotted``) has the draw the core makes
        #: from it, the step's check (as the turn asks it) deciding each
        #: slot: in any turn, for the race asks it only of the player whose
        #: decision it is.
        self.samplers: dict[str, Callable[[Any, Any, str, Any], Any]] = {
            name: slot_sampler(slots, self.checks[name], step.legal)
            for name, step in table.items()
            if (slots := declared_slots(step.legal)) is not None
        }
        if not guarded:
            self.samplers.update(
                (name, sampler) for name, step in table.items() if (sampler := declared_sampler(step.legal)) is not None
            )
        #: ``settle(game, work, at=None)``: pass over the steps that need no
        #: event now, to the next one that does; the name of the step
        #: ``work`` is in then (``at``: the one it is in now, when the caller
        #: has read it).
        self.settle: Callable[..., str] = _settling(self)
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
        if self.guarded and _not_theirs(self.nodes[at](game, state), player):
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
        self.stepped(game, work, self.phase(work), event)
        return True

    def fold(self, game: Any, state: Any, event: Event) -> Any:
        """The state after ``event``: the plain fold (thaw, apply, settle,
        freeze); None when the step ``state`` is in does not take events of
        its kind (a game may apply those otherwise)."""
        if not self.takes(state, event):
            return None
        work = self.work.thaw(state)
        self.stepped(game, work, self.phase(work), event)
        return self.work.freeze(work)

    def stepped(self, game: Any, work: Any, at: str, event: Event) -> str:
        """Apply ``event`` to the twin ``work``, in step ``at``, with that
        step's effect, then settle: the name of the step ``work`` is in
        after it (:class:`TurnFast`'s ``apply`` too, on its live twin)."""
        self.effects[at](game, work, event)
        at = self.phase(work)
        if at in self.leading:
            at = self.settle(game, work, at)
        return at

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

    It is the engine's :class:`Stepped`: the engine's fast loops
    (``Match.follow``, ``Match.race``) hand it a batch of events to fold
    (:meth:`follow`) or the bots to play on with (:meth:`race`), and it asks
    each step's functions directly; its ``next``, ``check``, ``legal`` and
    ``apply`` answer one question at a time (``Match.node`` and
    ``Match.accept``, bots, search). A
    subclass that does more at each event (Glyph Chess's forgets the node
    it keeps) replaces ``next`` or ``apply`` with its own, which call these;
    :meth:`follow` and :meth:`race` fold with the ``apply`` in force."""

    #: The random bot's draw in each step whose ``legal`` declares it
    #: (:attr:`Turn.samplers`): :meth:`race` gives it to a bot that draws as
    #: the random bot does, instead of a listing to draw from.
    samplers: Mapping[str, Callable[[Any, Any, str, Any], Any]]
    #: The answers, bound to the game and the turn's tables in ``_bind``:
    #: :meth:`Turn.next`, :meth:`Turn.check` and :meth:`Turn.legal` in the
    #: step ``live.at`` (in a guarded turn, ``legal`` asks this fast path's
    #: ``next`` first), and ``apply``, the step's effect and settling, after
    #: which ``live.at`` names the step the twin is in.
    next: Callable[[Any], Node]
    check: Callable[[Any, Event], str | None]
    legal: Callable[[Any, str], Sequence[Event]]
    apply: Callable[[Any, Event], None]
    stepping: Callable[[Any, Event], None]

    def __init__(self, game: Any, turn: Turn) -> None:
        self.game = game
        self.turn = turn
        self.samplers = turn.samplers
        self._bind()

    def thaw(self, state: Any) -> Any:
        live = self.turn.work.thaw(state)
        live.at = self.turn.phase(live)
        return live

    def freeze(self, live: Any) -> Any:
        return self.turn.work.freeze(live)

    def _bind(self) -> None:
        # Closures over the turn's tables rather than methods: they run for
        # every event of every self-played game and every replayed one, and
        # a closure read from the instance is called without binding a method.
        game, turn = self.game, self.turn
        nodes, checks, legals, effects = turn.nodes, turn.checks, turn.legals, turn.effects
        phase, leading, settle = turn.phase, turn.leading, turn.settle

        def next(live: Any) -> Node:
            return nodes[live.at](game, live)

        def check(live: Any, decision: Event) -> str | None:
            return checks[live.at](game, live, decision)

        def apply(live: Any, event: Event) -> None:
            # :meth:`Turn.stepped`, on the step the twin keeps.
            effects[live.at](game, live, event)
            at = phase(live)
            if at in leading:
                at = settle(game, live, at)
            live.at = at

        if turn.guarded:

            def legal(live: Any, player: str) -> Sequence[Event]:
                # ``self.next``: a fast path that keeps its node (Glyph
                # Chess's) is asked for the one it keeps.
                if _not_theirs(self.next(live), player):
                    return []
                return legals[live.at](game, live, player)

        else:

            def legal(live: Any, player: str) -> Sequence[Event]:
                return legals[live.at](game, live, player)

        self.next, self.check, self.apply, self.legal = next, check, apply, legal
        #: The turn's own ``apply``: :meth:`follow` writes it out in place of
        #: a call while ``self.apply`` is still this one (a fast path that
        #: does more at each event replaces ``apply``, and is called).
        self.stepping = apply

    # -- the engine's fast loops ----------------------------------------------------
    def follow(
        self, live: Any, events: Iterator[tuple[int, Event]], reached: list[int], unusual: Container[type]
    ) -> tuple[int, Event, Node | None] | None:
        """Check and fold on ``live`` the common events of ``events``, each
        ``(seq, event)``, as ``Match.accept`` would: a decision of a player
        the step's node names that the step's check finds legal, a possible
        outcome of its chance node, or the event it forces. A decision of
        the player a step's node declares (:func:`~tabletop.model.steps.decided_by`)
        that the step's check finds legal is folded without asking the
        node, which may have to look for a legal decision to tell a
        decision from a forced event.

        Stops at the first other event: one of a kind in ``unusual``, one
        not numbered next, or one found illegal here; returns it, with the
        node asked for it (None when none was), for the engine to handle or
        to say why; None once ``events`` are all folded. ``reached[0]`` is
        the number of the last event folded, as given and as left (when a
        rule raises too)."""
        game, fold = self.game, self.apply
        turn = self.turn
        nodes, checks, deciders = turn.nodes, turn.checks, turn.deciders
        effects, phase, leading, settle = turn.effects, turn.phase, turn.leading, turn.settle
        inline = fold is self.stepping
        done = reached[0]
        try:
            for seq, event in events:
                if seq != done + 1 or type(event) in unusual:
                    return seq, event, None
                origin = event.origin
                at = live.at
                who = deciders.get(at) if origin == DECISION else None
                if (
                    who is None
                    or who(game, live) != event.player  # type: ignore[attr-defined]
                    or checks[at](game, live, event) is not None
                ):
                    node = nodes[at](game, live)
                    if (kind := type(node)) is Decide:
                        ok = (
                            origin == DECISION
                            and not node.sealed  # type: ignore[union-attr]
                            and event.player in node.players  # type: ignore[attr-defined,union-attr]
                            and checks[at](game, live, event) is None
                        )
                    elif kind is Chance or (kind is not Forced and isinstance(node, Chance)):
                        # A game's own kind of chance node (one that looks its
                        # outcomes up faster) is a chance node all the same.
                        ok = origin == CHANCE and node.allows(event)  # type: ignore[union-attr]
                    elif kind is Forced:
                        # The event the rules force, whatever its origin (a
                        # chance event a house rule forces is taken here
                        # too): as ``Match.why_illegal`` and self-play take it.
                        ok = event == node.event  # type: ignore[union-attr]
                    else:
                        ok = False
                    if not ok:
                        return seq, event, node
                if inline:
                    # ``apply`` written out (a call fewer for every event
                    # replayed: some 5% of a replay's time).
                    effects[at](game, live, event)
                    at = phase(live)
                    if at in leading:
                        at = settle(game, live, at)
                    live.at = at
                else:
                    fold(live, event)
                done = seq
            return None
        finally:
            reached[0] = done

    def race(
        self,
        live: Any,
        choose: Mapping[str, Choose],
        rngs: Mapping[str, Any],
        number: Callable[[int], float],
        events: list[Event],
        reached: list[int],
        max_events: int,
    ) -> Node | None:
        """Play on from ``live`` as ``Match.race`` says: chance outcomes from
        ``number(seq)``, the events the rules force, and each decision by
        the bot of its player, ``choose[player](game, None, player, legal,
        rng)``, each event appended to ``events``; until a sealed decision,
        a decision of a player without a bot, or the end. ``reached[0]`` is
        the number of the last event played, as given and as left; more than
        ``max_events`` in ``events`` is an error. Returns the node that
        stopped it (the end, a sealed decision), None when a player without
        a bot stopped it.

        A step whose node declares who decides in it (``decided_by``) is
        asked that player's decisions first: when there are any, the node is
        that player's decision, and need not be asked. A player whose bot
        draws as the core's random bot does
        (:func:`~tabletop.play.sampling.draws_uniformly`) is given, in a step
        whose listing declares a space of slots
        (:func:`~tabletop.play.sampling.slotted`), a slot's decision the
        step's check allows, drawn uniformly, or, in one that declares the
        random bot's draw (:func:`~tabletop.play.sampling.sampled_by`), that
        draw: the same decision, without the listing."""
        game = self.game
        name = game.name
        turn = self.turn
        nodes, legals, deciders, samplers = turn.nodes, turn.legals, turn.deciders, self.samplers
        fold, append = self.apply, events.append
        effects, phase, leading, settle = turn.effects, turn.phase, turn.leading, turn.settle
        inline = fold is self.stepping
        # The players drawn for by a step's own draw, where it has one.
        drawn = {player for player, bot in choose.items() if uniform(bot)} if samplers else ()
        seq = reached[0]
        # The event number past which self-play has gone on too long.
        last = seq + max_events - len(events)
        try:
            while True:
                node = event = None
                at = live.at
                who = deciders.get(at)
                if who is not None:
                    player = who(game, live)
                    if player in drawn and at in samplers:
                        event = samplers[at](game, live, player, rngs[player])
                        if event is None:  # none: the node says what comes instead
                            node = nodes[at](game, live)
                    else:
                        legal = legals[at](game, live, player) if player is not None else ()
                        if legal:
                            try:
                                pick = choose[player]  # type: ignore[index]
                            except KeyError:
                                return  # a player without a bot: the caller's to decide
                            event = pick(game, None, player, legal, rngs[player])  # type: ignore[arg-type,index]
                        else:  # none: the node says what comes instead
                            node = nodes[at](game, live)
                else:
                    node = nodes[at](game, live)
                if event is None:
                    kind = type(node)
                    if kind is Chance or (kind is not Decide and kind is not Forced and isinstance(node, Chance)):
                        # An outcome the number cannot change needs no number.
                        event = node.sure  # type: ignore[union-attr]
                        if event is None:
                            event = node.pick(number(seq + 1))  # type: ignore[union-attr]
                    elif kind is Forced:
                        event = node.event  # type: ignore[union-attr]
                    elif kind is Decide and not node.sealed:  # type: ignore[union-attr]
                        player = node.players[0]  # type: ignore[union-attr]
                        try:
                            pick = choose[player]
                        except KeyError:
                            return
                        if player in drawn and at in samplers:
                            event = samplers[at](game, live, player, rngs[player])
                        else:
                            legal = legals[at](game, live, player)
                            event = pick(game, None, player, legal, rngs[player]) if legal else None
                        if event is None:
                            raise IllegalEventError(f"{name}: {player} must decide but has no legal decision")
                    else:
                        return node
                if inline:
                    # ``apply`` written out, as :meth:`follow` writes it.
                    effects[at](game, live, event)
                    at = phase(live)
                    if at in leading:
                        at = settle(game, live, at)
                    live.at = at
                else:
                    fold(live, event)
                append(event)
                seq += 1
                if seq > last:
                    raise IllegalEventError(f"{name}: self-play did not end within {max_events} events")
        finally:
            reached[0] = seq


def _not_theirs(node: Node, player: str) -> bool:
    """Whether ``node`` is not a decision of ``player`` (a guarded turn lists nothing then)."""
    return type(node) is not Decide or player not in node.players  # type: ignore[attr-defined]


def _checking(step: TurnStep, screens: bool, screen: Check | None) -> Check:
    """The check the turn asks in ``step``: the step's own, after the
    game's ``screen`` and, when ``screens``, after refusing what it does not take."""
    own, accepts = step.checking, step.accepts
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


def _settling(turn: Turn) -> Callable[..., str]:
    """:attr:`Turn.settle` for ``turn``: a closure over its tables, as
    :class:`TurnFast`'s answers are, for the fast loops ask it after most
    events."""
    phase, follows, leading, table, set_phase = turn.phase, turn.follows, turn.leading, turn.table, turn.set_phase

    def settle(game: Any, work: Any, at: str | None = None) -> str:
        if at is None:
            at = phase(work)
        while at in leading:
            after = follows[at](game, work)
            if after is None:
                return at
            if after not in table:
                # Named where the step that leads there says so: a house rule's, when it added it.
                raise PluginError(
                    f"turn step {at!r} leads to {after!r}, which is no step of the turn ({', '.join(map(repr, table))})",
                    where=code_of(follows[at]),
                )
            set_phase(work, after)
            at = phase(work)
        return at

    return settle


def _set_phase(work: Any, name: str) -> None:
    work.phase = name
