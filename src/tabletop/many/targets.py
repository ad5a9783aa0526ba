"""What tuning a rule aims at: each target turns the games played under one
set of parameters into a *loss*, a number to make as small as possible, and
says where those games stand, with a 95% interval.

Only finished games count (a game cut off by the event limit has no winner
to speak of). A shared victory counts as a win for each of its winners, as
everywhere in tabletop's statistics. The definitions, word for word, are in
docs/tuning.md; :func:`parse` reads ``--target``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

from ..base.errors import UsageError
from .intervals import wilson
from .paired import Mean
from .stats import GameRow, rounded

#: How ``--target`` is written, for the error that names it.
FORMS = "even-seats, even-turn-order, shared=P, length=N (turns), stronger=BOT:P"


@attrs.frozen
class Measure:
    """Where one candidate's games stand against the target."""

    #: What the search minimises (``inf`` when no game finished).
    loss: float
    #: What the target measures, in its own unit, and its 95% interval.
    value: float
    low: float
    high: float
    #: Finished games counted.
    games: int
    #: The value as a reader wants it ("seat 1 - seat 2: +1.2 points").
    text: str
    #: More of what was measured (each seat's win rate, ...), for --json.
    details: dict[str, Any] = attrs.field(factory=dict)

    def as_json(self) -> dict[str, Any]:
        loss = None if math.isinf(self.loss) else rounded(self.loss)
        return {
            "loss": loss,
            "value": _finite(self.value),
            "ci95": [_finite(self.low), _finite(self.high)],
            "games": self.games,
            "text": self.text,
            **self.details,
        }


def _finite(x: float) -> float | None:
    return rounded(x) if math.isfinite(x) else None


def _none(games: int, text: str = "no finished game") -> Measure:
    return Measure(math.inf, math.nan, math.nan, math.nan, games, text)


def _pct(x: float) -> str:
    return f"{x:.1%}"


class Target:
    """A target: how its games are played (:meth:`lineups`) and tallied."""

    #: As written on the command line.
    text: str = ""
    #: One line saying what it asks for.
    meaning: str = ""

    def lineups(self, bots: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        """The seatings each seed is played in, for every candidate."""
        return (bots,)

    def tally(self, players: int) -> Tally:
        raise NotImplementedError


class Tally:
    """The games of one candidate, added one at a time; only counters are kept."""

    def add(self, row: GameRow) -> None:
        raise NotImplementedError

    def measure(self) -> Measure:
        raise NotImplementedError


# -- even seats, even turn order ---------------------------------------------


@attrs.frozen
class Even(Target):
    """The win rates of the seats (or of the places in turn order) as even as
    possible: the loss is the gap between the most and the least winning."""

    by: str = "seat"

    @property
    def text(self) -> str:  # type: ignore[override]
        return "even-seats" if self.by == "seat" else "even-turn-order"

    @property
    def meaning(self) -> str:  # type: ignore[override]
        what = "the seats' win rates" if self.by == "seat" else "the win rates by place in turn order"
        return f"{what} as even as possible"

    def tally(self, players: int) -> Tally:
        return EvenTally(players, self.by)


def _place(by: str, k: int) -> str:
    if by == "seat":
        return f"seat {k + 1}"
    n = k + 1
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')} in turn order"


class EvenTally(Tally):
    def __init__(self, players: int, by: str) -> None:
        self.by = by
        self.players = players
        self.games = 0
        self.wins = [0] * players
        # Per pair of places, the per-game difference of their wins: the games
        # are the same for both, so the difference is measured pairwise.
        self.pairs = {(a, b): Mean() for a in range(players) for b in range(players) if a < b}

    def add(self, row: GameRow) -> None:
        if not row.finished:
            return
        self.games += 1
        people = row.players if self.by == "seat" else row.order
        won = [int(p in row.winners) for p in people]
        won += [0] * (self.players - len(won))
        for k, w in enumerate(won[: self.players]):
            self.wins[k] += w
        for (a, b), mean in self.pairs.items():
            mean.add(won[a] - won[b])

    def measure(self) -> Measure:
        if not self.games:
            return _none(0)
        rates = [w / self.games for w in self.wins]
        most = max(range(self.players), key=lambda k: (rates[k], -k))
        least = min((k for k in range(self.players) if k != most), key=lambda k: (rates[k], k))
        gap = rates[most] - rates[least]
        pair = self.pairs[(min(most, least), max(most, least))]
        low, high = pair.interval()
        if most > least:
            low, high = -high, -low
        low, high = max(-1.0, low), min(1.0, high)
        places = []
        for k, w in enumerate(self.wins):
            lo, hi = wilson(w, self.games)
            places.append(
                {"place": _place(self.by, k), "win_rate": rounded(rates[k]), "ci95": [rounded(lo), rounded(hi)]}
            )
        text = (
            f"{_place(self.by, most)} - {_place(self.by, least)}: {gap * 100:+.1f} points "
            f"(95% CI {low * 100:+.1f} to {high * 100:+.1f})"
        )
        return Measure(gap, gap, low, high, self.games, text, {"places": places})


# -- shared victories ----------------------------------------------------------


@attrs.frozen
class Shared(Target):
    """A given share of the finished games ending in a shared victory."""

    share: float

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"shared={self.share:g}"

    @property
    def meaning(self) -> str:  # type: ignore[override]
        return f"{_pct(self.share)} of the games won by more than one player"

    def tally(self, players: int) -> Tally:
        return SharedTally(self.share)


class SharedTally(Tally):
    def __init__(self, share: float) -> None:
        self.share = share
        self.games = 0
        self.shared = 0

    def add(self, row: GameRow) -> None:
        if row.finished:
            self.games += 1
            self.shared += len(row.winners) > 1

    def measure(self) -> Measure:
        if not self.games:
            return _none(0)
        rate = self.shared / self.games
        low, high = wilson(self.shared, self.games)
        text = f"shared victories: {_pct(rate)} (95% CI {_pct(low)}-{_pct(high)}; aim {_pct(self.share)})"
        return Measure(abs(rate - self.share), rate, low, high, self.games, text)


# -- game length -------------------------------------------------------------


@attrs.frozen
class Length(Target):
    """A given mean game length in turns, as the results files count them
    (the events that end a turn, ``Game.turn_ends``)."""

    turns: float

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"length={self.turns:g}"

    @property
    def meaning(self) -> str:  # type: ignore[override]
        return f"games of {self.turns:g} turns on average"

    def tally(self, players: int) -> Tally:
        return LengthTally(self.turns)


class LengthTally(Tally):
    def __init__(self, turns: float) -> None:
        self.turns = turns
        self.mean = Mean()

    def add(self, row: GameRow) -> None:
        if row.finished:
            self.mean.add(row.turns)

    def measure(self) -> Measure:
        if not self.mean.n:
            return _none(0)
        mean = self.mean.mean
        low, high = self.mean.interval()
        text = f"mean length: {mean:.2f} turns (95% CI {low:.2f}-{high:.2f}; aim {self.turns:g})"
        return Measure(abs(mean - self.turns), mean, low, high, self.mean.n, text)


# -- a stronger bot ------------------------------------------------------------


@attrs.frozen
class Stronger(Target):
    """A given share of the games won by the seats ``bot`` plays, over every
    rotation of the line-up: each seed is played once per rotation (seat 1's
    bot moved to seat 2, ...), so no seat's own advantage counts for or
    against the bot."""

    bot: str
    share: float

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"stronger={self.bot}:{self.share:g}"

    @property
    def meaning(self) -> str:  # type: ignore[override]
        return f"{self.bot} winning {_pct(self.share)} of the games, in every seat in turn"

    def lineups(self, bots: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        found: list[tuple[str, ...]] = []
        for k in range(len(bots)):
            turned = bots[k:] + bots[:k]
            if turned not in found:
                found.append(turned)
        return tuple(found)

    def tally(self, players: int) -> Tally:
        return StrongerTally(self.bot, self.share)


class StrongerTally(Tally):
    def __init__(self, bot: str, share: float) -> None:
        self.bot = bot
        self.share = share
        self.games = 0
        self.won = 0

    def add(self, row: GameRow) -> None:
        if not row.finished:
            return
        self.games += 1
        self.won += any(b == self.bot and p in row.winners for p, b in zip(row.players, row.bots))

    def measure(self) -> Measure:
        if not self.games:
            return _none(0)
        rate = self.won / self.games
        low, high = wilson(self.won, self.games)
        text = f"{self.bot} wins {_pct(rate)} (95% CI {_pct(low)}-{_pct(high)}; aim {_pct(self.share)})"
        return Measure(abs(rate - self.share), rate, low, high, self.games, text)


# -- reading --target ------------------------------------------------------------


def parse(text: str, bots: Sequence[str]) -> Target:
    """``--target`` for a line-up of ``bots`` (one spec per seat); one line
    naming the option when it cannot be read or does not fit the line-up."""
    head, sep, rest = text.strip().partition("=")
    if head in ("even-seats", "even-turn-order") and not sep:
        if len(bots) < 2:
            raise UsageError(f"--target {text}: needs two seats or more")
        return Even("seat" if head == "even-seats" else "turn-order")
    if head == "shared" and sep:
        return Shared(_share(text, rest))
    if head == "length" and sep:
        turns = _number(text, rest, "a number of turns")
        if turns <= 0:
            raise UsageError(f"--target {text}: the length is a number of turns above 0")
        return Length(turns)
    if head == "stronger" and sep:
        bot, colon, share = rest.rpartition(":")
        if not colon or not bot:
            raise UsageError(f"--target {text}: write stronger=BOT:P (a bot of the line-up, the share it should win)")
        names = [spec.partition(":")[0] for spec in bots]
        if bot not in names:
            raise UsageError(f"--target {text}: {bot} plays no seat (--bot gives {', '.join(dict.fromkeys(names))})")
        if all(name == bot for name in names):
            raise UsageError(f"--target {text}: {bot} plays every seat; give another bot a seat with --bot")
        return Stronger(bot, _share(text, share))
    raise UsageError(f"--target {text}: one of {FORMS}")


def _number(text: str, value: str, what: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise UsageError(f"--target {text}: {value!r} is not {what}") from None
    if not math.isfinite(number):
        raise UsageError(f"--target {text}: {value!r} is not {what}")
    return number


def _share(text: str, value: str) -> float:
    value = value.strip()
    share = _number(text, value[:-1], "a share") / 100 if value.endswith("%") else _number(text, value, "a share")
    if not 0 <= share <= 1:
        raise UsageError(f"--target {text}: a share is from 0 to 1 (or 0% to 100%)")
    return share
