"""The bounds on a board drawing (``board.py``): columns a to z, so at most 26
columns, and as many rows; a wider or taller board is refused in one line
naming the file and line, a board of 26 is read."""

from __future__ import annotations

import string

import pytest

from tabletop_glux import board as boards

from .helpers import make_game


def drawing(columns: int, rows: int = 3) -> str:
    """A board of ``columns`` by ``rows``: path squares, the middle room M in
    the top row's first square, the start squares at the bottom corners."""
    lines = ["middle: M", f"start 2: a1 {string.ascii_lowercase[min(columns, 26) - 1]}1", ""]
    for number in range(rows, 0, -1):
        cells = ["."] * columns
        if number == rows:
            cells[0] = "M"
        lines.append(f"{number:<3}" + " ".join(cells))
    return "\n".join(lines) + "\n"


def test_a_board_of_26_columns_a_to_z_is_read():
    board = boards.parse(drawing(26), "wide.txt")
    assert (board.width, board.height) == (26, 3)
    assert board.names[:26] == tuple(f"{c}1" for c in string.ascii_lowercase)
    assert board.square("z3") == 3 * 26 - 1 and board.starts == {2: (0, 25)}


def test_a_board_wider_than_26_columns_is_refused():
    with pytest.raises(boards.BoardError) as info:
        boards.parse(drawing(27), "wide.txt")
    # The first row of the drawing is on line 4 of the file.
    assert str(info.value) == "wide.txt:4: 27 columns; at most 26 (a to z)"
    with pytest.raises(boards.BoardError, match="40 columns; at most 26"):
        boards.parse(drawing(40), "wide.txt")


def test_a_board_of_26_rows_is_read_and_one_of_27_refused():
    assert boards.parse(drawing(3, rows=26), "tall.txt").height == 26
    with pytest.raises(boards.BoardError) as info:
        boards.parse(drawing(3, rows=27), "tall.txt")
    assert str(info.value) == "tall.txt:30: 27 rows; at most 26"
    # A row number of three digits is past any row there may be.
    with pytest.raises(boards.BoardError) as info:
        boards.parse(drawing(3).replace("\n3  M", "\n100 M"), "tall.txt")
    assert str(info.value) == "tall.txt:4: row number '100': at most 26 rows"


def test_a_game_on_a_board_of_26_columns_and_none_on_27(registry):
    game = make_game(registry, options={"board": {"file": "wide.txt", "text": drawing(26)}})
    assert game.board.width == 26 and [game.board.name_of(s) for s in game.start_squares] == ["a1", "z1"]
    with pytest.raises(boards.BoardError, match="27 columns; at most 26"):
        make_game(registry, options={"board": {"file": "wider.txt", "text": drawing(27)}})
    with pytest.raises(boards.BoardError, match="27 columns; at most 26"):
        boards.check_option({"file": "wider.txt", "text": drawing(27)}, 2)


def test_a_board_wider_than_26_columns_is_refused_by_new(cli, tmp_path):
    (tmp_path / "wider.txt").write_text(drawing(27))
    result = cli("new", "glux", "--players", "a,b", "--option", "board=wider.txt", "-o", "g.jsonl")
    assert result.exit_code == 2
    assert result.stderr.strip() == "tabletop: wider.txt:4: 27 columns; at most 26 (a to z)"
    assert not (tmp_path / "g.jsonl").exists()
    (tmp_path / "wide.txt").write_text(drawing(26))
    result = cli("new", "glux", "--players", "a,b", "--option", "board=wide.txt", "-o", "g.jsonl")
    assert result.exit_code == 0, result.output
