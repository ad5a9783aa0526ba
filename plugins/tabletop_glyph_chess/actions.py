"""The action step: one move or one spell, checked, listed and carried out.

Moves are :mod:`~tabletop_glyph_chess.movement`, spells the modules of
:mod:`~tabletop_glyph_chess.spells`; this module pays, runs the landings an
action makes (stopping where a necromancer may escape), and ends the action.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate, chain
from operator import itemgetter
from typing import TYPE_CHECKING

from tabletop import Event
from tabletop.caches import Bound

from . import escape, movement, payment
from .context import WAYS, Context
from .events import Cast, Move
from .kills import land
from .pieces import NAMES, SCEPTER
from .state import ACT, ESCAPE, OVER, ROLLING, State, Work

if TYPE_CHECKING:
    from .game import GlyphChess


# -- checking -----------------------------------------------------------------
def check(game: GlyphChess, state: State | Work, seat: int, event: Event) -> str | None:
    geo = game.geo
    source = geo.spot(event.source)
    if source is None:
        return f"{event.source} is not a spot of this board"
    piece = state.board[source]
    if piece is None or piece[0] != seat:
        return f"no piece of yours on {event.source}"
    if type(event) is Move:
        return movement.check(game, state, seat, event, source, piece[1])
    name = event.spell
    spell = game.spells.get(name)
    if spell is None:
        return f"unknown spell '{name}' (spells: {', '.join(game.spells)})"
    if piece[1] != spell.caster:
        return f"{name} is cast by the {NAMES.get(spell.caster, spell.caster)}, not the {NAMES[piece[1]]} on {event.source}"
    spots = []
    for spot_name in event.spots:
        spot = geo.spot(spot_name)
        if spot is None:
            return f"{spot_name} is not a spot of this board"
        spots.append(spot)
    problem, amount = spell.check(game, state, seat, source, spots, event.target)
    if problem:
        return problem
    cost, kind = game.costs[name]
    return payment.check(
        game, state, seat, source, cost, amount, kind, dice=event.dice, coins=event.coins, piece=piece[1]
    )


# -- carrying out -------------------------------------------------------------
def perform(game: GlyphChess, work: Work, seat: int, event: Event) -> None:
    """Pay for a checked action and carry it out as far as it goes: to the end,
    or to a decision someone must make on the way (an escape, a discard)."""
    payment.pay(work, seat, event.dice, event.coins)
    geo = game.geo
    source = geo.spot(event.source)
    if type(event) is Move:
        movement.perform(game, work, source, geo.spot(event.target))
    else:
        spots = [geo.spot(s) for s in event.spots]
        game.spells[event.spell].effect(game, work, seat, source, spots, event.target)
        if work.phase != ACT and work.phase != OVER:
            return  # the spell asks for something first (foresee's look)
    run(game, work)


def run(game: GlyphChess, work: Work) -> None:
    """Carry out the landings left, stopping where a necromancer's owner may
    pay to escape (each landing on it is a separate attack: FAQ Q16)."""
    steps = work.steps
    while steps and work.phase != OVER:
        step = steps[0]
        if work.board[step.source] is None:
            del steps[0]
            continue
        if escape.attacked_necromancer(work, step) and game.escape_coins(game=game, state=work, spot=step.target):
            work.phase = ESCAPE
            return
        del steps[0]
        land(game, work, step)
        steps = work.steps
    finish(work)


def answer_escape(game: GlyphChess, work: Work, coin: str) -> None:
    step = work.steps.pop(0)
    work.phase = ACT
    land(game, work, step, escape_with=coin)
    run(game, work)


def finish(work: Work) -> None:
    """The action is over: the reset step re-rolls the dice spent."""
    work.steps = []
    if work.phase != OVER:
        work.phase, work.rolling, work.then = ROLLING, sorted(work.spent), "turn"


# -- listing --------------------------------------------------------------------
def by_piece(
    game: GlyphChess, state: State | Work, seat: int, known: dict | None = None
) -> Iterator[list[tuple[type, tuple, list]]]:
    """Every action of ``seat`` now, grouped: for each piece with actions, in
    board order, a list of (event class, its fields but the payment, the
    ways to pay): its moves, then its spells' options. The one listing, for
    the plain path and the fast path alike; ways to pay are remembered in
    ``known`` (see :class:`~tabletop_glyph_chess.context.Context`)."""
    ctx = Context(game, state, seat, known)
    for source in ctx.mine:
        out: list = []
        piece(ctx.at(source), out)
        if out:
            yield out


def piece(ctx: Context, out: list) -> None:
    """The actions of the piece the listing ``ctx`` is turned to, appended
    to ``out``: its moves, then its spells' options, each priced."""
    movement.listing(ctx, out)
    casts = ctx.game.casting.get(ctx.kind)
    if casts:
        player, named, append = ctx.player, ctx.game.spot_names, out.append
        here = ctx.names[ctx.source]
        for options, name, cost, kind, needed in casts:
            priced = ctx.priced(cost, kind)
            if needed is not None and not priced[needed]:
                continue  # no target can be paid for: none is looked for
            for spots, target, amount in options(ctx):
                ways = priced[amount]
                if ways:
                    try:
                        spots = named[spots]
                    except TypeError:  # spots given as a list
                        spots = named[tuple(spots)]
                    append((Cast, (player, name, here, spots, target), ways))


@functools.lru_cache(maxsize=8)
def spot_names(names: tuple[str, ...]) -> SpotNames:
    """The :class:`SpotNames` of a board with these spot names (shared by
    every game on that board)."""
    return SpotNames(names)


#: The tuples of spots the spells name on a board, each a short tuple: some
#: 10,000 on the official board in 60 self-played games, and few new after.
SPOT_NAMES_KEPT = Bound(50_000)


class SpotNames(dict):
    """Spots -> their names, as a tuple: made once for each tuple of spots a
    spell names (a look-up after that), within ``SPOT_NAMES_KEPT``."""

    __slots__ = ("names",)

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__()
        self.names = names

    def __missing__(self, spots: tuple[int, ...]) -> tuple[str, ...]:
        return SPOT_NAMES_KEPT.keep(self, spots, tuple(map(self.names.__getitem__, spots)))


def families(
    game: GlyphChess, state: State | Work, seat: int, known: dict | None = None
) -> Iterator[tuple[type, tuple, list]]:
    """Every action of ``seat`` now, grouped: (event class, its fields but the
    payment, the ways to pay), in the order ``moves`` lists them (see :func:`by_piece`)."""
    return chain.from_iterable(by_piece(game, state, seat, known))


def legal(game: GlyphChess, state: State | Work, seat: int) -> Actions:
    """Every action of ``seat`` now (elementalist paths listed up to
    ``blaze.LISTED`` steps), each event made when it is looked at; the ways
    to pay are remembered by situation (``context.WAYS``) on every path.
    The listing of :func:`by_piece`, into one list; on a Work, the context
    :func:`can_act` made for it (``Work.listed``) is reused."""
    ctx = _context(game, state, seat)
    out: list = []
    for source in ctx.mine:
        piece(ctx.at(source), out)
    return Actions(out)


_WAYS_OF = itemgetter(2)


def _context(game: GlyphChess, state: State | Work, seat: int) -> Context:
    """The listing context of ``seat`` in ``state`` with the shared ways to
    pay: on a Work, the one made for it already when it is ``seat``'s (it is
    forgotten whenever the Work changes), else a new one, kept."""
    if type(state) is not Work:
        return Context(game, state, seat, WAYS)
    ctx = state.listed
    if ctx is None or ctx.seat != seat or ctx.state is not state:
        ctx = state.listed = Context(game, state, seat, WAYS)
    return ctx


class Actions(Sequence):
    """Every action of a player, in the order of the plain list, built one at
    a time: each family is (event class, its fields but the payment, the ways
    to pay)."""

    __slots__ = ("_families", "_ends")

    def __init__(self, families: list[tuple[type, tuple, list]]) -> None:
        self._families = families
        self._ends = list(accumulate(map(len, map(_WAYS_OF, families))))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return list(self)[index]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("action index out of range")
        k = bisect_right(self._ends, index)
        cls, fields, ways = self._families[k]
        dice, coins = ways[index - (self._ends[k - 1] if k else 0)]
        return cls(*fields, dice, coins)

    def __iter__(self) -> Iterator[Event]:
        for cls, fields, ways in self._families:
            for dice, coins in ways:
                yield cls(*fields, dice, coins)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


def can_act(game: GlyphChess, state: State | Work, seat: int, known: dict | None = None) -> bool:
    """Whether ``seat`` has any action now: the listing of :func:`by_piece`,
    stopped at the first action found. On a Work (and with the shared ways
    to pay), the context is kept in ``Work.listed`` for the listing that
    follows."""
    ctx = Context(game, state, seat, known) if known is not None else _context(game, state, seat)
    casting = game.casting
    found: list = []
    # The scepter is looked at first: it nearly always has a step, and it
    # pays with dice alone (nothing to ask of the payers), so the answer is
    # usually found at once; then every piece, as the listing goes.
    try:
        ctx.at(state.board.index((seat, SCEPTER)))
    except ValueError:
        pass  # no scepter
    else:
        movement.listing(ctx, found, first=True)
        if found:
            return True
    for source in ctx.mine:
        ctx.at(source)
        movement.listing(ctx, found, first=True)
        if found:
            return True
        for options, _name, cost, kind, needed in casting.get(ctx.kind, ()):
            priced = ctx.priced(cost, kind)
            if needed is not None and not priced[needed]:
                continue
            for _spots, _target, amount in options(ctx):
                if priced[amount]:
                    return True
    return False
