"""A turn as data: a table of steps, each one place for what it offers,
accepts, checks, applies, lists and asks, and for what follows it.

A game keeps its current step's name in its state (``phase``) and a table
``{name: TurnStep}`` (from a rule hook, so that a variant can add, replace or
wrap a step). The core's :class:`~tabletop.play.turn.Turn` answers the engine's
questions from the table:

- ``next``: the node the current step offers;
- ``check`` / ``legal`` / ``asks``: the current step's answers, for a
  decision of a kind it accepts;
- ``apply``: the event's effect, written once against the game's mutable
  work state, then :attr:`~tabletop.play.turn.Turn.settle` to pass over the steps that need no
  event now.

The plain fold (thaw, apply, freeze) and a fast fold (apply on a state kept
mutable) both run the same ``apply``; there is no second copy of a step.
A variant's new decision is a step whose events are one of the core's
decision shapes (:mod:`tabletop.model.shapes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import attrs

from ..base.declared import declare, declared
from .events import Event
from .nodes import Node

N = TypeVar("N", bound=Callable[..., Any])

#: What a step's ``check`` says of a decision it does not take now.
NOT_NOW = "it is not the time for that decision"


def not_now(game: Any, state: Any, decision: Event) -> str | None:
    """A ``check`` that takes no decision in its step (a step with neither a
    ``check`` nor a ``legal`` checks so)."""
    return NOT_NOW


#: What a step without a ``check`` says of a decision its listing leaves out.
NOT_LISTED = "it is not one of the decisions listed here"


def listed(legal: Callable[[Any, Any, str], Sequence[Event]]) -> Callable[[Any, Any, Event], str | None]:
    """The ``check`` of a step that lists its decisions (``legal``) but
    declares no check: a decision is legal exactly when it is one of its
    player's listing, compared with ``==``, on whatever state the path holds
    (the immutable state, or the fast path's twin): every path then takes
    what ``legal`` lists, and nothing else."""

    def check(game: Any, state: Any, decision: Event) -> str | None:
        player = getattr(decision, "player", None)
        if player is None:
            return NOT_NOW
        listing = legal(game, state, player)
        if decision in listing:
            return None
        return NOT_LISTED if listing else NOT_NOW

    return check


def nothing(game: Any, state: Any, player: str) -> Sequence[Event]:
    """The default ``legal``: the step lists no decision."""
    return []


def wait(game: Any, work: Any) -> str | None:
    """The default ``follows``: stay in this step until an event comes."""
    return None


def decide(game: Any, state: Any, player: str) -> str:
    """The default ``asks``."""
    return "decide"


@attrs.frozen
class TurnStep:
    """One step of a turn (or of setup).

    - ``name``: the step's name, the value of the state's ``phase`` while in it.
    - ``node(game, state)``: what the step offers (a :class:`~tabletop.Decide`,
      :class:`~tabletop.Chance`, :class:`~tabletop.Forced` or
      :class:`~tabletop.Over` node).
    - ``accepts``: the event classes the step takes.
    - ``apply(game, work, event)``: what one of them does, changing the mutable
      ``work`` state in place (never a copy of it).
    - ``follows(game, work)``: asked on entering the step and after each of its
      events: the name of the step that follows when this one needs no event
      now, or None to wait here.
    - ``check(game, state, decision)``: why a decision is illegal here, or
      None. Not given (or None): a decision is legal exactly when ``legal``
      lists it for its player (:func:`listed`); with neither, the step takes
      no decision (:func:`not_now`). :attr:`checking` is the check in force.
    - ``legal(game, state, player)``: every legal decision of ``player`` here.
    - ``asks(game, state, player)``: what the step asks of ``player``, in words.
    """

    name: str
    node: Callable[[Any, Any], Node]
    accepts: tuple[type[Event], ...] = ()
    apply: Callable[[Any, Any, Event], None] | None = None
    follows: Callable[[Any, Any], str | None] = wait
    check: Callable[[Any, Any, Event], str | None] | None = None
    legal: Callable[[Any, Any, str], Sequence[Event]] = nothing
    asks: Callable[[Any, Any, str], str] = decide

    @property
    def checking(self) -> Callable[[Any, Any, Event], str | None]:
        """The check in force: ``check`` when the step declares one; else
        the listing's (:func:`listed`), or, without a listing, none taken
        (:func:`not_now`). Every path asks this one (``Turn.checks``)."""
        check = self.check
        if check is not None:
            return check
        return not_now if self.legal is nothing else listed(self.legal)

    def adding(
        self,
        decision: type[Event],
        options: Callable[[Any, Any, str], Sequence[Event]],
        error: Callable[[Any, Any, Event], str | None],
        effect: Callable[[Any, Any, Event], None],
    ) -> TurnStep:
        """This step, also taking a new decision, of the class ``decision``
        (a variant's, often one of the shapes of :mod:`tabletop.model.shapes`):

        - ``options(game, state, player)`` lists the player's decisions of
          that class, after the step's own (none when it is not theirs now);
        - ``error(game, state, decision)`` says why one is illegal, or None;
        - ``effect(game, work, event)`` applies one to the mutable state.

        Every other decision and event goes to the step as before."""
        own_legal, own_check, own_apply = self.legal, self.checking, self.apply

        def legal(game: Any, state: Any, player: str) -> Sequence[Event]:
            more = options(game, state, player)
            found = own_legal(game, state, player)
            return [*found, *more] if more else found

        def check(game: Any, state: Any, event: Event) -> str | None:
            return error(game, state, event) if isinstance(event, decision) else own_check(game, state, event)

        def apply(game: Any, work: Any, event: Event) -> None:
            if isinstance(event, decision):
                effect(game, work, event)
            elif own_apply is not None:
                own_apply(game, work, event)

        return attrs.evolve(self, accepts=(*self.accepts, decision), legal=legal, check=check, apply=apply)


def decided_by(
    who: Callable[[Any, Any], str | None], check: Callable[[Any, Any, Event], str | None]
) -> Callable[[N], N]:
    """Declare of a step's ``node(game, state)``: whenever ``check`` (the
    step's check) finds a decision legal, the node is
    ``Decide((who(game, state),))``, one player's unsealed decision. ``who``
    returns None where it cannot say so (a rule in force may end the game
    first, say).

    The engine's fast loops then fold a decision of that player which the
    step's check finds legal without asking the node: a node that must look
    for a legal decision to tell a decision from a forced event costs most
    of a turn's time in a replay, where the decision is at hand.

    The declaration holds for the function it decorates, with that check,
    alone: a variant's own node, a wrapper around this one
    (``functools.wraps`` included), or a step whose check is another (a
    decision added with :meth:`TurnStep.adding`, a check replaced with
    ``attrs.evolve``) declares nothing, and the node is asked as before."""

    def declaring(node: N) -> N:
        return declare(node, "tabletop_decided_by", (who, check))

    return declaring


def decider(step: TurnStep) -> Callable[[Any, Any], str | None] | None:
    """Who decides in ``step``, as its node declares with :func:`decided_by`,
    or None."""
    return declared_decider(step.node, step.check)


def declared_decider(node: Any, check: Any) -> Callable[[Any, Any], str | None] | None:
    """What ``node`` declares with :func:`decided_by` for a step checked by ``check``, or None."""
    # Only with the check it was declared with.
    found = declared(node, "tabletop_decided_by")
    if found is None or found[1] is not check:
        return None
    return found[0]  # type: ignore[no-any-return]


class Steps(Protocol):
    """The contract between a game and its turn (``Game.turn``): what
    :class:`~tabletop.Game` asks of it for its rules, on immutable states.
    :class:`tabletop.play.turn.Turn` is the core's. It stands here, with
    the steps, so that the game's model names it without importing play."""

    #: The steps in force, by name.
    table: Mapping[str, TurnStep]

    def next(self, game: Any, state: Any) -> Node: ...

    def check(self, game: Any, state: Any, decision: Event) -> str | None: ...

    def legal(self, game: Any, state: Any, player: str) -> Sequence[Event]: ...

    def asks(self, game: Any, state: Any, player: str) -> str: ...

    def fold(self, game: Any, state: Any, event: Event) -> Any:
        """The state after ``event``, or None when the step the state is in
        does not take events of its kind."""

    def fast(self, game: Any) -> Any:
        """The fast path of ``game`` on this turn (a
        :class:`tabletop.play.turn.Stepped`), or None."""
