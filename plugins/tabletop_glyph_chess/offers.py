"""A variant's own decisions, offered to the player at turn in a step of the
turn, with their notation, listing, check and effect: a decision of one of
the core's shapes (:func:`offer`), or an action paid as moves and spells are
(:class:`Paid`, :func:`action`).

Both add the decision to the step (``TurnStep.adding``) and keep the step
open while the decision is: a step that would move on (the awakening with
no die to re-roll) waits for it, and the action step, where no move or
spell is possible, offers it instead of a pass. Both go on the plain and
the fast path alike (the fast path runs the same table of steps).

A variant's table hook returns what they give::

    class Trading:
        @rulehook(wrapper=True)
        def glyph_turn_steps(self, players):
            return action((yield), Trade, options, ("coin", 2, None), take)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop import Event, Forced, NotationError, TurnStep
from tabletop.model.shapes import Shape
from tabletop.model.steps import wait

from . import actions, payment
from .notation import payment_text, read_payment
from .pieces import GLYPHS
from .state import OVER, recall, remember

if TYPE_CHECKING:
    from .game import GlyphChess

#: A price: (cost kind, X, payment type; None for any type, every coin and die paying).
Price = tuple[str, int, "str | None"]
#: Any type: every die and every coin pays (a payment by no piece: no sight).
ANY = payment.payers(frozenset(GLYPHS), frozenset(GLYPHS))


@attrs.frozen
class Paid(Shape):
    """An action of a variant's own: one option (a word: a glyph letter, a
    spot, a player) and what pays for it, written ``KIND OPTION / D1 S``
    (``trade F / S S``) as moves and spells are."""

    kind: ClassVar[str] = "paid"
    option: str
    dice: tuple[int, ...] = ()
    coins: tuple[str, ...] = ()

    def notation(self) -> str:
        return f"{self.kind} {self.option}{payment_text(self)}"

    @classmethod
    def parse(cls, text: str, player: str) -> Paid | None:
        main, _, paid = text.partition("/")
        rest = cls._words(main)
        if rest is None:
            return None
        if len(rest.split()) != 1:
            raise NotationError(f"write '{cls.kind} OPTION / PAYMENT', like {cls.kind} E / D1 S")
        return cls(player, rest, *read_payment(paid))


def offer(
    table: Mapping[str, TurnStep],
    step: str,
    decision: type[Shape],
    items: Callable[[GlyphChess, Any, int], Sequence[str]],
    effect: Callable[[GlyphChess, Any, int, Any], None],
    once: bool = False,
    **bounds: int,
) -> dict[str, TurnStep]:
    """``table`` with the step named ``step`` also offering ``decision`` (a
    ``One``, ``Subset`` or ``Order`` shape) to the player at turn:
    ``items(game, state, seat)`` the items to choose from (none: not
    offered now), ``effect(game, work, seat, event)`` what a decision does
    to the mutable state; ``bounds`` are the shape's (``least=1``). With
    ``once``, each player may take it once per game: who has is public,
    remembered in the memo under the shape's kind."""
    kind = decision.kind

    def open_to(game: GlyphChess, state: Any, player: str) -> Sequence[str]:
        seat = game.seats[player]
        if state.turn != seat or (once and seat in recall(state, kind, ())):
            return ()
        return items(game, state, seat)

    def options(game: GlyphChess, state: Any, player: str) -> list:
        found = open_to(game, state, player)
        return decision.options(player, found, **bounds) if found else []  # type: ignore[attr-defined]

    def error(game: GlyphChess, state: Any, event: Any) -> str | None:
        return decision.error(event, open_to(game, state, event.player), **bounds)  # type: ignore[attr-defined]

    def taken(game: GlyphChess, work: Any, seat: int, event: Any) -> None:
        if once:
            remember(work, kind, (*recall(work, kind, ()), seat))
        effect(game, work, seat, event)

    return _added(table, step, decision, options, error, taken)


def action(
    table: Mapping[str, TurnStep],
    decision: type[Paid],
    options: Callable[[GlyphChess, Any, int], Sequence[str]],
    price: Price | Callable[[GlyphChess, Any, int, str], Price],
    effect: Callable[[GlyphChess, Any, int, str], None],
) -> dict[str, TurnStep]:
    """``table`` with the action step also taking ``decision`` (a
    :class:`Paid` shape), a move or spell of the variant's own:
    ``options(game, state, seat)`` the options open to ``seat`` now;
    ``price`` (or ``price(game, state, seat, option)``) what one costs, as
    (cost kind, X, payment type), listed with every way to pay and checked
    as every payment (``glyph_payers``); ``effect(game, work, seat,
    option)`` what it does once paid. The turn's reset step follows."""
    priced = price if callable(price) else lambda game, state, seat, option: price

    def payers(game: GlyphChess, state: Any, seat: int, type_: str | None) -> payment.Payers:
        return ANY if type_ is None else game.payers(game=game, state=state, seat=seat, spot=None, kind=type_)

    def listed(game: GlyphChess, state: Any, player: str) -> list:
        seat, found = game.seats[player], []
        if state.turn != seat:
            return found
        ways: dict[tuple, list] = {}  # options of one price are paid the same ways
        for option in options(game, state, seat):
            kind, amount, type_ = price_of = priced(game, state, seat, option)
            paying = ways.get(price_of)
            if paying is None:
                paying = ways[price_of] = list(
                    payment.options(state, seat, kind, amount, payers(game, state, seat, type_))
                )
            found += [decision(player, option, dice, coins) for dice, coins in paying]
        return found

    def error(game: GlyphChess, state: Any, event: Any) -> str | None:
        seat = game.seats[event.player]
        open_now = options(game, state, seat) if state.turn == seat else ()
        if event.option not in open_now:
            return f"{event.kind} {event.option!r} is not open now (open: {', '.join(open_now) or 'none'})"
        kind, amount, type_ = priced(game, state, seat, event.option)
        paid_by = payers(game, state, seat, type_)
        return payment.error(state, seat, kind, amount, event.dice, event.coins, paid_by, type_ or "any type")

    def perform(game: GlyphChess, work: Any, seat: int, event: Any) -> None:
        payment.pay(work, seat, event.dice, event.coins)
        effect(game, work, seat, event.option)
        actions.finish(work)

    return _added(table, "act", decision, listed, error, perform)


def _added(
    table: Mapping[str, TurnStep],
    name: str,
    decision: type[Event],
    options: Callable[[GlyphChess, Any, str], Sequence[Event]],
    error: Callable[[GlyphChess, Any, Any], str | None],
    effect: Callable[[GlyphChess, Any, int, Any], None],
) -> dict[str, TurnStep]:
    """The table with the step ``name`` also taking ``decision`` and kept
    open while one is: its node a decision of the player at turn (not a
    forced pass), its ``follows`` waiting (unless the game is over)."""
    table = dict(table)
    own_legal = table[name].legal
    step = table[name].adding(
        decision, options, error, lambda game, work, event: effect(game, work, game.seats[event.player], event)
    )
    own_node, own_follows = step.node, step.follows

    def legal(game: GlyphChess, state: Any, player: str) -> Sequence[Event]:
        more = options(game, state, player)
        found = own_legal(game, state, player)
        return Joined(found, more) if more else found

    def open_now(game: GlyphChess, state: Any) -> bool:
        return bool(options(game, state, game.players[state.turn]))

    def node(game: GlyphChess, state: Any) -> Any:
        found = own_node(game, state)
        return game.decides[state.turn] if type(found) is Forced and open_now(game, state) else found

    def follows(game: GlyphChess, work: Any) -> str | None:
        after = own_follows(game, work)
        return None if after is not None and after != OVER and open_now(game, work) else after

    # A step that always waits for an event (the action step) needs no asking.
    table[name] = attrs.evolve(step, node=node, legal=legal, follows=follows if own_follows is not wait else wait)
    return table


class Joined(Sequence):
    """A step's own listing, then a variant's decisions, as one sequence in
    that order: the step's own decisions are made only where they are
    looked at, so a lazy listing (the action step's) stays lazy, and a bot
    choosing one at random builds one."""

    __slots__ = ("own", "more")

    def __init__(self, own: Sequence[Event], more: Sequence[Event]) -> None:
        self.own, self.more = own, more

    def __len__(self) -> int:
        return len(self.own) + len(self.more)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return list(self)[index]
        size, own = len(self), len(self.own)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("decision index out of range")
        return self.own[index] if index < own else self.more[index - own]

    def __iter__(self) -> Iterator[Event]:
        yield from self.own
        yield from self.more

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]
