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

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from . import payment
from .payment import PAYMENT_TYPES, Payers
from .pieces import GLYPHS, MINION

if TYPE_CHECKING:
    from .game import GlyphChess

#: Ways to pay remembered, at most (then forgotten all at once). They depend
#: on nothing but their key, so every listing of the process shares them.
KNOWN_WAYS = 50_000
WAYS: dict = {}


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
    """

    __slots__ = (
        "game",
        "state",
        "seat",
        "player",
        "board",
        "names",
        "mine",
        "free",
        "hand",
        "source",
        "kind",
        "payers",
        "budget",
        "_known",
        "_tables",
        "_minions",
        "_by_type",
        "_landing",
        "_passing",
    )

    def __init__(self, game: GlyphChess, state: Any, seat: int, known: dict | None = None) -> None:
        self.game, self.state, self.seat = game, state, seat
        self.player = game.players[seat]
        self.board = board = state.board
        self.names = game.geo.names
        self.mine = [spot for spot, piece in enumerate(board) if piece is not None and piece[0] == seat]
        spent = state.spent
        self.free = tuple([n for n in range(1, len(state.dice) + 1) if n - 1 not in spent])
        self.hand = state.hands[seat]
        self._known = WAYS if known is None else known
        self._minions: list[int] | None = None
        self.source = -1
        self.kind = ""
        self.payers = None
        self.budget = 0
        self._tables: dict = {}
        self._by_type: dict = {}
        self._landing: dict = {}
        self._passing: dict = {}

    # -- the piece being listed ----------------------------------------------------
    def at(self, source: int) -> Context:
        """Turn to the piece on ``source``: its kind, what may pay for it, its budget."""
        self.source = source
        self.kind = kind = self.board[source][1]
        self._by_type = {}
        if kind in PAYMENT_TYPES:
            self.payers, self._tables, self.budget = self._priced(kind)
        else:
            self.payers, self._tables, self.budget = None, {}, 0
        return self

    def _priced(self, kind: str) -> tuple[Payers, dict, int]:
        """What may pay for ``kind`` here, the tables of its ways to pay (by
        cost and amount) and how many items could pay at most."""
        game = self.game
        paid_by = game.payers(game=game, state=self.state, seat=self.seat, spot=self.source, kind=kind)
        dice = self.state.dice
        faces = paid_by.faces
        if len(faces) == 1:
            showing = tuple([n for n in self.free if dice[n - 1] in faces])
        else:
            showing = tuple([(n, dice[n - 1]) for n in self.free if dice[n - 1] in faces])
        coins = paid_by.coins
        pool = tuple([n if g in coins else 0 for g, n in zip(GLYPHS, self.hand)]) if coins else ()
        base = (faces, showing, pool)
        known = self._known
        tables = known.get(base)
        if tables is None:
            if len(known) >= KNOWN_WAYS:
                known.clear()
            tables = known[base] = {}
        return paid_by, tables, len(showing) + sum(pool)

    def ways(self, cost: str, amount: int, kind: str | None = None) -> list:
        """The ways to pay ``cost`` (a cost kind) for X = ``amount``, of the
        payment type ``kind`` (the piece's own by default), for the piece
        being listed: [(dice, coins), ...], empty when it cannot be paid."""
        if kind is None or kind == self.kind:
            tables, paid_by = self._tables, self.payers
        else:
            if kind not in PAYMENT_TYPES:
                raise payment.unknown_type(kind)
            found = self._by_type.get(kind)
            if found is None:
                found = self._by_type[kind] = self._priced(kind)
            paid_by, tables, _ = found
        key = (cost, amount)
        ways = tables.get(key)
        if ways is None:
            if paid_by is None and cost != "any-die":
                raise payment.unknown_type(self.kind)
            ways = tables[key] = self._pays(cost, amount, paid_by)
        return ways

    def _pays(self, cost: str, amount: int, paid_by: Payers | None) -> list:
        state = self.state
        dice, free = state.dice, self.free
        if cost == "any-die":
            showing, pool = tuple([dice[n - 1] for n in free]), ()
            paid_by = payment.payers(frozenset(GLYPHS))
        elif len(paid_by.faces) == 1:
            showing = tuple([n for n in free if dice[n - 1] in paid_by.faces])
            pool = tuple([n if g in paid_by.coins else 0 for g, n in zip(GLYPHS, self.hand)])
        else:
            showing = tuple([(n, dice[n - 1]) for n in free if dice[n - 1] in paid_by.faces])
            pool = tuple([n if g in paid_by.coins else 0 for g, n in zip(GLYPHS, self.hand)])
        if cost not in payment.COST_KINDS:
            raise payment.unknown_cost(cost)
        alike = ways_alike(cost, amount, free, showing, pool)
        known = self._known
        ways = known.get(alike)
        if ways is None:
            if len(known) >= KNOWN_WAYS:
                known.clear()
            ways = known[alike] = list(payment.options(state, self.seat, cost, amount, paid_by))
        return ways

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

    def landing(self, piece: str) -> Asked:
        """Spot -> whether the seat's ``piece`` may end a move or a step there
        (the rule hook ``glyph_may_land``, asked once per spot and listing)."""
        found = self._landing.get(piece)
        if found is None:
            game = self.game
            found = self._landing[piece] = Asked(game, self.state, self.seat, piece, game.may_land)
        return found

    def passing(self, piece: str) -> Asked:
        """Spot -> whether the seat's ``piece`` may pass over it (``glyph_may_pass``)."""
        found = self._passing.get(piece)
        if found is None:
            game = self.game
            found = self._passing[piece] = Asked(game, self.state, self.seat, piece, game.may_pass)
        return found

    def may_land(self, piece: str, spot: int) -> bool:
        """Whether the seat's ``piece`` may end a move or a step on ``spot``."""
        return self.landing(piece)[spot]

    def may_pass(self, piece: str, spot: int) -> bool:
        """Whether the seat's ``piece`` may pass over ``spot``."""
        return self.passing(piece)[spot]

    def casters(self) -> Iterator[int]:
        """The seat's pieces, in board order, each turned to with :meth:`at`."""
        for source in self.mine:
            self.at(source)
            yield source
