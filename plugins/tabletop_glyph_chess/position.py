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

import json
from collections.abc import Mapping, Sequence
from itertools import permutations
from pathlib import Path
from typing import Any

from tabletop import UsageError

from .hexes import HexBoard
from .pieces import COINS_PER_TYPE, DICE, GLYPHS, ILLUSIONIST, MINION, MINIONS, SCEPTER
from .state import ALIVE, AWAKEN, BURNT, KILLED, State, add

ORDER = (SCEPTER, *GLYPHS)


class PositionError(UsageError):
    """Raised when a position (option ``position``) is wrong; names what is wrong."""


def read_radius(value: object) -> int:
    try:
        radius = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UsageError(f"option 'radius': not a whole number: {value!r}") from None
    if not 6 <= radius <= 12:
        raise UsageError("option 'radius': from 6 (7 spots an edge, as printed) to 12")
    return radius


def radius_of(options: Mapping[str, Any]) -> int:
    return int(options.get("radius", 6))


def read_file(value: object) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    path = Path(str(value))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PositionError(f"option 'position': {value}: {exc.strerror}") from None
    except ValueError as exc:
        raise PositionError(f"option 'position': {value}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise PositionError(f"option 'position': {value}: must be a JSON object")
    return data


def build(geo: HexBoard, players: Sequence[str], data: Mapping[str, Any]) -> State:
    """The state a position describes, checked field by field."""

    def fail(message: str) -> PositionError:
        return PositionError(f"option 'position': {message}")

    extra = set(data) - {"turn", "dice", "pieces", "hands", "used", "fates", "eliminated"}
    if extra:
        raise fail(f"unknown field '{sorted(extra)[0]}'")
    n = len(players)
    seats = {p: i for i, p in enumerate(players)}
    for field in ("pieces", "hands", "used", "fates"):
        for name in data.get(field, {}):
            if name not in seats:
                raise fail(f"{field}: '{name}' is not a player")
    if data.get("turn") not in seats:
        raise fail("'turn' must name the player whose turn begins")
    dice = data.get("dice")
    if not isinstance(dice, list) or len(dice) != DICE or any(d not in GLYPHS for d in dice):
        raise fail(f"'dice' must list the {DICE} faces, each one of {' '.join(GLYPHS)}")
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
        dice=tuple(dice),
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
