"""The fast path: the same rules on one mutable :class:`~tabletop_glyph_chess.state.Work`
for a whole game (validating a log, self-play), with no state frozen between
events.

The rules are written once, against a Work; the plain path thaws a state,
carries out one event and freezes the result, and this path keeps the Work.
What the fast path adds:

- the legal actions as a lazy sequence (:class:`Actions`): the actions are
  found and each one's ways to pay are counted, but an event is built only
  when it is asked for, so a bot's uniform choice builds one;
- the listing with the official rules written in (:func:`official_families`)
  when no variant changes movement, sight or wild coins, with the ways to
  pay remembered across calls and games by what they depend on;
- (for both paths) the 720 orders of a player's glyph cards looked up by
  dict (:class:`IndexedChance`) instead of compared one by one.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate, combinations, compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from tabletop import Chance, Decide, Event

from . import actions, payment, scepter, steps
from .events import Cast, Move
from .hexes import HexBoard
from .payment import official_wild
from .pieces import FORCE_MAGE, GLYPHS, ILLUSIONIST, MINION, MINIONS, SCEPTER, SEERESS, SUMMONER
from .spells import blaze, march
from .spells.blast import BLAST
from .spells.blaze import BLAZE
from .spells.foresee import FORESEE
from .spells.march import MARCH
from .spells.replica import REPLICA
from .spells.revive import REVIVE
from .spells.summon import SUMMON
from .spells.swap import SWAP
from .state import ACT, KILLED, State, Work, freeze, thaw

if TYPE_CHECKING:
    from .game import GlyphChess


class IndexedChance(Chance):
    """A chance node with many equally likely outcomes, which tells whether an
    event is one of them by a dict look-up. It equals the plain
    :class:`~tabletop.Chance` with the same outcomes."""

    __slots__ = ("_index",)

    def __init__(self, outcomes: tuple[Event, ...]) -> None:
        super().__init__(outcomes)
        object.__setattr__(self, "_index", frozenset(outcomes))

    def allows(self, event: Event) -> bool:
        try:
            return event in self._index
        except TypeError:  # an event that cannot be hashed is no outcome
            return False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chance):
            return NotImplemented
        return self.outcomes == other.outcomes and self.weights == other.weights

    __hash__ = Chance.__hash__


_WAYS_OF = itemgetter(2)
GLYPH_INDEX = {glyph: i for i, glyph in enumerate(GLYPHS)}


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


#: Ways to pay remembered, at most (then forgotten all at once). They depend
#: on nothing but their key, so every game of the process shares them.
KNOWN_WAYS = 50_000
_WAYS: dict = {}


@functools.lru_cache(maxsize=64)
def move_lines(geo: HexBoard, player: str) -> tuple[tuple[tuple[tuple[int, int, tuple], ...], ...], ...]:
    """For each spot, its six rays (``geo.ray_lists``), each spot of a ray as
    (distance, spot, the fields of ``player``'s Move there but the payment).
    Made once per board and player name in a process."""
    names = geo.names
    return tuple(
        tuple(
            tuple((distance, target, (player, names[source], names[target])) for distance, target in enumerate(ray, 1))
            for ray in rays
        )
        for source, rays in enumerate(geo.ray_lists)
    )


@functools.lru_cache(maxsize=8)
def spot_names(geo: HexBoard) -> tuple[tuple[str], ...]:
    """For each spot, the tuple of its name alone (a spell's one spot)."""
    return tuple((name,) for name in geo.names)


def ways_alike(cost: str, amount: int, free: tuple, showing: tuple, pool: tuple) -> tuple:
    """A key shared by every payment situation with the same ways to pay
    ``cost`` (for X = ``amount``), as :func:`~tabletop_glyph_chess.payment.options`
    finds them: ``showing`` is the faces of the ``free`` dice for "any-die",
    else the free dice showing the type; ``pool`` the coins that may pay, by
    type (0 for a type that may not; empty when no coin may be used).

    "any-die" ways depend on which free dice show the same face, not on the
    faces; the others on at most as many dice and coins of a type as are paid
    in all, and one die for "die"."""
    if cost == "any-die":
        return ("alike", cost, amount, free, tuple(map(showing.index, showing)))
    if cost == "die":
        return ("alike", cost, 0, showing[:1])
    total = 1 if cost == "item" else amount + 1 if cost == "die+x" else amount
    return ("alike", cost, total, showing[:total], tuple(n if n < total else total for n in pool))


def official_families(fast: Fast, live: Work, seat: int) -> list[tuple[type, tuple, list]]:
    """:func:`~tabletop_glyph_chess.actions.families`, as a list, with the
    official rules of movement, sight and wild coins written in, the official
    spells' options written in too (from the seat's pieces, looked for once),
    and the ways to pay remembered across calls (they depend only on the dice
    free, the hand, the wild types and whether coins may be used)."""
    game = fast.game
    board = live.board
    geo = game.geo
    names, rays, neighbours = geo.names, geo.ray_lists, geo.neighbours
    name_of = names.__getitem__
    player = game.players[seat]
    lines = move_lines(geo, player)
    singles = spot_names(geo)
    dice = live.dice
    spent = live.spent
    known = fast.ways
    free = tuple([n for n in range(1, len(dice) + 1) if n - 1 not in spent])
    # The free dice by the face they show (kept across calls, with the
    # scepter's ways to pay).
    faces = tuple(dice)
    shown = known.get((free, faces))
    if shown is None:
        shown = {}
        for n in free:
            shown[dice[n - 1]] = (*shown.get(dice[n - 1], ()), n)
        if len(known) >= KNOWN_WAYS:
            known.clear()
        known[free, faces] = shown
    hand = live.hands[seat]
    wild = official_wild(live, seat)
    spells, costs = game.by_caster, game.costs
    minion = (seat, MINION)
    out: list = []
    append = out.append

    # The seat's pieces, in board order.
    pieces = list(compress(enumerate(board), board))
    mine = [spot for spot, piece in pieces if piece[0] == seat]
    # Sight goes both ways: a piece is in sight of an enemy seeress exactly
    # when it is the first piece in one of her six directions.
    seen: set | tuple = ()
    for seeress in fast.enemy_seeresses[seat]:
        if seeress in board:
            if not seen:
                seen = set()
            for spot in [spot for spot, piece in pieces if piece == seeress]:
                for ray in rays[spot]:
                    for other in ray:
                        if board[other] is not None:
                            seen.add(other)
                            break

    def pays(glyph, cost, amount, may_coin):
        """The ways to pay (asked for the first time in this situation)."""
        if cost == "any-die":
            dice_showing, pool = tuple([dice[n - 1] for n in free]), ()
        else:
            dice_showing = tuple([n for n in free if dice[n - 1] == glyph])
            pool = tuple([n if g == glyph or g in wild else 0 for g, n in zip(GLYPHS, hand)]) if may_coin else ()
        alike = ways_alike(cost, amount, free, dice_showing, pool)
        ways = known.get(alike)
        if ways is None:
            if len(known) >= KNOWN_WAYS:
                known.clear()
            ways = known[alike] = list(payment.options(live, seat, glyph, cost, amount, may_coin, wild))
        return ways

    def priced(table, glyph, cost, amount, may_coin):
        """The ways to pay, from ``table`` (this cost's, kept across calls) or
        worked out and put there."""
        ways = table.get(amount)
        if ways is None:
            ways = table[amount] = pays(glyph, cost, amount, may_coin)
        return ways

    minions = illusionists = None
    for source in mine:
        kind = board[source][1]
        if kind == MINION:
            continue
        if kind == SCEPTER:
            ways = shown.get(SCEPTER)  # kept with the dice: they depend on them alone
            if ways is None:
                ways = shown[SCEPTER] = pays(SCEPTER, scepter.COST, 1, False)
            if ways:
                for ray in lines[source]:
                    if ray:
                        target, fields = ray[0][1:]
                        landing = board[target]
                        if landing is None or landing[0] != seat:
                            append((Move, fields, ways))
            continue
        here = names[source]
        may_coin = source not in seen
        # The ways to pay depend on the free dice showing the type and the
        # coins that may pay for it (with no wild coin, its own coins alone):
        # the key of the tables of ways, by cost and amount, kept across calls.
        dice_showing = shown.get(kind, ())
        if not may_coin:
            pool, coins = (), 0
        elif wild:
            pool = tuple([n if g == kind or g in wild else 0 for g, n in zip(GLYPHS, hand)])
            coins = sum(pool)
        else:
            pool = coins = hand[GLYPH_INDEX[kind]]
        # How many items of its type the seat could spend at most.
        most = len(dice_showing) + coins
        base = (kind, dice_showing, pool)
        tables = known.get(base)
        if tables is None:
            if len(known) >= KNOWN_WAYS:
                known.clear()
            tables = known[base] = {}
        # The ways to pay for 1, 2, ... spots (X items: never more than ``most``).
        by_distance = tables.get(None)
        if by_distance is None:
            by_distance = [None]
            for distance in range(1, most + 1):
                ways = pays(kind, "x", distance, may_coin)
                if not ways:
                    break
                by_distance.append(ways)
            tables[None] = by_distance
        reach = len(by_distance) - 1
        if reach:
            summoner, passes = kind == SUMMONER, kind == FORCE_MAGE
            for ray in lines[source]:
                for distance, target, fields in ray[:reach]:
                    landing = board[target]
                    if landing is None or (summoner and landing == minion):
                        append((Move, fields, by_distance[distance]))
                        continue
                    if landing[0] != seat:
                        append((Move, fields, by_distance[distance]))
                    if not passes:
                        break
        if kind not in spells:
            continue
        for spell in spells[kind]:
            name = spell.name
            cost = costs[name]
            table = tables.get(cost)
            if table is None:
                table = tables[cost] = {}
            if spell is SWAP:
                ways = priced(table, kind, cost, 1, may_coin)
                if ways:
                    for spot in mine:
                        if spot != source:
                            append((Cast, (player, name, here, singles[spot], ""), ways))
            elif spell is MARCH:
                if minions is None:
                    minions = [spot for spot in mine if board[spot] == minion]
                for direction, order in march.orders(game, board, seat, minions, most):
                    count = len(order)
                    ways = priced(table, kind, cost, count, may_coin)
                    if ways:
                        append((Cast, (player, name, here, tuple(map(name_of, order)), direction), ways))
            elif spell is SUMMON:
                if minions is None:
                    minions = [spot for spot in mine if board[spot] == minion]
                spare = MINIONS - len(minions)
                if spare:
                    empty = [s for s in neighbours[source] if board[s] is None]
                    if empty:
                        ways = priced(table, kind, cost, 0, may_coin)
                        if ways:
                            for count in range(1, min(spare, 3) + 1):
                                for spots in combinations(empty, count):
                                    append((Cast, (player, name, here, tuple(map(name_of, spots)), ""), ways))
            elif spell is REPLICA:
                if illusionists is None:
                    illusionists = [board[spot][1] for spot in mine].count(ILLUSIONIST)
                if illusionists == 1:
                    ways = priced(table, kind, cost, 0, may_coin)
                    if ways:
                        for spot in neighbours[source]:
                            if board[spot] is None:
                                append((Cast, (player, name, here, singles[spot], ""), ways))
            elif spell is BLAST:
                for ray in lines[source]:
                    for distance, target, _ in ray[: most - 1]:
                        if board[target] is None:
                            ways = priced(table, kind, cost, distance, may_coin)
                            if ways:
                                append((Cast, (player, name, here, singles[target], ""), ways))
            elif spell is BLAZE:
                for path in blaze.paths(game, live, seat, source, min(most - 1, blaze.LISTED)):
                    count = len(path)
                    ways = priced(table, kind, cost, count, may_coin)
                    if ways:
                        append((Cast, (player, name, here, tuple(map(name_of, path)), ""), ways))
            elif spell is REVIVE:
                fates = live.fates[seat]
                if KILLED in fates:
                    empty = [s for s in neighbours[source] if board[s] is None]
                    if empty:
                        ways = priced(table, kind, cost, 0, may_coin)
                        if ways:
                            for glyph, fate in zip(GLYPHS, fates):
                                if fate == KILLED and glyph != ILLUSIONIST:
                                    for spot in empty:
                                        append((Cast, (player, name, here, singles[spot], glyph), ways))
            elif spell is FORESEE:
                ways = priced(table, kind, cost, 0, may_coin)
                if ways:
                    eliminated = live.eliminated
                    for other, target in enumerate(game.players):
                        if other != seat and not eliminated[other]:
                            append((Cast, (player, name, here, (), target), ways))
            else:
                for spots, target, amount in spell.options(game, live, seat, source, most):
                    ways = priced(table, kind, cost, amount, may_coin)
                    if ways:
                        append((Cast, (player, name, here, tuple(map(name_of, spots)), target), ways))
    return out


class Fast:
    """Glyph Chess's fast path (tabletop's ``Fast`` contract)."""

    def __init__(self, game: GlyphChess) -> None:
        self.game = game
        self.table = game.steps
        self.ways = _WAYS
        #: For each seat, the other seats' seeresses (as pieces on the board).
        self.enemy_seeresses = tuple(
            tuple((other, SEERESS) for other in range(len(game.players)) if other != seat)
            for seat in range(len(game.players))
        )
        inlined = game.plain_moves and not game.overridden & {"glyph_may_use_coins", "glyph_wild_coins"}
        self.families = (
            official_families if inlined else (lambda fast, live, seat: list(actions.families(game, live, seat)))
        )

    thaw = staticmethod(thaw)
    freeze = staticmethod(freeze)

    def next(self, live: Work) -> Any:
        return self.table[live.phase].node(self.game, live)

    def check(self, live: Work, decision: Event) -> str | None:
        return self.game.check(live, decision)  # the checks only read: a Work reads as a State does

    def apply(self, live: Work, event: Event) -> None:
        game = self.game
        self.table[live.phase].apply(game, live, event)
        steps.settle(game, live)

    def legal(self, live: Work, player: str) -> Sequence[Event]:
        game = self.game
        node = self.next(live)
        if type(node) is not Decide or player not in node.players:
            return []
        if live.phase == ACT and self.table[ACT] is steps.ACT_STEP:
            return Actions(self.families(self, live, game.seats[player]))
        return self.table[live.phase].legal(game, live, player)

    def state(self, live: Work) -> State:
        """The immutable state (as :meth:`freeze`)."""
        return freeze(live)
