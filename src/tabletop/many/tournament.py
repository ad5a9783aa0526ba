"""Tournaments between bots: every seat order, ratings with their uncertainty,
pairwise win rates with intervals, and a results file that a rerun continues.

Game ``g`` (from 1) of a tournament seats the bots in seat order number
``(g - 1) % orders`` (every ordered choice of ``players`` bots among the
entrants, in a fixed order) and is played with the seed ``SEED-g`` alone, so
its result is the same whichever worker plays it. Workers play batches of game
numbers (:func:`play_games`) with the self-play of :mod:`tabletop.play.live`, as
``simulate`` does (:mod:`tabletop.many.simulation` cuts the batches and checks the
plan).

Each bot's thinking is timed in CPU time of the thread that plays it
(``time.thread_time``): a bot with a time budget (``mcts:seconds=0.2``)
searches by the same clock, so on a loaded pool it thinks as long as on an
idle core, and the report shows what each bot cost per decision beside its
rating.

Ratings are OpenSkill's Plackett-Luce model (``openskill``), fed the games in
game order, so the ratings do not depend on how the work was split either.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..api import bot_named, registry
from ..base.errors import UsageError, quote
from ..host.extensions import Bot
from ..play.live import selfplay
from . import origin, simulation
from .intervals import wilson
from .stats import row_of

#: The format of a results file's first line; a rerun checks it.
FORMAT = "tabletop-tournament/1"


@attrs.frozen
class Entry:
    """What to play: the same for every game of a tournament but the seat order and the seed."""

    game: str
    #: The entrants (``NAME`` or ``NAME:key=value,...``), all different.
    bots: tuple[str, ...]
    players: int
    variants: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    seed: str = "tournament"
    plugins: tuple[str, ...] = ()
    #: The house-rule files carried as text, for Dask workers whose folders
    #: do not hold them (``simulation.carried``); else empty.
    sources: tuple[tuple[str, str], ...] = ()

    def orders(self) -> list[tuple[int, ...]]:
        """Every seat order: each ordered choice of ``players`` entrants (by index)."""
        return list(itertools.permutations(range(len(self.bots)), self.players))

    def seating(self, number: int) -> tuple[int, ...]:
        orders = self.orders()
        return orders[(number - 1) % len(orders)]

    def plan(self, number: int) -> simulation.Plan:
        """Game ``number`` as a self-play plan (its bots in seat order)."""
        return simulation.Plan(
            game=self.game,
            players=self.players,
            bots=tuple(self.bots[i] for i in self.seating(number)),
            variants=self.variants,
            options=self.options,
            seed=self.seed,
            plugins=self.plugins,
        )

    def head(self) -> dict[str, Any]:
        """What the tournament is: a rerun continues only the same one."""
        return {
            "format": FORMAT,
            "game": self.game,
            "bots": list(self.bots),
            "players": self.players,
            "variants": list(self.variants),
            "options": dict(self.options),
            "seed": self.seed,
        }

    def made_by(self) -> dict[str, Any]:
        """What plays its games (:mod:`tabletop.many.origin`): a rerun by other code is refused unless asked for."""
        return origin.made_by(registry(self.plugins), self.game, [self.variants], self.bots)

    def record(self) -> dict[str, Any]:
        """The results file's first line: what the tournament is and what made its games."""
        return {**self.head(), **self.made_by()}


@attrs.frozen
class Result:
    """One finished game of a tournament."""

    number: int
    #: Entrant indices in seat order.
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    #: Seats (from 0) of the winners.
    winners: tuple[int, ...]
    events: int
    #: CPU seconds each seat spent choosing, and how many decisions it made.
    cpu: tuple[float, ...]
    decisions: tuple[int, ...]

    def line(self) -> str:
        return json.dumps(attrs.asdict(self), separators=(",", ":"))

    @classmethod
    def read(cls, text: str) -> Result:
        data = json.loads(text)
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})

    def ranks(self) -> list[int]:
        """Each seat's rank for the ratings: the winners first (equal), then by score."""
        keys = [(i in self.winners, s) for i, s in enumerate(self.scores)]
        return [sum(1 for other in keys if other > key) for key in keys]


def check(entry: Entry) -> None:
    """Fail now, with a clear error, on anything a worker would fail on."""
    if len(set(entry.bots)) != len(entry.bots):
        raise UsageError("--bot: each entrant once (give a bot different settings to enter it twice)")
    if len(entry.bots) < 2:
        raise UsageError("--bot: a tournament needs at least two bots")
    if entry.players > len(entry.bots):
        raise UsageError(f"--seats {entry.players}: more seats than bots ({len(entry.bots)})")
    simulation.check(entry.plan(1))


def _timed(bot: Bot, spent: list[float], made: list[int], seat: int) -> Bot:
    choose = bot.choose

    def timed(game: Any, state: Any, player: str, legal: list, rng: Any) -> Any:
        start = time.thread_time()
        try:
            return choose(game, state, player, legal, rng)
        finally:
            spent[seat] += time.thread_time() - start
            made[seat] += 1

    timed.__wrapped__ = choose  # type: ignore[attr-defined]  # a bad decision is named at the bot's own code
    return attrs.evolve(bot, choose=timed)


def play_games(entry: Entry, numbers: Sequence[int]) -> list[Result]:
    """Play games ``numbers`` of ``entry`` (in any process: only ``entry`` is needed)."""
    reg = registry(simulation.written(entry.sources) if entry.sources else entry.plugins)
    done = []
    for number in numbers:
        plan = entry.plan(number)
        spent, made = [0.0] * entry.players, [0] * entry.players
        bots = [_timed(bot_named(reg, spec, entry.game), spent, made, i) for i, spec in enumerate(plan.bots)]
        options = dict(plan.options)
        players = plan.seat_names()
        _, match, events = selfplay(reg, entry.game, players, bots, plan.game_seed(number), plan.variants, options)
        row = row_of(reg, match, events=len(events))
        done.append(
            Result(
                number=number,
                seating=entry.seating(number),
                scores=row.scores,
                winners=tuple(i for i, p in enumerate(players) if p in row.winners),
                events=row.events,
                cpu=tuple(round(s, 6) for s in spent),
                decisions=tuple(made),
            )
        )
    return done


# -- the results file --------------------------------------------------------------
def resume(path: Path, entry: Entry, continue_anyway: bool = False) -> list[Result]:
    """The games a results file already holds (none if it does not exist);
    a file of another tournament is refused, and so is one whose games
    other code made (another tabletop, an edited house rule) unless
    ``continue_anyway``, which notes from which game on this code plays. A
    last line cut short by a crash is dropped (the file is cut back to its
    whole lines); any other line that cannot be read is refused with its
    number, leaving the file as it was."""
    if not path.exists():
        return []
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read the results file: {exc.strerror}", where=str(path)) from None
    whole = raw[: raw.rfind(b"\n") + 1]
    lines = whole.splitlines()
    if not lines:
        return []
    try:
        head = json.loads(_text(lines[0], 1, path))
        if not isinstance(head, dict):
            raise ValueError
    except ValueError:
        raise UsageError("line 1: not a tournament results file", where=str(path)) from None
    if {k: head.get(k) for k in entry.head()} != entry.head():
        raise UsageError(
            "line 1: a results file of another tournament (game, bots, players, variants, options or seed differ)",
            where=str(path),
        )
    made = entry.made_by()
    changed = origin.difference(origin.maker(head), made)
    if changed and not continue_anyway:
        raise UsageError(
            f"its games were made by other code: {changed}; --continue-anyway adds games all the same, "
            "or choose another",
            where=str(path),
        )
    results = []
    seen: set[int] = set()
    for number, line in enumerate(lines[1:], start=2):
        result = _result(_text(line, number, path), number, entry, path)
        if result.number in seen:
            raise UsageError(f"line {number}: game {result.number} is there twice", where=str(path))
        seen.add(result.number)
        results.append(result)
    if changed:
        first = 1 + max(seen, default=0)
        head = origin.continued(head, made, first)
        whole = (json.dumps(head, separators=(",", ":")) + "\n").encode() + b"".join(line + b"\n" for line in lines[1:])
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as out:
                out.write(whole)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise UsageError(f"cannot write the results file: {exc.strerror}", where=str(path)) from None
    elif len(whole) != len(raw):
        with open(path, "r+b") as handle:
            handle.truncate(len(whole))
    return results


def continued_from(path: Path) -> list[int]:
    """The games from which on other code played the tournament of a results
    file (``--continue-anyway``), in order; none for a file never continued."""
    try:
        with open(path, "rb") as handle:
            head = json.loads(handle.readline())
        return [int(c["from_game"]) for c in head.get(origin.CONTINUED) or []]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return []


def _text(line: bytes, number: int, path: Path) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"line {number}: not UTF-8 text (byte {exc.start + 1})", where=str(path)) from None


def _result(text: str, number: int, entry: Entry, path: Path) -> Result:
    """Line ``number``: a game's result, of this tournament's seats and seat order."""
    try:
        result = Result.read(text)
    except (ValueError, TypeError, KeyError):
        raise UsageError(f"line {number}: not a game result", where=str(path)) from None
    seats = entry.players
    fine = (
        isinstance(result.number, int)
        and result.number >= 1
        and all(len(field) == seats for field in (result.scores, result.cpu, result.decisions))
        and all(isinstance(x, int) for x in (*result.scores, *result.decisions, *result.winners, result.events))
        and all(isinstance(x, (int, float)) for x in result.cpu)
        and all(0 <= w < seats for w in result.winners)
    )
    if not fine:
        raise UsageError(f"line {number}: not a game result (a field of the wrong type or length)", where=str(path))
    if result.seating != entry.seating(result.number):
        raise UsageError(
            f"line {number}: game {result.number} seats {quote(str(list(result.seating)))}, "
            f"not {quote(str(list(entry.seating(result.number))))} (a result of another tournament)",
            where=str(path),
        )
    return result


class ResultsFile:
    """Appends finished games, whole lines at a time, flushed as they come.

    A new file gets its first line (the tournament) with the first games:
    a tournament that ends before any game (a bot that cannot play, say)
    leaves no file behind, and the same command, once mended, starts afresh
    rather than finding a file of other code."""

    def __init__(self, path: Path, entry: Entry) -> None:
        self.path = path
        self.made = not path.exists()
        fresh = self.made or path.stat().st_size == 0
        try:
            # Opened now: a file that cannot be written is said before any game is played.
            self.handle = open(path, "a", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write the results file: {exc.strerror}", where=str(path)) from None
        self.head = [json.dumps(entry.record(), separators=(",", ":"))] if fresh else []

    def write(self, lines: Iterable[str]) -> None:
        head, self.head = self.head, []
        self.handle.write("".join(line + "\n" for line in [*head, *lines]))
        self.handle.flush()
        os.fsync(self.handle.fileno())

    def close(self) -> None:
        self.handle.close()
        if self.made and self.head:  # made here, and no game came
            self.path.unlink(missing_ok=True)


# -- running -------------------------------------------------------------------------
def run(
    entry: Entry,
    games: int,
    workers: int | None = None,
    scheduler: str | None = None,
    results: Path | None = None,
    progress: Callable[[int], None] | None = None,
    guard: simulation.Guard | None = None,
    starting: Callable[[int], None] | None = None,
    continue_anyway: bool = False,
) -> list[Result]:
    """Play games 1..``games`` of ``entry`` (those not already in ``results``)
    on ``workers`` processes or a Dask cluster; every result, in game order.
    ``starting`` is told how many games ``results`` holds already, before
    any is played (without it, ``progress`` is given them first);
    ``continue_anyway``: see :func:`resume`.

    The games run as ``simulate``'s do (:func:`tabletop.many.simulation.stream`'s
    pool and Dask runner): a SIGINT or SIGTERM caught by ``guard`` stops the
    workers and raises :class:`~tabletop.many.simulation.Interrupted`, saying what
    ``results`` kept; the same call again continues from there."""
    check(entry)
    guard = guard or simulation.Guard()
    done = {r.number: r for r in (resume(results, entry, continue_anyway) if results is not None else [])}
    todo = [n for n in range(1, games + 1) if n not in done]
    kept = sum(1 for n in done if n <= games)
    if starting is not None:
        starting(kept)
    elif progress is not None and done:
        progress(kept)
    sink = ResultsFile(results, entry) if results is not None else None
    try:
        for batch in _batches_played(entry, todo, workers, scheduler, guard):
            for r in batch:
                done[r.number] = r
            if sink is not None:
                sink.write(r.line() for r in batch)
            if progress is not None:
                progress(len(batch))
            guard.check()
    except simulation.Interrupted as exc:
        kept = sum(1 for n in done if n <= games)
        where = f" in {results}; run the same command again to continue" if results is not None else ""
        raise simulation.Interrupted(
            f"interrupted by {exc.name}: {kept} of {games} games kept{where}", signum=exc.signum
        ) from None
    finally:
        if sink is not None:
            sink.close()
    return [done[n] for n in sorted(done) if n <= games]


def _batches_played(
    entry: Entry, todo: list[int], workers: int | None, scheduler: str | None, guard: simulation.Guard
) -> Iterator[list[Result]]:
    if not todo:
        return
    if scheduler is not None:

        def calls(workers: int) -> Iterator[tuple[Entry, list[int]]]:
            size = _per_batch(todo, workers)
            return ((entry, todo[i : i + size]) for i in range(0, len(todo), size))

        entry = attrs.evolve(entry, plugins=(), sources=simulation.carried(entry.plugins))
        yield from simulation.on_dask(play_games, calls, scheduler, guard)
        return
    count = workers or os.cpu_count() or 1
    jobs = [[todo[i - 1] for i in batch] for batch in simulation.batches(len(todo), count, _per_batch(todo, count))]
    if count == 1:
        for job in jobs:
            with guard.waiting():
                played = play_games(entry, job)
            yield played
        return
    pool = simulation.Pool(count)
    try:
        yield from pool.ordered(play_games, [(entry, job) for job in jobs], guard)
    finally:
        pool.stop()


def _per_batch(todo: list[int], workers: int) -> int:
    # Bots that search take a second or more a game: small batches keep every
    # worker busy to the end and the results file close behind.
    return max(1, min(10, math.ceil(len(todo) / (workers * 4))))


# -- the report ------------------------------------------------------------------------
def ratings(entry: Entry, results: Sequence[Result]) -> list[dict[str, Any]]:
    """Each bot's OpenSkill rating (mu, sigma, and mu - 3 sigma, the rating it
    surely has), games, wins and CPU per decision, best first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated = [model.rating(name=b) for b in entry.bots]
    games, wins = [0] * len(entry.bots), [0.0] * len(entry.bots)
    cpu, decisions = [0.0] * len(entry.bots), [0] * len(entry.bots)
    for r in sorted(results, key=lambda r: r.number):
        teams = [[rated[i]] for i in r.seating]
        new = model.rate(teams, ranks=r.ranks())
        for seat, i in enumerate(r.seating):
            rated[i] = new[seat][0]
            games[i] += 1
            wins[i] += 1 / len(r.winners) if seat in r.winners else 0.0
            cpu[i] += r.cpu[seat]
            decisions[i] += r.decisions[seat]
    table = [
        {
            "bot": b,
            "mu": rated[i].mu,
            "sigma": rated[i].sigma,
            "ordinal": rated[i].ordinal(),
            "games": games[i],
            "wins": wins[i],
            "cpu_per_decision": cpu[i] / decisions[i] if decisions[i] else 0.0,
        }
        for i, b in enumerate(entry.bots)
    ]
    return sorted(table, key=lambda row: -row["ordinal"])


def pairs(entry: Entry, results: Sequence[Result]) -> list[dict[str, Any]]:
    """For each pair of bots, how often the first finished ahead of the
    second in the games they both played (a tie counts half), with the 95%
    Wilson interval."""
    out = []
    for a, b in itertools.combinations(range(len(entry.bots)), 2):
        played, ahead, ties = 0, 0, 0
        for r in results:
            if a in r.seating and b in r.seating:
                ranks = r.ranks()
                ra, rb = ranks[r.seating.index(a)], ranks[r.seating.index(b)]
                played += 1
                ahead += ra < rb
                ties += ra == rb
        score = ahead + ties / 2
        low, high = wilson(score, played)  # a tie counts half a success
        out.append(
            {
                "bot": entry.bots[a],
                "against": entry.bots[b],
                "games": played,
                "ahead": ahead,
                "ties": ties,
                "rate": score / played if played else None,
                "ci95": [low, high],
            }
        )
    return out
