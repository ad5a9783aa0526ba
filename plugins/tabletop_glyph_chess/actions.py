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
from typing import TYPE_CHECKING, Any

from tabletop import Event, Hidden
from tabletop.base.caches import Bound
from tabletop.play.sampling import drawn

from . import escape, movement, payment
from .context import WAYS, Context, Priced
from .events import Cast, Move
from .kills import land
from .payment import FLAT
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
    found, _ = spells(ctx)
    if found:
        casts(ctx.player, ctx.names[ctx.source], found, ctx.game.spot_names, out)


def spells(ctx: Context) -> tuple[list[tuple[str, Priced, list]], int]:
    """The spells of the piece the listing ``ctx`` is turned to with options
    some of which might be paid for: (name, the ways to pay for each X, the
    spell's options), in the order of ``game.casting``; and how many casts
    they offer (each option as many as it has ways to pay)."""
    found: list = []
    count = 0
    casting = ctx.game.casting.get(ctx.kind)
    if casting:
        priced_for = ctx.priced
        for options, name, cost, kind, needed, _ in casting:
            priced = priced_for(cost, kind)
            if needed is not None and not priced[needed]:
                continue  # no target can be paid for: none is looked for
            listed = options(ctx)
            if type(listed) is not list:
                listed = list(listed)
            if listed:
                count += _casts(cost, needed, priced, listed)
                found.append((name, priced, listed))
    return found, count


_AMOUNT = itemgetter(2)


def casts(player: str, here: str, found: list, named: SpotNames, out: list) -> None:
    """The casts of :func:`spells` that can be paid for, appended to ``out``
    (``here``: the caster's spot's name)."""
    out += cast_families(player, here, found, named)


def cast_families(player: str, here: str, found: list, named: SpotNames) -> Iterator[tuple[type, tuple, tuple]]:
    """The families of the casts of :func:`spells` that can be paid for, in
    order (``here``: the caster's spot's name)."""
    for name, priced, options in found:
        for spots, target, amount in options:
            ways = priced[amount]
            if ways:
                try:
                    spots = named[spots]
                except TypeError:  # spots given as a list
                    spots = named[tuple(spots)]
                yield Cast, (player, name, here, spots, target), ways


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
    ``blaze.LISTED`` steps), as :func:`by_piece` lists them, made when looked
    at (:class:`Actions`): each piece's moves and the options of its spells
    that declare a bound (``spells.bounded``) when first asked for (a bot's
    uniform choice asks for one line, or one spell's options), the options
    of the others now. The ways to pay are remembered by situation
    (``context.WAYS``) on every path; on a Work, the context
    :func:`can_act` made for it (``Work.listed``) is reused."""
    ctx = _context(game, state, seat)
    names, lines, board, casters = ctx.names, movement.lines, ctx.board, game.casting
    # While the ranges are the table by piece, a piece that has none and no
    # spell (a minion) has no action: it is not looked at.
    still = game.reaches if game.reach_by_piece else {}
    pieces = []
    for source in ctx.mine:
        if still.get(board[source][1], 1) == 0 and board[source][1] not in casters:
            continue
        ctx.at(source)
        found = lines(ctx)
        theirs = casters.get(ctx.kind)
        spelled, bound = slotted(ctx, theirs) if theirs else ((), 0)
        if found is not None:
            counted, ahead = found
            slots = sum(map(counted[2].__getitem__, map(len, ahead)))
            pieces.append((bound + slots, slots, spelled, names[source], counted, ahead, ctx.kind, source))
        elif bound:
            pieces.append((bound, 0, spelled, names[source], None, (), ctx.kind, source))
    return Actions(ctx, pieces)


# A piece in :class:`Actions`: (its slots, its moves' slots, its spells (as
# :func:`slotted` gives them), its spot's name, its moves' ways to pay and
# their counts by distance (:meth:`Context.move_counts`) or None, its lines
# (:func:`movement.lines`), its kind, its spot).
BOUND, MOVES, SPELLS, HERE, COUNTED, LINES, KIND, SOURCE = range(8)
# A spell of a piece: [its slots, its name, its ways to pay for each X
# (:class:`Priced`), its options (None until looked for), how many casts
# they offer (None until counted), the spell as ``game.casting`` has it].
SLOTS, NAME, PRICED, OPTIONS, CASTS, CASTING = range(6)


def slotted(ctx: Context, casting: Sequence[tuple]) -> tuple[list[list], int]:
    """The spells of the piece the listing ``ctx`` is turned to that might
    be paid for, each with its slots, and how many slots they have in all.
    A spell whose options declare a bound (``spells.bounded``) has a slot
    for each way to pay for each option the bound allows, and its options
    are looked for when a slot of it is read; any other has one slot for
    each of its casts, its options found now."""
    found: list = []
    total = 0
    priced_for = ctx.priced
    for spell in casting:
        options, name, cost, kind, needed, most = spell
        priced = priced_for(cost, kind)
        if needed is not None and not priced[needed]:
            continue  # no target can be paid for: none is looked for
        if most is None:
            listed = options(ctx)
            if type(listed) is not list:
                listed = list(listed)
            if not listed:
                continue
            slots = _casts(cost, needed, priced, listed)
            found.append([slots, name, priced, listed, slots, spell])
        else:
            if cost in FLAT:
                slots = sum(map(_COUNT, most(ctx))) * len(priced[needed])
            else:
                slots = sum([count * len(priced[amount]) for count, amount in most(ctx)])
            if not slots:
                continue
            found.append([slots, name, priced, None, None, spell])
        total += slots
    return found, total


def _casts(cost: str, needed: int | None, priced: Priced, listed: list) -> int:
    """How many casts ``listed`` options offer, each as many as it has ways to pay."""
    if cost in FLAT:  # as many ways to pay for every option as for X = needed
        return len(listed) * len(priced[needed])
    return sum(map(len, map(priced.__getitem__, map(_AMOUNT, listed))))


_COUNT = itemgetter(0)
_WAYS_OF = itemgetter(2)
#: Draws a uniform choice may reject in a row (its slots holding no legal
#: action) before it counts every action and draws among them: still uniform.
TRIES = 64


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
    """Every action of a player, in the order of the plain list, each event
    made when it is looked at. A piece's moves are found when first
    counted, and so are the options of its spells that declare a bound: the
    length, the items and ``bool()`` count them (each piece's lines walked
    once, each spell's options looked for once); a uniform choice
    (:meth:`sample`) walks one line, or looks for one spell's options, most
    times.

    On a Work the moves are looked for on the board as it was listed, and
    a variant asking landing or passing spot by spot, or a spell's options,
    is asked of the Work as it is: a listing on the fast path is read
    before the Work changes (as the engine and the bots read it)."""

    __slots__ = ("_ctx", "_board", "_pieces", "_bounds", "_moves", "_made", "_ends")

    def __init__(self, ctx: Context, pieces: list[tuple]) -> None:
        self._ctx, self._pieces = ctx, pieces
        game = ctx.game
        # What stands on each spot, for the moves looked for later: the
        # board as it is now (a Work's changes), while landing and passing
        # are read from what stands there.
        tables = game.landing_by_occupant and game.passing_by_occupant
        self._board = tuple(ctx.board) if tables and type(ctx.board) is not tuple else None
        self._bounds = list(accumulate(map(_BOUND, pieces)))
        #: Piece -> its moves walked (distances, fields), once counted.
        self._moves: dict[int, tuple[list[int], list[tuple]]] = {}
        #: Piece -> its families and their running totals, once made.
        self._made: dict[int, tuple[list, list[int]]] = {}
        self._ends: list[int] | None = None

    def _walk(self, k: int, lines: Sequence, first: bool = False) -> tuple[list[int], list[tuple]]:
        """``lines`` of piece ``k`` walked (:func:`movement.walk`)."""
        keys, stops = self._ctx.stops(self._pieces[k][KIND])
        return movement.walk(lines, keys if self._board is None else self._board, stops, first)

    def _moves_any(self, k: int) -> bool:
        """Whether piece ``k`` has a move: its lines walked to the first
        spot it may land on (all of them when that move cannot be paid)."""
        piece = self._pieces[k]
        counted = piece[COUNTED]
        if counted is None:
            return False
        distances, _ = self._walk(k, piece[LINES], first=True)
        return bool(distances) and (counted[1][distances[0]] > 0 or self._move_count(k) > 0)

    def _walked(self, k: int) -> tuple[list[int], list[tuple]]:
        walked = self._moves.get(k)
        if walked is None:
            walked = self._moves[k] = self._walk(k, self._pieces[k][LINES])
        return walked

    def _options(self, k: int, spell: list) -> list:
        """The options of ``spell``, a spell of piece ``k`` (looked for once)."""
        listed = spell[OPTIONS]
        if listed is None:
            ctx, source = self._ctx, self._pieces[k][SOURCE]
            if ctx.source != source:
                ctx.at(source)
            options, _, cost, kind, needed, _ = spell[CASTING]
            spell[PRICED] = priced = ctx.priced(cost, kind)
            listed = options(ctx)
            if type(listed) is not list:
                listed = list(listed)
            spell[OPTIONS], spell[CASTS] = listed, _casts(cost, needed, priced, listed)
        return listed

    def _cast_count(self, k: int) -> int:
        """How many casts piece ``k``'s spells offer."""
        count = 0
        for spell in self._pieces[k][SPELLS]:
            if spell[CASTS] is None:
                self._options(k, spell)
            count += spell[CASTS]
        return count

    def _move_count(self, k: int) -> int:
        counted = self._pieces[k][COUNTED]
        return 0 if counted is None else sum(map(counted[1].__getitem__, self._walked(k)[0]))

    def _count(self, k: int) -> int:
        return self._move_count(k) + self._cast_count(k)

    def _counted(self) -> list[int]:
        ends = self._ends
        if ends is None:
            ends = self._ends = list(accumulate(map(self._count, range(len(self._pieces)))))
        return ends

    def _families(self, k: int) -> tuple[list, list[int]]:
        made = self._made.get(k)
        if made is None:
            piece = self._pieces[k]
            out: list = []
            if piece[COUNTED] is not None:
                movement.priced(piece[COUNTED][0], *self._walked(k), out)
            found = [
                (spell[NAME], spell[PRICED], listed) for spell in piece[SPELLS] if (listed := self._options(k, spell))
            ]
            casts(self._ctx.player, piece[HERE], found, self._ctx.game.spot_names, out)
            made = self._made[k] = out, list(accumulate(map(len, map(_WAYS_OF, out))))
        return made

    def __len__(self) -> int:
        ends = self._counted()
        return ends[-1] if ends else 0

    def __bool__(self) -> bool:
        # Whether there is an action: a cast of a spell counted already, or
        # the first piece found with a move or a cast.
        pieces = self._pieces
        for piece in pieces:
            for spell in piece[SPELLS]:
                if spell[CASTS]:
                    return True
        return any(self._moves_any(k) or self._cast_count(k) for k in range(len(pieces)))

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return list(self)[index]
        ends = self._counted()
        size = ends[-1] if ends else 0
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("action index out of range")
        k = bisect_right(ends, index)
        families, totals = self._families(k)
        if k:
            index -= ends[k - 1]
        f = bisect_right(totals, index)
        cls, fields, ways = families[f]
        dice, coins = ways[index - totals[f - 1] if f else index]
        return cls(*fields, dice, coins)

    def __iter__(self) -> Iterator[Event]:
        for k in range(len(self._pieces)):
            for cls, fields, ways in self._families(k)[0]:
                for dice, coins in ways:
                    yield cls(*fields, dice, coins)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    @property
    def slots(self) -> int:
        """How many slots there are (see :meth:`slot`): at least as many as actions."""
        return self._bounds[-1] if self._bounds else 0

    def slot(self, index: int) -> Event | None:
        """The action in slot ``index`` (below the sum of every piece's
        slots), or None. Each piece has a slot for each spot of each of its
        lines and each way to pay for a move that far (line by line,
        nearest first), then each of its spells its slots (:func:`slotted`):
        a move's slot holds that move when it is legal (the line walked that
        far), a spell's slots its casts in order, then none. So each legal
        action is in exactly one slot."""
        bounds = self._bounds
        k = bisect_right(bounds, index)
        if k:
            index -= bounds[k - 1]
        piece = self._pieces[k]
        slots = piece[MOVES]
        if index >= slots:
            index -= slots
            for spell in piece[SPELLS]:
                if index < spell[SLOTS]:
                    return self._cast(k, spell, index)
                index -= spell[SLOTS]
            raise IndexError("slot out of range")
        by_distance, _, totals = piece[COUNTED]
        for line in piece[LINES]:
            here = totals[len(line)]
            if index < here:
                distance = bisect_right(totals, index)
                distances, moves = self._walk(k, (line[:distance],))
                if not distances or distances[-1] != distance:
                    return None  # it may not land there, or not get there
                dice, coins = by_distance[distance][index - totals[distance - 1]]
                return Move(*moves[-1], dice, coins)
            index -= here
        raise IndexError("slot out of range")

    def _cast(self, k: int, spell: list, index: int) -> Event | None:
        """The cast in slot ``index`` of ``spell``, a spell of piece ``k``:
        its options' casts in order, then none."""
        listed = self._options(k, spell)
        if index >= spell[CASTS]:
            return None  # past its casts: a slot the bound allowed
        priced = spell[PRICED]
        for spots, target, amount in listed:
            ways = priced[amount]
            if index < len(ways):
                dice, coins = ways[index]
                try:
                    spots = self._ctx.game.spot_names[spots]
                except TypeError:  # spots given as a list
                    spots = self._ctx.game.spot_names[tuple(spots)]
                return Cast(self._ctx.player, spell[NAME], self._pieces[k][HERE], spots, target, dice, coins)
            index -= len(ways)
        raise IndexError("slot out of range")  # pragma: no cover - the casts are counted from the same ways

    def sample(self, rng: Any) -> Event:
        """One of the actions, each as likely as any other, drawn from
        ``rng`` (a ``random.Random``): a slot drawn uniformly among every
        piece's (:meth:`slot`) until one holds an action. Most draws hit
        one, and a move's slot needs only its line walked that far, a
        spell's only its options: no piece's moves are counted, and only
        the spells drawn are looked at. After :data:`TRIES` empty slots in
        a row, every action is counted and one drawn among them (as
        uniform: which action is drawn does not depend on which slots were
        empty)."""
        return drawn(rng, self.slots, self.slot, self, TRIES)


_BOUND = itemgetter(BOUND)


def can_act(game: GlyphChess, state: State | Work, seat: int, known: dict | None = None) -> bool:
    """Whether ``seat`` has any action now: the listing of :func:`by_piece`,
    stopped at the first action found. On a Work (and with the shared ways
    to pay), the context is kept in ``Work.listed`` for the listing that
    follows."""
    if isinstance(state.hands[seat], Hidden):
        # Another seat's view: its coins are hidden, so whether it has an
        # action is not the viewer's to know. As far as the view goes it
        # may act (a picture's "who acts next" must not tell a forced pass).
        return True
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
        for options, _name, cost, kind, needed, _ in casting.get(ctx.kind, ()):
            priced = ctx.priced(cost, kind)
            if needed is not None and not priced[needed]:
                continue
            for _spots, _target, amount in options(ctx):
                if priced[amount]:
                    return True
    return False
