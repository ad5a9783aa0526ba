"""What a listing of one player's actions reads, worked out once per listing:
:class:`Context`.

Every action is listed by one generator (:func:`~tabletop_glyph_chess.actions.families`),
on the plain path and on the fast path alike: moves by
:func:`~tabletop_glyph_chess.movement.families`, spells by each spell's own
``options(ctx)``. The context holds what they share: the seat's pieces, the
free dice by face, the hand, the piece being listed (``source``, ``kind``,
what may pay for it, how many items it could spend) and its ways to pay,
remembered across listings by what they depend on (the dice free and their
faces, the coins that may pay), so a new spell is as fast as an official one
with no code of its own beyond ``options``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import accumulate, compress
from operator import mul
from typing import TYPE_CHECKING, Any

from tabletop.base.caches import Bound

from . import payment, sight
from .payment import NO_WILD, PAYMENT_TYPES, Payers
from .pieces import GLYPHS, MINION

GLYPH_INDEX = {glyph: i for i, glyph in enumerate(GLYPHS)}

ANY_DIE = payment.payers(frozenset(GLYPHS))

if TYPE_CHECKING:
    from .game import GlyphChess

#: Ways to pay remembered, by payment situation and by what the ways depend
#: on. They depend on nothing but their key, so every listing of the process
#: shares them.
WAYS: dict = {}
#: A run of self-play meets tens of thousands (some 24,000 keys in its first
#: 60 two-player games, fewer new ones each game) and keeps finding them
#: again: 50,000 holds what a long run keeps meeting, in bounded memory.
KNOWN_WAYS = Bound(50_000)


def situation(known: dict, key: tuple) -> Paying:
    """The :class:`Paying` of the payment situation ``key`` (what may pay, and
    the dice and coins there are to pay with), remembered in ``known``."""
    found = known.get(key)
    if found is None:
        found = KNOWN_WAYS.keep(known, key, Paying())
    return found


def ways_alike(cost: str, amount: int, free: tuple, showing: tuple, pool: tuple) -> tuple:
    """A key shared by every payment situation with the same ways to pay
    ``cost`` (for X = ``amount``), as :func:`~tabletop_glyph_chess.payment.options`
    finds them: ``showing`` is the faces of the ``free`` dice for "any-die",
    else the free dice that may pay (with their faces when more than one face
    may); ``pool`` the coins that may pay, by type (0 for a type that may not).

    "any-die" ways depend on which free dice show the same face, not on the
    faces; the others on at most as many dice and coins of a type as are paid
    in all, and one die for "die"."""
    if cost == "any-die":
        return ("alike", cost, amount, free, tuple(map(showing.index, showing)))
    if cost == "die":
        return ("alike", cost, 0, showing[:1])
    if cost == "coin":
        return ("alike", cost, amount, (), tuple(n if n < amount else amount for n in pool))
    total = 1 if cost == "item" else amount + 1 if cost == "die+x" else amount
    if showing and type(showing[0]) is tuple:  # several faces may pay: which dice show which matters
        return ("alike", cost, total, showing, tuple(n if n < total else total for n in pool))
    return ("alike", cost, total, showing[:total], tuple(n if n < total else total for n in pool))


def counted_alike(cost: str, amount: int, dice: int, pool: list) -> tuple:
    """A key shared by every payment with the same ways to pay ``cost`` (for
    X = ``amount``) as :func:`~tabletop_glyph_chess.payment.counted` finds
    them, from ``dice`` dice of the one face that may pay and the coins
    ``pool``: they depend on at most as many dice and coins of a type as are
    paid in all, on one die for "die", and on no die for "coin". Its fourth
    item is how many dice they may use at most."""
    if cost == "die":
        return ("counted", cost, 0, 1 if dice else 0, ())
    total = 1 if cost == "item" else amount + 1 if cost == "die+x" else amount
    if cost == "coin":
        dice = 0
    return (
        "counted",
        cost,
        total,
        dice if dice < total else total,
        tuple([(g, n if n < total else total) for g, n in pool]),
    )


@functools.lru_cache(maxsize=256)
def coin_mask(coins: frozenset[str]) -> tuple[int, ...]:
    """1 for each glyph type (in ``GLYPHS`` order) among ``coins``, else 0:
    a hand times the mask is the coins of those types it holds."""
    return tuple([1 if g in coins else 0 for g in GLYPHS])


#: (dice, the dice spent, in the order spent) -> the free die numbers.
FREE: dict = {}
#: More than there are orders of spent dice for up to six dice (1,957):
#: never full in a game of the official five dice or of a variant's six.
FREE_KEPT = Bound(4_096)


def free_dice(dice: int, spent: Sequence[int]) -> tuple[int, ...]:
    """The numbers (1 to ``dice``) of the dice not ``spent`` (indices)."""
    key = (dice, *spent)
    free = FREE.get(key)
    if free is None:
        free = FREE_KEPT.keep(FREE, key, tuple([n for n in range(1, dice + 1) if n - 1 not in spent]))
    return free


class Asked(dict):
    """Spot -> a per-move predicate's answer for one piece of one seat in one
    state, asked of the hook the first time a spot is looked up (a dict
    look-up after that)."""

    __slots__ = ("game", "state", "seat", "piece", "hook")

    def __init__(self, game: Any, state: Any, seat: int, piece: str, hook: Any) -> None:
        super().__init__()
        self.game, self.state, self.seat, self.piece, self.hook = game, state, seat, piece, hook

    def __missing__(self, spot: int) -> bool:
        answer = self[spot] = bool(
            self.hook(game=self.game, state=self.state, seat=self.seat, piece=self.piece, spot=spot)
        )
        return answer


class ByOccupant(dict):
    """What is on a spot -> a header-time rule's answer for one piece of one
    seat (``rule(seat, piece, occupant)``), worked out once per game and
    occupant: the compiled table of ``glyph_landing`` or ``glyph_passing``."""

    __slots__ = ("rule", "seat", "piece")

    def __init__(self, rule: Any, seat: int, piece: str) -> None:
        super().__init__()
        self.rule, self.seat, self.piece = rule, seat, piece

    def __missing__(self, occupant: Any) -> bool:
        answer = self[occupant] = bool(self.rule(self.seat, self.piece, occupant))
        return answer


#: The bits of a :class:`Stops` answer: the piece may end its move on the
#: spot; it may go on past it.
LANDS, PASSES = 1, 2


class Stops(dict):
    """Key -> ``LANDS | PASSES`` bits from a landing and a passing answer
    table read with the same key (what stands on a spot, or the spot):
    the two tables of :meth:`Context.landing` and :meth:`Context.passing`
    asked once per key, for a line walked spot by spot."""

    __slots__ = ("landable", "passable")

    def __init__(self, landable: Any, passable: Any) -> None:
        super().__init__()
        self.landable, self.passable = landable, passable

    def __missing__(self, key: Any) -> int:
        answer = self[key] = (LANDS if self.landable[key] else 0) | (PASSES if self.passable[key] else 0)
        return answer


class SpotStops(dict):
    """Spot -> ``LANDS | PASSES`` bits, as :class:`Stops`, from a landing
    and a passing ``(keys, answers)`` pair read with different keys (a
    variant asks one of them spot by spot): worked out once per spot."""

    __slots__ = ("land_keys", "landable", "pass_keys", "passable")

    def __init__(self, landing: tuple, passing: tuple) -> None:
        super().__init__()
        (self.land_keys, self.landable), (self.pass_keys, self.passable) = landing, passing

    def __missing__(self, spot: int) -> int:
        answer = self[spot] = (LANDS if self.landable[self.land_keys[spot]] else 0) | (
            PASSES if self.passable[self.pass_keys[spot]] else 0
        )
        return answer


class Priced(dict):
    """X -> the ways to pay a cost of one kind for X, in one payment
    situation (the dice that may pay, the coins that may pay): shared by
    every listing that meets the same situation.

    A way not known yet is worked out from the situation's own dice and
    coins where one face may pay, else from the state, seat and payers of
    the listing that asked for the table last, and remembered with that
    listing's ways: those, not the listing's context, are kept (a context
    kept alive by every table it priced would keep thousands of them, and
    the collector would go through them all)."""

    __slots__ = ("cost", "one_face", "state", "seat", "paid_by", "known")

    def __init__(self, cost: str, one_face: tuple | None = None) -> None:
        super().__init__()
        self.cost, self.one_face = cost, one_face
        self.state: Any = None
        self.seat = 0
        self.paid_by: Payers | None = None
        self.known: dict = WAYS

    def __missing__(self, amount: int) -> tuple:
        one_face = self.one_face
        if one_face is not None and self.cost != "any-die":
            # The situation's dice and coins, known since it was met.
            ways = alike_ways(self.cost, amount, *one_face, self.known)
        else:
            ways = pays(self.state, self.seat, self.cost, amount, self.paid_by, self.known)
        self[amount] = ways
        return ways


def pays(state: Any, seat: int, cost: str, amount: int, paid_by: Payers, known: dict) -> tuple:
    """The ways to pay ``cost`` for X = ``amount`` for ``seat`` in ``state``
    with what ``paid_by`` allows, remembered in ``known`` by what they depend on."""
    dice = state.dice
    free = free_dice(len(dice), state.spent)
    if cost != "any-die" and len(paid_by.faces) == 1:
        # Dice of one face are alike: the ways are worked out once for
        # as many dice and the same coins (:func:`counted_alike`),
        # whichever dice show the face, and name this situation's dice.
        faces, paying = paid_by.faces, paid_by.coins
        showing = tuple([n for n in free if dice[n - 1] in faces])
        pool = [(g, n) for g, n in zip(GLYPHS, state.hands[seat]) if n and g in paying]
        return alike_ways(cost, amount, showing, pool, known)
    if cost == "any-die":
        showing, pool = tuple([dice[n - 1] for n in free]), ()
    else:
        showing = tuple([(n, dice[n - 1]) for n in free if dice[n - 1] in paid_by.faces])
        pool = tuple([n if g in paid_by.coins else 0 for g, n in zip(GLYPHS, state.hands[seat])])
    alike = ways_alike(cost, amount, free, showing, pool)
    ways = known.get(alike)
    if ways is None:
        ways = KNOWN_WAYS.keep(known, alike, tuple(payment.options(state, seat, cost, amount, paid_by)))
    return ways


def alike_ways(cost: str, amount: int, showing: tuple, pool: list, known: dict) -> tuple:
    """The ways to pay ``cost`` for X = ``amount`` with the free dice
    ``showing`` the one face that may pay and the coins ``pool`` ((type,
    how many held), none 0), remembered in ``known``."""
    alike = counted_alike(cost, amount, len(showing), pool)
    # The same ways, naming the same dice, are one list for every
    # situation that has them (kept, they are not made again).
    named = (alike, showing[: alike[3]])
    ways = known.get(named)
    if ways is None:
        counts = known.get(alike)
        if counts is None:
            counts = KNOWN_WAYS.keep(known, alike, tuple(payment.counted(cost, amount, len(showing), pool)))
        ways = KNOWN_WAYS.keep(known, named, tuple([(showing[:n], coins) for n, coins in counts]))
    return ways


class Paying(dict):
    """One payment situation: cost kind -> its :class:`Priced` ways, and
    (move costs, piece, range) -> the ways to pay for a move by distance
    (see :meth:`Context.move_ways`). Everything a listing prices in the
    situation hangs here, found with the one look-up of the situation."""

    __slots__ = ("shown", "one_face")

    def __init__(self) -> None:
        super().__init__()
        #: In the situation of the free dice and their faces: face -> the
        #: free dice showing it.
        self.shown: dict | None = None
        #: In a situation where one face may pay: (the free dice showing
        #: it, the coins that may pay as (type, how many held), none 0).
        self.one_face: tuple | None = None

    def __missing__(self, cost: str) -> Priced:
        priced = self[cost] = Priced(cost, self.one_face)
        return priced


class Context:
    """One listing of ``seat``'s actions in ``state``.

    Fields for the whole listing: ``game``, ``state``, ``seat``, ``player``
    (the name), ``board``, ``names`` (spot names), ``mine`` (the seat's
    spots, in board order), ``free`` (the free die numbers, 1-5), ``hand``.
    Fields for the piece being listed (set by :meth:`at`): ``source``,
    ``kind`` (its letter), ``payers`` (what may pay for its type,
    :class:`~tabletop_glyph_chess.payment.Payers`) and ``budget`` (how many
    items of its type the seat could spend at most: a spell lists nothing
    that costs more).

    What a spell's ``options(ctx)`` may use: these fields, :attr:`minions`,
    :meth:`empty_next`, :meth:`landing` and :meth:`passing` (the movement
    hooks, for a spell that moves pieces), :meth:`stops` (both at once, for
    a line walked spot by spot), :meth:`may_land`, :meth:`may_pass`; it
    yields ``(spots, target, X)`` and the listing prices
    each X with :meth:`priced`.
    """

    __slots__ = (
        "game",
        "state",
        "seat",
        "player",
        "board",
        "names",
        "lines",
        "_mine",
        "_occupied",
        "free",
        "hand",
        "source",
        "kind",
        "payers",
        "budget",
        "_known",
        "_situation",
        "_plain",
        "_any",
        "_shown",
        "_sighted",
        "_wild",
        "_minions",
        "_by_type",
        "_landing",
        "_passing",
        "_moving",
        "_stops",
    )

    def __init__(self, game: GlyphChess, state: Any, seat: int, known: dict | None = None) -> None:
        self.game, self.state, self.seat = game, state, seat
        self.player = game.players[seat]
        self.board = state.board
        self.names = game.geo.names
        self.lines = game.move_lines[seat]
        self._mine: list[int] | None = None
        self._occupied: list[int] | None = None
        self.free = free_dice(len(state.dice), state.spent)
        self.hand = state.hands[seat]
        self._known = WAYS if known is None else known
        self._minions: list[int] | None = None
        self.source = -1
        self.kind = ""
        self.payers: Payers | None = None
        self.budget = 0
        self._situation: Paying | None = None
        self._plain: Paying | None = None
        self._any: Paying | None = None
        self._shown: dict | None = None
        self._sighted: set[int] | None = None
        self._wild: frozenset[str] = NO_WILD
        # Per-listing tables, made when first needed (most listings need few).
        self._by_type: dict | None = None
        self._landing: dict | None = None
        self._passing: dict | None = None
        self._moving: dict | None = None
        self._stops: dict | None = None

    # -- the piece being listed ----------------------------------------------------
    def at(self, source: int) -> Context:
        """Turn to the piece on ``source``: its kind, what may pay for it, its budget."""
        self.source = source
        self.kind = kind = self.board[source][1]
        if self._by_type:
            self._by_type = None
        if kind in PAYMENT_TYPES:
            self.payers, self._situation, self.budget = self._paying(kind, source)
        else:
            # Paid in dice of any face (the scepter), or not at all: the
            # situation is the free dice and their faces.
            self.payers, self.budget = None, 0
            self._situation = self._plain or self._dice()
        return self

    @property
    def mine(self) -> list[int]:
        """The seat's spots, in board order."""
        if self._mine is None:
            board, seat = self.board, self.seat
            self._mine = [spot for spot in self.occupied if board[spot][0] == seat]
        return self._mine

    @property
    def occupied(self) -> list[int]:
        """The spots with a piece on them, in board order."""
        if self._occupied is None:
            self._occupied = list(compress(self.game.spots, self.board))
        return self._occupied

    # -- paying ------------------------------------------------------------------------
    def _paying(self, kind: str, spot: int) -> tuple[Payers, Paying, int]:
        """What may pay for ``kind`` for the piece on ``spot`` (``glyph_payers``),
        the payment situation (what the ways to pay depend on)
        and how many items could pay at most.

        While no variant changes ``glyph_payers``, its official answer
        depends on the kind, on whether the piece may use coins and on the
        seat's wild coin types alone (:func:`~tabletop_glyph_chess.payment.payers_for`):
        the wild types are asked once per listing, and whether each piece
        may use coins is read from sight worked out once for all the seat's
        pieces (:func:`~tabletop_glyph_chess.sight.sighted`) while no variant
        changes ``glyph_may_use_coins``, else asked piece by piece."""
        shown = self._shown
        if shown is None:
            shown = self._begin()
        game = self.game
        if game.payers_by_table:
            seen = self._sighted
            if seen is not None:
                may = spot not in seen
            else:
                may = bool(game.may_use_coins(game=game, state=self.state, spot=spot))
            paid_by = payment.payers_for(kind, may, self._wild if may else NO_WILD)
        else:
            paid_by = game.payers(game=game, state=self.state, seat=self.seat, spot=spot, kind=kind)
        faces = paid_by.faces
        if len(faces) == 1:
            for face in faces:
                showing = shown.get(face, ())
        else:  # several faces may pay: which dice show which matters
            dice = self.state.dice
            showing = tuple([(n, dice[n - 1]) for n in self.free if dice[n - 1] in faces])
            face = tuple(sorted(faces))
        coins = paid_by.coins
        if not coins:
            pool: tuple = ()
            budget = len(showing)
        elif len(coins) == 1:
            for coin in coins:
                index = GLYPH_INDEX.get(coin)
                held = 0 if index is None else self.hand[index]
                pool = (coin, held)
            budget = len(showing) + held
        else:
            pool = tuple(map(mul, self.hand, coin_mask(coins)))
            budget = len(showing) + sum(pool)
        if budget == len(showing):
            pool = ()  # no coin that may pay is held: the ways are those of none
        # Keys of strings, numbers and tuples of them: the collector leaves
        # them alone once it has seen them (a frozenset it would not).
        key = (face, showing, pool)
        known = self._known
        paying = known.get(key)
        if paying is None:
            paying = situation(known, key)
            if len(faces) == 1:
                if len(pool) == 2:  # (type, how many held)
                    held = [pool] if pool[1] else []
                else:
                    held = [(g, n) for g, n in zip(GLYPHS, pool) if n]
                paying.one_face = (showing, held)
        return paid_by, paying, budget

    def _begin(self) -> dict:
        # What every piece's payment reads, worked out at the first piece
        # paid in items: the free dice by the face they show (kept with the
        # situation of the free dice); with the official payers, the wild
        # types and sight.
        state, game = self.state, self.game
        dice = self._dice()
        shown = dice.shown
        if shown is None:
            shown = dice.shown = {}
            faces = state.dice
            for n in self.free:
                face = faces[n - 1]
                shown[face] = (*shown.get(face, ()), n)
        self._shown = shown
        if game.payers_by_table:
            wild = game.wild(state, self.seat)
            self._wild = wild if type(wild) is frozenset else frozenset(wild)
            if game.coins_by_sight:
                self._sighted = sight.sighted(game.geo, self.board, self.seat, self.occupied)
        return shown

    def _dice(self) -> Paying:
        """The situation of the free dice and their faces (what the scepter's
        ways depend on)."""
        plain = self._plain
        if plain is None:
            dice = self.state.dice
            plain = self._plain = situation(self._known, (self.free, tuple([dice[n - 1] for n in self.free])))
        return plain

    def priced(self, cost: str, kind: str | None = None) -> Priced:
        """X -> the ways to pay ``cost`` (a cost kind) for X in items of the
        payment type ``kind`` (the piece's own when None), for the piece being
        listed: ((dice, coins), ...), empty when it cannot be paid. Remembered
        across listings by what the ways depend on."""
        if cost == "any-die":
            paying = self._any
            if paying is None:
                dice = self.state.dice
                showing = tuple([dice[n - 1] for n in self.free])
                key = (None, self.free, tuple(map(showing.index, showing)))  # None: no face
                paying = self._any = situation(self._known, key)
            paid_by = ANY_DIE
        elif kind is None or kind == self.kind:
            if cost not in payment.COST_KINDS:
                raise payment.unknown_cost(cost)
            if self.payers is None:
                raise payment.unknown_type(self.kind)
            paying, paid_by = self._situation, self.payers
        else:
            if cost not in payment.COST_KINDS:
                raise payment.unknown_cost(cost)
            if kind not in PAYMENT_TYPES:
                raise payment.unknown_type(kind)
            by_type = self._by_type
            if by_type is None:
                by_type = self._by_type = {}
            other = by_type.get(kind)
            if other is None:
                other = by_type[kind] = self._paying(kind, self.source)
            paid_by, paying, _ = other
        found = paying[cost]
        found.known = self._known
        if found.one_face is None:
            # Worked out from the state (not from the situation's own dice
            # and coins), with the payers of now: payers alike in a
            # situation's key may differ in coin types none of which is held.
            found.state, found.seat, found.paid_by = self.state, self.seat, paid_by
        return found

    def ways(self, cost: str, amount: int, kind: str | None = None) -> tuple:
        """The ways to pay ``cost`` for X = ``amount`` (see :meth:`priced`)."""
        return self.priced(cost, kind)[amount]

    def move_ways(self, reach: int) -> Sequence:
        """For each distance up to ``reach`` (index 0 unused), the ways to pay
        for moving the piece listed that far; the list ends where a move
        cannot be paid and a longer one costs more still. The costs are the
        header-time table of ``glyph_move_costs`` (then the list is
        remembered with the ways to pay), or, when a variant changes
        ``glyph_move_cost``, that hook's, asked once per piece kind and
        distance in a listing (it is not told where the piece stands)."""
        game, kind = self.game, self.kind
        fixed = game.move_costs_fixed
        if fixed:
            # The costs are the game's header-time rule (its number is in the
            # key: another variant's rule is another function, another number).
            paying = self._situation
            key = (game.move_costs_number, kind, reach)
            found = paying.get(key)
            if found is not None:
                return found
        moving = self._moving
        if moving is None:
            moving = self._moving = {}
        costs = moving.get(kind)
        if costs is None:
            costs = moving[kind] = {}
        state, seat = self.state, self.seat
        found = [None]
        alone = True  # paid in the piece's own type (or dice of any face) alone
        for distance in range(1, min(reach, game.longest_line) + 1):
            cost = costs.get(distance)
            if cost is None:
                if fixed:
                    cost = game.move_costs(kind, distance)
                else:
                    cost = payment.move_cost(game, state, seat, kind, distance)
                cost = costs[distance] = tuple(cost)
            other = cost[2] if len(cost) > 2 and cost[2] != kind else None
            alone = alone and other is None
            ways = self.priced(cost[0], other)[cost[1]]
            if not ways and cost[0] in DEARER:
                break  # a longer move costs more still
            found.append(ways)
        if fixed and alone:
            paying[key] = found = tuple(found)
        return found

    def move_counts(self, reach: int) -> tuple[Sequence, list[int], list[int]]:
        """:meth:`move_ways`, and for each distance up to the longest line
        how many ways pay for a move that far and how many pay for one at
        most that far (0 past the farthest): a listing counts a piece's
        moves by their distances. Remembered with the ways while they are."""
        game = self.game
        key = (game.move_costs_number, self.kind, reach, COUNTED)
        if game.move_costs_fixed:
            found = self._situation.get(key)
            if found is not None:
                return found
        by_distance = self.move_ways(reach)
        paid = [0, *map(len, by_distance[1:])]
        paid += [0] * (game.longest_line + 1 - len(paid))
        counted = by_distance, paid, list(accumulate(paid))
        if type(by_distance) is tuple:  # remembered in the situation (see move_ways)
            self._situation[key] = counted
        return counted

    # -- what spells often ask ---------------------------------------------------------
    @property
    def minions(self) -> list[int]:
        """The spots of the seat's minions."""
        if self._minions is None:
            minion = (self.seat, MINION)
            board = self.board
            self._minions = [spot for spot in self.mine if board[spot] == minion]
        return self._minions

    def empty_next(self, spot: int) -> list[int]:
        """The empty spots next to ``spot``."""
        board = self.board
        return [s for s in self.game.geo.neighbours[spot] if board[s] is None]

    def landing(self, piece: str) -> tuple[Sequence, dict]:
        """``(keys, answers)``: whether the seat's ``piece`` may end a move or
        a step on a spot is ``answers[keys[spot]]``. When no variant asks
        ``glyph_may_land`` move by move, the answers are the header-time table
        of ``glyph_landing`` by what stands on the spot (``keys`` is the
        board); else the hook's, asked once per spot and listing."""
        tables = self._landing
        if tables is None:
            tables = self._landing = {}
        found = tables.get(piece)
        if found is None:
            game = self.game
            if game.landing_by_occupant:
                found = self.board, game.landing_table(self.seat, piece)
            else:
                found = game.spots, Asked(game, self.state, self.seat, piece, game.may_land)
            tables[piece] = found
        return found

    def passing(self, piece: str) -> tuple[Sequence, dict]:
        """``(keys, answers)`` for passing over a spot (``glyph_passing``,
        ``glyph_may_pass``), as :meth:`landing`."""
        tables = self._passing
        if tables is None:
            tables = self._passing = {}
        found = tables.get(piece)
        if found is None:
            game = self.game
            if game.passing_by_occupant:
                found = self.board, game.passing_table(self.seat, piece)
            else:
                found = game.spots, Asked(game, self.state, self.seat, piece, game.may_pass)
            tables[piece] = found
        return found

    def stops(self, piece: str) -> tuple[Sequence, dict]:
        """``(keys, answers)``: ``answers[keys[spot]]`` holds the :data:`LANDS`
        and :data:`PASSES` bits of the seat's ``piece`` on a spot, from
        :meth:`landing` and :meth:`passing`: by what stands on the spot
        (:meth:`~tabletop_glyph_chess.game.GlyphChess.stop_table`) while both
        are header-time tables, else by spot, asked once per spot and listing."""
        tables = self._stops
        if tables is None:
            tables = self._stops = {}
        found = tables.get(piece)
        if found is None:
            game = self.game
            if game.landing_by_occupant and game.passing_by_occupant:
                found = self.board, game.stop_table(self.seat, piece)
            else:
                found = game.spots, SpotStops(self.landing(piece), self.passing(piece))
            tables[piece] = found
        return found

    def may_land(self, piece: str, spot: int) -> bool:
        """Whether the seat's ``piece`` may end a move or a step on ``spot``."""
        keys, answers = self.landing(piece)
        return answers[keys[spot]]

    def may_pass(self, piece: str, spot: int) -> bool:
        """Whether the seat's ``piece`` may pass over ``spot``."""
        keys, answers = self.passing(piece)
        return answers[keys[spot]]


#: The key of :meth:`Context.move_counts` beside :meth:`Context.move_ways`'s.
COUNTED = "counted"
#: The cost kinds for which a longer move costs more.
DEARER = frozenset({"x", "any-die", "coin"})
