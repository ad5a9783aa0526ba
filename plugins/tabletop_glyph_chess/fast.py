"""The fast path: the same rules on one mutable :class:`~tabletop_glyph_chess.state.Work`
for a whole game (validating a log, self-play), with no state frozen between
events.

The rules are written once, against a Work; the plain path thaws a state,
carries out one event and freezes the result, and this path keeps the Work.
What the fast path adds:

- the legal actions as a lazy sequence (:class:`Actions`): the actions are
  found and each one's ways to pay are counted, but an event is built only
  when it is asked for, so a bot's uniform choice builds one;
- (for both paths) the 720 orders of a player's glyph cards looked up by
  dict (:class:`IndexedChance`) instead of compared one by one.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tabletop import Chance, Decide, Event

from . import actions, payment, scepter, steps
from .events import Cast, Move
from .payment import official_wild
from .pieces import FORCE_MAGE, GLYPHS, MINION, SCEPTER, SEERESS, SUMMONER
from .sight import in_sight
from .state import ACT, State, Work, freeze, thaw

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


class Actions(Sequence):
    """Every action of a player, in the order of the plain list, built one at
    a time: each family is (event class, its fields but the payment, the ways
    to pay)."""

    __slots__ = ("_families", "_ends")

    def __init__(self, families: list[tuple[type, tuple, list]]) -> None:
        self._families = families
        ends, total = [], 0
        for _, _, ways in families:
            total += len(ways)
            ends.append(total)
        self._ends = ends

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


def official_families(fast: Fast, live: Work, seat: int) -> Iterator[tuple[type, tuple, list]]:
    """:func:`~tabletop_glyph_chess.actions.families` with the official rules
    of movement, sight and wild coins written in, and the ways to pay
    remembered across calls (they depend only on the dice free, the hand,
    the wild types and whether coins may be used)."""
    game = fast.game
    board = live.board
    geo = game.geo
    names, rays, neighbours = geo.names, geo.ray_lists, geo.neighbours
    player = game.players[seat]
    spent = live.spent
    free = tuple(n for n in range(1, len(live.dice) + 1) if n - 1 not in spent)
    faces = tuple(live.dice[n - 1] for n in free)
    hand = tuple(live.hands[seat])
    wild = official_wild(live, seat)
    known = fast.ways
    local: dict = {}  # this call's ways, by (glyph, cost, amount, may_coin)
    dice = live.dice
    spells, costs = game.by_caster, game.costs
    minion = (seat, MINION)
    # Without an enemy seeress on the board, every piece may use coins.
    seeress = any(p is not None and p[1] == SEERESS and p[0] != seat for p in board)

    def pays(glyph, cost, amount, may_coin):
        here = (glyph, cost, amount, may_coin)
        ways = local.get(here)
        if ways is not None:
            return ways
        # The ways depend on the free dice showing the type (any face, for
        # "any-die") and the coins that may pay for it: the key across calls.
        if cost == "any-die":
            key = (free, faces, cost, amount)
        else:
            showing = tuple(n for n in free if dice[n - 1] == glyph)
            pool = tuple(n if g == glyph or g in wild else 0 for g, n in zip(GLYPHS, hand)) if may_coin else ()
            key = (showing, pool, glyph, cost, amount)
        ways = known.get(key)
        if ways is None:
            if len(known) >= KNOWN_WAYS:
                known.clear()
            ways = known[key] = list(payment.options(live, seat, glyph, cost, amount, may_coin, wild))
        local[here] = ways
        return ways

    for source, piece in enumerate(board):
        if piece is None or piece[0] != seat:
            continue
        kind = piece[1]
        if kind == MINION:
            continue
        may_coin = not seeress or not in_sight(geo, live, source)
        here = names[source]
        if kind == SCEPTER:
            for target in neighbours[source]:
                landing = board[target]
                if landing is None or landing[0] != seat:
                    ways = pays(SCEPTER, scepter.COST, 1, False)
                    if ways:
                        yield Move, (player, here, names[target]), ways
            continue
        summoner, passes = kind == SUMMONER, kind == FORCE_MAGE
        most = actions.budget(game, live, seat, kind, may_coin)
        # The ways to pay for 1, 2, ... spots (X items: never more than ``most``).
        by_distance = [None]
        for distance in range(1, most + 1):
            ways = pays(kind, "x", distance, may_coin)
            if not ways:
                break
            by_distance.append(ways)
        reach = len(by_distance) - 1
        for ray in rays[source]:
            for distance, target in enumerate(ray[:reach], start=1):
                landing = board[target]
                clear = landing is None or (summoner and landing == minion)
                if clear or landing[0] != seat:
                    yield Move, (player, here, names[target]), by_distance[distance]
                if not clear and not passes:
                    break
        if kind not in spells:
            continue
        for spell in spells[kind]:
            cost = costs[spell.name]
            for spots, target, amount in spell.options(game, live, seat, source, most):
                ways = pays(kind, cost, amount, may_coin)
                if ways:
                    yield Cast, (player, spell.name, here, tuple(names[s] for s in spots), target), ways


class Fast:
    """Glyph Chess's fast path (tabletop's ``Fast`` contract)."""

    def __init__(self, game: GlyphChess) -> None:
        self.game = game
        self.table = game.steps
        self.ways = _WAYS
        inlined = game.plain_moves and not game.overridden & {"glyph_may_use_coins", "glyph_wild_coins"}
        self.families = official_families if inlined else (lambda fast, live, seat: actions.families(game, live, seat))

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
            return Actions(list(self.families(self, live, game.seats[player])))
        return self.table[live.phase].legal(game, live, player)

    def state(self, live: Work) -> State:
        """The immutable state (as :meth:`freeze`)."""
        return freeze(live)
