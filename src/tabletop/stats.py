"""Many games summarised: wins per seat and per bot, shared victories, scores
and game length, with 95% intervals on win rates.

A :class:`GameRow` is one finished (or unfinished) game reduced to what the
summary needs; rows come from logs (:func:`rows_from_logs`, streamed) or
from simulation. A :class:`Summary` takes rows one at a time and keeps only
counters, so any number of games fits in memory.
"""

from __future__ import annotations

import csv
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import attrs

from . import folders
from .engine import Match, Replay
from .errors import TabletopError, UsageError
from .intervals import wilson
from .registry import Registry

#: What ``--by`` may group by.
GROUPINGS = ("seat", "variant", "bot")


@attrs.frozen
class GameRow:
    """One game: who sat where, with which bot, the scores, the winners."""

    game: str
    variants: tuple[str, ...]
    players: tuple[str, ...]
    #: The bot of each seat when the log records it (see docs/log-format.md), else None.
    bots: tuple[str | None, ...]
    scores: tuple[int, ...]
    winners: tuple[str, ...]
    events: int
    finished: bool
    file: str = ""

    @property
    def winning_seats(self) -> tuple[int, ...]:
        """Seat numbers (from 1) of the winners."""
        return tuple(i for i, p in enumerate(self.players, start=1) if p in self.winners)

    def csv(self) -> dict[str, Any]:
        """The game as one CSV row (lists are space-separated, in seat order)."""
        return {
            "file": self.file,
            "game": self.game,
            "variants": " ".join(self.variants),
            "players": " ".join(self.players),
            "bots": " ".join(b or "-" for b in self.bots),
            "scores": " ".join(map(str, self.scores)),
            "winners": " ".join(self.winners),
            "winning_seats": " ".join(map(str, self.winning_seats)),
            "events": self.events,
            "finished": int(self.finished),
        }


CSV_FIELDS = ("file", "game", "variants", "players", "bots", "scores", "winners", "winning_seats", "events", "finished")


def bot_of(registry: Registry, game: str, player: str) -> str | None:
    """The bot a seat's name records: ``p1-mcts`` was played by ``mcts`` (a
    registered bot of the game after the last ``-``), else None."""
    _, sep, suffix = player.rpartition("-")
    if not sep:
        return None
    bots = registry.bots.get(suffix, ())
    return suffix if any(b.game in (None, game) for b in bots) else None


def bot_seat_name(seat: int, bot: str) -> str:
    """The name simulation gives seat ``seat`` (from 1) played by ``bot``."""
    return f"p{seat}-{bot}"


def row_of(registry: Registry, match: Match, events: int | None = None, file: str = "") -> GameRow:
    """The row of a game as ``match`` leaves it."""
    header = match.header
    outcome = match.game.outcome(match.state)
    over = match.over
    return GameRow(
        game=header.game,
        variants=tuple(header.variants),
        players=tuple(header.players),
        bots=tuple(bot_of(registry, header.game, p) for p in header.players),
        scores=tuple(int(outcome.scores.get(p, 0)) for p in header.players),
        winners=tuple(outcome.winners) if over else (),
        events=match.seq if events is None else events,
        finished=over,
        file=file,
    )


def log_paths(paths: Iterable[Path]) -> Iterator[Path | TabletopError]:
    """Every log among ``paths``: files as given, folders searched for
    ``*.jsonl`` (streamed, any depth); a folder that cannot be read comes as
    the error that says so."""
    return folders.logs(paths)


def rows_from_logs(
    registry: Registry, paths: Iterable[Path], failed: list[TabletopError] | None = None
) -> Iterator[GameRow]:
    """The row of each log (replayed and checked), one at a time. A log that
    cannot be read or breaks the rules is left out and its error appended
    to ``failed`` (raised when ``failed`` is None)."""
    for path in log_paths(paths):
        try:
            if isinstance(path, TabletopError):
                raise path
            match = Replay(registry, path).run()
        except TabletopError as exc:
            if failed is None:
                raise
            failed.append(exc)
            continue
        yield row_of(registry, match, file=str(path))


class Tally:
    """Wins and scores of one seat, player, bot or variant."""

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.alone = 0
        self.scores: Counter[int] = Counter()

    def add(self, won: bool, alone: bool, score: int) -> None:
        self.games += 1
        self.wins += won
        self.alone += won and alone
        self.scores[score] += 1

    def as_json(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "wins_alone": self.alone,
            "win_rate": self.wins / self.games if self.games else None,
            "ci95": [low, high],
            "score": score_summary(self.scores),
        }


def score_summary(scores: Counter[int]) -> dict[str, Any]:
    """Mean, standard deviation, quartiles and the histogram of some scores."""
    n = sum(scores.values())
    if not n:
        return {"mean": None, "sd": None, "min": None, "median": None, "max": None, "histogram": {}}
    mean = sum(s * c for s, c in scores.items()) / n
    var = sum(c * (s - mean) ** 2 for s, c in scores.items()) / n
    ordered = sorted(scores.items())

    def quantile(q: float) -> int:
        rank = q * (n - 1)
        seen = 0
        for score, count in ordered:
            seen += count
            if seen > rank:
                return score
        return ordered[-1][0]  # pragma: no cover

    return {
        "mean": mean,
        "sd": math.sqrt(var),
        "min": ordered[0][0],
        "q1": quantile(0.25),
        "median": quantile(0.5),
        "q3": quantile(0.75),
        "max": ordered[-1][0],
        "histogram": {str(s): c for s, c in ordered},
    }


class Group:
    """The games of one game, player count and set of variants."""

    def __init__(self, game: str, players: int, variants: tuple[str, ...]) -> None:
        self.game = game
        self.players = players
        self.variants = variants
        self.games = 0
        self.finished = 0
        self.shared = 0
        self.no_winner = 0
        self.lengths: Counter[int] = Counter()
        self.seats = [Tally() for _ in range(players)]
        self.seat_names: list[Counter[str]] = [Counter() for _ in range(players)]
        self.by_player: dict[str, Tally] = {}
        self.by_bot: dict[str, Tally] = {}

    @property
    def label(self) -> str:
        variants = ", ".join(self.variants) if self.variants else "no variant"
        return f"{self.game}, {self.players} players, {variants}"

    def add(self, row: GameRow) -> None:
        self.games += 1
        if not row.finished:
            return
        self.finished += 1
        self.lengths[row.events] += 1
        alone = len(row.winners) == 1
        self.shared += len(row.winners) > 1
        self.no_winner += not row.winners
        for seat, (player, bot, score) in enumerate(zip(row.players, row.bots, row.scores)):
            won = player in row.winners
            self.seats[seat].add(won, alone, score)
            self.seat_names[seat][player] += 1
            self.by_player.setdefault(player, Tally()).add(won, alone, score)
            if bot is not None:
                self.by_bot.setdefault(bot, Tally()).add(won, alone, score)

    def seat_player(self, seat: int) -> str:
        """Who sat in ``seat``: the name when always the same, else how many names."""
        names = self.seat_names[seat]
        if len(names) == 1:
            return next(iter(names))
        return f"({len(names)} names)" if names else "-"

    def as_json(self) -> dict[str, Any]:
        lengths = score_summary(self.lengths)
        return {
            "game": self.game,
            "players": self.players,
            "variants": list(self.variants),
            "games": self.games,
            "finished": self.finished,
            "shared_victories": self.shared,
            "no_winner": self.no_winner,
            "events": {k: lengths[k] for k in ("mean", "min", "median", "max")},
            "seats": [
                {"seat": i + 1, "player": self.seat_player(i), **tally.as_json()} for i, tally in enumerate(self.seats)
            ],
            "players_by_name": {p: t.as_json() for p, t in sorted(self.by_player.items())},
            "bots": {b: t.as_json() for b, t in sorted(self.by_bot.items())},
        }


class Summary:
    """Rows added one at a time, kept as counters per :class:`Group`."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, int, tuple[str, ...]], Group] = {}

    def add(self, row: GameRow) -> None:
        key = (row.game, len(row.players), row.variants)
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = Group(*key)
        group.add(row)

    def extend(self, rows: Iterable[GameRow]) -> Summary:
        for row in rows:
            self.add(row)
        return self

    @property
    def games(self) -> int:
        return sum(g.games for g in self.groups.values())

    def sorted_groups(self) -> list[Group]:
        return [self.groups[k] for k in sorted(self.groups)]

    def as_json(self) -> dict[str, Any]:
        return {"games": self.games, "groups": [g.as_json() for g in self.sorted_groups()]}

    def table(self, by: str = "seat") -> str:
        """The summary as text: one block per group, win rates with 95% intervals."""
        if by not in GROUPINGS:
            raise UsageError(f"--by {by}: one of {', '.join(GROUPINGS)}")
        if not self.groups:
            return "no games"
        blocks = []
        if by == "variant":
            blocks.append(_variant_table(self.sorted_groups()))
        for group in self.sorted_groups():
            blocks.append(_group_table(group, by))
        return "\n\n".join(blocks)


def _rate(tally: Tally) -> list[str]:
    if not tally.games:
        return [str(tally.games), "0", "-", "-"]
    low, high = wilson(tally.wins, tally.games)
    return [str(tally.games), str(tally.wins), f"{tally.wins / tally.games:.1%}", f"{low:.1%}-{high:.1%}"]


def _score(tally: Tally) -> list[str]:
    s = score_summary(tally.scores)
    if s["mean"] is None:
        return ["-", "-"]
    return [f"{s['mean']:.1f} ± {s['sd']:.1f}", f"{s['min']}/{s['median']}/{s['max']}"]


def _group_table(group: Group, by: str) -> str:
    lengths = score_summary(group.lengths)
    lines = [f"{group.label}: {group.games} games"]
    if group.finished != group.games:
        lines[0] += f" ({group.games - group.finished} unfinished, left out below)"
    if group.finished:
        lines.append(
            f"shared victories: {group.shared} ({group.shared / group.finished:.1%}); "
            f"events per game: mean {lengths['mean']:.1f}, min {lengths['min']}, "
            f"median {lengths['median']}, max {lengths['max']}"
        )
    head = ["games", "wins", "win rate", "95% CI", "score mean ± sd", "min/median/max"]
    if by == "bot":
        rows = [[bot, *_rate(t), *_score(t)] for bot, t in sorted(group.by_bot.items())]
        if not rows:
            lines.append("no bots recorded in these logs (bot seats are named like p1-greedy)")
            return "\n".join(lines)
        lines.append(_columns([["bot", *head], *rows]))
    else:
        rows = [[str(i + 1), group.seat_player(i), *_rate(t), *_score(t)] for i, t in enumerate(group.seats)]
        lines.append(_columns([["seat", "player", *head], *rows]))
        named = {p: t for p, t in group.by_player.items()}
        if len(named) > group.players:
            rows = [[p, *_rate(t), *_score(t)] for p, t in sorted(named.items())]
            lines.append(_columns([["player", *head], *rows]))
    return "\n".join(lines)


def _variant_table(groups: Sequence[Group]) -> str:
    rows = [["game", "players", "variants", "games", "seat win rates (95% CI)"]]
    for g in groups:
        rates = []
        for i, t in enumerate(g.seats, start=1):
            if t.games:
                low, high = wilson(t.wins, t.games)
                rates.append(f"{i}: {t.wins / t.games:.1%} ({low:.1%}-{high:.1%})")
        rows.append([g.game, str(g.players), " ".join(g.variants) or "-", str(g.finished), "; ".join(rates)])
    return _columns(rows)


def _columns(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        last = len(row) - 1
        cells = [
            c.rjust(w) if 2 <= i < last and _numeric(c) else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))
        ]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def _numeric(cell: str) -> bool:
    return bool(cell) and (cell[0].isdigit() or cell[0] == "-" and cell[1:2].isdigit())


def write_csv(rows: Iterable[GameRow], out: IO[str]) -> int:
    """Write one CSV row per game (with a header line); the number of rows."""
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    count = 0
    for row in rows:
        writer.writerow(row.csv())
        count += 1
    return count
