"""The necromancer's passive spell, the escape: when an enemy lands on it, its
owner may pay 1 necromancer coin or wild coin (never a die) to move it to the
spot the attacker came from. Each landing is a separate attack (FAQ Q16); on
a blaze the spot is the start of that one step (FAQ Q10); a blast does not
land on it (FAQ Q9); in an enemy seeress's sight no coin may be used (FAQ
Q11). The owner is asked only when they can pay.

What the escape costs is the hook ``glyph_escape_cost``: a payment type (one
coin that may pay for it), or a cost kind and a payment type (one item:
``"item"``, a coin or a die; ``"die"``, a die showing the type; ``"any-die"``,
any die). Which coins and dice may pay is ``glyph_payers``, as for every
payment; the items offered, ``glyph_escape_coins``. A die is written ``D2``,
and the escape spends it as a move would (the reset step re-rolls it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import rulehook

from . import payment
from .pieces import GLYPHS, NECROMANCER, a_coin
from .state import State, Step, Work

if TYPE_CHECKING:
    from .game import GlyphChess

#: The cost kinds an escape may have: each is paid with one item.
ONE_ITEM = frozenset({"coin", "item", "die", "any-die", "x"})


@rulehook
def glyph_escape_cost(game: GlyphChess, state: State | Work, spot: int) -> str:
    # One item of the necromancer's own type, paid with a coin.
    return NECROMANCER


@rulehook
def glyph_escape_coins(game: GlyphChess, state: State | Work, spot: int) -> list[str]:
    # The coins in hand (and, where the cost allows one, the dice) that may
    # pay the escape's cost for the necromancer on ``spot``
    # (``glyph_payers``: officially its own and wild coins, none in an
    # enemy seeress's sight).
    seat = state.board[spot][0]
    cost = escape_cost(game, state, spot)
    if cost is None:
        return []
    kind, type_ = cost
    paid_by = game.payers(game=game, state=state, seat=seat, spot=spot, kind=type_)
    if kind == "coin":
        return [g for g, n in zip(GLYPHS, state.hands[seat]) if n and g in paid_by.coins]
    ways = payment.options(state, seat, kind, 1, paid_by)
    return [f"D{dice[0]}" if dice else coins[0] for dice, coins in ways]


def escape_cost(game: GlyphChess, state: State | Work, spot: int) -> tuple[str, str] | None:
    """What the escape of the necromancer on ``spot`` costs, as (cost kind,
    payment type), from ``glyph_escape_cost``; None: it cannot escape."""
    cost = game.rules.glyph_escape_cost(game=game, state=state, spot=spot)
    if not cost:
        return None
    if type(cost) is str:
        if cost not in payment.PAYMENT_TYPES:
            raise game.rules.refuse("glyph_escape_cost", f"gave {cost!r}: {payment.unknown_type(cost)}")
        return "coin", cost
    problem = payment.cost_problem(*(tuple(cost) + (None,))[:2])
    if problem:
        raise game.rules.refuse("glyph_escape_cost", f"gave {cost!r}: {problem}")
    kind, type_ = payment.cost_of("glyph_escape_cost", cost)
    if kind not in ONE_ITEM:
        raise game.rules.refuse("glyph_escape_cost", f"gave '{kind}': an escape is paid with one item")
    return kind, type_ or NECROMANCER


def checked_coins(game: GlyphChess):
    """A variant's ``glyph_escape_coins``, refused (one line naming the
    variant) when it offers what no one can pay with: a coin letter that is
    no glyph type, a die the game does not share."""
    asked = game.rules.glyph_escape_coins

    def escape_coins(game, state, spot):
        found = asked(game=game, state=state, spot=spot)
        items = {*GLYPHS, *(f"D{n}" for n in range(1, game.dice + 1))}
        wrong = [item for item in found if item not in items]
        if wrong:
            raise game.rules.refuse(
                "glyph_escape_coins",
                f"gave {wrong[0]!r}: a coin letter ({' '.join(GLYPHS)}) or a die D1 to D{game.dice}",
            )
        return found

    return escape_coins


def paid(item: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """An escape's item (``"N"``, ``"D2"``) as the (die numbers, coins) it spends."""
    return ((int(item[1:]),), ()) if item[:1] == "D" else ((), (item,))


def pay(work: Work, seat: int, item: str) -> None:
    """``seat`` pays ``item`` for its necromancer's escape."""
    payment.pay(work, seat, *paid(item))


def error(game: GlyphChess, state: State | Work, item: str) -> str | None:
    """Why the attacked necromancer's owner may not escape paying ``item``
    (``""``: it stays), or None. A die is taken whenever it may pay, as in
    every payment, though only the lowest-numbered of alike dice is listed."""
    if not item:
        return None
    offered = options(game, state)
    if item in offered:
        return None
    spot = state.steps[0].target
    cost = escape_cost(game, state, spot) if item[:1] == "D" else None
    if cost is not None:
        seat = state.board[spot][0]
        kind, type_ = cost
        paid_by = game.payers(game=game, state=state, seat=seat, spot=spot, kind=type_)
        dice, coins = paid(item)
        if payment.error(state, seat, kind, 1, dice, coins, paid_by, type_) is None:
            return None
    named = item if item[:1] == "D" else a_coin(item)
    return f"you cannot escape with {named} (you may use: {', '.join(offered) or 'none'})"


def attacked_necromancer(state: State | Work, step: Step) -> bool:
    """Whether this landing attacks an enemy necromancer."""
    target = state.board[step.target]
    mover = state.board[step.source]
    return target is not None and target[1] == NECROMANCER and mover is not None and target[0] != mover[0]


def options(game: GlyphChess, state: State | Work) -> list[str]:
    """The coins (and dice) the attacked necromancer's owner may pay now."""
    return list(game.escape_coins(game=game, state=state, spot=state.steps[0].target))
