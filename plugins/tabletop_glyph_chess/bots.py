"""A Glyph Chess bot: kills first, then brings its scepter closer to the centre."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tabletop import Bot, Event

from .events import Cast, Move
from .pieces import SCEPTER

if TYPE_CHECKING:
    from .game import GlyphChess
    from .state import State


def _distance(game: GlyphChess, spot: int) -> int:
    q, r = game.geo.coords[spot]
    return max(abs(q), abs(r), abs(q + r))


def _value(game: GlyphChess, state: State, seat: int, decision: Event) -> tuple[int, int, int]:
    """(enemy scepters taken, enemy pieces taken, scepter steps towards the centre)."""
    geo = game.geo
    victims: list[int] = []
    closer = 0
    if isinstance(decision, Move):
        source, target = geo.spot(decision.source), geo.spot(decision.target)
        victims.append(target)
        if state.board[source][1] == SCEPTER:
            closer = _distance(game, source) - _distance(game, target)
    elif isinstance(decision, Cast):
        spell = game.spells.get(decision.spell)
        if spell is not None:
            spots = [geo.spot(s) for s in decision.spots]
            source = geo.spot(decision.source)
            victims += spell.victims(game, state, seat, source, spots, decision.target)
    enemies = [state.board[v] for v in victims if v is not None and state.board[v] is not None]
    enemies = [p for p in enemies if p[0] != seat]
    return sum(p[1] == SCEPTER for p in enemies), len(enemies), closer


def greedy(game: GlyphChess, state: State, player: str, legal: list[Event], rng: random.Random) -> Event:
    """The decision that takes the most (scepters first); else the one that
    brings the scepter closest to the centre; ties at random."""
    seat = game.seats[player]
    best: list[Event] = []
    best_value = None
    for decision in legal:
        value = _value(game, state, seat, decision)
        if best_value is None or value > best_value:
            best, best_value = [decision], value
        elif value == best_value:
            best.append(decision)
    return best[rng.randrange(len(best))]


BOTS = [Bot("greedy", "prefers kills, then advancing its scepter", greedy, game="glyph-chess")]
