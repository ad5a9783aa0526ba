"""Options that shape a game: the board's radius, a position to start from,
and the arrangements of the advanced setup.

A position is a JSON object, kept whole in the log's header::

    {
      "turn": "ann",
      "dice": ["S", "E", "E", "N", "U"],
      "pieces": {"ann": {"g4": "K", "e5": "N"}, "ben": {"h8": "K", "f6": "M"}},
      "hands": {"ann": ["N", "N"]},
      "used": {"ben": ["S"]},
      "fates": {"ann": {"F": "burnt"}}
    }

The game starts at the awakening step of ``turn``. Coins not in ``hands`` or
``used`` are in the bag (2 of each type per player). A glyph piece not on the
board was killed (revivable) unless ``fates`` says ``burnt``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from pathlib import Path
from typing import Any

from tabletop import TabletopError, UsageError
from tabletop.base.errors import describe, quote, shown
from tabletop.log import files, jsonline

from .hexes import HexBoard, board
from .pieces import COINS_PER_TYPE, GLYPHS, ILLUSIONIST, MINION, MINIONS, MOST_DICE, SCEPTER
from .state import ALIVE, AWAKEN, BURNT, KILLED, State, add

ORDER = (SCEPTER, *GLYPHS)


class PositionError(UsageError):
    """Raised when a position (option ``position``) is wrong; names what is wrong."""


#: The board's radius: as printed (7 spots an edge) up to 12 (25 spots an edge).
MIN_RADIUS, MAX_RADIUS = 6, 12
#: The largest position file, in bytes.
MAX_POSITION = 64 * 1024


def read_radius(value: object) -> int:
    """``--option radius=VALUE``: a whole number from 6 to 12."""
    text = str(value).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        raise UsageError(f"option 'radius': not a whole number: {quote(text)}")
    return check_radius(int(text))


def check_radius(value: object) -> int:
    """The ``radius`` a header holds: an integer (not true, not 7.0) from 6 to 12."""
    if type(value) is not int:
        raise UsageError(
            f"option 'radius' must be a whole number from {MIN_RADIUS} to {MAX_RADIUS}, not {describe(value)}"
        )
    if not MIN_RADIUS <= value <= MAX_RADIUS:
        raise UsageError(
            f"option 'radius': from {MIN_RADIUS} (7 spots an edge, as printed) to {MAX_RADIUS}, not {describe(value)}"
        )
    return value


def radius_of(options: Mapping[str, Any]) -> int:
    return int(options.get("radius", MIN_RADIUS))


def read_file(value: object) -> dict[str, Any]:
    """``--option position=FILE``: the position a JSON file holds (kept whole
    in the header)."""
    if isinstance(value, dict):
        return value
    path = Path(str(value))
    text = files.read_text(path, MAX_POSITION, "option 'position'")
    try:
        data = jsonline.loads(text)
    except TabletopError as exc:
        raise PositionError(f"option 'position': {shown(path)}: {exc.message}") from None
    if not isinstance(data, dict):
        raise PositionError(f"option 'position': {shown(path)}: must be a JSON object")
    return data


def check_options(options: Mapping[str, Any], players: Sequence[str]) -> None:
    """The options of a header (as read from a log): ``radius`` and
    ``position`` checked exactly as ``new`` checks them."""
    radius = check_radius(options["radius"]) if "radius" in options else MIN_RADIUS
    if "position" in options:
        data = options["position"]
        if not isinstance(data, dict):
            raise PositionError(f"option 'position' must be a position object, not {describe(data)}")
        build(board(radius), players, data)


def _shape(data: Mapping[str, Any]) -> None:
    """Every field of a position of the type it must have (before reading it)."""

    def fail(message: str) -> PositionError:
        return PositionError(f"option 'position': {message}")

    def strings(value: object, what: str) -> None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(f"{what} must be a list of letters, not {describe(value)}")

    if not isinstance(data.get("turn"), str):
        raise fail("'turn' must name the player whose turn begins")
    strings(data.get("dice"), "'dice'")
    strings(data.get("eliminated", []), "'eliminated'")
    for field in ("pieces", "hands", "used", "fates"):
        table = data.get(field, {})
        if not isinstance(table, dict):
            raise fail(f"'{field}' must be an object by player, not {describe(table)}")
        for name, value in table.items():
            if field in ("hands", "used"):
                strings(value, f"{field}: {quote(name)}")
            elif not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise fail(f"{field}: {quote(name)} must be an object of letters, not {describe(value)}")


def build(geo: HexBoard, players: Sequence[str], data: Mapping[str, Any], dice: int | None = None) -> State:
    """The state a position describes, checked field by field: with ``dice``
    faces (the game's ``glyph_dice``), or, before the game is made, with any
    number a game may share."""

    def fail(message: str) -> PositionError:
        return PositionError(f"option 'position': {message}")

    extra = set(data) - {"turn", "dice", "pieces", "hands", "used", "fates", "eliminated"}
    if extra:
        raise fail(f"unknown field '{sorted(extra)[0]}'")
    _shape(data)
    n = len(players)
    seats = {p: i for i, p in enumerate(players)}
    for field in ("pieces", "hands", "used", "fates"):
        for name in data.get(field, {}):
            if name not in seats:
                raise fail(f"{field}: '{name}' is not a player")
    if data.get("turn") not in seats:
        raise fail("'turn' must name the player whose turn begins")
    faces = data.get("dice")
    if not isinstance(faces, list) or any(d not in GLYPHS for d in faces):
        raise fail(f"'dice' must list the dice's faces, each one of {' '.join(GLYPHS)}")
    if dice is not None and len(faces) != dice:
        raise fail(f"'dice' must list the {dice} faces of this game's {dice} dice, not {len(faces)}")
    if not 1 <= len(faces) <= MOST_DICE:
        raise fail(f"'dice' must list the faces of 1 to {MOST_DICE} dice, not {len(faces)}")
    eliminated = tuple(p in data.get("eliminated", []) for p in players)
    board: list[tuple[int, str] | None] = [None] * geo.size
    fates = []
    hands, bags, used = [], [], []
    for seat, player in enumerate(players):
        mine = data.get("pieces", {}).get(player, {})
        counts = {k: 0 for k in (*ORDER, MINION)}
        for spot_name, kind in mine.items():
            spot = geo.spot(spot_name)
            if spot is None:
                raise fail(f"{player}: {spot_name} is not a spot of this board")
            if kind not in counts:
                raise fail(f"{player}: '{kind}' on {spot_name} is not a piece (K S I E F N U M)")
            if board[spot] is not None:
                raise fail(f"two pieces on {spot_name}")
            board[spot] = (seat, kind)
            counts[kind] += 1
        limits = {ILLUSIONIST: 2, MINION: MINIONS}
        for kind, count in counts.items():
            if count > limits.get(kind, 1):
                raise fail(f"{player} has {count} pieces '{kind}'")
        if counts[MINION] and not counts["U"]:
            raise fail(f"{player} has minions on the board but no summoner (they leave with it)")
        if not eliminated[seat] and counts[SCEPTER] != 1:
            raise fail(f"{player} needs a scepter on the board (or list them as eliminated)")
        told = data.get("fates", {}).get(player, {})
        fate = []
        for glyph in GLYPHS:
            given = told.get(glyph)
            if counts[glyph]:
                if given not in (None, ALIVE):
                    raise fail(f"{player}'s {glyph} is on the board, so it is alive, not {given}")
                fate.append(ALIVE)
            else:
                if given not in (None, KILLED, BURNT):
                    raise fail(f"{player}'s {glyph}: fate is killed or burnt, not {given}")
                fate.append(given or KILLED)
        fates.append(tuple(fate))
        hand = _coins(data.get("hands", {}).get(player, []), fail, player)
        spent = _coins(data.get("used", {}).get(player, []), fail, player)
        bag = tuple(COINS_PER_TYPE - h - u for h, u in zip(hand, spent))
        if any(b < 0 for b in bag):
            raise fail(f"{player} has more than {COINS_PER_TYPE} coins of one type in hand and used")
        hands.append(hand)
        used.append(spent)
        bags.append(bag)
    return State(
        board=tuple(board),
        fates=tuple(fates),
        hands=tuple(hands),
        bags=tuple(bags),
        used=tuple(used),
        dice=tuple(faces),
        eliminated=eliminated,
        phase=AWAKEN,
        turn=seats[data["turn"]],
        placed=(True,) * n,
        owed=(0,) * n,
    )


def _coins(names: object, fail, player: str) -> tuple[int, ...]:
    counts = (0,) * len(GLYPHS)
    if not isinstance(names, list):
        raise fail(f"{player}: coins are a list of letters")
    for name in names:
        if name not in GLYPHS:
            raise fail(f"{player}: '{name}' is not a coin (S I E F N U)")
        counts = add(counts, name, 1)
    return counts


def arrangement_error(order: Sequence[str]) -> str | None:
    if sorted(order) != sorted(ORDER):
        return f"an arrangement lists the scepter and the six glyph pieces once each: {' '.join(ORDER)} in any order"
    return None


def arrangements() -> list[tuple[str, ...]]:
    """Every order of scepter and glyph pieces along an edge."""
    return list(permutations(ORDER))
