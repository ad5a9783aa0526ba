"""Many games between bots, on one core, a process pool, or a Dask cluster.

Game ``i`` (from 1) of a run with seed ``S`` is played with the seed
``S-i`` alone, so its log is the same whichever worker plays it and however
the games are split into batches. A batch is a list of game numbers; a
worker plays them and returns one :class:`Played` per game. Batches are
large enough that handing one out costs little next to playing it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

import attrs

from .api import bot_named, registry
from .errors import UsageError
from .live import selfplay
from .stats import GameRow, bot_seat_name, row_of


@attrs.frozen
class Plan:
    """What to play: the same for every game of a run but the seed."""

    game: str
    players: int
    #: One bot per seat (``NAME`` or ``NAME:key=value,...``).
    bots: tuple[str, ...]
    variants: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    seed: str = "simulate"
    #: House-rule files or folders each worker loads.
    plugins: tuple[str, ...] = ()
    #: Whether workers return each game's log lines.
    logs: bool = False

    def seat_names(self) -> list[str]:
        """Players are named by seat and bot (``p1-mcts``), which records the bots in the log."""
        return [bot_seat_name(i, spec.partition(":")[0]) for i, spec in enumerate(self.bots, start=1)]

    def game_seed(self, number: int) -> str:
        return f"{self.seed}-{number}"

    def with_variants(self, variants: Sequence[str]) -> Plan:
        return attrs.evolve(self, variants=tuple(variants))


@attrs.frozen
class Played:
    """One game played: its number, its row, and its log lines if asked for."""

    number: int
    row: GameRow
    lines: tuple[str, ...] | None = None


def check(plan: Plan) -> None:
    """Fail now, with a clear error, on anything a worker would fail on."""
    reg = registry(plan.plugins)
    cls = reg.game_class(plan.game)
    if len(plan.bots) != plan.players:
        raise UsageError(f"give one bot for all seats or one per seat ({plan.players})")
    for spec in plan.bots:
        bot_named(reg, spec, plan.game)
    if not cls.min_players <= plan.players <= cls.max_players:
        raise UsageError(f"{cls.name} is for {cls.min_players} to {cls.max_players} players, not {plan.players}")
    from .live import make_header

    make_header(reg, plan.game, plan.seat_names(), plan.variants, dict(plan.options), plan.seed)


def play_batch(plan: Plan, numbers: Sequence[int]) -> list[Played]:
    """Play games ``numbers`` of ``plan`` (in any process: only ``plan`` is needed)."""
    reg = registry(plan.plugins)
    bots = [bot_named(reg, spec, plan.game) for spec in plan.bots]
    players = plan.seat_names()
    options = dict(plan.options)
    done = []
    for number in numbers:
        header, match, events = selfplay(reg, plan.game, players, bots, plan.game_seed(number), plan.variants, options)
        row = row_of(reg, match, events=len(events), file=log_name(plan, number))
        lines = tuple(reg.codec.log(header, events)) if plan.logs else None
        done.append(Played(number, row, lines))
    return done


def log_name(plan: Plan, number: int) -> str:
    """The file name of game ``number``'s log."""
    return f"{plan.game}-{number:05d}.jsonl"


#: Fewest games in a batch (when there are enough for every worker): handing
#: out a task costs 1 to 15 ms, under 5% of 50 games of a few ms each.
FEWEST = 50
#: Most games in a batch, so that progress shows and the work stays balanced.
MOST = 200


def batches(games: int, workers: int, per_batch: int | None = None) -> list[list[int]]:
    """Game numbers 1..games cut into batches: about eight per worker (so
    that the work stays balanced to the end), from 50 to 200 games each."""
    fewest = min(FEWEST, math.ceil(games / workers))
    size = per_batch or max(1, fewest, min(MOST, math.ceil(games / (workers * 8))))
    return [list(range(start, min(start + size, games + 1))) for start in range(1, games + 1, size)]


def run(
    plan: Plan,
    games: int,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    per_batch: int | None = None,
) -> list[Played]:
    """Play ``games`` games of ``plan``, in game order. ``workers``: processes
    on this machine (default: one per core; 1 plays here, in this process);
    ``scheduler``: the address of a Dask scheduler instead. ``progress`` is
    called with the number of games each finished batch held."""
    check(plan)
    if scheduler is not None:
        results = _on_dask(plan, games, scheduler, per_batch)
    else:
        count = workers or os.cpu_count() or 1
        if count == 1:
            results = (play_batch(plan, batch) for batch in batches(games, 1, per_batch))
        else:
            results = _on_pool(plan, games, count, per_batch)
    played: list[Played] = []
    for batch in results:
        played += batch
        if progress is not None:
            progress(len(batch))
    played.sort(key=lambda p: p.number)
    return played


def _on_pool(plan: Plan, games: int, workers: int, per_batch: int | None) -> Iterator[list[Played]]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_batch, plan, batch) for batch in batches(games, workers, per_batch)]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def _on_dask(plan: Plan, games: int, address: str, per_batch: int | None) -> Iterator[list[Played]]:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise UsageError("--scheduler needs Dask distributed: pip install 'tabletop[dask]'") from None
    try:
        client = Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"--scheduler {address}: cannot connect ({exc})") from None
    with client:
        workers = max(1, sum(client.nthreads().values()))
        jobs = batches(games, workers, per_batch)
        futures = client.map(play_batch, [plan] * len(jobs), jobs, pure=False)
        for future in dask_completed(futures):
            yield future.result()


def rows(played: Iterable[Played]) -> Iterator[GameRow]:
    for p in played:
        yield p.row
