"""Glüx boards as data: a plain-text drawing a person can copy and redraw.

A board file has ``key: value`` lines and a drawing of the squares, top row
first, each row starting with its number::

    middle: E
    start 2: a1 m9

    9  A A . . B B B B B . . C C
    ...
    1  G G . . H H H H H . . I I
       a b c d e f g h i j k l m

``.`` is a path square and a letter a room square (the same letter is the
same room). ``start N:`` lists the start squares for N players in seat order;
``middle:`` names the middle room that breaks ties. Lines starting with ``#``
are comments; the column letters under the drawing are optional.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path

import attrs

from tabletop import UsageError
from tabletop.base.errors import quote
from tabletop.log import files

#: The printed board's sides, by name.
BUILT_IN = {"two-players": "two-players.txt", "three-four-players": "three-four-players.txt"}
#: The four orthogonal directions, as (column step, row step): up, right, down, left.
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: The four diagonal directions, as (column step, row step).
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
PATH = "."
_ROW = re.compile(r"^\s*(\d+)\s+(.*)$")
#: Bounds on a board drawing: columns a to z, as many rows, and the text of a
#: drawing and its file name (kept whole in every log's header).
MAX_SIDE = 26
MAX_TEXT = 64 * 1024
MAX_NAME = 255
_FOOTER = re.compile(r"^\s*([a-z](\s+[a-z])*)\s*$")


class BoardError(UsageError):
    """Raised when a board file is wrong; names the file and line."""


# Compared and hashed by identity: boards are cached, and rays per board.
# Without slots: attrs gives a slotted class with a cached property a
# ``__getattr__``, which makes every attribute read on a board a slow one
# (the interpreter cannot specialise it), and the rules read boards often.
@attrs.frozen(eq=False, slots=False)
class Board:
    """The squares of a board: their rooms, the start squares and the middle room.

    Squares are numbered ``row * width + column`` from ``a1`` = 0.
    """

    name: str
    width: int
    height: int
    #: The room letter of each square, or ``"."`` for a path square.
    rooms: tuple[str, ...]
    #: Start squares in seat order, by player count.
    starts: Mapping[int, tuple[int, ...]]
    middle: str

    #: Square names (``a1``, ...) by index, and the other way round.
    names: tuple[str, ...] = attrs.field(init=False)
    indices: Mapping[str, int] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        names = tuple(f"{chr(ord('a') + i % self.width)}{i // self.width + 1}" for i in range(self.width * self.height))
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "indices", {name: i for i, name in enumerate(names)})

    def square(self, name: str) -> int | None:
        """The index of a square named like ``f7``, or None if off the board."""
        return self.indices.get(name)

    def name_of(self, index: int) -> str:
        return self.names[index]

    @property
    def room_names(self) -> list[str]:
        return sorted({r for r in self.rooms if r != PATH})

    @functools.cached_property
    def room_squares(self) -> dict[str, tuple[int, ...]]:
        """The squares of each room, by room letter."""
        return {room: tuple(i for i, r in enumerate(self.rooms) if r == room) for room in self.room_names}

    @functools.lru_cache(maxsize=32)
    def rays(self, directions: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each square, the squares in a straight line in each direction
        (computed once per board and set of directions)."""
        table = []
        for index in range(self.width * self.height):
            row, col = divmod(index, self.width)
            lines = []
            for dc, dr in directions:
                line = []
                c, r = col + dc, row + dr
                while 0 <= c < self.width and 0 <= r < self.height:
                    line.append(r * self.width + c)
                    c, r = c + dc, r + dr
                lines.append(tuple(line))
            table.append(tuple(lines))
        return tuple(table)

    @functools.lru_cache(maxsize=32)
    def paths(
        self, directions: tuple[tuple[int, int], ...]
    ) -> tuple[tuple[tuple[tuple[tuple[int, ...], int], ...], ...], ...]:
        """For each square and each count 0-6, every straight count of that
        many squares that stays on the board: (the squares between, the
        destination)."""
        return tuple(
            tuple(tuple((ray[: n - 1], ray[n - 1]) for ray in lines if len(ray) >= n) if n else () for n in range(7))
            for lines in self.rays(directions)
        )

    # -- geometry, for rules and house rules ----------------------------------
    def line(self, square: int, direction: tuple[int, int]) -> tuple[int, ...]:
        """The squares in a straight line from ``square`` (not included) in
        ``direction`` (column step, row step), nearest first, to the edge:
        ``board.line(board.square("a1"), (1, 0))`` is b1, c1, ... m1."""
        return self.rays((direction,))[square][0]

    def neighbours(self, square: int, directions: tuple[tuple[int, int], ...] = ORTHOGONAL) -> tuple[int, ...]:
        """The squares next to ``square`` in ``directions`` (orthogonal unless
        given; ``ORTHOGONAL + DIAGONAL`` for all eight), those on the board."""
        return tuple(line[0] for line in self.rays(directions)[square] if line)

    def room_of(self, square: int) -> str | None:
        """The room letter of ``square``, or None for a path square."""
        room = self.rooms[square]
        return None if room == PATH else room

    def starts_for(self, players: int) -> tuple[int, ...]:
        try:
            return self.starts[players]
        except KeyError:
            raise BoardError(f"board '{self.name}' has no start squares for {players} players") from None


def default_name(players: int) -> str:
    return "two-players" if players == 2 else "three-four-players"


@functools.lru_cache(maxsize=None)
def built_in_text(name: str) -> str:
    # Read beside this module when it is a file (importlib.resources costs a
    # few milliseconds of every command's start-up); through importlib.resources
    # when the package is elsewhere (a zip).
    beside = Path(__file__).with_name("boards") / BUILT_IN[name]
    if beside.is_file():
        return beside.read_text(encoding="utf-8")
    from importlib import resources

    return resources.files(__package__).joinpath("boards", BUILT_IN[name]).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=64)
def _parse_cached(text: str, source: str) -> Board:
    return parse(text, source)


def load(option: object, players: int) -> Board:
    """The board a header's ``board`` option names (a built-in name, or a
    ``{"file": ..., "text": ...}`` object holding a user's board)."""
    if option is None:
        option = default_name(players)
    if isinstance(option, str):
        if option not in BUILT_IN:
            raise BoardError(f"option 'board': unknown board {quote(option)} (built in: {', '.join(BUILT_IN)})")
        return _parse_cached(built_in_text(option), option)
    if isinstance(option, dict) and isinstance(option.get("text"), str) and isinstance(option.get("file"), str):
        return _parse_cached(option["text"], option["file"])
    raise BoardError('option \'board\' must be a board name or {"file": ..., "text": ...}')


def check_option(option: object, players: int) -> None:
    """The ``board`` option as a header holds it, checked as ``new`` checks
    it: a built-in name, or a drawing within the bounds, with start squares
    for ``players``."""
    if isinstance(option, dict):
        if set(option) != {"file", "text"} or not all(isinstance(v, str) for v in option.values()):
            raise BoardError('option \'board\' must be a board name or {"file": ..., "text": ...}')
        name, text = option["file"], option["text"]
        if not 0 < len(name) <= MAX_NAME or not name.isprintable():
            raise BoardError(f"option 'board': the file name must be 1 to {MAX_NAME} printable characters")
        if len(text) > MAX_TEXT:
            raise BoardError(f"option 'board': {quote(name)}: a drawing of more than {MAX_TEXT:,} characters")
    load(option, players).starts_for(players)


def read_option(value: str, players: int) -> object:
    """``--option board=VALUE``: a built-in name, or a path whose text is kept
    in the header (errors name the path as given)."""
    if value in BUILT_IN:
        return value
    path = Path(value)
    try:
        text = files.read_text(path, MAX_TEXT, "option 'board'")
    except UsageError as exc:
        raise BoardError(f"{exc.message} (built in: {', '.join(BUILT_IN)})", where=exc.where) from None
    parse(text, str(path)).starts_for(players)
    return {"file": path.name, "text": text}


def parse(text: str, source: str) -> Board:
    """Read a board drawing; every error names ``source`` and the line."""
    rows: list[tuple[int, int, list[str]]] = []
    starts: dict[int, tuple[str, int]] = {}
    middle: tuple[str, int] | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        where = f"{source}:{lineno}"
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if sep:
            key = key.strip()
            if key == "middle":
                middle = (value.strip(), lineno)
            elif re.fullmatch(r"start [1-9]", key):
                starts[int(key[6:])] = (value, lineno)
            else:
                raise BoardError(f"unknown setting {quote(key)} (settings: middle, start N)", where=where)
            continue
        m = _ROW.match(line)
        if m:
            cells = m.group(2).split()
            for cell in cells:
                if not (cell == PATH or (len(cell) == 1 and cell.isalpha() and cell.isupper())):
                    raise BoardError(f"{quote(cell)} is not a square ('.' or a capital room letter)", where=where)
            if len(m.group(1)) > 2:
                raise BoardError(f"row number {quote(m.group(1), 12)}: at most {MAX_SIDE} rows", where=where)
            rows.append((lineno, int(m.group(1)), cells))
        elif _FOOTER.match(line):
            continue
        else:
            raise BoardError("cannot read this line: not a setting, a row or the column letters", where=where)
    if not rows:
        raise BoardError("no rows of squares", where=source)
    width = len(rows[0][2])
    height = len(rows)
    if width > MAX_SIDE:
        raise BoardError(f"{width} columns; at most {MAX_SIDE} (a to z)", where=f"{source}:{rows[0][0]}")
    if height > MAX_SIDE:
        raise BoardError(f"{height} rows; at most {MAX_SIDE}", where=f"{source}:{rows[-1][0]}")
    for i, (lineno, number, cells) in enumerate(rows):
        if number != height - i:
            raise BoardError(f"row {number} is out of order (expected row {height - i})", where=f"{source}:{lineno}")
        if len(cells) != width:
            raise BoardError(
                f"ragged row: row {number} has {len(cells)} squares, the first row {width}", where=f"{source}:{lineno}"
            )
    rooms = tuple(cell for _, _, cells in reversed(rows) for cell in cells)
    board = Board(source, width, height, rooms, {}, "")
    if middle is None:
        raise BoardError("no middle room: add a line 'middle: X'", where=source)
    if middle[0] not in set(rooms) - {PATH}:
        raise BoardError(f"middle room {quote(middle[0])} is not drawn on the board", where=f"{source}:{middle[1]}")
    if not starts:
        raise BoardError("no start squares: add a line like 'start 2: a1 m9'", where=source)
    found: dict[int, tuple[int, ...]] = {}
    for count, (value, lineno) in sorted(starts.items()):
        names = value.split()
        if len(names) != count:
            raise BoardError(
                f"'start {count}' lists {len(names)} squares; {count} players need {count}", where=f"{source}:{lineno}"
            )
        squares = []
        for name in names:
            index = board.square(name)
            if index is None:
                raise BoardError(f"start square {name} is off the board", where=f"{source}:{lineno}")
            squares.append(index)
        if len(set(squares)) != len(squares):
            raise BoardError("two players share a start square", where=f"{source}:{lineno}")
        found[count] = tuple(squares)
    return attrs.evolve(board, starts=found, middle=middle[0])
