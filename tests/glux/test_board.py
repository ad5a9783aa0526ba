"""Boards are data: the built-in sides and a user's own board file."""

from __future__ import annotations

import json

import pytest

from tabletop_glux import board as boards

GOOD = """\
middle: M
start 2: a1 c3

3  A . B
2  . M .
1  C . D
   a b c
"""


def test_two_player_side_is_13_by_9_with_a_9_square_middle_room():
    board = boards.load("two-players", 2)
    assert (board.width, board.height) == (13, 9)
    assert board.rooms.count("E") == 9 and board.middle == "E"
    assert board.room_names == list("ABCDEFGHI")
    assert board.rooms[board.square("g5")] == "E" and board.rooms[board.square("d7")] == "."


def test_three_four_player_side_is_13_by_13():
    board = boards.load("three-four-players", 4)
    assert (board.width, board.height) == (13, 13)
    assert board.rooms.count("E") == 9
    assert board.rooms[board.square("a8")] == "D" and board.rooms[board.square("m8")] == "F"


def test_a_board_drawn_by_hand_is_read():
    board = boards.parse(GOOD, "tiny.txt")
    assert board.starts == {2: (0, 8)}
    assert board.rooms == ("C", ".", "D", ".", "M", ".", "A", ".", "B")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.replace("2  . M .", "2  . M"), "tiny.txt:5: ragged row: row 2 has 2 squares, the first row 3"),
        (GOOD.replace("middle: M\n", ""), "tiny.txt: no middle room"),
        (GOOD.replace("middle: M", "middle: Q"), "tiny.txt:1: middle room 'Q' is not drawn"),
        (GOOD.replace("a1 c3", "a1 d3"), "tiny.txt:2: start square d3 is off the board"),
        (GOOD.replace("a1 c3", "a1"), "tiny.txt:2: 'start 2' lists 1 squares; 2 players need 2"),
        (GOOD.replace("start 2: a1 c3\n", ""), "tiny.txt: no start squares"),
        (GOOD.replace("1  C . D", "1  C x D"), "tiny.txt:6: 'x' is not a square"),
        (GOOD.replace("2  . M .", "7  . M ."), "tiny.txt:5: row 7 is out of order (expected row 2)"),
        (GOOD.replace("middle: M", "centre: M"), "tiny.txt:1: unknown setting 'centre'"),
        (GOOD + "hello there\n", "tiny.txt:8: cannot read this line"),
    ],
)
def test_a_bad_board_file_is_one_clear_error(text, message):
    with pytest.raises(boards.BoardError) as info:
        boards.parse(text, "tiny.txt")
    assert str(info.value).startswith(message)


def test_a_board_without_starts_for_the_player_count(cli, tmp_path):
    (tmp_path / "tiny.txt").write_text(GOOD)
    result = cli("new", "glux", "--players", "a,b,c", "--option", "board=tiny.txt", "-o", "g.jsonl")
    assert result.exit_code == 2
    assert "board 'tiny.txt' has no start squares for 3 players" in result.stderr
    assert not (tmp_path / "g.jsonl").exists()


def test_a_bad_board_file_on_the_command_line(cli, tmp_path):
    (tmp_path / "tiny.txt").write_text(GOOD.replace("2  . M .", "2  . M"))
    result = cli("new", "glux", "--players", "a,b", "--option", "board=tiny.txt", "-o", "g.jsonl")
    assert result.exit_code == 2
    assert result.stderr.strip() == "tabletop: tiny.txt:5: ragged row: row 2 has 2 squares, the first row 3"


def test_an_unknown_board_name(cli):
    result = cli("new", "glux", "--players", "a,b", "--option", "board=moon", "-o", "g.jsonl")
    assert result.exit_code == 2 and "board=moon" not in result.stderr and "moon" in result.stderr


def test_a_users_board_is_kept_in_the_header_so_the_log_replays_anywhere(cli, tmp_path):
    (tmp_path / "tiny.txt").write_text(GOOD)
    assert (
        cli("new", "glux", "--players", "a,b", "--option", "board=tiny.txt", "--seed", "1", "-o", "g.jsonl").exit_code
        == 0
    )
    (tmp_path / "tiny.txt").unlink()
    header = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])
    assert header["options"]["board"] == {"file": "tiny.txt", "text": GOOD}
    out = cli("replay", "g.jsonl").stdout
    assert "3   A    .    B" in out


def test_geometry_helpers_lines_neighbours_and_rooms():
    from tabletop_glux import DIAGONAL, ORTHOGONAL
    from tabletop_glux.board import load

    board = load(None, 2)  # the 2-player side, 13 x 9
    a1, f5 = board.square("a1"), board.square("f5")
    names = lambda squares: [board.name_of(s) for s in squares]  # noqa: E731
    assert names(board.line(a1, (1, 0)))[:3] == ["b1", "c1", "d1"] and len(board.line(a1, (1, 0))) == 12
    assert names(board.line(a1, (0, -1))) == []
    assert names(board.line(a1, (1, 1)))[-1] == "i9"
    assert sorted(names(board.neighbours(a1))) == ["a2", "b1"]
    assert sorted(names(board.neighbours(f5, ORTHOGONAL + DIAGONAL))) == [
        "e4", "e5", "e6", "f4", "f6", "g4", "g5", "g6"
    ]  # fmt: skip
    assert board.room_of(f5) == board.middle == "E"
    assert board.room_of(board.square("a3")) is None
