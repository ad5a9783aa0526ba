"""Ready-made decision shapes for a variant's own decisions.

A variant that adds a decision subclasses one of these with its own ``kind``
and lists it in its ``Variant.events``; the shape brings the listing, the
check and the notation, so the variant writes only when the decision is open
and what it does::

    @attrs.frozen
    class Reroll(Subset):
        kind: ClassVar[str] = "reroll"

    Reroll.options(player, ("1", "2", "3"))          # every subset, in a fixed order
    Reroll.error(decision, ("1", "2", "3"))          # None, or why not
    Reroll.parse("reroll 1,3", "ann")               # Reroll("ann", ("1", "3"))
    Reroll("ann", ("1", "3")).notation()            # "reroll 1,3"

Items are short words (a die's number, a square's name, a coin); the shapes
keep them as strings so that a log line is plain JSON.

Who may see a decision is the shape's to say. By default every player sees
it whole (a public choice: which dice to roll again). A decision that tells
what its player alone knows (which kind of chip to take from one's own bag,
which of one's hidden chips to put back) is declared secret::

    @attrs.frozen
    class Take(One):
        kind: ClassVar[str] = "take"
        secret: ClassVar[bool] = True

Then every other player is shown only that it was made (``ann take
(hidden)``), in every text, view and mail the games make; its player and
an omniscient viewer see it whole. For other cases (a decision shown to one
other player as well) override :meth:`Shape.seen_by`. Any event class of a
variant's own may define ``seen_by(viewer)`` and ``redacted()`` the same way:
the games ask them through :func:`seen` and :func:`redacted`.

- :class:`One`: choose one of several options;
- :class:`Subset`: choose some of several items (none, all, or between
  ``least`` and ``most``);
- :class:`YesNo`: a yes or a no;
- :class:`Order`: put items in an order;
- :class:`Bare`: a decision with nothing more to choose, written as its kind
  alone (``pass``).

One chance shape deals a secret at setup (a hand of cards, a hidden role)::

    @attrs.frozen
    class Patron(Deal):
        kind: ClassVar[str] = "patron"

    table = Patron.first(table, GLYPHS, 1)    # in a glyph_turn_steps wrapper: one type each
    Patron.dealt(state, "ann")                # ("E",): ann's own, in her view alone

- :class:`Deal`: ``count`` items of a pool dealt to each player in turn,
  before the game's own setup; each player sees only their own. By default
  each player is dealt from the whole pool (with replacement: two players
  may be dealt the same item); ``Deal.first(table, pool, count,
  replace=False)`` deals distinct items from one pool, each player from
  what the players before them left.

One chance shape draws for everyone to see (a lucky room, a weather card)::

    @attrs.frozen
    class Lucky(Lot):
        kind: ClassVar[str] = "lucky"

    table = Lucky.first(table, ROOMS, 1)      # one room drawn before setup: ``lucky c``
    Lucky.drawn(state)                        # ("c",): in every view

- :class:`Lot`: ``count`` items of a pool drawn once, before the game's
  own setup, seen by every player and kept in the memo's public part; a
  search's imagined world keeps it as drawn (never drawn again).

One shape tells every player what an event showed at the table and its log
line does not say (a joker placed, where the placement names only its
face)::

    @attrs.frozen
    class JokerShown(Shown):
        kind: ClassVar[str] = "joker"

    table = JokerShown.after(table, placed_a_joker)   # ``joker ann`` follows

- :class:`Shown`: an event of the rules, seen by all, that follows an
  event whenever ``shows(game, state, event)`` says so (asked with the
  state before the event's effect).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, permutations
from math import comb, prod
from typing import Any, ClassVar, TypeVar

import attrs

from ..base.errors import NotationError
from . import memo
from .events import CHANCE, DECISION, RULES, Event
from .nodes import Chance, Forced
from .steps import TurnStep

S = TypeVar("S", bound="Shape")

#: Listing every subset or order of many items is refused: 2**12 subsets,
#: 7! orders are already more than a player reads.
MAX_ITEMS = 12
MAX_ORDER = 7
#: A deal of more hands than this is refused: each hand is an outcome of
#: its chance node, listed and weighed.
MAX_HANDS = 5_000


@attrs.frozen
class Shape(Event):
    """Base of the decision shapes: a decision with a ``player``."""

    origin: ClassVar[str] = DECISION
    #: Whether the decision is its player's secret: the others see that it
    #: was made, never what was chosen (see :meth:`seen_by`).
    secret: ClassVar[bool] = False
    player: str

    def notation(self) -> str:
        """The decision as its player writes it: the kind, then its value."""
        raise NotImplementedError

    def seen_by(self, viewer: str | None) -> bool:
        """Whether ``viewer`` may see what was decided (None: an omniscient
        viewer, who sees everything). Everyone, unless the shape is
        :attr:`secret`: then its player alone."""
        return not self.secret or viewer is None or viewer == self.player

    def redacted(self) -> str:
        """The decision as a player who may not see it reads it: its kind alone."""
        return f"{self.kind} (hidden)"

    @classmethod
    def _words(cls, text: str) -> str | None:
        """What follows the kind in ``text``, or None when ``text`` is not of this kind."""
        words = text.strip().split(None, 1)
        if not words or words[0].lower() != cls.kind:
            return None
        return words[1].strip() if len(words) > 1 else ""


def _items(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.replace(" ", ",").split(",") if item.strip())


@attrs.frozen
class One(Shape):
    """Choose one of several options."""

    option: str

    @classmethod
    def options(cls: type[S], player: str, options: Sequence[str]) -> list[S]:
        return [cls(player, option) for option in options]  # type: ignore[call-arg]

    @classmethod
    def error(cls, decision: One, options: Sequence[str]) -> str | None:
        if decision.option not in options:
            return f"{decision.option!r} is not one of: {', '.join(options) or 'nothing'}"
        return None

    def notation(self) -> str:
        return f"{self.kind} {self.option}"

    @classmethod
    def parse(cls, text: str, player: str) -> One | None:
        rest = cls._words(text)
        if rest is None:
            return None
        if not rest or len(rest.split()) != 1:
            raise NotationError(f"write '{cls.kind} OPTION'")
        return cls(player, rest)


@attrs.frozen
class Subset(Shape):
    """Choose some of several items: the chosen ones, in the order the items
    were offered (so each subset has one spelling)."""

    items: tuple[str, ...]

    @classmethod
    def options(cls: type[S], player: str, items: Sequence[str], least: int = 0, most: int | None = None) -> list[S]:
        if len(items) > MAX_ITEMS:
            raise ValueError(f"{cls.kind}: too many items to list every subset ({len(items)} > {MAX_ITEMS})")
        top = len(items) if most is None else min(most, len(items))
        return [
            cls(player, chosen)  # type: ignore[call-arg]
            for size in range(least, top + 1)
            for chosen in combinations(tuple(items), size)
        ]

    @classmethod
    def error(cls, decision: Subset, items: Sequence[str], least: int = 0, most: int | None = None) -> str | None:
        chosen = decision.items
        unknown = [item for item in chosen if item not in items]
        if unknown:
            return f"{unknown[0]!r} is not one of: {', '.join(items) or 'nothing'}"
        if len(set(chosen)) != len(chosen):
            return "an item is chosen twice"
        if list(chosen) != [item for item in items if item in chosen]:
            return f"name the items in this order: {', '.join(items)}"
        if len(chosen) < least:
            return f"choose at least {least}"
        if most is not None and len(chosen) > most:
            return f"choose at most {most}"
        return None

    def notation(self) -> str:
        return f"{self.kind} {','.join(self.items) or '-'}"

    @classmethod
    def parse(cls, text: str, player: str) -> Subset | None:
        rest = cls._words(text)
        if rest is None:
            return None
        return cls(player, () if rest in ("", "-") else _items(rest))


@attrs.frozen
class YesNo(Shape):
    """A yes or a no."""

    answer: bool

    @classmethod
    def options(cls: type[S], player: str) -> list[S]:
        return [cls(player, True), cls(player, False)]  # type: ignore[call-arg]

    def notation(self) -> str:
        return f"{self.kind} {'yes' if self.answer else 'no'}"

    @classmethod
    def parse(cls, text: str, player: str) -> YesNo | None:
        rest = cls._words(text)
        if rest is None:
            return None
        if rest.lower() not in ("yes", "no"):
            raise NotationError(f"write '{cls.kind} yes' or '{cls.kind} no'")
        return cls(player, rest.lower() == "yes")


@attrs.frozen
class Order(Shape):
    """Put every one of several items in an order."""

    items: tuple[str, ...]

    @classmethod
    def options(cls: type[S], player: str, items: Sequence[str]) -> list[S]:
        if len(items) > MAX_ORDER:
            raise ValueError(f"{cls.kind}: too many items to list every order ({len(items)} > {MAX_ORDER})")
        return [cls(player, order) for order in permutations(tuple(items))]  # type: ignore[call-arg]

    @classmethod
    def error(cls, decision: Order, items: Sequence[str]) -> str | None:
        if sorted(decision.items) != sorted(items):
            return f"put every one of these in an order, each once: {', '.join(items)}"
        return None

    def notation(self) -> str:
        return f"{self.kind} {','.join(self.items)}"

    @classmethod
    def parse(cls, text: str, player: str) -> Order | None:
        rest = cls._words(text)
        if rest is None:
            return None
        return cls(player, _items(rest))


@attrs.frozen
class Bare(Shape):
    """A decision with nothing more to choose: its kind alone (``pass``,
    ``redraw``). Its class says what else it is: ``ends_turn: ClassVar[bool]
    = True`` for one that ends its player's turn, where a game honours it
    (Glüx passes the turn to the next seat)."""

    @classmethod
    def options(cls: type[S], player: str) -> list[S]:
        return [cls(player)]  # type: ignore[call-arg]

    def notation(self) -> str:
        return self.kind

    @classmethod
    def parse(cls, text: str, player: str) -> Bare | None:
        rest = cls._words(text)
        if rest is None:
            return None
        if rest:
            raise NotationError(f"write '{cls.kind}' alone")
        return cls(player)

    @classmethod
    def offered(
        cls,
        table: Mapping[str, TurnStep],
        step: str,
        may: Callable[[Any, Any, str], bool],
        effect: Callable[[Any, Any, Event], None] | None = None,
    ) -> dict[str, TurnStep]:
        """``table`` (a game's steps) with the step named ``step`` also
        taking this decision, by ``TurnStep.adding``: listed for ``player``
        while ``may(game, state, player)``, legal exactly then (else ``KIND
        is not open now``), and applied by ``effect(game, work, event)`` on
        the mutable state; by default it changes nothing itself (what a
        game remembers at every event, or its class's ``ends_turn``, may do
        the rest)::

            table = Pass.offered(table, "place", lambda game, state, player: ...)
        """

        def options(game: Any, state: Any, player: str) -> list[Bare]:
            return [cls(player)] if may(game, state, player) else []  # type: ignore[call-arg]

        def error(game: Any, state: Any, decision: Event) -> str | None:
            return None if may(game, state, decision.player) else f"{cls.kind} is not open now"  # type: ignore[attr-defined]

        return {**table, step: table[step].adding(cls, options, error, effect or _unchanged)}


@attrs.frozen
class Deal(Event):
    """A chance shape: ``items`` dealt to ``player`` from a pool, a secret
    (a hand of cards, a hidden role, a secret objective). Subclass it with
    your own ``kind``; :meth:`first` deals to every player before a game's
    own setup, and :meth:`dealt` reads what a player was dealt.

    Its player alone (and an omniscient viewer) sees the items: every other
    player reads ``ann KIND (hidden)``, and what was dealt is kept in the
    player's own part of the state's memo, in their view alone."""

    origin: ClassVar[str] = CHANCE
    secret: ClassVar[bool] = True
    player: str
    items: tuple[str, ...]

    @classmethod
    def chance(cls, player: str, pool: Mapping[str, int] | Sequence[str], count: int) -> Chance:
        """The chance node dealing ``count`` items of ``pool`` to ``player``:
        each hand once (its items in the pool's order), as likely as the
        ways to deal it. ``pool``: the items, each once, or item -> how many."""
        return _deals(cls, (player,), _counts(pool), count)

    def notation(self) -> str:
        """The outcome as a table writes it: ``KIND a,b`` (``KIND -`` for none)."""
        return f"{self.kind} {','.join(self.items) or '-'}"

    def seen_by(self, viewer: str | None) -> bool:
        """Whether ``viewer`` may see the items: the player dealt them alone
        (None, an omniscient viewer, sees everything)."""
        return not self.secret or viewer is None or viewer == self.player

    def redacted(self) -> str:
        """The outcome as another player reads it: its kind alone."""
        return f"{self.kind} (hidden)"

    @classmethod
    def dealt(cls, state: Any, player: str) -> tuple[str, ...]:
        """What ``player`` was dealt: kept in ``state``'s memo under the
        shape's kind, in the player's own part (empty before the deal, and
        in any view but the player's)."""
        return memo.recall(state, cls.kind, (), player=player)  # type: ignore[return-value]

    @classmethod
    def first(
        cls,
        table: Mapping[str, TurnStep],
        pool: Mapping[str, int] | Sequence[str] | Callable[[Any, Any, str], Mapping[str, int] | Sequence[str]],
        count: int,
        step: str = "setup",
        replace: bool = True,
    ) -> dict[str, TurnStep]:
        """``table`` (a game's steps) with the step named ``step``, the one
        a game starts in, first dealing ``count`` items of ``pool`` (or
        ``pool(game, state, player)``) to each player in seat order. Who
        has been dealt is public (the memo's public entry under the shape's
        kind), what each was dealt their own. The game's own setup follows
        as before.

        ``pool`` as a function is asked for each player as their turn to be
        dealt comes, with the game and the state before their deal (the
        whole state: it may read what earlier players were dealt), and
        answers that player's pool (the items, or item -> how many).

        ``replace``: True (the default) deals each player from the whole
        pool, so that two players may be dealt the same item; False deals
        without replacement: each player from the pool less what every
        player dealt before them holds (distinct items from one pool, as
        cards from one deck; the pool must hold enough for every player)."""
        table = dict(table)
        own = table[step]
        own_node, own_apply, name = own.node, own.apply, cls.kind
        given = pool if callable(pool) else lambda game, state, player: pool
        items = given if replace else _left(given, name)

        def node(game: Any, state: Any) -> Any:
            done = memo.recall(state, name, ())
            if len(done) < len(game.players):  # type: ignore[arg-type]
                player = game.players[len(done)]  # type: ignore[arg-type]
                return cls.chance(player, items(game, state, player), count)
            return own_node(game, state)

        # What a search needs to deal again what a view hides (:meth:`fill`).
        node.tabletop_deal = (cls, items, count, own_node)  # type: ignore[attr-defined]

        def apply(game: Any, work: Any, event: Event) -> None:
            if isinstance(event, cls):
                done = memo.recall(work.memo, name, ())
                kept = memo.remember(work.memo, name, (*done, event.player))  # type: ignore[misc]
                work.memo = memo.remember(kept, name, event.items, player=event.player)
            elif own_apply is not None:
                own_apply(game, work, event)

        table[step] = attrs.evolve(own, node=node, accepts=(*own.accepts, cls), apply=apply)
        return table

    @staticmethod
    def fill(game: Any, world: Any, viewer: str, rng: Any) -> Any:
        """``world``, a state a game's ``determinize`` made from ``viewer``'s
        view, with what every other player was dealt (by a deal of
        :meth:`first`) and the view hides drawn again as the deal draws it:
        the same chance node, asked in seat order of a world holding the
        deals drawn so far. A game whose turn holds no deal, or whose state
        keeps no memo, gets ``world`` as it is. Call it at the end of
        ``determinize``."""
        turn, memo_now = getattr(game, "turn", None), getattr(world, "memo", None)
        if turn is None or memo_now is None or not memo_now.public:
            return world  # no deal: nothing drawn
        for cls, items, count in _deals_of(turn):
            if not issubclass(cls, Deal):
                continue  # a public draw (:class:`Lot`): every view holds it as drawn
            for player in memo.recall(memo_now, cls.kind, ()):  # type: ignore[union-attr]
                if player == viewer or memo.recall(memo_now, cls.kind, None, player=player) is not None:
                    continue
                here = attrs.evolve(world, memo=memo_now)
                drawn = cls.chance(player, items(game, here, player), count).pick(rng.getrandbits(256))
                memo_now = memo.remember(memo_now, cls.kind, drawn.items, player=player)  # type: ignore[attr-defined]
        return world if memo_now is world.memo else attrs.evolve(world, memo=memo_now)

    @staticmethod
    def most(game: Any) -> int:
        """The most outcomes a deal of ``game``'s turn (made by :meth:`first`,
        or a public draw's, :meth:`Lot.first`) has for any player, from
        the pools of the game's first state; 0 without a deal. A bound for
        whoever numbers chance outcomes (the OpenSpiel adapter): a deal
        without replacement only deals from less later on."""
        turn = getattr(game, "turn", None)
        found = _deals_of(turn) if turn is not None else ()
        if not found:
            return 0
        state = game.initial()
        return max(
            len(cls.chance(player, items(game, state, player), count).outcomes)
            if issubclass(cls, Deal)
            else len(cls.chance(items(game, state), count).outcomes)
            for cls, items, count in found
            for player in game.players
        )


@attrs.frozen
class Lot(Event):
    """A chance shape: ``items`` drawn by lot from a pool for every player to see
    (a lucky room, the weather, a public objective), once, before a game's
    own setup. Subclass it with your own ``kind``; :meth:`first` draws it,
    :meth:`drawn` reads it.

    It is public: every viewer sees the items, in every text, view and
    mail (``lucky c``); what was drawn is kept in the public part of the
    state's memo under the shape's kind, so that every view holds it and a
    search's imagined world (a game's ``determinize``) keeps it as drawn.
    It concerns no player in particular (it has no ``player``)."""

    origin: ClassVar[str] = CHANCE
    items: tuple[str, ...]

    @classmethod
    def chance(cls, pool: Mapping[str, int] | Sequence[str], count: int) -> Chance:
        """The chance node drawing ``count`` items of ``pool`` (the items,
        each once, or item -> how many): each draw once (its items in the
        pool's order), as likely as the ways to draw it."""
        return _deals(cls, (), _counts(pool), count)

    def notation(self) -> str:
        """The outcome as a table writes it: ``KIND a,b`` (``KIND -`` for none)."""
        return f"{self.kind} {','.join(self.items) or '-'}"

    def seen_by(self, viewer: str | None) -> bool:
        """Every viewer sees a public draw."""
        return True

    def redacted(self) -> str:  # pragma: no cover - seen by everyone: never redacted
        return self.notation()

    @classmethod
    def drawn(cls, state: Any) -> tuple[str, ...]:
        """What was drawn (empty before the draw): the memo's public entry
        under the shape's kind, in every view."""
        return memo.recall(state, cls.kind, ())  # type: ignore[return-value]

    @classmethod
    def first(
        cls,
        table: Mapping[str, TurnStep],
        pool: Mapping[str, int] | Sequence[str] | Callable[[Any, Any], Mapping[str, int] | Sequence[str]],
        count: int,
        step: str = "setup",
    ) -> dict[str, TurnStep]:
        """``table`` (a game's steps) with the step named ``step``, the one
        a game starts in, first drawing ``count`` items of ``pool`` (or
        ``pool(game, state)``, asked with the state before the draw) for
        everyone to see. The game's own setup follows as before (after any
        deal :meth:`Deal.first` wrapped in first)."""
        table = dict(table)
        own = table[step]
        own_node, own_apply, name = own.node, own.apply, cls.kind
        items = pool if callable(pool) else lambda game, state: pool

        def node(game: Any, state: Any) -> Any:
            if memo.recall(state, name) is None:
                return cls.chance(items(game, state), count)
            return own_node(game, state)

        # Found by :meth:`Deal.most` (a bound on the outcomes); never drawn again by :meth:`Deal.fill`.
        node.tabletop_deal = (cls, items, count, own_node)  # type: ignore[attr-defined]

        def apply(game: Any, work: Any, event: Event) -> None:
            if isinstance(event, cls):
                work.memo = memo.remember(work.memo, name, event.items)  # type: ignore[attr-defined]
            elif own_apply is not None:
                own_apply(game, work, event)

        table[step] = attrs.evolve(own, node=node, accepts=(*own.accepts, cls), apply=apply)
        return table


@attrs.frozen
class Shown(Event):
    """An event of the rules that tells every player what ``player``'s last
    event showed at the table and its log line does not say (the placement
    ``2@i8`` of a chip that was the joker). Subclass it with your own
    ``kind``; :meth:`after` says when it follows. A twin-history check
    (``tabletop.testing``) finds a view that shows such a thing with no
    event saying it."""

    origin: ClassVar[str] = RULES
    player: str

    def notation(self) -> str:
        return f"{self.kind} {self.player}"

    @classmethod
    def after(cls, table: Mapping[str, TurnStep], shows: Callable[[Any, Any, Event], bool]) -> dict[str, TurnStep]:
        """``table`` (a game's steps) with an event of this class, for the
        player of an event, following that event wherever ``shows(game,
        state, event)`` is true (asked of each event, with the state before
        its effect). It comes before anything else, in whichever step the
        effect leads to: the memo's public entry under the shape's kind
        names the player it is due for until then."""
        name = cls.kind

        def telling(step: TurnStep) -> TurnStep:
            own_node, own_apply = step.node, step.apply

            def node(game: Any, state: Any) -> Any:
                player = memo.recall(state, name)
                return Forced(cls(player)) if player is not None else own_node(game, state)  # type: ignore[call-arg]

            def apply(game: Any, work: Any, event: Event) -> None:
                if isinstance(event, cls):
                    work.memo = memo.remember(work.memo, name, None)
                    return
                due = shows(game, work, event)
                if own_apply is not None:
                    own_apply(game, work, event)
                if due:
                    work.memo = memo.remember(work.memo, name, event.player)  # type: ignore[attr-defined]

            return attrs.evolve(step, node=node, accepts=(*step.accepts, cls), apply=apply)

        return {key: telling(step) for key, step in table.items()}


def _unchanged(game: Any, work: Any, event: Event) -> None:
    """A decision's effect that changes nothing itself."""


def _counts(pool: Mapping[str, int] | Sequence[str]) -> tuple[tuple[str, int], ...]:
    """``pool`` as (item, how many) pairs, in its order."""
    return tuple(pool.items()) if isinstance(pool, Mapping) else tuple((item, 1) for item in pool)


def _left(pool: Callable[[Any, Any, str], Mapping[str, int] | Sequence[str]], name: str) -> Callable[..., Any]:
    """A deal's ``pool`` without replacement: for ``player``, the pool less
    every item the other players hold of the deal ``name`` (the state's
    memo, each player's own part: the whole state while dealing, and while
    a search deals again in a world made from a view, what the viewer holds
    and what was dealt again so far)."""

    def left(game: Any, state: Any, player: str) -> dict[str, int]:
        counts = dict(_counts(pool(game, state, player)))
        for owner, key, items in state.memo.secret:
            if key == name and owner != player:
                for item in items:
                    if counts.get(item, 0) > 0:
                        counts[item] -= 1
        return {item: n for item, n in counts.items() if n}

    return left


@functools.lru_cache(maxsize=64)
def _deals_of(turn: Any) -> tuple[tuple[type[Deal | Lot], Any, int], ...]:
    """Every deal :meth:`Deal.first` (or public draw, :meth:`Lot.first`)
    made in ``turn``'s steps: its class, its pool (``pool(game, state,
    player)``; a public draw's ``pool(game, state)``) and its count. Found once per
    turn (a search asks at every world it makes up)."""
    found = []
    for node in turn.nodes.values():
        declared = getattr(node, "tabletop_deal", None)
        while declared is not None:  # deals wrapped around deals: each in turn
            cls, items, count, node = declared
            found.append((cls, items, count))
            declared = getattr(node, "tabletop_deal", None)
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _deals(cls: type[Deal | Lot], before: tuple[str, ...], pool: tuple[tuple[str, int], ...], count: int) -> Chance:
    # A setup asks for the same node again and again (made once each).
    hands = list(_hands(pool, count))
    if len(hands) > MAX_HANDS:
        raise ValueError(f"{cls.kind}: too many hands to deal ({len(hands)} > {MAX_HANDS})")
    if not hands:
        raise ValueError(f"{cls.kind}: {count} items cannot be dealt from {sum(n for _, n in pool)}")
    weights = tuple(prod(comb(n, k) for (_, n), k in zip(pool, taken)) for _, taken in hands)
    outcomes = tuple(cls(*before, items) for items, _ in hands)  # type: ignore[call-arg]
    return Chance(outcomes, None if set(weights) == {1} else weights)


def _hands(pool: tuple[tuple[str, int], ...], count: int, at: int = 0):
    """Every hand of ``count`` items from ``pool`` (from its ``at``-th item on):
    (the items in the pool's order, how many of each item)."""
    if count == 0:
        yield (), (0,) * (len(pool) - at)
        return
    if at == len(pool):
        return
    item, n = pool[at]
    for take in range(min(n, count), -1, -1):
        for items, taken in _hands(pool, count - take, at + 1):
            yield (item,) * take + items, (take, *taken)


def seen(event: Event, viewer: str | None) -> bool:
    """Whether ``viewer`` may see all of ``event``, as the event itself says
    (``seen_by``: a shape, or any event class of a variant's own that
    defines it); True for an event that says nothing. A game's
    :meth:`~tabletop.Game.sees` asks it beside its own rules."""
    if viewer is None:
        return True
    seen_by = getattr(event, "seen_by", None)
    return seen_by is None or bool(seen_by(viewer))


def redacted(event: Event) -> str:
    """``event`` as a viewer who may not see it reads it (``redacted()``,
    else its kind alone), without its player's name."""
    hide = getattr(event, "redacted", None)
    return str(hide()) if hide is not None else f"{event.kind} (hidden)"
