"""Resigning: a core decision any player still in the game may make at any
time before the end; each game says what it means."""

from __future__ import annotations

import json

import pytest

from tabletop.base.errors import IllegalEventError
from tabletop.log.header import Header
from tabletop.model.events import Resign
from tabletop.play.engine import Match, Replay
from tabletop.play.live import settle
from tabletop_glux.state import State as GluxState
from tabletop_glyph_chess.state import ESCAPE, OVER

from ..glux.helpers import make_game
from ..glux.helpers import position as glux_position
from ..glyph_chess.helpers import act, game_at, position, spot, to_action


def glyph(registry, pieces, hands=None, players=("ann", "ben")):
    hands = {"ann": "S S I E E", "ben": "S S I I E", "cat": "S S I I E"} | (hands or {})
    game, state = game_at(registry, position(pieces, hands=hands, players=players))
    return game, to_action(game, state)


# -- Glyph Chess: elimination -------------------------------------------------------
def test_glyph_resign_out_of_turn_eliminates_the_player(registry):
    game, state = glyph(registry, {"ann": {"g3": "F"}}, players=("ann", "ben", "cat"))
    assert game.players[state.turn] == "ann"
    after = game.resign(state, "ben")
    assert after.eliminated == (False, True, False)
    assert not any(p is not None and p[0] == 1 for p in after.board)  # all ben's pieces left
    assert after.turn == state.turn and after.phase == state.phase  # ann goes on with her action


def test_glyph_resign_on_own_turn_passes_the_turn(registry):
    game, state = glyph(registry, {"ann": {"g3": "F"}}, players=("ann", "ben", "cat"))
    after = game.resign(state, "ann")
    assert after.eliminated[0] and game.players[after.turn] == "ben"


def test_glyph_resign_of_one_of_two_ends_the_game(registry):
    game, state = glyph(registry, {"ann": {"g3": "F"}})
    after = game.resign(state, "ann")
    assert after.phase == OVER and after.winner == 1
    assert game.outcome(after).winners == ("ben",)


def test_glyph_resign_during_the_escape_step(registry):
    game, state = glyph(
        registry,
        {"ann": {"g3": "F"}, "ben": {"g5": "N"}},
        hands={"ann": "F F S S E", "ben": "N S S I E"},
        players=("ann", "ben", "cat"),
    )
    state = act(game, state, "ann", "g3-g5 / F F")
    assert state.phase == ESCAPE
    after = game.resign(state, "ben")  # the escape question was ben's
    assert after.eliminated[1] and spot(game, after, "g5") == ("ann", "F")  # the attack goes on
    assert after.phase != ESCAPE and not after.steps


def test_glyph_resign_twice_is_refused(registry):
    game, state = glyph(registry, {"ann": {"g3": "F"}}, players=("ann", "ben", "cat"))
    after = game.resign(state, "cat")
    with pytest.raises(IllegalEventError, match="out of the game already"):
        game.resign(after, "cat")


# -- Glüx: the chips stay, no more placing ----------------------------------------------
def test_glux_resign_out_of_turn_keeps_the_chips_and_places_no_more(registry):
    game = make_game(registry, ("ann", "ben", "cat"))
    state = glux_position(game, {"c3": [("ben", 4)]}, turn="ann")
    after = game.resign(state, "ben")
    assert after.excluded == (False, True, False) and after.stacks == state.stacks and after.turn == 0
    assert game.legal(after, "ben") == []


def test_glux_resign_on_own_turn_passes_the_turn(registry):
    game = make_game(registry, ("ann", "ben", "cat"))
    state = glux_position(game, {"c3": [("ann", 4)]}, turn="ann")
    after = game.resign(state, "ann")
    assert isinstance(after, GluxState) and after.turn == 1 and after.excluded[0]


def test_glux_resign_during_setup_is_refused(registry):
    game = make_game(registry)
    with pytest.raises(IllegalEventError, match="once the setup is over"):
        game.resign(game.initial(), "ann")


# -- the engine and the command line ------------------------------------------------------
def test_resign_event_is_checked_by_the_engine(registry):
    match = Match(registry, Header.from_json(json.loads(_glux_header())))
    settle(match, "seed-1")
    assert match.why_illegal(Resign("zoe")) == "'zoe' is not a player of this game"
    assert "once the setup is over" in match.why_illegal(Resign("ann"))


def _glux_header() -> str:
    return json.dumps({"tabletop": 1, "game": "glux", "players": ["ann", "ben"], "randomness": {"seed": "seed-1"}})


def _play_until(cli, tmp_path, game, done, players="ann,ben,cat", limit=200, fresh=True):
    """A new log (or the one there), played by taking the first legal decision until ``done(match)``."""
    if fresh:
        assert cli("new", game, "--players", players, "--seed", "7", "-o", "g.jsonl", plugins=False).exit_code == 0
    from tabletop import Registry, get_plugin_manager

    registry = Registry(get_plugin_manager([], environment=False))
    for _ in range(limit):
        match = Replay(registry, tmp_path / "g.jsonl").run()
        if done(match):
            return registry, match
        node = match.node
        player = node.players[0]
        move = match.game.notate(match.game.legal(match.state, player)[0])
        result = cli("play", "g.jsonl", move, "--player", player, plugins=False)
        assert result.exit_code == 0, result.output
    raise AssertionError("never reached")


@pytest.mark.parametrize("game", ["glux", "glyph-chess"])
def test_play_resign_out_of_turn_from_the_command_line(cli, tmp_path, game):
    registry, match = _play_until(
        cli, tmp_path, game, lambda m: len(m.game.legal(m.state, m.node.players[0])) > 0 and m.seq > 12
    )
    deciding = match.node.players[0]
    other = next(p for p in match.header.players if p != deciding)
    result = cli("play", "g.jsonl", "resign", "--player", other, plugins=False)
    assert result.exit_code == 0, result.output
    assert f"{other} resigns" in result.stdout
    after = Replay(registry, tmp_path / "g.jsonl").run()
    last = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[match.seq + 1])
    assert last["kind"] == "resign" and last["player"] == other
    assert after.game.legal(after.state, other) == []
    again = cli("play", "g.jsonl", "resign", "--player", other, plugins=False)
    assert again.exit_code == 1 and "Traceback" not in again.output


def test_play_resign_needs_a_known_player(cli, tmp_path):
    _play_until(cli, tmp_path, "glux", lambda m: m.seq > 8)
    result = cli("play", "g.jsonl", "resign", "--player", "zoe", plugins=False)
    assert result.exit_code == 1 and "'zoe' is not a player of this game" in result.stderr


@pytest.mark.parametrize("game", ["glux", "glyph-chess"])
def test_a_log_with_a_resignation_folds_the_same_on_the_fast_and_the_plain_path(cli, tmp_path, game):
    registry, match = _play_until(cli, tmp_path, game, lambda m: m.seq > 12)
    deciding = match.node.players[0]
    other = next(p for p in match.header.players if p != deciding)
    assert cli("play", "g.jsonl", "resign", "--player", other, plugins=False).exit_code == 0
    _play_until(cli, tmp_path, game, lambda m: m.seq > match.seq + 15 or m.over, fresh=False)
    fast = Replay(registry, tmp_path / "g.jsonl").run()
    plain = Replay(registry, tmp_path / "g.jsonl")
    for _ in plain:
        pass
    assert fast.seq == plain.match.seq > match.seq + 1
    assert fast.state == plain.match.state


def test_a_game_without_resignation_refuses_it_in_one_line(cli, tmp_path):
    assert cli("new", "pile", "--players", "ann,ben", "--seed", "1", "-o", "p.jsonl").exit_code == 0
    result = cli("play", "p.jsonl", "resign", "--player", "ben")
    assert result.exit_code == 1 and "has no resignation" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
