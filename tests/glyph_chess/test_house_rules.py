"""The Glyph Chess house rules in variants/house_rules/, played whole games at a time."""

from __future__ import annotations

import pytest

from tabletop import Header, Registry, get_plugin_manager
from tabletop.log.logfile import create
from tabletop.play.engine import Match, Replay
from tabletop.play.live import selfplay
from tabletop_glyph_chess import Cast, Move

from ..conftest import ROOT
from .helpers import act, game_at, position, spot, to_action, why_not

HOUSE_RULES = ROOT / "variants" / "house_rules"
FILES = ["glyph_long_scepter.py", "glyph_push.py", "glyph_hand_limit.py"]


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager([str(HOUSE_RULES / f) for f in FILES], environment=False))


def test_house_rules_are_short():
    for path in HOUSE_RULES.glob("glyph_*.py"):
        assert len(path.read_text().splitlines()) <= 30, path.name


def games(house, variant, count, players=("ann", "ben")):
    """Whole self-played games under ``variant``: each (match replayed event by event, events)."""
    for i in range(count):
        bots = [house.bot("random", "glyph-chess")] * len(players)
        header, _, events = selfplay(house, "glyph-chess", players, bots, f"{variant}-{i}", [variant])
        match = Match(house, header)
        yield match, events


def test_glyph_move_range_and_cost_the_long_scepter_in_whole_games(house, tmp_path):
    long_moves = 0
    for match, events in games(house, "glyph-long-scepter", 12):
        for event in events:
            if isinstance(event, Move) and match.state.board[match.game.geo.spot(event.source)][1] == "K":
                source, target = (match.game.geo.spot(s) for s in (event.source, event.target))
                distance = next(r.index(target) + 1 for r in match.game.geo.rays[source].values() if target in r)
                assert distance <= 2 and len(event.dice) == distance and not event.coins  # the rule held
                long_moves += distance == 2
            match.accept(event)
        assert match.over
    assert long_moves > 0


def test_glyph_move_cost_the_long_scepter_pays_one_die_a_spot(house):
    data = position({"ann": {"g3": "K"}}, dice="U S E S S", hands={"ann": "S"})
    official, state = game_at(house, data)
    assert why_not(official, to_action(official, state), "ann", "g3-g5 / D1 D2") == "the scepter moves exactly 1 spot"
    game, state = game_at(house, data, ["glyph-long-scepter"])
    state = to_action(game, state)
    assert why_not(game, state, "ann", "g3-g5 / D1") == "this costs exactly 2 dice of any face, never coins"
    assert why_not(game, state, "ann", "g3-g6 / D1 D2 D3") == "the scepter moves at most 2 spots"
    assert "g3-g5 / D1 D2" in [game.notate(e) for e in game.legal(state, "ann")]
    state = act(game, state, "ann", "g3-g5 / D1 D2")
    assert spot(game, state, "g5") == ("ann", "K") and state.rolling == (0, 1)


PUSH_AT = {"ann": {"g5": "F"}, "ben": {"g6": "E", "h5": "N", "h4": "U"}}


def test_glyph_spells_push_is_listed_checked_and_moves_the_enemy(house):
    game, state = game_at(house, position(PUSH_AT, dice="F S S S S", hands={"ann": "F"}), ["glyph-push"])
    state = to_action(game, state)
    pushes = [game.notate(e) for e in game.legal(state, "ann") if isinstance(e, Cast) and e.spell == "push"]
    assert pushes == ["push g5 g6 / D1", "push g5 h5 / D1", "push g5 h4 / D1"]
    assert why_not(game, state, "ann", "push g5 g7 / D1").startswith("push names an enemy piece next to")
    assert why_not(game, state, "ann", "push g5 g6 / F") == "this spell costs exactly 1 die showing F"
    state = act(game, state, "ann", "push g5 h4 / D1")
    assert spot(game, state, "i3") == ("ben", "U") and spot(game, state, "h4") is None
    official, plain = game_at(house, position(PUSH_AT, dice="F S S S S"))
    assert not any(getattr(e, "spell", "") == "push" for e in official.legal(to_action(official, plain), "ann"))


def test_glyph_spells_push_in_whole_games_by_bots_and_validated_on_replay(house, tmp_path):
    pushed = 0
    for match, events in games(house, "glyph-push", 24):
        for event in events:
            if isinstance(event, Cast) and event.spell == "push":
                geo = match.game.geo
                source, enemy = geo.spot(event.source), geo.spot(event.spots[0])
                piece, to = match.state.board[enemy], geo.beyond(source, enemy)
                match.accept(event)
                assert match.state.board[to] == piece and match.state.board[enemy] is None  # the rule held
                pushed += 1
            else:
                match.accept(event)
        if pushed and not (tmp_path / "push.jsonl").exists():
            create(tmp_path / "push.jsonl", house.codec.log(match.header, events))
    assert pushed > 0
    assert Replay(house, tmp_path / "push.jsonl").run().over


def test_glyph_hand_limit_a_variant_parameter_sets_the_hand_limit_in_whole_games(house):
    most = 0
    for match, events in games(house, "glyph-hand-limit:limit=7", 6):
        for event in events:
            match.accept(event)
            hands = [sum(h) for h in match.state.hands]
            assert max(hands) <= 7  # the rule held
            most = max(most, *hands)
        assert match.game.hand_limit == 7
    assert most > 5  # and it mattered: more than the rule book's 5


def test_glyph_hand_limit_parameter_is_typed_and_defaults_to_the_rule_book(house, cli):
    assert house.game(Header("glyph-chess", ("ann", "ben"), ("glyph-hand-limit",))).hand_limit == 5
    result = cli(
        "--plugins",
        str(HOUSE_RULES / "glyph_hand_limit.py"),
        "new",
        "glyph-chess",
        "--players",
        "a,b",
        "--variant",
        "glyph-hand-limit:limit=many",
        "-o",
        "g.jsonl",
    )
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1 and "limit" in result.stderr
