"""Setup: bags, start chips, hand chips, the start player, start squares."""

from __future__ import annotations

import pytest

from tabletop import Chance, Decide
from tabletop.log.header import Header, Randomness
from tabletop.play.engine import Match
from tabletop.play.live import settle
from tabletop_glux.events import Draw, FirstPlayer, Start

from .helpers import make_game

NAMES = ["ann", "ben", "cat", "dan"]


def test_setup_24_chips_per_player_8_of_each_kind(registry):
    game = make_game(registry, NAMES)
    assert game.initial().bags == ((8, 8, 8),) * 4


@pytest.mark.parametrize(
    ("players", "starts"),
    [(2, ["a1", "m9"]), (3, ["a1", "m1", "g13"]), (4, ["a1", "m1", "m13", "a13"])],
)
def test_start_squares_from_the_rulings(registry, players, starts):
    game = make_game(registry, NAMES[:players])
    assert [game.board.name_of(s) for s in game.start_squares] == starts
    assert game.board.name == ("two-players" if players == 2 else "three-four-players")


def test_setup_draw_a_start_chip_choose_a_face_place_it_on_the_start_square(registry):
    game = make_game(registry)
    state = game.initial()
    node = game.next(state)
    assert node == Chance((Draw("ann", "1/6"), Draw("ann", "2/5"), Draw("ann", "3/4")), (8, 8, 8))
    state = game.apply(state, Draw("ann", "2/5"))
    state = game.apply(state, Draw("ben", "1/6"))
    # Both choose their face, in any order.
    assert game.next(state) == Decide(("ann", "ben"))
    assert game.legal(state, "ann") == [Start("ann", 2), Start("ann", 5)]
    assert game.check(state, Start("ann", 6)) == "your chip is 2/5; face 6 is not on it"
    state = game.apply(state, Start("ben", 6))
    assert game.next(state) == Decide(("ann",))
    # Once is all: ben's start chip is placed while ann still chooses.
    assert game.check(state, Start("ben", 1)) == "the start chip is placed already"
    state = game.apply(state, Start("ann", 5))
    assert state.stacks[game.board.square("a1")] == ((0, 5),)
    assert state.stacks[game.board.square("m9")] == ((1, 6),)


def test_setup_draw_one_chip_into_the_hidden_hand_then_a_random_start_player(registry):
    match = Match(registry, Header("glux", ("ann", "ben", "cat"), randomness=Randomness(seed="s")))
    settle(match, "s")
    for player in ("ann", "ben", "cat"):
        kind = match.state.hands[match.game.seats[player]]
        match.apply(Start(player, int(kind[0])))
    node = match.game.next(match.state)
    assert isinstance(node, Chance) and node.outcomes[0].player == "ann"  # hand draws, in seat order
    events = settle(match, "s")
    assert [e.kind for e in events] == ["draw", "draw", "draw", "first-player"]
    assert all(h is not None for h in match.state.hands)
    assert all(sum(b) == 22 for b in match.state.bags)
    assert events[-1] in [FirstPlayer(p) for p in ("ann", "ben", "cat")]
    assert match.state.turn == match.game.seats[events[-1].starter]
    # And once the game has begun, no start chip is chosen again.
    assert match.game.check(match.state, Start("ann", 1)) == "the start chip is placed already"


def test_random_start_player_is_a_chance_node_over_every_player(registry):
    game = make_game(registry, NAMES[:3])
    state = game.initial()
    for p in game.players:
        state = game.apply(state, Draw(p, "1/6"))
    for p in game.players:
        state = game.apply(state, Start(p, 1))
    for p in game.players:
        state = game.apply(state, Draw(p, "2/5"))
    assert game.next(state) == Chance(tuple(FirstPlayer(p) for p in game.players))


def test_turns_go_clockwise_from_the_start_player(registry):
    game = make_game(registry, NAMES[:3])
    state = game.initial()
    for event in (
        [Draw(p, "1/6") for p in NAMES[:3]] + [Start(p, 1) for p in NAMES[:3]] + [Draw(p, "1/6") for p in NAMES[:3]]
    ):
        state = game.apply(state, event)
    state = game.apply(state, FirstPlayer("cat"))
    order = []
    for _ in range(4):
        player = game.next(state).players[0]
        order.append(player)
        state = game.apply(state, game.legal(state, player)[0])
        state = game.apply(state, Draw(player, "1/6"))
    assert order == ["cat", "ann", "ben", "cat"]
