"""Paying for moves, spells and the necromancer's escape with coins and dice.

"Consume X of type T" means X items, each a coin of type T, a die showing T,
or a wild coin (a coin of a type whose piece is dead). A piece in sight of an
enemy seeress may use no coins at all. A master spell's die is a die: no coin
replaces it.

A payment is (cost kind, amount, payment type). Cost kinds: ``x`` (X items),
``item`` (1 item), ``die`` (1 die, nothing else), ``die+x`` (that die and X
items more), ``coin`` (X coins, never a die), ``any-die`` (the scepter: N dice
of any faces, never a coin). The payment type is a glyph letter: what may pay
one item of it (which die faces, which coin types) is the rule hook
``glyph_payers``; its official answer, :func:`official_payers`, is the
sentence above. Which coins are wild is ``glyph_wild_coins``; whether the
piece is in sight, ``glyph_may_use_coins``: the official payers ask both.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations

import attrs

from tabletop import PluginError, rulehook
from tabletop.host.rules import fast_form

from .pieces import GLYPHS, NAMES, a_coin
from .state import ALIVE, State, Work

#: The cost kinds (see above).
COST_KINDS = frozenset({"x", "item", "die", "die+x", "coin", "any-die"})
#: Cost kind -> an X whose payment every X's payment includes (a flat cost
#: for any X; the die of "die+x", X = 0): when that X cannot be paid, no
#: target of a spell of that cost can.
NEEDED = {"die": 1, "item": 1, "die+x": 0}
#: The cost kinds paid alike for every X (one die; one item): the ways to
#: pay for any X are those for X = ``NEEDED[kind]`` (a listing counts a
#: spell's casts from them without looking at each option's X).
FLAT = frozenset({"die", "item"})
#: The payment types: what an item may be of.
PAYMENT_TYPES = frozenset(GLYPHS)


def unknown_type(kind: str) -> PluginError:
    """The error for a payment type that is not one (a rule named it)."""
    return PluginError(f"'{kind}' is not a payment type (a cost is paid in items of a glyph type: {', '.join(GLYPHS)})")


def unknown_cost(cost: str) -> PluginError:
    """The error for a cost kind that is not one."""
    return PluginError(f"'{cost}' is not a cost kind (cost kinds: {', '.join(sorted(COST_KINDS))})")


def cost_of(name: str, value: object) -> tuple[str, str | None]:
    """A cost as a rule gives it (a cost kind, or (cost kind, payment type)) as
    (cost kind, payment type or None for the piece's own), refused when either
    is unknown; ``name`` says whose cost it is."""
    kind, type_ = (value, None) if isinstance(value, str) else (tuple(value) + (None,))[:2]
    problem = cost_problem(kind, type_)
    if problem:
        raise PluginError(f"{name}: {problem}")
    return kind, type_


def cost_problem(kind: object, type_: object) -> str | None:
    """What is wrong with a cost of this kind, paid in items of ``type_``
    (None: the piece's own), or None."""
    if kind not in COST_KINDS:
        return str(unknown_cost(kind))
    if type_ is not None and type_ not in PAYMENT_TYPES:
        return str(unknown_type(type_))
    return None


@attrs.frozen(cache_hash=True)
class Payers:
    """What may pay one item of a payment type: dice showing one of ``faces``,
    coins of one of the types ``coins``; ``why`` says why some coins may not
    (``"in sight of an enemy seeress"``), for the message refusing them."""

    faces: frozenset[str]
    coins: frozenset[str] = frozenset()
    why: str = ""


@functools.lru_cache(maxsize=1024)
def payers(faces: frozenset[str], coins: frozenset[str] = frozenset(), why: str = "") -> Payers:
    """The :class:`Payers` for these (made once: a listing asks for the same few again and again)."""
    return Payers(faces, coins, why)


#: Each glyph type alone, as a set (made once: its hash is kept).
ALONE = {glyph: frozenset((glyph,)) for glyph in GLYPHS}


def official_payers(game, state: State | Work, seat: int, spot: int | None, kind: str) -> Payers:
    """Officially: dice showing ``kind``; coins of ``kind`` and the wild ones,
    unless the piece on ``spot`` may use no coins (``glyph_may_use_coins``:
    in sight of an enemy seeress)."""
    if spot is not None and not game.may_use_coins(game=game, state=state, spot=spot):
        return payers_for(kind, False, NO_WILD)
    wild = game.wild(state, seat)
    return payers_for(kind, True, wild if type(wild) is frozenset else frozenset(wild))


def checked_payers(rules):
    """A variant's ``glyph_payers``, refused (one line naming the variant)
    when it names a face or coin type that is no glyph type."""
    asked = rules.glyph_payers

    def payers(game, state, seat, spot, kind):
        found = asked(game=game, state=state, seat=seat, spot=spot, kind=kind)
        if not (found.faces <= PAYMENT_TYPES and found.coins <= PAYMENT_TYPES):
            wrong = sorted(map(str, (found.faces | found.coins) - PAYMENT_TYPES))
            raise rules.refuse("glyph_payers", f"gave {wrong[0]!r} for {kind}: {unknown_type(wrong[0])}")
        return found

    return payers


def checked_wild(game, asked):
    """A variant's ``glyph_wild_coins``, refused (one line naming the
    variant) when it names a coin type that is no glyph type."""

    def wild(state, seat):
        found = asked(game=game, state=state, seat=seat)
        if not found <= PAYMENT_TYPES:
            wrong = sorted(map(str, found - PAYMENT_TYPES))[0]
            raise game.rules.refuse("glyph_wild_coins", f"gave {wrong!r}: {unknown_type(wrong)}")
        return found

    return wild


#: No coin type wild.
NO_WILD: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=1024)
def payers_for(kind: str, may_coin: bool, wild: frozenset[str]) -> Payers:
    """The official payers of ``kind``, for a piece that may use coins or not
    (``may_coin``), with the seat's ``wild`` coin types: what
    :func:`official_payers` answers, from what it asks. A listing that
    knows those answers already (sight worked out once for all the seat's
    pieces, the wild types once per listing) reads this table directly."""
    faces = ALONE.get(kind) or frozenset((kind,))
    if not may_coin:
        return payers(faces, frozenset(), "in sight of an enemy seeress")
    return payers(faces, faces | wild if wild else faces)


#: The fast form ``glyph_payers`` declares (``tabletop.host.rules.fast_form``):
#: :func:`payers_for` the piece's kind, which a listing reads directly.
BY_KIND = "the payers by kind"


@rulehook
@fast_form(BY_KIND)
def glyph_payers(game, state: State | Work, seat: int, spot: int | None, kind: str) -> Payers:
    return official_payers(game, state, seat, spot, kind)


def check(
    game,
    state: State | Work,
    seat: int,
    spot: int | None,
    cost: str,
    amount: int,
    kind: str | None = None,
    *,
    dice: tuple[int, ...],
    coins: tuple[str, ...],
    piece: str = "",
) -> str | None:
    """Why ``dice`` and ``coins`` do not pay ``cost`` for X = ``amount`` in
    items of the payment type ``kind`` (``piece``'s own when None) for the
    piece on ``spot``, or None: what may pay is asked of ``glyph_payers``."""
    if cost not in COST_KINDS:
        raise unknown_cost(cost)
    if cost == "any-die":
        return error(state, seat, cost, amount, dice, coins, payers(frozenset(GLYPHS)), kind or piece)
    kind = kind or piece
    if kind not in PAYMENT_TYPES:
        raise unknown_type(kind)
    if not coins and game.payers_by_table:
        # Paid with dice alone: in their declared form the payers' faces are
        # the kind's, whoever pays and wherever (sight and wild coins bear on
        # coins only), so neither is asked.
        paid_by = payers_for(kind, True, NO_WILD)
    else:
        paid_by = game.payers(game=game, state=state, seat=seat, spot=spot, kind=kind)
    return error(state, seat, cost, amount, dice, coins, paid_by, kind)


def check_move_costs(game) -> None:
    """Refuse, as the game is made, a move cost of an unknown kind or type,
    or that is not a cost at all (not ``(kind, amount[, type])``, an amount
    below 1): ``glyph_move_cost`` is asked for every piece and a move of 1
    and 2 spots in the state the game starts from. The hook a variant
    changed is named (``glyph_move_costs`` when the per-move hook is the
    official one, which answers from it)."""
    r = game.rules
    if all(map(r.official, ("glyph_move_cost", "glyph_move_costs", "glyph_move_range"))):
        return  # the official costs, known good
    by_distance = r.official("glyph_move_cost")
    hook = "glyph_move_costs" if by_distance else "glyph_move_cost"
    # The header-time costs depend on the piece and distance alone: every distance is looked at.
    distances = range(1, game.longest_line + 1) if by_distance else (1, 2)
    state = game.initial()
    for seat in range(len(game.players)):
        for piece in NAMES:
            for distance in distances:
                try:
                    cost = r.glyph_move_cost(game=game, state=state, seat=seat, piece=piece, distance=distance)
                except (LookupError, TypeError, ValueError, AttributeError):
                    continue  # a rule that reads a position the start has not: asked again as moves are listed
                if cost is None:
                    continue
                problem = move_cost_problem(game, state, seat, piece, cost)
                if problem:
                    raise r.refuse(
                        hook, f"for the {NAMES[piece]}: {problem} (it gave {cost!r} for a move of {distance})"
                    )


def move_cost(game, state, seat: int, piece: str, distance: int) -> tuple:
    """What a variant's ``glyph_move_cost`` says a move costs, refused (one
    line naming the variant) when it is no cost: asked only where a variant
    changes that hook (the header-time costs were looked at as the game was made)."""
    cost = game.rules.glyph_move_cost(game=game, state=state, seat=seat, piece=piece, distance=distance)
    problem = move_cost_problem(game, state, seat, piece, cost)
    if problem:
        raise game.rules.refuse(
            "glyph_move_cost", f"for the {NAMES[piece]}: {problem} (it gave {cost!r} for a move of {distance})"
        )
    return cost


def move_cost_problem(game, state, seat: int, piece: str, cost: object) -> str | None:
    """What is wrong with ``cost`` as the cost of a move of ``piece``, or None."""
    if type(cost) is not tuple or len(cost) not in (2, 3) or type(cost[1]) is not int:
        return "a move costs (cost kind, amount) or (cost kind, amount, payment type)"
    kind, type_ = cost[0], cost[2] if len(cost) > 2 else None
    if kind not in COST_KINDS:
        return str(unknown_cost(kind))
    if cost[1] < 1:
        return "a move costs 1 item or more"
    if kind != "any-die" and (type_ or piece) not in PAYMENT_TYPES and _moves(game, state, seat, piece):
        return str(unknown_type(type_ or piece))
    return None


def _moves(game, state, seat: int, piece: str) -> bool:
    """Whether the ``piece`` moves at all (a range somewhere on the board)."""
    r = game.rules
    for source in range(game.geo.size):
        try:
            if r.glyph_move_range(game=game, state=state, seat=seat, piece=piece, source=source):
                return True
        except (LookupError, TypeError, ValueError, AttributeError):
            return True
    return False


def official_wild(state: State | Work, seat: int) -> frozenset[str]:
    """The seat's coin types that are wild: those of its dead glyph pieces."""
    fates = state.fates[seat]
    if ALIVE == fates[0] == fates[1] == fates[2] == fates[3] == fates[4] == fates[5]:
        return frozenset()
    return _dead(tuple(fates))


@functools.lru_cache(maxsize=256)
def _dead(fates: tuple) -> frozenset[str]:
    return frozenset(g for g, fate in zip(GLYPHS, fates) if fate != ALIVE)


def pay(work: Work, seat: int, dice: tuple[int, ...], coins: tuple[str, ...]) -> None:
    """Spend ``dice`` (numbers 1-5; re-rolled in the reset step) and ``coins``
    (to the used area)."""
    if coins:
        hand, used = work.hands[seat], work.used[seat]
        for coin in coins:
            i = GLYPHS.index(coin)
            hand[i] -= 1
            used[i] += 1
    for number in dice:
        work.spent.append(number - 1)


def error(
    state: State | Work,
    seat: int,
    cost: str,
    amount: int,
    dice: tuple[int, ...],
    coins: tuple[str, ...],
    paid_by: Payers,
    kind: str,
) -> str | None:
    """Why this payment does not pay ``cost`` (for X = ``amount``) of type
    ``kind`` with the items ``paid_by`` allows, or None. ``dice`` are die numbers 1-5."""
    if len(set(dice)) != len(dice):
        return "a die is spent twice"
    for number in dice:
        if not 1 <= number <= len(state.dice):
            return f"there is no die D{number}"
        if number - 1 in state.spent:
            return f"D{number} was spent already this turn"
    faces = [state.dice[n - 1] for n in dice]
    if cost == "item":
        amount = 1
    if cost == "any-die":
        if coins or len(dice) != amount:
            if amount == 1:
                return "the scepter moves for exactly 1 die, never coins"
            return f"this costs exactly {amount} dice of any face, never coins"
        return None
    if coins and not paid_by.coins:
        return f"{paid_by.why or 'here'}: no coins may be used"
    wrong = [f"D{n}" for n, f in zip(dice, faces) if f not in paid_by.faces]
    if wrong:
        return f"{', '.join(wrong)} {'does' if len(wrong) == 1 else 'do'} not show {kind}"
    hand = dict(zip(GLYPHS, state.hands[seat])) if coins else {}
    for coin in set(coins):
        if coin not in hand:
            return f"'{coin}' is not a coin"
        if coin not in paid_by.coins:
            if paid_by.why:
                return f"{paid_by.why}: {a_coin(coin)} may not be used"
            return f"{a_coin(coin)} pays only for {coin} (it is not wild)"
        if coins.count(coin) > hand[coin]:
            return f"you hold {hand[coin]} {coin} coin{'s' if hand[coin] != 1 else ''}, not {coins.count(coin)}"
    total = len(dice) + len(coins)
    if cost == "die":
        if len(dice) != 1 or coins:
            return f"this spell costs exactly 1 die showing {kind}"
    elif cost == "die+x":
        if not dice:
            return f"this spell needs a die showing {kind} (no coin replaces it)"
        if total != amount + 1:
            return f"this costs 1 die and {amount} more, {amount + 1} in all; {total} given"
    elif cost == "coin":
        if dice:
            return "this is paid in coins, never dice"
        if total != amount:
            return f"this costs {amount} coin{'s' if amount != 1 else ''}; {total} given"
    elif total != amount:
        return f"this costs {amount}; {total} given"
    return None


def options(
    state: State | Work, seat: int, cost: str, amount: int, paid_by: Payers
) -> Iterator[tuple[tuple[int, ...], tuple[str, ...]]]:
    """Every distinct way to pay: (die numbers, coins), most dice first. Dice
    showing the same face are alike, so the lowest-numbered are taken."""
    dice = state.dice
    free = [i + 1 for i in range(len(dice)) if i not in state.spent]
    if cost == "any-die":
        seen = set()
        for numbers in combinations(free, amount):
            faces = tuple(sorted(dice[n - 1] for n in numbers))
            if faces not in seen:
                seen.add(faces)
                yield numbers, ()
        return
    showing = [n for n in free if dice[n - 1] in paid_by.faces]
    pool: list[tuple[str, int]] = []
    if paid_by.coins:
        hand = state.hands[seat]
        pool = [(g, n) for g, n in zip(GLYPHS, hand) if n and g in paid_by.coins]
    if len(paid_by.faces) > 1 and cost != "die":
        yield from _by_faces(dice, cost, amount, showing, pool)
        return
    for n_dice, coins in counted(cost, amount, len(showing), pool):
        yield tuple(showing[:n_dice]), coins


def counted(cost: str, amount: int, dice: int, pool: list[tuple[str, int]]) -> Iterator[tuple[int, tuple[str, ...]]]:
    """The ways to pay ``cost`` for X = ``amount`` with ``dice`` dice that
    may pay, all alike (one face may pay), and the coins ``pool`` ((type,
    how many), none of them 0): (how many dice, coins), most dice first.
    Which dice: the lowest-numbered, as :func:`options` takes them."""
    if cost == "die":
        if dice:
            yield 1, ()
        return
    if cost == "item":
        amount = 1
    total = amount + 1 if cost == "die+x" else amount
    least = 1 if cost == "die+x" else 0
    if cost == "coin":
        dice = 0
    for n_dice in range(min(dice, total), least - 1, -1):
        for coins in _multisets(pool, total - n_dice):
            yield n_dice, coins


def _by_faces(dice: list, cost: str, amount: int, showing: list[int], pool: list[tuple[str, int]]):
    # Dice of different faces differ (the reset step re-rolls the ones spent).
    if cost == "item":
        amount = 1
    total = amount + 1 if cost == "die+x" else amount
    least = 1 if cost == "die+x" else 0
    if cost == "coin":
        showing = []
    groups: dict[str, list[int]] = {}
    for n in showing:
        groups.setdefault(dice[n - 1], []).append(n)
    for n_dice in range(min(len(showing), total), least - 1, -1):
        for faces in _multisets([(f, len(ns)) for f, ns in groups.items()], n_dice):
            picked = tuple(sorted(n for f in set(faces) for n in groups[f][: faces.count(f)]))
            for coins in _multisets(pool, total - n_dice):
                yield picked, coins


def _multisets(pool: list[tuple[str, int]], size: int) -> Iterator[tuple[str, ...]]:
    if size == 0:
        yield ()
        return
    if not pool:
        return
    (glyph, count), rest = pool[0], pool[1:]
    for take in range(min(count, size), -1, -1):
        for tail in _multisets(rest, size - take):
            yield (glyph,) * take + tail


@rulehook
def glyph_wild_coins(game, state: State | Work, seat: int) -> frozenset[str]:
    # A coin of a type whose piece is dead (killed or incinerated) is wild.
    return official_wild(state, seat)
