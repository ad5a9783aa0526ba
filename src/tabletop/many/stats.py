"""Many games summarised: wins per seat, per bot, per place in the turn order,
shared victories, scores and game length, with 95% intervals on win rates.

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

from ..base.errors import TabletopError, UsageError
from ..host.registry import Registry
from ..log import folders
from ..model.events import DECISION, Event
from ..play.engine import Match, Replay
from .intervals import wilson

#: What ``--by`` may group by (several may be combined: ``--by seat,start``).
GROUPINGS = ("seat", "variant", "bot", "start", "turn-order")


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
    #: The game's number in its run and its seed (0 and "" for a log read from a file).
    number: int = 0
    seed: str = ""
    #: The players in turn order, the start player first (see :func:`play_order`).
    order: tuple[str, ...] = ()
    #: The game's length in turns: where the game says where a turn ends
    #: (``Game.turn_ends``), the turns ended; else the decisions of its main
    #: kind (see :func:`play_order`).
    turns: int = 0
    #: Figures the game reports about itself (``Game.figures``), by name.
    figures: tuple[tuple[str, float], ...] = ()
    #: A digest of the events (paired comparisons tell unchanged games by it).
    digest: str = ""

    @property
    def start(self) -> str:
        """The start player (the first in turn order), or "" when unknown."""
        return self.order[0] if self.order else ""

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
            "start": self.start,
            "turn_order": " ".join(self.order),
            "turns": self.turns,
        }


CSV_FIELDS = (
    "file",
    "game",
    "variants",
    "players",
    "bots",
    "scores",
    "winners",
    "winning_seats",
    "events",
    "finished",
    "start",
    "turn_order",
    "turns",
)


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


def row_of(
    registry: Registry,
    match: Match,
    events: int | None = None,
    file: str = "",
    decisions: Sequence[tuple[str, str]] = (),
    turns: int | None = None,
    **more: Any,
) -> GameRow:
    """The row of a game as ``match`` leaves it; ``decisions`` are the
    ``(kind, player)`` of its decisions in order (for the turn order), and
    ``turns`` its length in turns where its game says (:func:`turns_of`),
    else the decisions of its main kind are counted."""
    header = match.header
    state = match.state
    outcome = match.game.outcome(state)
    over = match.over
    order, main = play_order(decisions, header.players)
    turns = main if turns is None else turns
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
        order=order,
        turns=turns,
        figures=figures_of(match.game, state),
        **more,
    )


def play_order(decisions: Sequence[tuple[str, str]], players: Sequence[str]) -> tuple[tuple[str, ...], int]:
    """The turn order and the length in turns of a game, from the ``(kind,
    player)`` of its decisions.

    A game's turns are told by its main decision: the kind of decision made
    most often (a placement in Glüx, a move in Glyph Chess). The turn order is
    the order in which players first made it, so decisions of the setup (made
    in seat order before Glüx draws its start player) do not count; players who
    never made it follow in seat order. The length in turns is how many main
    decisions were made."""
    counts = Counter(kind for kind, _ in decisions)
    if not counts:
        return (), 0
    main, turns = counts.most_common(1)[0]
    order: list[str] = []
    for kind, player in decisions:
        if kind == main and player not in order:
            order.append(player)
            if len(order) == len(players):
                break
    order += [p for p in players if p not in order]
    return tuple(order), turns


def decisions_of(events: Iterable[Event]) -> list[tuple[str, str]]:
    """The ``(kind, player)`` of each decision among ``events``."""
    return [(e.kind, e.player) for e in events if e.origin == DECISION and hasattr(e, "player")]  # type: ignore[attr-defined]


def turns_of(game: Any, events: Iterable[Event]) -> int | None:
    """How many turns ``events`` end, as ``game`` says (``Game.turn_ends``);
    None when it says nothing of any of them (its turns are then counted by
    :func:`play_order`)."""
    ends = game.turn_ends
    said, turns = False, 0
    for event in events:
        answer = ends(event)
        if answer is not None:
            said = True
            turns += bool(answer)
    return turns if said else None


def figures_of(game: Any, state: Any) -> tuple[tuple[str, float], ...]:
    """What ``game.figures(state)`` reports (an optional method of a game:
    numbers about a finished game, by name), sorted by name."""
    report = getattr(game, "figures", None)
    if report is None:
        return ()
    figures = report(state) or {}
    return tuple(sorted((str(k), float(v)) for k, v in figures.items()))


def _logged_events(registry: Registry, game: str, path: Path) -> list[Event]:
    # The log has just been replayed and checked: its events are decoded
    # again, one line at a time, for the turn order and the turns.
    decode = registry.codec.decode_line
    with open(path, "rb") as handle:
        next(handle, None)
        return [decode(game, line)[1] for line in handle if line.strip()]


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
            events = _events_again(registry, match, path)
        except TabletopError as exc:
            if failed is None:
                raise
            failed.append(exc)
            continue
        yield row_of(
            registry, match, file=str(path), decisions=decisions_of(events), turns=turns_of(match.game, events)
        )


def _events_again(registry: Registry, match: Match, path: Path) -> list[Event]:
    try:
        return _logged_events(registry, match.header.game, path)
    except OSError as exc:
        raise UsageError(f"cannot read it again: {exc.strerror or exc}", where=str(path)) from None


def parse_by(text: str | Sequence[str]) -> tuple[str, ...]:
    """``--by`` as a tuple of groupings: ``seat``, ``start,variant``, ..."""
    parts = [p.strip() for p in text.split(",")] if isinstance(text, str) else list(text)
    out: list[str] = []
    for part in parts:
        if part not in GROUPINGS:
            raise UsageError(f"--by {part}: one of {', '.join(GROUPINGS)} (combine them with commas: seat,start)")
        if part not in out:
            out.append(part)
    return tuple(out) or ("seat",)


def rounded(value: float | None, digits: int = 4) -> float | None:
    """A float as printed in JSON: rates to 4 decimals, other figures to 3."""
    return None if value is None else round(value, digits)


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

    def merge(self, other: Tally) -> None:
        """Add ``other``'s games to these (a tally of other games)."""
        self.games += other.games
        self.wins += other.wins
        self.alone += other.alone
        self.scores.update(other.scores)

    @property
    def rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    def as_json(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "wins_alone": self.alone,
            "win_rate": rounded(self.rate),
            "ci95": [rounded(low), rounded(high)],
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
        "mean": rounded(mean, 3),
        "sd": rounded(math.sqrt(var), 3),
        "min": ordered[0][0],
        "q1": quantile(0.25),
        "median": quantile(0.5),
        "q3": quantile(0.75),
        "max": ordered[-1][0],
        "histogram": {str(s): c for s, c in ordered},
    }


#: What a group of games holds in common: game, player count, variants, and
#: each seat's bot (``()`` when the bots are what is compared, ``--by bot``).
GroupKey = tuple[str, int, tuple[str, ...], tuple[str, ...]]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class Group:
    """The games of one game, player count, set of variants and line-up of
    bots: runs that differ in any of these are never pooled, unless ``--by``
    names what differs (``--by bot`` pools line-ups and compares bots)."""

    def __init__(
        self,
        game: str,
        players: int,
        variants: tuple[str, ...],
        lineup: tuple[str, ...] = (),
        by: tuple[str, ...] = ("seat",),
    ) -> None:
        self.game = game
        self.players = players
        self.variants = variants
        self.lineup = lineup
        self.by = tuple(d for d in by if d != "variant") or ("seat",)
        self.games = 0
        self.finished = 0
        self.shared = 0
        self.no_winner = 0
        self.lengths: Counter[int] = Counter()
        self.turns: Counter[int] = Counter()
        self.seats = [Tally() for _ in range(players)]
        self.seat_names: list[Counter[str]] = [Counter() for _ in range(players)]
        self.by_player: dict[str, Tally] = {}
        self.by_bot: dict[str, Tally] = {}
        #: Tallies by the ``--by`` groupings, keyed by their values.
        self.crossed: dict[tuple[str, ...], Tally] = {}

    @property
    def label(self) -> str:
        variants = ", ".join(self.variants) if self.variants else "no variant"
        return f"{self.game}, {self.players} players, {variants}"

    @property
    def bots_label(self) -> str:
        """The line-up in a few words: ``greedy`` (every seat) or ``greedy, random``."""
        if not self.lineup:
            return ""
        return self.lineup[0] if len(set(self.lineup)) == 1 else ", ".join(self.lineup)

    def add(self, row: GameRow) -> None:
        self.games += 1
        if not row.finished:
            return
        self.finished += 1
        self.lengths[row.events] += 1
        if row.turns:
            self.turns[row.turns] += 1
        alone = len(row.winners) == 1
        self.shared += len(row.winners) > 1
        self.no_winner += not row.winners
        crossed = self.by != ("seat",)
        for seat, (player, bot, score) in enumerate(zip(row.players, row.bots, row.scores)):
            won = player in row.winners
            self.seats[seat].add(won, alone, score)
            self.seat_names[seat][player] += 1
            self.by_player.setdefault(player, Tally()).add(won, alone, score)
            if bot is not None:
                self.by_bot.setdefault(bot, Tally()).add(won, alone, score)
            if crossed:
                key = tuple(_value(d, row, seat, player, bot) for d in self.by)
                self.crossed.setdefault(key, Tally()).add(won, alone, score)

    def merge(self, other: Group) -> None:
        """Add the games of ``other`` (the same game, players, variants and
        line-up, counted the same way) to these."""
        self.games += other.games
        self.finished += other.finished
        self.shared += other.shared
        self.no_winner += other.no_winner
        self.lengths.update(other.lengths)
        self.turns.update(other.turns)
        for mine, theirs in zip(self.seats, other.seats):
            mine.merge(theirs)
        for mine_names, their_names in zip(self.seat_names, other.seat_names):
            mine_names.update(their_names)
        for table, more in (
            (self.by_player, other.by_player),
            (self.by_bot, other.by_bot),
            (self.crossed, other.crossed),
        ):
            for key, tally in more.items():
                table.setdefault(key, Tally()).merge(tally)  # type: ignore[attr-defined]

    def seat_player(self, seat: int) -> str:
        """Who sat in ``seat``: the name when always the same, else how many names."""
        names = self.seat_names[seat]
        if len(names) == 1:
            return next(iter(names))
        return f"({len(names)} names)" if names else "-"

    def crossed_rows(self) -> list[tuple[tuple[str, ...], Tally]]:
        return sorted(self.crossed.items(), key=lambda kv: [_sortable(v) for v in kv[0]])

    def as_json(self) -> dict[str, Any]:
        lengths = score_summary(self.lengths)
        turns = score_summary(self.turns)
        out = {
            "game": self.game,
            "players": self.players,
            "variants": list(self.variants),
            "lineup": list(self.lineup) or None,
            "games": self.games,
            "finished": self.finished,
            "shared_victories": self.shared,
            "no_winner": self.no_winner,
            "events": {k: lengths[k] for k in ("mean", "min", "median", "max")},
            "turns": {k: turns[k] for k in ("mean", "min", "median", "max")},
            "seats": [
                {"seat": i + 1, "player": self.seat_player(i), **tally.as_json()} for i, tally in enumerate(self.seats)
            ],
            "players_by_name": {p: t.as_json() for p, t in sorted(self.by_player.items())},
            "bots": {b: t.as_json() for b, t in sorted(self.by_bot.items())},
        }
        if self.crossed:
            out["by"] = {
                "groupings": list(self.by),
                "rows": [{**dict(zip(self.by, key)), **t.as_json()} for key, t in self.crossed_rows()],
            }
        return out


def _value(dimension: str, row: GameRow, seat: int, player: str, bot: str | None) -> str:
    if dimension == "seat":
        return str(seat + 1)
    if dimension == "bot":
        return bot or "-"
    if not row.order:
        return "?"
    if dimension == "start":
        return "start player" if row.order[0] == player else "not start"
    return _ordinal(row.order.index(player) + 1)  # turn-order


def _sortable(value: str) -> tuple[int, str]:
    digits = "".join(c for c in value if c.isdigit())
    return (int(digits) if digits else 0, value)


class Summary:
    """Rows added one at a time, kept as counters per :class:`Group`."""

    def __init__(self, by: str | Sequence[str] = ("seat",)) -> None:
        self.by = parse_by(by)
        self.groups: dict[GroupKey, Group] = {}

    def key(self, row: GameRow) -> GroupKey:
        lineup = () if "bot" in self.by else tuple(b or "-" for b in row.bots)
        if set(lineup) == {"-"}:
            lineup = ()
        return (row.game, len(row.players), row.variants, lineup)

    def add(self, row: GameRow) -> None:
        key = self.key(row)
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = Group(*key, by=self.by)
        group.add(row)

    def merge(self, other: Summary) -> Summary:
        """Add the games ``other`` counted (other games, counted ``--by`` the
        same): the summary of both, as if their rows were added here one by
        one. Workers each count their own games and send back only this."""
        if other.by != self.by:
            raise ValueError(f"a summary --by {','.join(other.by)} merged into one --by {','.join(self.by)}")
        for key, group in other.groups.items():
            mine = self.groups.get(key)
            if mine is None:
                mine = self.groups[key] = Group(*key, by=self.by)
            mine.merge(group)
        return self

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
        return {"games": self.games, "by": list(self.by), "groups": [g.as_json() for g in self.sorted_groups()]}

    def table(self, by: str | Sequence[str] | None = None) -> str:
        """The summary as text: one block per group, win rates with 95% intervals."""
        if by is not None and parse_by(by) != self.by:
            raise UsageError(f"this summary was counted --by {','.join(self.by)}, not --by {by}")
        if not self.groups:
            return "no games"
        blocks = []
        if "variant" in self.by:
            blocks.append(_variant_table(self.sorted_groups()))
        for group in self.sorted_groups():
            blocks.append(_group_table(group))
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


def _group_table(group: Group) -> str:
    lengths = score_summary(group.lengths)
    lines = [f"{group.label}: {group.games} games"]
    if group.finished != group.games:
        lines[0] += f" ({group.games - group.finished} unfinished, left out below)"
    if group.lineup:
        lines.append(f"bots: {group.bots_label}")
    if group.finished:
        line = (
            f"shared victories: {group.shared} ({group.shared / group.finished:.1%}); "
            f"events per game: mean {lengths['mean']:.1f}, min {lengths['min']}, "
            f"median {lengths['median']}, max {lengths['max']}"
        )
        if group.turns:
            line += f"; turns: mean {score_summary(group.turns)['mean']:.1f}"
        lines.append(line)
    head = ["games", "wins", "win rate", "95% CI", "score mean ± sd", "min/median/max"]
    if group.by == ("bot",):
        rows = [[bot, *_rate(t), *_score(t)] for bot, t in sorted(group.by_bot.items())]
        if not rows:
            lines.append("no bots recorded in these logs (bot seats are named like p1-greedy)")
            return "\n".join(lines)
        lines.append(_columns([["bot", *head], *rows]))
    elif group.by == ("seat",):
        rows = [[str(i + 1), group.seat_player(i), *_rate(t), *_score(t)] for i, t in enumerate(group.seats)]
        lines.append(_columns([["seat", "player", *head], *rows]))
        named = {p: t for p, t in group.by_player.items()}
        if len(named) > group.players:
            rows = [[p, *_rate(t), *_score(t)] for p, t in sorted(named.items())]
            lines.append(_columns([["player", *head], *rows]))
    else:
        if any("?" in key for key, _ in group.crossed_rows()):
            lines.append("(?: the log does not show the turn order)")
        rows = [[*key, *_rate(t), *_score(t)] for key, t in group.crossed_rows()]
        lines.append(_columns([list(group.by), *[[*r] for r in rows]], first=len(group.by), head=head))
    return "\n".join(lines)


def _variant_table(groups: Sequence[Group]) -> str:
    rows = [["game", "players", "variants", "bots", "games", "seat win rates (95% CI)"]]
    for g in groups:
        rates = []
        for i, t in enumerate(g.seats, start=1):
            if t.games:
                low, high = wilson(t.wins, t.games)
                rates.append(f"{i}: {t.wins / t.games:.1%} ({low:.1%}-{high:.1%})")
        rows.append(
            [
                g.game,
                str(g.players),
                " ".join(g.variants) or "-",
                g.bots_label or "-",
                str(g.finished),
                "; ".join(rates),
            ]
        )
    return _columns(rows)


def _columns(rows: list[list[str]], first: int = 0, head: list[str] | None = None) -> str:
    numbers_from = 2
    if head is not None:
        rows = [rows[0] + head, *rows[1:]]
        numbers_from = first
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        last = len(row) - 1
        cells = [
            c.rjust(w) if numbers_from <= i < last and _numeric(c) else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths))
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
