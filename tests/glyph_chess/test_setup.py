"""The board, the components and the setup of Glyph Chess."""

from __future__ import annotations

from tabletop import Chance, Decide
from tabletop.log.header import Header
from tabletop_glyph_chess.events import Draw, Roll, Shuffle
from tabletop_glyph_chess.hexes import board
from tabletop_glyph_chess.pieces import GLYPHS
from tabletop_glyph_chess.state import ACT, ALIVE, AWAKEN

ORDER = ("S", "I", "E", "F", "N", "U")


def new(registry, players=("ann", "ben"), options=None):
    game = registry.game(Header("glyph-chess", players, (), options or {}))
    return game, game.initial()


def set_up(registry, players):
    game, state = new(registry, players)
    for p in players:
        state = game.apply(state, Shuffle(p, ORDER))
    return game, state


def names(game, spots):
    return [game.geo.names[s] for s in spots]


def test_board_is_a_hexagon_with_7_spots_an_edge_and_127_spots():
    geo = board(6)
    assert geo.size == 127
    assert geo.names[geo.center] == "g7"
    assert [len(geo.edge(k)) for k in range(6)] == [7] * 6
    assert sorted(len(n) for n in geo.neighbours)[:6] == [3] * 6  # the corners


def test_board_two_players_sit_at_opposite_edges(registry):
    game, _ = new(registry)
    assert names(game, game.edges[0]) == ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
    assert names(game, game.edges[1]) == ["m7", "m6", "m5", "m4", "m3", "m2", "m1"]


def test_board_three_players_sit_at_alternate_edges(registry):
    game, _ = new(registry, ("ann", "ben", "cat"))
    assert names(game, game.edges[0]) == ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
    assert names(game, game.edges[1]) == ["m1", "l1", "k1", "j1", "i1", "h1", "g1"]
    assert names(game, game.edges[2]) == ["g13", "h12", "i11", "j10", "k9", "l8", "m7"]


def test_board_radius_is_board_data(registry):
    game, _ = new(registry, options={"radius": 8})
    assert game.geo.size == 3 * 8 * 9 + 1
    assert names(game, game.edges[0]) == ["a2", "a3", "a4", "a5", "a6", "a7", "a8"]  # the middle of 9


def test_bad_radius_option(cli):
    result = cli("new", "glyph-chess", "--players", "a,b", "--option", "radius=3", "-o", "g.jsonl")
    assert result.exit_code == 2 and "option 'radius'" in result.stderr


def test_components_per_player(registry):
    game, state = set_up(registry, ("ann", "ben"))
    for seat in (0, 1):
        pieces = sorted(p[1] for p in state.board if p is not None and p[0] == seat)
        assert pieces == sorted(["K", *GLYPHS])  # one illusionist on the board, the replica spare
        assert state.bags[seat] == (2,) * 6  # 12 coins, 2 of each type
        assert state.fates[seat] == (ALIVE,) * 6
    assert len(state.dice) == 5
    assert "I(replica) M x3" in game.render(state)


def test_setup_shuffled_cards_give_the_order_beside_the_central_scepter(registry):
    game, state = new(registry)
    node = game.next(state)
    assert isinstance(node, Chance) and len(node.outcomes) == 720 and node.outcomes[0].player == "ann"
    state = game.apply(state, Shuffle("ann", ("N", "U", "S", "E", "I", "F")))
    row = [state.board[s][1] for s in game.edges[0]]
    assert row == ["N", "U", "S", "K", "E", "I", "F"]


def test_setup_gold_rolls_all_dice_then_the_other_draws_1_coin(registry):
    game, state = set_up(registry, ("ann", "ben"))
    for die in range(1, 6):
        node = game.next(state)
        assert node == Chance(tuple(Roll(die, g) for g in GLYPHS))
        state = game.apply(state, Roll(die, "E"))
    node = game.next(state)
    assert node.outcomes[0] == Draw("ben", "S")
    state = game.apply(state, Draw("ben", "N"))
    assert state.hands[1] == (0, 0, 0, 0, 1, 0) and state.hands[0] == (0,) * 6
    assert state.phase in (AWAKEN, "draw", ACT) and state.turn == 0


def test_setup_three_players_silver_draws_1_bronze_draws_2(registry):
    game, state = set_up(registry, ("ann", "ben", "cat"))
    for die in range(1, 6):
        state = game.apply(state, Roll(die, "S"))
    drawers = []
    while isinstance(game.next(state), Chance) and isinstance(game.next(state).outcomes[0], Draw):
        node = game.next(state)
        drawers.append(node.outcomes[0].player)
        state = game.apply(state, node.outcomes[0])
        if state.turn == 0 and not any(state.owed):
            break
    assert drawers[:3] == ["ben", "cat", "cat"]
    assert [sum(h) for h in state.hands][1:] == [1, 2]


def test_turn_order_gold_silver_bronze(registry, tmp_path):
    from .helpers import position, record

    data = position(
        {"ann": {"d4": "K"}, "ben": {"j4": "K"}, "cat": {"g3": "K"}},
        players=("ann", "ben", "cat"),
        hands={p: "S S I I E" for p in ("ann", "ben", "cat")},
    )
    script = ["ann d4-d5 / D1", "ben j4-j5 / D1", "cat g3-g4 / D1"]
    match = record(registry, tmp_path / "order.jsonl", data, script)
    assert match.game.next(match.state) == Decide(("ann",))
