"""How the search bot judges a Glyph Chess position (``evaluation.py``), and
the greedy choice it tries first (``GlyphChess.prefer``)."""

from __future__ import annotations

import random

from tabletop import MCTS
from tabletop_glyph_chess.bots import best
from tabletop_glyph_chess.evaluation import evaluate, reach

from .helpers import game_at, position, to_action


def judged(registry, pieces, **kwargs):
    game, state = game_at(registry, position(pieces, **kwargs))
    state = to_action(game, state, draws="")
    return game, state, evaluate(game, state)


def test_judgement_the_player_to_act_who_can_strike_a_scepter_wins(registry):
    # ann's force mage on g3 has a clear line to ben's scepter on g6, and F coins and a die to go there.
    game, state, chances = judged(
        registry, {"ann": {"g3": "F", "e4": "K"}, "ben": {"g6": "K"}}, hands={"ann": "F F"}, dice="F S S S S"
    )
    assert game.geo.spot("g6") in reach(game, state, 0)
    assert chances["ann"] > 0.95
    # Without the coins and the die, the same line is no threat, and ben's
    # scepter, one spot from the centre, is ahead in the race.
    game, state, chances = judged(registry, {"ann": {"g3": "F", "e4": "K"}, "ben": {"g6": "K"}})
    assert game.geo.spot("g6") not in reach(game, state, 0)
    assert chances["ann"] < 0.5


def test_judgement_a_scepter_on_the_centre_the_player_to_act_cannot_strike_wins(registry):
    game, state, chances = judged(registry, {"ann": {"e4": "K"}, "ben": {"g7": "K"}})
    assert chances["ben"] > 0.95
    # Next to the centre, ann's scepter strikes it (any die moves a scepter one spot).
    game, state, chances = judged(registry, {"ann": {"f7": "K"}, "ben": {"g7": "K"}})
    assert chances["ann"] > 0.95


def test_judgement_a_scepter_beside_a_centre_no_enemy_reaches_will_step_in(registry):
    game, state, chances = judged(registry, {"ann": {"f7": "K"}, "ben": {"k6": "K"}})
    assert chances["ann"] > 0.8
    # ben's scepter beside the centre too: it guards the centre, and nobody is favoured by much.
    game, state, chances = judged(registry, {"ann": {"f7": "K"}, "ben": {"h6": "K"}})
    assert 0.3 < chances["ann"] < 0.7


def test_judgement_a_scepter_an_enemy_can_strike_before_its_turn_is_exposed(registry):
    # ben to act: ann's scepter on f5 lies on the line of ben's force mage, which has F coins.
    quiet = judged(registry, {"ann": {"f5": "K"}, "ben": {"j2": "F"}}, hands={"ben": "F F"}, dice="F S S S S")[2]
    exposed = judged(registry, {"ann": {"f5": "K"}, "ben": {"f2": "F"}}, hands={"ben": "F F"}, dice="F S S S S")[2]
    assert exposed["ann"] < quiet["ann"]


def test_judgement_reach_of_the_pieces(registry):
    """Force mages go through pieces, other pieces stop at the first; a
    seeress's sight takes coins away; a scepter reaches its neighbours."""
    game, state = game_at(
        registry,
        position({"ann": {"g2": "F", "g3": "S", "c7": "N"}, "ben": {"g5": "U", "c9": "S"}}, hands={"ann": "F F N N"}),
    )
    state = to_action(game, state, draws="")
    spots = reach(game, state, 0)
    spot = game.geo.spot
    assert spot("g5") in spots  # the force mage's line goes through ann's seeress on g3
    assert spot("g4") in spots and spot("g6") not in spots  # the seeress has S dice: she stops at ben's summoner
    # ann's necromancer on c7 is in sight of ben's seeress on c9: no coins, and no die shows N.
    assert spot("c8") not in spots
    home = state.board.index((0, "K"))
    assert set(game.geo.neighbours[home]) <= spots


def test_judgement_is_none_before_the_pieces_are_on_the_board(registry):
    from tabletop import Header

    game = registry.game(Header("glyph-chess", ("ann", "ben")))
    assert game.evaluate(game.initial()) is None


def test_prefer_is_the_greedy_choice_among_the_options(registry):
    game, state = game_at(
        registry, position({"ann": {"g3": "F", "e4": "K"}, "ben": {"g6": "K"}}, hands={"ann": "F F"}, dice="F S S S S")
    )
    state = to_action(game, state)
    options = list(game.legal(state, "ann"))
    choice = game.prefer(state, "ann", options, random.Random(1))
    assert (choice.source, choice.target) == ("g3", "g6")
    assert choice == best(game, state, "ann", options, random.Random(1))
    # Among the options left without it, never one outside them.
    rest = [d for d in options if d != choice]
    assert game.prefer(state, "ann", rest, random.Random(1)) in rest


def test_mcts_steps_off_the_centre_line_it_would_lose_on(registry):
    """ann's scepter beside the centre, ben's too: stepping in loses to ben's
    scepter at once, so the search keeps out (the line a greedy player takes)."""
    game, state = game_at(registry, position({"ann": {"f7": "K"}, "ben": {"h6": "K"}}))
    state = to_action(game, state)
    legal = list(game.legal(state, "ann"))
    for seed in range(3):
        choice = MCTS(iterations=120)(game, state, "ann", legal, random.Random(seed))
        assert not (choice.source == "f7" and choice.target == "g7"), choice
