"""The rule book's FAQ, Q1 to Q16: each a short recorded scenario (a log,
written and replayed from the file) that the answer decides."""

from __future__ import annotations

import pytest

from tabletop import Decide, IllegalEventError
from tabletop.play.engine import Replay
from tabletop_glyph_chess.state import BURNT, ESCAPE, KILLED

from .helpers import position, record, spot

F, ILL, N, S, E, U = 3, 1, 4, 0, 2, 5
HANDS = {"ann": "S S I I E", "ben": "S S I I E"}


def refused(registry, path, data, script, line: str) -> str:
    """Record ``script``, add ``line`` ("PLAYER DECISION") to the log by hand,
    and return why replaying the file refuses it."""
    match = record(registry, path, data, script)
    player, text = line.split(" ", 1)
    event = match.game.parse(text, player, match.state)
    with path.open("a") as out:
        out.write(registry.codec.encode(match.seq + 1, event) + "\n")
    with pytest.raises(IllegalEventError) as info:
        Replay(registry, path).run()
    return str(info.value)


def test_faq_q1_the_action_step_cannot_be_skipped(registry, tmp_path):
    data = position({"ann": {"g3": "E"}}, hands=HANDS)
    path = tmp_path / "q1.jsonl"
    match = record(registry, path, data, [])
    assert match.game.next(match.state) == Decide(("ann",))
    with path.open("a") as out:
        out.write('{"seq":%d,"kind":"pass","player":"ann","payload":{}}\n' % (match.seq + 1))
    with pytest.raises(IllegalEventError, match="the rules force nothing now"):
        Replay(registry, path).run()


def test_faq_q2_x_must_be_greater_than_0(registry, tmp_path):
    data = position({"ann": {"g3": "E"}}, dice="E S S S S", hands={"ann": "E E S S I"})
    reason = refused(registry, tmp_path / "q2.jsonl", data, [], "ann blaze g3 / D1")
    assert reason.endswith("blaze needs a path of at least 1 step (X > 0)")


def test_faq_q3_coins_and_dice_may_be_mixed(registry, tmp_path):
    data = position({"ann": {"g3": "E"}}, dice="E S S S S", hands={"ann": "E E S S I"})
    match = record(registry, tmp_path / "q3.jsonl", data, ["ann g3-g6 / D1 E E"])
    assert spot(match.game, match.state, "g6") == ("ann", "E")


def test_faq_q4_a_spell_that_needs_dice_takes_no_coins_instead(registry, tmp_path):
    data = position({"ann": {"g3": "I"}}, dice="S S S S S", hands={"ann": "I I S S E"})
    reason = refused(registry, tmp_path / "q4.jsonl", data, [], "ann replica g3 g4 / I")
    assert reason.endswith("this spell costs exactly 1 die showing I")


def test_faq_q5_blocked_minions_stay_and_are_not_paid_for(registry, tmp_path):
    pieces = {"ann": {"g3": "U", "g5": "M", "f5": "M", "h5": "M", "g6": "E"}}
    data = position(pieces, hands={"ann": "U U S S I"})
    path = tmp_path / "q5.jsonl"
    reason = refused(registry, path, data, [], "ann march g3 e g5 f5 h5 / U U S")
    assert "blocked by your piece on g6" in reason
    match = record(registry, tmp_path / "q5b.jsonl", data, ["ann march g3 e f5 h5 / U U"])
    assert spot(match.game, match.state, "f6") == ("ann", "M") and spot(match.game, match.state, "h6") == ("ann", "M")
    assert spot(match.game, match.state, "g5") == ("ann", "M")


def test_faq_q6_a_revived_piece_and_its_coins_are_back_in_play(registry, tmp_path):
    data = position(
        {"ann": {"g3": "N", "g9": "E"}}, dice="N S S S S", hands={"ann": "F F S S I"}, fates={"ann": {"F": KILLED}}
    )
    match = record(registry, tmp_path / "q6.jsonl", data, ["ann revive g3 F g4 / D1", "ben m4-l4 / D2"])
    assert spot(match.game, match.state, "g4") == ("ann", "F") and "F" not in match.state.wild(0)
    reason = refused(
        registry, tmp_path / "q6b.jsonl", data, ["ann revive g3 F g4 / D1", "ben m4-l4 / D2"], "ann g9-g10 / F"
    )
    assert reason.endswith("an F coin pays only for F (it is not wild)")


def test_faq_q7_both_illusionist_pieces_are_the_illusionist(registry, tmp_path):
    pieces = {"ann": {"g3": "I", "g9": "I"}, "ben": {"g5": "E", "g11": "F"}}
    data = position(pieces, hands={"ann": "I I S S E", "ben": "E E F F S"})
    # The second piece casts (a swap with ann's elementalist on a2); then ben
    # incinerates the first: one piece taken leaves the illusionist alive.
    script = ["ann swap g9 a2 / I", "ben g5-g3 / E E"]
    match = record(registry, tmp_path / "q7.jsonl", data, script)
    game, state = match.game, match.state
    assert spot(game, state, "g3") == ("ben", "E") and spot(game, state, "a2") == ("ann", "I")
    assert state.fates[0][ILL] == "alive" and not state.eliminated[0] and "I" not in state.wild(0)
    # The piece left casts again; when it is taken too, the illusionist is dead.
    script += ["ann swap a2 g9 / I", "ben g11-g9 / F F"]
    match = record(registry, tmp_path / "q7-both.jsonl", data, script)
    state = match.state
    assert spot(game, state, "g9") == ("ben", "F") and ("ann", "I") not in [
        spot(game, state, n) for n in game.geo.names
    ]
    assert state.fates[0][ILL] == KILLED and "I" in state.wild(0) and not state.eliminated[0]


def test_faq_q8_the_necromancer_cannot_revive_minions(registry, tmp_path):
    data = position({"ann": {"g3": "N"}}, dice="N S S S S", hands=HANDS)
    reason = refused(registry, tmp_path / "q8.jsonl", data, [], "ann revive g3 M g4 / D1")
    assert "revive names a glyph piece to bring back (not the illusionist)" in reason


def test_faq_q9_no_escape_from_the_force_mage_master_spell(registry, tmp_path):
    pieces = {"ann": {"g3": "F"}, "ben": {"g6": "N"}}
    data = position(pieces, dice="F S S S S", hands={"ann": "F F S S I", "ben": "N N S S I"})
    match = record(registry, tmp_path / "q9.jsonl", data, ["ann blast g3 g5 / D1 F F"])
    assert match.state.phase != ESCAPE and match.state.fates[1][N] == KILLED
    assert match.state.hands[1][N] == 2  # ben kept his necromancer coins: never asked


def test_faq_q10_escape_from_the_elementalist_path_is_one_spot_back(registry, tmp_path):
    pieces = {"ann": {"g3": "E"}, "ben": {"h4": "N"}}
    data = position(pieces, dice="E S S S S", hands={"ann": "E E S S I", "ben": "N N S S I"})
    match = record(registry, tmp_path / "q10.jsonl", data, ["ann blaze g3 g4 h4 / D1 E E", "ben escape N"])
    # The necromancer goes to the start of that single step, g4: one spot away.
    assert spot(match.game, match.state, "g4") == ("ben", "N")
    assert spot(match.game, match.state, "h4") == ("ann", "E")


def test_faq_q11_no_escape_in_sight_of_the_attacking_seeress(registry, tmp_path):
    pieces = {"ann": {"g3": "S"}, "ben": {"g5": "N"}}
    data = position(pieces, hands={"ann": "S S I I E", "ben": "N N S S I"})
    match = record(registry, tmp_path / "q11.jsonl", data, ["ann g3-g5 / S S"])
    assert match.state.phase != ESCAPE and match.state.fates[1][N] == KILLED


def test_faq_q12_summoning_leaves_minions_on_the_board_alone(registry, tmp_path):
    pieces = {"ann": {"g3": "U", "g5": "M", "g6": "M"}}
    data = position(pieces, dice="U S S S S", hands=HANDS)
    reason = refused(registry, tmp_path / "q12.jsonl", data, [], "ann summon g3 g4 h3 / D1")
    assert reason.endswith("only 1 minion in the spare area")
    match = record(registry, tmp_path / "q12b.jsonl", data, ["ann summon g3 g4 / D1"])
    assert [spot(match.game, match.state, s) for s in ("g4", "g5", "g6")] == [("ann", "M")] * 3


def test_faq_q13_incinerated_minions_and_replica_come_back(registry, tmp_path):
    # ben's elementalist burns through ann's replica (f7) and a minion (g6).
    pieces = {"ann": {"g3": "U", "g6": "M", "f5": "I", "f7": "I"}, "ben": {"g8": "E"}}
    data = position(
        pieces,
        dice="E U I N N",
        hands={"ann": "S S I I U", "ben": "E E S S I"},
        turn="ben",
        fates={"ben": {"S": BURNT}},
    )
    blaze = "ben blaze g8 f7 g7 g6 / D1 E E S"
    match = record(registry, tmp_path / "q13.jsonl", data, [blaze, "ann summon g3 g4 / D2"])
    assert match.state.fates[0][ILL] == "alive"
    assert spot(match.game, match.state, "g4") == ("ann", "M")  # the incinerated minion, summoned again
    match = record(registry, tmp_path / "q13b.jsonl", data, [blaze, "ann replica f5 e5 / D3"])
    assert spot(match.game, match.state, "e5") == ("ann", "I")  # the incinerated replica, made again


def test_faq_q14_a_move_takes_only_the_enemy_on_its_last_spot(registry, tmp_path):
    pieces = {"ann": {"g3": "F"}, "ben": {"g4": "I", "g5": "S", "g6": "U"}}
    data = position(pieces, dice="F F F S S", hands={"ann": "F S S I I"})
    match = record(registry, tmp_path / "q14.jsonl", data, ["ann g3-g6 / D1 D2 D3"])
    assert spot(match.game, match.state, "g4") == ("ben", "I") and spot(match.game, match.state, "g5") == ("ben", "S")
    assert match.state.fates[1][U] == KILLED


def test_faq_q15_the_summoner_may_move_onto_its_own_minion(registry, tmp_path):
    pieces = {"ann": {"g3": "U", "g4": "M", "f3": "M", "h3": "M"}}
    data = position(pieces, hands={"ann": "U U S S I"})
    match = record(registry, tmp_path / "q15.jsonl", data, ["ann g3-g4 / U"])
    assert spot(match.game, match.state, "g4") == ("ann", "U")
    assert spot(match.game, match.state, "f3") is None and spot(match.game, match.state, "h3") is None


def test_faq_q16_each_minion_is_a_separate_attack_on_the_necromancer(registry, tmp_path):
    # Three minions in a column march east onto ben's necromancer, one by one.
    # (Off the centre's diagonal, which ann's seeress on a1 watches: in her
    # sight the necromancer could not escape at all, FAQ Q11.)
    pieces = {"ann": {"h2": "U", "h3": "M", "h4": "M", "h5": "M"}, "ben": {"h6": "N"}}
    data = position(pieces, dice="U S S S S", hands={"ann": "U U S S I", "ben": "N N S S I"})
    script = ["ann march h2 e h5 h4 h3 / D1 U U", "ben escape N", "ben escape N"]
    match = record(registry, tmp_path / "q16.jsonl", data, script)
    # The first two attacks are escaped (each to the spot the minion left);
    # with no necromancer coin left, the third kills.
    assert match.state.fates[1][N] == KILLED and match.state.hands[1][N] == 0
    assert [spot(match.game, match.state, s) for s in ("h4", "h5", "h6")] == [("ann", "M")] * 3
