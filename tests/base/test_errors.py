"""Every error a user can cause: one line naming the place at fault, exit 1 or 2,
no traceback, no file changed."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from ..conftest import PILE, run_tabletop


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture
def finished(cli, tmp_path) -> Path:
    """A finished game of Pile."""
    assert cli("selfplay", "pile", "--seats", "2", "--seed", "e", "-o", "out").exit_code == 0
    return tmp_path / "out" / "pile-00001.jsonl"


@pytest.fixture
def started(cli, tmp_path) -> Path:
    """A game of Pile where both players may pick."""
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    return tmp_path / "g.jsonl"


def fails(result, code: int, *phrases: str) -> str:
    """The one line the command printed on stderr, after checking it."""
    assert result.exit_code == code, result.output
    message = result.stderr.strip()
    assert "\n" not in message and "Traceback" not in message, message
    for phrase in phrases:
        assert phrase in message, message
    return message


def tampered(started: Path, change) -> Path:
    rows = lines_of(started)
    change(rows)
    return write(started, rows)


def test_not_json(cli, started):
    started.write_text(started.read_text() + "{not json\n")
    fails(cli("replay", started), 2, "g.jsonl:4:", "not JSON")


def test_not_utf8(cli, started):
    started.write_bytes(started.read_bytes() + b'{"seq": 3, "kind": "pick", "player": "\xff"}\n')
    fails(cli("replay", started), 2, "g.jsonl:4:", "not UTF-8 text")


def test_blank_line(cli, started):
    started.write_text(started.read_text() + "\n")
    fails(cli("replay", started), 2, "g.jsonl:4:", "blank line")


def test_truncated_last_line(cli, started):
    text = started.read_text()
    started.write_text(text + text.splitlines()[1][:20])
    fails(cli("replay", started), 2, "g.jsonl:4:", "truncated last line")


def test_missing_header(cli, started):
    started.write_text("".join(started.read_text().splitlines(keepends=True)[1:]))
    fails(cli("replay", started), 2, "g.jsonl:1:", "header is missing")


def test_wrong_header_version(cli, started):
    tampered(started, lambda rows: rows[0].update(tabletop=7))
    fails(cli("replay", started), 2, "g.jsonl:1:", "unsupported log format version 7")


def test_wrong_header_players(cli, started):
    tampered(started, lambda rows: rows[0].update(players=["ann", "ann"]))
    fails(cli("replay", started), 2, "g.jsonl:1:", "distinct")


def test_empty_file(cli, tmp_path):
    (tmp_path / "empty.jsonl").write_text("")
    fails(cli("replay", "empty.jsonl"), 2, "empty.jsonl", "empty file")


def test_unreadable_file(cli):
    fails(cli("replay", "missing.jsonl"), 2, "missing.jsonl", "cannot read")


def test_unknown_game_in_header(cli, started):
    tampered(started, lambda rows: rows[0].update(game="chess960"))
    fails(cli("replay", started), 2, "g.jsonl:1:", "unknown game 'chess960'")


def test_unknown_game_on_command_line(cli):
    fails(cli("new", "chess960", "--players", "a,b", "-o", "x.jsonl"), 2, "unknown game 'chess960'", "pile")


def test_unknown_variant(cli, started):
    tampered(started, lambda rows: rows[0].update(variants=["pile-no-such"]))
    fails(cli("replay", started), 2, "g.jsonl:1:", "unknown variant 'pile-no-such'")


def test_variant_of_another_game(cli, tmp_path):
    result = cli("new", "pile", "--players", "a,b", "--variant", "glux-second-place-2p", "-o", "x.jsonl")
    fails(result, 2, "variant 'glux-second-place-2p' is for glux, not pile")
    assert not (tmp_path / "x.jsonl").exists()


def test_unknown_option(cli):
    fails(
        cli("new", "pile", "--players", "a,b", "--option", "colour=red", "-o", "x.jsonl"), 2, "unknown option 'colour'"
    )


def test_option_without_value(cli):
    fails(cli("new", "pile", "--players", "a,b", "--option", "stones", "-o", "x.jsonl"), 2, "--option 'stones'")


def test_unknown_event_kind(cli, started):
    tampered(started, lambda rows: rows[2].update(kind="teleport"))
    fails(cli("replay", started), 2, "g.jsonl:3:", "unknown event kind 'teleport'")


def test_field_missing(cli, started):
    tampered(started, lambda rows: rows[1]["payload"].pop("card"))
    fails(cli("replay", started), 2, "g.jsonl:2:", "card")


def test_field_of_wrong_type(cli, started):
    tampered(started, lambda rows: rows[1]["payload"].update(card="3"))
    fails(cli("replay", started), 2, "g.jsonl:2:", "payload.card", "int")


def test_extra_field(cli, started):
    tampered(started, lambda rows: rows[1]["payload"].update(colour="red"))
    fails(cli("replay", started), 2, "g.jsonl:2:", "colour")


def test_wrong_sequence_number(cli, started):
    tampered(started, lambda rows: rows[2].update(seq=5))
    fails(cli("replay", started), 1, "g.jsonl:3:", "wrong sequence number", "expected 2")


def test_illegal_decision_names_the_reason(cli, started, tmp_path):
    cli("play", started, "pick 1", "--player", "ann")
    cli("play", started, "pick 2", "--player", "bob")
    before = started.read_bytes()
    fails(cli("play", started, "3", "--player", "bob"), 1, "event 5", "take 1 to 2 stones")
    assert started.read_bytes() == before


def test_illegal_event_in_a_log(cli, started):
    cli("play", started, "pick 1", "--player", "ann")
    cli("play", started, "pick 2", "--player", "bob")
    rows = lines_of(started)
    rows.append({"seq": 5, "kind": "take", "player": "bob", "payload": {"stones": 9}})
    write(started, rows)
    fails(cli("replay", started), 1, "g.jsonl:6:", "take 1 to 2 stones")


def test_wrong_player(cli, started):
    cli("play", started, "pick 1", "--player", "ann")
    cli("play", started, "pick 2", "--player", "bob")
    before = started.read_bytes()
    fails(cli("play", started, "1", "--player", "ann"), 1, "not ann's turn", "bob to decide")
    assert started.read_bytes() == before


def test_not_a_player(cli, started):
    fails(cli("play", started, "pick 1", "--player", "zoe"), 2, "g.jsonl: --player 'zoe': not a player")


def test_event_after_the_game_ended(cli, finished):
    rows = lines_of(finished)
    rows.append({"seq": len(rows), "kind": "take", "player": "p1", "payload": {"stones": 1}})
    write(finished, rows)
    fails(cli("replay", finished), 1, f"{finished.name}:{len(rows)}:", "the game is over")


def test_play_after_the_game_ended(cli, finished):
    before = finished.read_bytes()
    fails(cli("play", finished, "1", "--player", "p1"), 2, "no decision is open", "Game over")
    assert finished.read_bytes() == before


def test_bad_notation(cli, started):
    before = started.read_bytes()
    fails(cli("play", started, "grab some", "--player", "ann"), 2, "cannot read 'grab some'")
    assert started.read_bytes() == before


def test_plugin_file_that_fails_to_import(cli, tmp_path):
    bad = tmp_path / "broken_rule.py"
    bad.write_text("from tabletop import hookimpl\n\nx = 1 / 0\n")
    result = cli("--plugins", bad, "games", plugins=False)
    fails(result, 2, "broken_rule.py:3:", "cannot load plugin", "ZeroDivisionError")


def test_plugin_file_with_a_syntax_error(cli, tmp_path):
    bad = tmp_path / "typo.py"
    bad.write_text("def oops(:\n")
    fails(cli("--plugins", bad, "games", plugins=False), 2, "typo.py:1:", "SyntaxError")


def test_plugin_path_that_does_not_exist(cli):
    fails(cli("--plugins", "nowhere.py", "games", plugins=False), 2, "nowhere.py: no such plugin")


def test_hook_implementation_with_no_spec(cli, tmp_path):
    bad = tmp_path / "misspelt.py"
    bad.write_text("from tabletop import hookimpl\n\n@hookimpl\ndef register_game():\n    return []\n")
    fails(cli("--plugins", bad, "games", plugins=False), 2, "misspelt.py", "register_game")


def test_new_never_overwrites(cli, started):
    before = started.read_bytes()
    fails(cli("new", "pile", "--players", "a,b", "-o", started), 2, "file exists")
    assert started.read_bytes() == before


def test_wrong_player_count(cli):
    fails(cli("new", "pile", "--players", "a,b,c,d", "-o", "x.jsonl"), 2, "2 to 3 players, not 4")


def test_bad_player_name(cli):
    fails(cli("new", "pile", "--players", "a,b c", "-o", "x.jsonl"), 2, "bad player name 'b c'")


def test_no_traceback_from_a_real_process(tmp_path):
    """The same errors seen from outside: a separate process, its stderr and exit code."""
    log = tmp_path / "g.jsonl"
    log.write_text('{"tabletop": 1, "game": "pile", "players": ["a", "b"]}\n{"seq": 1, "kind"\n')
    result = run_tabletop("--plugins", PILE, "replay", log, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == f"tabletop: {log}:2: not JSON"
    assert result.stdout == ""


def test_illegal_game_exit_code_from_a_real_process(tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_text(
        '{"tabletop": 1, "game": "pile", "players": ["a", "b"], "randomness": {"seed": "x"}}\n'
        '{"seq": 1, "kind": "deal", "player": "a", "payload": {"card": 9}}\n'
    )
    result = run_tabletop("--plugins", PILE, "replay", log, cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == f"tabletop: {log}:2: event 1 (a is dealt 9): not a possible outcome here"


# -- messages: one line, naming the option or file, of a readable length ------
@pytest.mark.parametrize(
    "argv, option",
    [
        (["selfplay", "pile", "--seats", "many"], "'--seats'"),
        (["new", "pile", "-o", "x.jsonl"], "'--players'"),
        (["replay", "--frobnicate", "x.jsonl"], "--frobnicate"),
        (["render", "x.jsonl", "--until", "-3"], "'--until'"),
        (["no-such-command"], "no-such-command"),
    ],
)
def test_click_usage_errors_are_one_line_naming_the_option(cli, argv, option):
    fails(cli(*argv), 2, option, "--help")


def test_a_file_name_with_a_newline_stays_on_one_line(cli, tmp_path):
    name = "two\nlines.jsonl"
    (tmp_path / name).write_text("not json\n")
    message = fails(cli("replay", tmp_path / name), 2, "two\\nlines.jsonl:1:", "not JSON")
    assert message.startswith("tabletop: ")


def test_a_long_quoted_value_is_cut(cli, started):
    move = "x" * 20_000_000
    message = fails(cli("play", started, move, "--player", "ann"), 2, "cannot read")
    assert len(message) < 700


def test_play_on_a_fifo_says_what_it_is(cli, tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "g.jsonl")
    fails(cli("play", tmp_path / "g.jsonl", "1"), 2, "g.jsonl: cannot open: not a regular file")


def test_board_errors_name_the_full_path(cli, tmp_path):
    folder = tmp_path / "boards" / "mine"
    folder.mkdir(parents=True)
    (folder / "b.txt").write_text("middle: Q\nstart 2: a1 c1\n1  A . B\n")
    result = cli("new", "glux", "--players", "a,b", "--option", f"board={folder / 'b.txt'}", "-o", "x.jsonl")
    fails(result, 2, f"{folder / 'b.txt'}:1:", "middle room 'Q'")
    result = cli("new", "glux", "--players", "a,b", "--option", "board=boards/mine/none.txt", "-o", "x.jsonl")
    fails(result, 2, "boards/mine/none.txt", "option 'board'")


def test_players_errors_name_the_option(cli):
    fails(cli("new", "pile", "--players", "a,a", "-o", "x.jsonl"), 2, "--players:", "distinct")
    fails(cli("new", "pile", "--players", "a,", "-o", "x.jsonl"), 2, "--players:", "bad player name ''")


def test_a_huge_players_count_is_refused_before_building_names(cli):
    start = time.process_time()  # the work done, which other work on the machine does not change
    fails(cli("selfplay", "pile", "--seats", "1000000000"), 2, "--seats:", "2 to 3 players, not 1000000000")
    fails(cli("new", "pile", "--players", "," * 5_000_000, "-o", "x.jsonl"), 2, "--players:", "not 5000001")
    assert time.process_time() - start < 5
