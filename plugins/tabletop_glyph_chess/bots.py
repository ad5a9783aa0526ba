"""A Glyph Chess bot: takes enemy scepters first, keeps its own scepter out
of reach, then takes pieces, then brings its scepter closer to the centre.

What a spell attacks is each spell's own ``victims`` (see
:mod:`~tabletop_glyph_chess.spells`), so a spell a variant adds is valued too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop import Bot, Event

from .context import Context
from .events import Cast, Move
from .pieces import ELEMENTALIST, MINION, SCEPTER
from .state import ACT

if TYPE_CHECKING:
    from .game import GlyphChess
    from .state import State

#: How far an enemy elementalist is taken to reach with a blaze in one turn.
BLAZE_REACH = 3


def _distance(game: GlyphChess, a: int, b: int = -1) -> int:
    q, r = game.geo.coords[a]
    if b >= 0:
        q2, r2 = game.geo.coords[b]
        q, r = q - q2, r - r2
    return max(abs(q), abs(r), abs(q + r))


def threatened(game: GlyphChess, state: State, seat: int) -> set[int]:
    """The spots an enemy piece could attack on its next turn, roughly: along
    a clear straight line from any glyph piece (a force mage's line goes
    through pieces), next to a scepter or a minion, and within a blaze of an
    elementalist. Costs are not counted: a bot should rather be safe."""
    board = state.board
    geo = game.geo
    spots: set[int] = set()
    for source, piece in enumerate(board):
        if piece is None or piece[0] == seat:
            continue
        kind = piece[1]
        if kind in (SCEPTER, MINION):
            spots.update(geo.neighbours[source])
            continue
        for ray in geo.ray_lists[source]:
            for spot in ray:
                spots.add(spot)
                if board[spot] is not None and kind != "F":
                    break
        if kind == ELEMENTALIST:
            spots.update(s for s in range(geo.size) if _distance(game, s, source) <= BLAZE_REACH)
    return spots


def _value(game: GlyphChess, state: State, seat: int, decision: Event, danger: set[int], home: int | None):
    """(enemy scepters taken, own scepter out of reach, enemy pieces taken,
    scepter steps towards the centre)."""
    geo = game.geo
    victims: list[int] = []
    closer = 0
    safe = home is None or home not in danger
    if isinstance(decision, Move):
        source, target = geo.spot(decision.source), geo.spot(decision.target)
        victims.append(target)
        if state.board[source][1] == SCEPTER:
            safe = target not in danger
            closer = _distance(game, source) - _distance(game, target)
    elif isinstance(decision, Cast):
        spell = game.spells.get(decision.spell)
        if spell is not None:
            spots = [geo.spot(s) for s in decision.spots]
            source = geo.spot(decision.source)
            victims += spell.victims(game, state, seat, source, spots, decision.target)
            if decision.spell == "swap" and home in spots:
                safe = source not in danger  # the scepter goes where the illusionist stood
    enemies = [state.board[v] for v in victims if v is not None and state.board[v] is not None]
    enemies = [p for p in enemies if p[0] != seat]
    return sum(p[1] == SCEPTER for p in enemies), safe, len(enemies), closer if safe else min(closer, 0)


def _long_blazes(game: GlyphChess, state: State, seat: int, rng: random.Random) -> list[Event]:
    """A few blaze paths longer than ``moves`` lists, drawn at random (legal
    too: there are too many to list)."""
    found: list[Event] = []
    if state.phase != ACT:
        return found
    names = game.geo.names
    for spell in game.spells.values():
        if spell.sample is None:
            continue
        cost, kind = game.costs[spell.name]
        for source, piece in enumerate(state.board):
            if piece == (seat, spell.caster):
                ctx = Context(game, state, seat).at(source)
                for path in spell.sample(game, state, seat, source, rng):
                    dice, coins = next(iter(ctx.ways(cost, len(path), kind)), ((), ()))
                    spots = tuple(names[s] for s in path)
                    cast = Cast(game.players[seat], spell.name, names[source], spots, "", dice, coins)
                    if game.check(state, cast) is None:
                        found.append(cast)
    return found


def greedy(game: GlyphChess, state: State, player: str, legal: list[Event], rng: random.Random) -> Event:
    """The decision that takes an enemy scepter; else one that leaves its own
    scepter out of reach, taking the most; else the one that brings the
    scepter closest to the centre; ties at random."""
    seat = game.seats[player]
    return best(game, state, player, [*legal, *_long_blazes(game, state, seat, rng)], rng)


def best(game: GlyphChess, state: State, player: str, options: Sequence[Event], rng: random.Random) -> Event:
    """The greedy bot's choice among ``options`` alone (the search bot's
    first try, :meth:`~tabletop.Game.prefer`)."""
    seat = game.seats[player]
    danger = threatened(game, state, seat)
    mine = (seat, SCEPTER)
    home = state.board.index(mine) if mine in state.board else None
    chosen: list[Event] = []
    chosen_value = None
    for decision in options:
        value = _value(game, state, seat, decision, danger, home)
        if chosen_value is None or value > chosen_value:
            chosen, chosen_value = [decision], value
        elif value == chosen_value:
            chosen.append(decision)
    return chosen[rng.randrange(len(chosen))]


BOTS = [
    Bot(
        "greedy",
        "takes scepters, keeps its own out of reach, then takes pieces and advances",
        greedy,
        game="glyph-chess",
    )
]
