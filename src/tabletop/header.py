"""The first line of a log: which game, who plays, under which rules and seed."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import attrs

from .errors import LogFormatError

FORMAT_VERSION = 1
_PLAYER_NAME = re.compile(r"^[^\s,=:@#\"]{1,32}$")


@attrs.frozen
class Randomness:
    """Where chance outcomes come from.

    ``seed`` set: an open seed, every outcome checkable now. ``commitment`` set:
    a sealed game, the seed revealed as the last event. Neither: outcomes were
    recorded at a real table and cannot be checked.
    """

    seed: str | None = None
    commitment: str | None = None

    @property
    def sealed(self) -> bool:
        return self.commitment is not None

    def to_json(self) -> dict[str, str]:
        if self.seed is not None:
            return {"seed": self.seed}
        if self.commitment is not None:
            return {"commitment": self.commitment}
        return {}


@attrs.frozen
class Header:
    """Line 1 of every log."""

    game: str
    players: tuple[str, ...]
    variants: tuple[str, ...] = ()
    options: Mapping[str, Any] = attrs.field(factory=dict)
    randomness: Randomness = Randomness()

    def to_json(self) -> dict[str, Any]:
        return {
            "tabletop": FORMAT_VERSION,
            "game": self.game,
            "players": list(self.players),
            "variants": list(self.variants),
            "options": dict(self.options),
            "randomness": self.randomness.to_json(),
        }

    def line(self) -> str:
        """The header as the first line of a log."""
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> Header:
        """Read a header, with an error that names what is wrong."""
        if not isinstance(data, dict) or "tabletop" not in data:
            if isinstance(data, dict) and "seq" in data:
                raise LogFormatError("the header is missing: line 1 is an event")
            raise LogFormatError("not a tabletop header (line 1 has no 'tabletop' format version)")
        if data["tabletop"] != FORMAT_VERSION:
            raise LogFormatError(
                f"unsupported log format version {data['tabletop']!r} (this tabletop reads {FORMAT_VERSION})"
            )
        extra = set(data) - {"tabletop", "game", "players", "variants", "options", "randomness"}
        if extra:
            raise LogFormatError(f"unknown header field '{sorted(extra)[0]}'")
        game = data.get("game")
        if not isinstance(game, str) or not game:
            raise LogFormatError("header field 'game' must be a game name")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise LogFormatError("header field 'players' must be a list of player names")
        check_players(players)
        variants = data.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise LogFormatError("header field 'variants' must be a list of variant names")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise LogFormatError("header field 'options' must be an object")
        rnd = data.get("randomness", {})
        if not isinstance(rnd, dict) or set(rnd) - {"seed", "commitment"} or len(rnd) > 1:
            raise LogFormatError('header field \'randomness\' must be {}, {"seed": ...} or {"commitment": ...}')
        if not all(isinstance(v, str) for v in rnd.values()):
            raise LogFormatError("header field 'randomness' must hold a string")
        return cls(game, tuple(players), tuple(variants), options, Randomness(**rnd))


def check_players(players: list[str] | tuple[str, ...]) -> None:
    """Player names: distinct, short, no spaces or notation characters."""
    for name in players:
        if not _PLAYER_NAME.match(name):
            raise LogFormatError(f'bad player name {name!r}: 1 to 32 characters, no spaces or , = : @ # "')
    if len(set(players)) != len(players):
        raise LogFormatError("player names must be distinct")
