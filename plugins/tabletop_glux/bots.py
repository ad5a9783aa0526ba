"""A Glüx bot that plays for the room standings of this turn."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tabletop import Bot, Event

from .events import Place

if TYPE_CHECKING:
    from .game import Glux
    from .state import State


def greedy(game: Glux, state: State, player: str, legal: list[Event], rng: random.Random) -> Event:
    """The placement that gains the most victory points in its room now; then
    the most pips there; ties broken at random."""
    best: list[Event] = []
    best_key = None
    n = len(game.players)
    for decision in legal:
        key = (0, 0)
        if isinstance(decision, Place):
            square = game.board.square(decision.square)
            room = game.board.rooms[square]
            if room in game.room_squares:
                key = _gain(game, state, decision, room, square, n)
        if best_key is None or key > best_key:
            best, best_key = [decision], key
        elif key == best_key:
            best.append(decision)
    return best[rng.randrange(len(best))]


def _gain(game: Glux, state: State, decision: Place, room: str, square: int, players: int) -> tuple[int, int]:
    before = game.pips_in(state, room)
    after = dict(before)
    stack = state.stacks[square]
    if stack:
        covered_seat, covered_face = stack[-1]
        covered = game.players[covered_seat]
        after[covered] -= covered_face
        if not after[covered]:
            del after[covered]
    me = decision.player
    after[me] = after.get(me, 0) + decision.face
    score = game.rules.glux_score_room
    vp_before = score(game=game, state=state, room=room, pips=before, players=players).get(me, 0)
    vp_after = score(game=game, state=state, room=room, pips=after, players=players).get(me, 0)
    return vp_after - vp_before, after[me] - before.get(me, 0)


BOTS = [Bot("greedy", "places where it gains the most in room standings this turn", greedy, game="glux")]
