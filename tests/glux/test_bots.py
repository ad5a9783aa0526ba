"""The greedy bot places for this turn's room standings."""

from __future__ import annotations

import random

from tabletop_glux.bots import greedy
from tabletop_glux.events import Place

from .helpers import make_game, position


def test_greedy_takes_first_place_in_a_room_when_it_can(registry):
    game = make_game(registry)
    # From e5, ann reaches f5 (room E, where ben leads with 2) or path squares;
    # d5 holds two chips already.
    chips = {
        "a1": [("ann", 1)],
        "e5": [("ann", 1)],
        "d5": [("ben", 1), ("ben", 6)],
        "g6": [("ben", 2)],
        "m9": [("ben", 3)],
    }
    state = position(game, chips, hands={"ann": "3/4"})
    choice = greedy(game, state, "ann", game.legal(state, "ann"), random.Random(1))
    assert choice == Place("ann", "f5", 4)


def test_greedy_beats_random_over_many_games(registry):
    from tabletop.play.live import selfplay

    bots = [registry.bot("greedy", "glux"), registry.bot("random", "glux")]
    wins = 0
    for i in range(20):
        _, match, _ = selfplay(registry, "glux", ["g", "r"], bots, f"duel-{i}")
        wins += match.game.outcome(match.state).winners == ("g",)
    assert wins >= 14
