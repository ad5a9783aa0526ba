"""Each command of ``tabletop`` on the test game Pile."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from ..conftest import PILE


@pytest.fixture
def game(cli, tmp_path) -> Path:
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    return tmp_path / "g.jsonl"


def kinds(path: Path) -> list[str]:
    return [json.loads(line).get("kind", "header") for line in path.read_text().splitlines()]


def test_games_lists_installed_games(cli):
    out = cli("games").output
    assert "pile" in out and "2-3 players" in out
    assert "glux" in out and "counting squares" in out


def test_variants_of_one_game(cli):
    lines = cli("variants", "pile").output.splitlines()
    assert [line.split()[:2] for line in lines if not line.startswith(" ")] == [
        ["pile-shout", "pile"],
        ["pile-take", "pile"],
        ["pile-take-three", "pile"],
    ]
    assert "pile-take-three          pile         take up to 3 stones" in lines


def test_new_writes_header_and_setup_chance(game):
    rows = [json.loads(line) for line in game.read_text().splitlines()]
    assert rows[0] == {
        "tabletop": 1,
        "game": "pile",
        "players": ["ann", "bob"],
        "variants": [],
        "options": {},
        "randomness": {"seed": "s"},
    }
    assert [r["kind"] for r in rows[1:]] == ["deal", "deal"]
    assert [r["seq"] for r in rows[1:]] == [1, 2]


def test_same_seed_gives_the_same_log_byte_for_byte(cli, tmp_path):
    cli("new", "pile", "--players", "ann,bob", "--seed", "same", "-o", "a.jsonl")
    cli("new", "pile", "--players", "ann,bob", "--seed", "same", "-o", "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_several_players_may_decide_in_any_order(cli, game, tmp_path):
    other = tmp_path / "h.jsonl"
    other.write_bytes(game.read_bytes())
    assert cli("play", game, "pick 1", "--player", "ann").exit_code == 0
    assert cli("play", game, "pick 3", "--player", "bob").exit_code == 0
    assert cli("play", other, "pick 3", "--player", "bob").exit_code == 0
    assert cli("play", other, "pick 1", "--player", "ann").exit_code == 0
    a = json.loads(cli("replay", game, "--json").stdout)
    b = json.loads(cli("replay", other, "--json").stdout)
    assert a["next"] == b["next"] == {"kind": "decision", "players": ["bob"]}


def test_play_needs_a_player_when_several_may_decide(cli, game):
    result = cli("play", game, "pick 1")
    assert result.exit_code == 2
    assert "several players may decide now (ann, bob)" in result.stderr


def test_play_appends_forced_events_with_the_decision(cli, game):
    cli("play", game, "pick 1", "--player", "ann")
    cli("play", game, "pick 2", "--player", "bob")
    # bob has card 3 from seed "s"? Whatever it is, playing it makes his next turn a skip.
    card = json.loads(game.read_text().splitlines()[2])["payload"]["card"]
    assert cli("play", game, "card").exit_code == 0
    assert cli("play", game, "1").exit_code == 0
    assert kinds(game)[-2:] == ["take", "skip"]
    assert f"bob takes card {card}" in cli("replay", game, "--step").stdout


def test_moves_lists_legal_decisions_in_notation(cli, game):
    cli("play", game, "pick 1", "--player", "ann")
    out = cli("moves", game).stdout
    assert out.splitlines() == ["bob (pick a number):", "  pick 1", "  pick 2", "  pick 3"]
    assert cli("moves", game, "--player", "bob").stdout.splitlines() == ["pick 1", "pick 2", "pick 3"]
    assert "ann has no decision now" in cli("moves", game, "--player", "ann").stdout


def test_replay_prints_board_and_whose_turn(cli, game):
    out = cli("replay", game).stdout
    assert out.startswith("Pile: ann, bob\n")
    assert "pile: 10 stones" in out
    assert out.rstrip().endswith("After 2 events. ann to pick a number; bob to pick a number.")


def test_replay_as_a_player_hides_what_they_may_not_know(cli, game):
    rows = [json.loads(line) for line in game.read_text().splitlines()]
    ann_card, bob_card = rows[1]["payload"]["card"], rows[2]["payload"]["card"]
    out = cli("replay", game, "--as", "ann", "--step").stdout
    assert f"ann is dealt {ann_card}" in out
    assert "bob is dealt a card" in out
    assert f"cards: ann: {ann_card}, bob: ?" in cli("replay", game, "--as", "ann").stdout
    assert f"bob: {bob_card}" in cli("replay", game).stdout


def test_replay_until_stops_after_that_event(cli, game):
    out = cli("replay", game, "--until", "1").stdout
    assert "After 1 events." in out


def test_replay_json_summary(cli, tmp_path):
    cli("selfplay", "pile", "--seats", "3", "--seed", "j", "-o", "out")
    log = tmp_path / "out" / "pile-00001.jsonl"
    summary = json.loads(cli("replay", log, "--json").stdout)
    assert set(summary) == {
        "file",
        "game",
        "players",
        "variants",
        "events",
        "finished",
        "scores",
        "winners",
        "next",
        "as",
    }
    assert summary["finished"] is True and summary["next"] is None
    assert summary["events"] == len(log.read_text().splitlines()) - 1
    assert sum(summary["scores"].values()) == 10
    assert len(summary["winners"]) == 1


def test_replay_many_names_every_illegal_game(cli, tmp_path):
    cli("selfplay", "pile", "--seats", "2", "--games", "3", "--seed", "m", "-o", "out")
    bad = tmp_path / "out" / "pile-00002.jsonl"
    rows = bad.read_text().splitlines()
    rows[3] = rows[3].replace('"seq":3', '"seq":9')
    bad.write_text("\n".join(rows) + "\n")
    result = cli("replay", "out")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ok out/pile-00001.jsonl")
    assert lines[1] == "ILLEGAL out/pile-00002.jsonl:4: event 9: wrong sequence number (expected 3)"
    assert lines[-1].startswith("3 games,") and lines[-1].endswith("1 illegal, 0 unreadable.")


def test_replay_many_as_json_lines(cli, tmp_path):
    cli("selfplay", "pile", "--seats", "2", "--games", "2", "--seed", "m", "-o", "out")
    rows = [json.loads(line) for line in cli("replay", "out", "--json").stdout.splitlines()]
    assert [Path(r["file"]).name for r in rows] == ["pile-00001.jsonl", "pile-00002.jsonl"]


def test_diff_identical(cli, tmp_path):
    cli("selfplay", "pile", "--seats", "2", "--seed", "d", "-o", "a")
    cli("selfplay", "pile", "--seats", "2", "--seed", "d", "-o", "b")
    result = cli("diff", "a/pile-00001.jsonl", "b/pile-00001.jsonl")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("A a/pile-00001.jsonl: ") and lines[1].startswith("B b/pile-00001.jsonl: ")
    assert lines[2].startswith("identical:")


def test_diff_names_the_first_difference(cli, game, tmp_path):
    other = tmp_path / "h.jsonl"
    other.write_bytes(game.read_bytes())
    cli("play", game, "pick 1", "--player", "ann")
    cli("play", other, "pick 2", "--player", "ann")
    result = cli("diff", game, other)
    assert result.exit_code == 1
    out = result.stdout
    assert "common prefix: 2 events" in out
    assert "g.jsonl:4: ann picks 1" in out and "h.jsonl:4: ann picks 2" in out


def test_diff_shows_state_differences(cli, game, tmp_path):
    for move, who in [("pick 1", "ann"), ("pick 2", "bob")]:
        cli("play", game, move, "--player", who)
    other = tmp_path / "h.jsonl"
    other.write_bytes(game.read_bytes())
    cli("play", game, "1")
    cli("play", other, "2")
    out = cli("diff", game, other).stdout
    assert "after event 5 (A | B):\n  pile: 9 | 8\n" in out
    assert "score bob: 1 | 2" in out


def test_verify_checks_every_chance_outcome(cli, tmp_path):
    cli("selfplay", "pile", "--seats", "3", "--seed", "v", "-o", "out")
    log = tmp_path / "out" / "pile-00001.jsonl"
    result = cli("verify", log)
    assert result.exit_code == 0
    assert "verified: 3 chance outcomes match the seed" in result.stdout


def test_verify_names_the_first_outcome_the_seed_does_not_give(cli, game):
    rows = game.read_text().splitlines()
    card = json.loads(rows[2])["payload"]["card"]
    other = 1 if card != 1 else 2
    rows[2] = rows[2].replace(f'"card":{card}', f'"card":{other}')
    game.write_text("\n".join(rows) + "\n")
    assert cli("replay", game).exit_code == 0  # still a possible outcome...
    result = cli("verify", game)
    assert result.exit_code == 1  # ...but not the one the seed gives
    expected = f"g.jsonl:3: event 2: the seed gives 'bob is dealt {card}', the log has 'bob is dealt {other}'"
    assert expected in result.stderr


def test_sealed_game_keeps_the_seed_secret_until_the_end(cli, tmp_path):
    assert (
        cli("new", "pile", "--players", "ann,bob", "--sealed", "--option", "stones=2", "-o", "s.jsonl").exit_code == 0
    )
    log, secret = tmp_path / "s.jsonl", tmp_path / "s.jsonl.seed"
    header = json.loads(log.read_text().splitlines()[0])
    seed = secret.read_text().strip()
    assert set(header["randomness"]) == {"commitment"}
    assert seed not in log.read_text()
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    assert "not revealed yet" in cli("verify", log).stderr
    cli("play", log, "pick 1", "--player", "ann")
    cli("play", log, "pick 2", "--player", "bob")
    assert cli("play", log, "2").exit_code == 0
    last = json.loads(log.read_text().splitlines()[-1])
    assert last == {"seq": 6, "kind": "reveal", "payload": {"seed": seed}}
    assert cli("verify", log).exit_code == 0


def test_a_revealed_seed_must_match_the_commitment(cli, tmp_path):
    cli("new", "pile", "--players", "ann,bob", "--sealed", "--option", "stones=1", "-o", "s.jsonl")
    log = tmp_path / "s.jsonl"
    cli("play", log, "pick 1", "--player", "ann")
    cli("play", log, "pick 2", "--player", "bob")
    cli("play", log, "1")
    log.write_text(
        log.read_text().replace('"kind":"reveal","payload":{"seed":"', '"kind":"reveal","payload":{"seed":"x')
    )
    result = cli("replay", log)
    assert result.exit_code == 1
    assert "does not match the commitment" in result.stderr


def test_selfplay_writes_one_log_per_game(cli, tmp_path):
    result = cli("selfplay", "pile", "--seats", "3", "--games", "4", "--seed", "k", "-o", "out")
    assert result.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [f"pile-0000{i}.jsonl" for i in range(1, 5)]
    assert cli("replay", "out").exit_code == 0
    assert result.stdout.startswith("4 games,")


def test_selfplay_with_a_variant_and_options(cli, tmp_path):
    cli("selfplay", "pile", "--seats", "2", "--variant", "pile-take-three", "--option", "stones=30", "-o", "o")
    header = json.loads((tmp_path / "o" / "pile-00001.jsonl").read_text().splitlines()[0])
    assert header["variants"] == ["pile-take-three"] and header["options"] == {"stones": 30}


def test_selfplay_bot_per_seat_must_match_the_players(cli):
    result = cli("selfplay", "pile", "--seats", "3", "--bot", "random", "--bot", "random")
    assert result.exit_code == 2 and "one per seat (3)" in result.stderr


def test_selfplay_bot_with_settings(cli):
    """``NAME:key=value`` as in ``simulate``: the bot goes by its whole name in the totals."""
    result = cli("selfplay", "pile", "--seats", "2", "--games", "2", "--bot", "mcts:iterations=5", "--bot", "random")
    assert result.exit_code == 0 and "p1-mcts (mcts:iterations=5)" in result.stdout
    result = cli("selfplay", "pile", "--seats", "2", "--bot", "mcts:iterations=few")
    assert result.exit_code == 2
    assert "bot 'mcts:iterations=few': iterations=few: expected a whole number" in result.stderr
    result = cli("selfplay", "pile", "--seats", "2", "--bot", "random:speed=2")
    assert result.exit_code == 2 and "bot 'random' has no settings" in result.stderr


def test_selfplay_unknown_bot(cli):
    result = cli("selfplay", "pile", "--seats", "2", "--bot", "deep-blue")
    assert result.exit_code == 2 and "unknown bot 'deep-blue' for pile (bots: mcts, random)" in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["games"],
        ["variants"],
        ["new"],
        ["replay"],
        ["moves"],
        ["play"],
        ["diff"],
        ["verify"],
        ["selfplay"],
        ["render"],
        ["pbem"],
        ["pbem", "init"],
        ["pbem", "receive"],
        ["pbem", "poll"],
        ["pbem", "send"],
        ["pbem", "tick"],
        ["pbem", "status"],
    ],
    ids=" ".join,
)
def test_every_command_has_help_with_an_example(cli, command):
    out = cli(*command, "--help").stdout
    assert "Example:" in out and f"tabletop {command[0]}" in out.split("Example:", 1)[1]


def test_plugins_from_the_environment_variable(tmp_path):
    from ..conftest import run_tabletop

    result = run_tabletop("games", cwd=tmp_path, env={"TABLETOP_PLUGINS": str(PILE)})
    assert result.returncode == 0 and "pile" in result.stdout
    assert "pile" not in run_tabletop("games", cwd=tmp_path).stdout


def test_plugins_from_a_folder(cli, tmp_path):
    out = cli("--plugins", PILE.parent, "games", plugins=False).stdout
    assert "pile" in out


def test_seats_count_the_players_and_the_old_players_count_still_works_with_a_notice(cli):
    new = cli("selfplay", "pile", "--seats", "2", "--games", "2", "--seed", "n", "--json")
    old = cli("selfplay", "pile", "--players", "2", "--games", "2", "--seed", "n", "--json")
    assert old.exit_code == 0 and old.stdout == new.stdout and new.stderr == ""
    assert old.stderr == "tabletop: --players 2 is now written --seats 2 (--players names players)\n"
    names = cli("selfplay", "pile", "--players", "ann,bob", "--games", "2")
    assert names.exit_code == 2 and "the number of players is given with --seats N" in names.stderr
    both = cli("selfplay", "pile", "--players", "2", "--seats", "2")
    assert both.exit_code == 2 and "give --seats alone" in both.stderr
    none = cli("selfplay", "pile")
    assert none.exit_code == 2 and "missing option '--seats'" in none.stderr


def test_selfplay_logs_record_their_bots_for_stats_by_bot(cli, tmp_path):
    played = cli(
        "selfplay", "pile", "--seats", "2", "--bot", "mcts:iterations=5", "--bot", "random", "--games", "4", "-o", "g"
    )
    assert played.exit_code == 0, played.output
    table = cli("stats", "g", "--by", "bot").stdout
    # One row per bot, each in all 4 games.
    assert re.search(r"^mcts +4 ", table, re.M) and re.search(r"^random +4 ", table, re.M), table


def test_diff_lists_squares_in_board_order_whichever_side_has_them():
    from tabletop.review.diffing import compare

    a = {"square a1": "x", "square c1": "y", "square d2": "z", "hand ann": "1/6", "score ann": "1"}
    b = {"square b1": "q", "square a2": "r", "square d2": "z", "hand ann": "2/5", "score ann": "2"}
    assert [k for k, _, _ in compare(a, b)] == [
        "square a1",
        "square b1",
        "square c1",
        "square a2",
        "hand ann",
        "score ann",
    ]
    # Listed file by file in a game that goes that way: that order is kept.
    a = {"spot a1": "x", "spot a3": "y"}
    b = {"spot a2": "q", "spot b1": "r"}
    assert [k for k, _, _ in compare(a, b)] == ["spot a1", "spot a2", "spot a3", "spot b1"]


def test_replay_step_shows_the_board_after_every_event_chance_outcomes_too(cli):
    from ..conftest import REPLAYS

    out = cli("replay", REPLAYS / "glux" / "two-players.jsonl", "--step").stdout
    steps = re.split(r"\n\n(?=\d+\. )", out)[1:]
    draws = [s for s in steps if " draws " in s.splitlines()[0]]
    assert draws and all("Rooms (pips on top chips):" in s for s in steps)
