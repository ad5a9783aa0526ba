"""Paying for moves and spells with coins and dice.

"Consume X of type T" means X items, each a coin of type T, a die showing T,
or a wild coin (a coin of a type whose piece is dead). A piece in sight of an
enemy seeress may use no coins at all. A master spell's die is a die: no coin
replaces it.

Costs are written as: ``x`` (X items), ``item`` (1 item), ``die`` (1 die
showing the type, nothing else), ``die+x`` (that die and X items more),
``any-die`` (the scepter: exactly 1 die of any face, never a coin; with an
amount N: N dice of any faces).

Which coins are wild is the rule hook ``glyph_wild_coins``; the caller passes
the answer as ``wild``.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from tabletop import rulehook

from .pieces import GLYPHS, a_coin
from .state import ALIVE, State, Work


def official_wild(state: State | Work, seat: int) -> frozenset[str]:
    """The seat's coin types that are wild: those of its dead glyph pieces."""
    fates = state.fates[seat]
    if ALIVE == fates[0] == fates[1] == fates[2] == fates[3] == fates[4] == fates[5]:
        return frozenset()
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
    glyph: str,
    cost: str,
    amount: int,
    dice: tuple[int, ...],
    coins: tuple[str, ...],
    may_coin: bool,
    wild: frozenset[str],
) -> str | None:
    """Why this payment does not pay ``cost`` (for X = ``amount``), or None.
    ``dice`` are die numbers 1-5."""
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
    if coins and not may_coin:
        return "in sight of an enemy seeress: no coins may be used"
    wrong = [f"D{n}" for n, f in zip(dice, faces) if f != glyph]
    if wrong:
        return f"{', '.join(wrong)} {'does' if len(wrong) == 1 else 'do'} not show {glyph}"
    hand = dict(zip(GLYPHS, state.hands[seat])) if coins else {}
    for coin in set(coins):
        if coin not in hand:
            return f"'{coin}' is not a coin"
        if coin != glyph and coin not in wild:
            return f"{a_coin(coin)} pays only for {coin} (it is not wild)"
        if coins.count(coin) > hand[coin]:
            return f"you hold {hand[coin]} {coin} coin{'s' if hand[coin] != 1 else ''}, not {coins.count(coin)}"
    total = len(dice) + len(coins)
    if cost == "die":
        if len(dice) != 1 or coins:
            return f"this spell costs exactly 1 die showing {glyph}"
    elif cost == "die+x":
        if not dice:
            return f"this spell needs a die showing {glyph} (no coin replaces it)"
        if total != amount + 1:
            return f"this costs 1 die and {amount} more, {amount + 1} in all; {total} given"
    elif total != amount:
        return f"this costs {amount}; {total} given"
    return None


def options(
    state: State | Work, seat: int, glyph: str, cost: str, amount: int, may_coin: bool, wild: frozenset[str]
) -> Iterator[tuple[tuple[int, ...], tuple[str, ...]]]:
    """Every distinct way to pay: (die numbers, coins). Dice showing the same
    face are alike, so the lowest-numbered are taken."""
    free = [i + 1 for i in range(len(state.dice)) if i not in state.spent]
    if cost == "any-die":
        seen = set()
        for numbers in combinations(free, amount):
            faces = tuple(sorted(state.dice[n - 1] for n in numbers))
            if faces not in seen:
                seen.add(faces)
                yield numbers, ()
        return
    showing = [n for n in free if state.dice[n - 1] == glyph]
    if cost == "item":
        amount = 1
    if cost == "die":
        if showing:
            yield (showing[0],), ()
        return
    total = amount + 1 if cost == "die+x" else amount
    least = 1 if cost == "die+x" else 0
    pool: list[tuple[str, int]] = []
    if may_coin:
        hand = dict(zip(GLYPHS, state.hands[seat]))
        pool = [(g, hand[g]) for g in GLYPHS if hand[g] and (g == glyph or g in wild)]
    for n_dice in range(min(len(showing), total), least - 1, -1):
        for coins in _multisets(pool, total - n_dice):
            yield tuple(showing[:n_dice]), coins


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
def glyph_wild_coins(state: State | Work, seat: int) -> frozenset[str]:
    # A coin of a type whose piece is dead (killed or incinerated) is wild.
    return official_wild(state, seat)
