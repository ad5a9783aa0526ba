"""Victory: a scepter on the centre, elimination, the last player standing."""

from __future__ import annotations

from tabletop import Decide, Over
from tabletop.cli.common import result

from .helpers import position, record, spot

HANDS = {"ann": "S S I I E", "ben": "S S I I E", "cat": "S S I I E"}


def test_victory_scepter_on_the_centre_at_the_start_of_its_owners_turn(registry, tmp_path):
    data = position({"ann": {"g6": "K"}}, hands=HANDS)
    match = record(registry, tmp_path / "centre.jsonl", data, ["ann g6-g7 / D1"])
    # Arriving is not yet winning: ben plays first.
    assert match.game.next(match.state) == Decide(("ben",)) and match.state.winner is None
    match = record(registry, tmp_path / "won.jsonl", data, ["ann g6-g7 / D1", "ben m4-l4 / D1"])
    assert match.game.next(match.state) == Over()
    outcome = match.game.outcome(match.state)
    assert outcome.winners == ("ann",) and outcome.note == "scepter on the centre"
    # No points: the score is the game won, not the pieces left on the board.
    assert outcome.scores == {"ann": 1, "ben": 0}
    assert result(match) == "ann 1, ben 0; ann wins (scepter on the centre)."


def test_victory_denied_when_the_scepter_is_taken_first(registry, tmp_path):
    data = position({"ann": {"g6": "K"}, "ben": {"g9": "E"}}, hands={"ann": "S S I I E", "ben": "E E S S I"})
    match = record(registry, tmp_path / "denied.jsonl", data, ["ann g6-g7 / D1", "ben g9-g7 / E E"])
    assert match.state.eliminated[0] and match.game.outcome(match.state).winners == ("ben",)


def test_elimination_when_a_scepter_dies_all_that_players_pieces_leave(registry, tmp_path):
    data = position(
        {"ann": {"g3": "F"}, "ben": {"g5": "K"}},
        players=("ann", "ben", "cat"),
        hands={"ann": "F F S S I", "ben": "S S I I E", "cat": "S S I I E"},
    )
    match = record(registry, tmp_path / "out.jsonl", data, ["ann g3-g5 / F F"])
    state = match.state
    assert state.eliminated == (False, True, False)
    assert not any(p is not None and p[0] == 1 for p in state.board)
    # The game goes on between the others; ben's turns are skipped.
    assert match.game.next(state) in (Decide(("cat",)),) or state.turn == 2


def test_last_player_standing_wins(registry, tmp_path):
    data = position({"ann": {"g3": "F"}, "ben": {"g5": "K"}}, hands={"ann": "F F S S I", "ben": "S S I I E"})
    match = record(registry, tmp_path / "last.jsonl", data, ["ann g3-g5 / F F"])
    assert match.over
    outcome = match.game.outcome(match.state)
    assert outcome.winners == ("ann",) and outcome.note == "last player standing"
    assert spot(match.game, match.state, "g5") == ("ann", "F")


def test_three_players_an_elimination_mid_game_then_a_winner(registry, tmp_path):
    data = position(
        {"ann": {"g3": "F"}, "ben": {"g5": "K"}, "cat": {"g9": "E"}},
        players=("ann", "ben", "cat"),
        hands={"ann": "F F S S I", "ben": "S S I I E", "cat": "E E S S I"},
    )
    script = ["ann g3-g5 / F F", "cat g9-g8 / E", "ann a4-b5 / D1"]
    match = record(registry, tmp_path / "three.jsonl", data, script)
    assert match.state.turn == 2 and not match.over  # cat again: ben is out
