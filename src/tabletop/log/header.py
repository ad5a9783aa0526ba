"""The first line of a log: which game, who plays, under which rules and seed."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

import attrs

from ..base.errors import LogFormatError, quote

FORMAT_VERSION = 1
#: The formats read: 1, and 2, a sealed game whose hash chain takes each line
#: with a salt made from the seed (see :mod:`tabletop.log.chain`).
VERSIONS = (1, 2)
_PLAYER_NAME = re.compile(r"^[^\s,=:@#\"]{1,32}$")
_COMMITMENT = re.compile(r"^sha256:[0-9a-f]{64}\Z")

#: Bounds on what a header may hold, so that no header makes a replay slow or
#: large (documented in docs/log-format.md). A game bounds its own options.
MAX_PLAYERS = 16
MAX_VARIANTS = 32
MAX_VARIANT = 200
MAX_SEED = 256


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
    #: The log format: 2 for a sealed game begun since that format (its chain is salted).
    version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        return {
            "tabletop": self.version,
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
        version = data["tabletop"]
        # true and 1.0 equal 1 in Python; the format's version is the integer 1 (or 2).
        if type(version) is not int or version not in VERSIONS:
            raise LogFormatError(f"unsupported log format version {quote(version)} (this tabletop reads 1 and 2)")
        if "copy" in data:
            raise LogFormatError(
                "this is one player's copy of a log (tabletop export --as): tabletop replay and verify read it"
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
        if len(players) > MAX_PLAYERS:
            raise LogFormatError(f"header field 'players': {len(players)} players; at most {MAX_PLAYERS}")
        check_players(players)
        variants = data.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise LogFormatError("header field 'variants' must be a list of variant names")
        if len(variants) > MAX_VARIANTS:
            raise LogFormatError(f"header field 'variants': {len(variants)} variants; at most {MAX_VARIANTS}")
        for variant in variants:
            if not 0 < len(variant) <= MAX_VARIANT or not variant.isprintable():
                raise LogFormatError(
                    f"header field 'variants': {quote(variant)} is not a variant (1 to {MAX_VARIANT} printable characters)"
                )
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise LogFormatError("header field 'options' must be an object")
        rnd = data.get("randomness", {})
        if not isinstance(rnd, dict) or set(rnd) - {"seed", "commitment"} or len(rnd) > 1:
            raise LogFormatError('header field \'randomness\' must be {}, {"seed": ...} or {"commitment": ...}')
        if not all(isinstance(v, str) for v in rnd.values()):
            raise LogFormatError("header field 'randomness' must hold a string")
        if "seed" in rnd:
            check_seed(rnd["seed"], "header field 'randomness': the seed")
        if "commitment" in rnd and not _COMMITMENT.match(rnd["commitment"]):
            raise LogFormatError("header field 'randomness': a commitment is 'sha256:' and 64 hex digits")
        if version == 2 and "commitment" not in rnd:
            raise LogFormatError("a log of format 2 is a sealed game: its 'randomness' holds a commitment")
        return cls(game, tuple(players), tuple(variants), options, Randomness(**rnd), version)


def check_players(players: list[str] | tuple[str, ...], option: str = "") -> None:
    """Player names: distinct, short, no spaces or notation characters, no
    control, invisible or unassigned characters. ``option`` (e.g.
    ``"--players"``) starts the message when the names came from one."""
    lead = f"{option}: " if option else ""
    for name in players:
        # Printable ASCII, less the spaces the pattern refuses, is all visible.
        if not _PLAYER_NAME.match(name) or not (name.isascii() and name.isprintable() or all(map(_visible, name))):
            raise LogFormatError(
                f'{lead}bad player name {quote(name, 40)}: 1 to 32 visible characters, no spaces or , = : @ # "'
            )
    if len(set(players)) != len(players):
        raise LogFormatError(f"{lead}player names must be distinct")


def _visible(char: str) -> bool:
    # Categories C* are control, format (zero-width), surrogate, private and
    # unassigned characters; Z* are separators. A name shows all it holds.
    return unicodedata.category(char)[0] not in "CZ"


def check_seed(seed: str, what: str = "--seed") -> None:
    """A seed: 1 to 256 characters of text (it keys every chance outcome)."""
    if not 0 < len(seed) <= MAX_SEED:
        raise LogFormatError(f"{what} must be 1 to {MAX_SEED} characters")
    if not seed.isascii() and any(0xD800 <= ord(c) <= 0xDFFF for c in seed):
        raise LogFormatError(f"{what} is not UTF-8 text")
