"""Many games between bots, on one core, a process pool, or a Dask cluster.

Game ``i`` (from 1) of a run with seed ``S`` is played with the seed
``S-i`` alone, so its log is the same whichever worker plays it and however
the games are split into batches. A batch is a range of game numbers; a
worker plays them under every rule set (*arm*: a comparison plays every
seed under two rule sets, a sweep under several). Batches are large enough
that handing one out costs little next to playing it.

:func:`stream` hands batches out a few at a time per worker and yields them
back in game order (one :class:`Played` per game and arm), so memory stays
flat however many games are played, and an interrupt (SIGINT, SIGTERM, see
:class:`Guard`) stops the workers and leaves every batch already yielded
complete. :func:`stream_written` does the same but each worker writes the
rows and logs of its games itself (:func:`play_written`, :class:`Out`) and
yields only their totals (:class:`Batch`): what a run of any size needs, so
that the command that starts it does next to nothing per game.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import logging
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..api import bot_named, registry
from ..base.errors import PluginError, TabletopError, UsageError
from ..host.plugins import ENV_VAR, plugin_files
from ..log.appending import Appended
from ..play.live import SelfPlay
from .parts import Sink
from .results import encode_rows, record
from .stats import GameRow, bot_seat_name, decisions_of, row_of, turns_of
from .totals import Totals


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
    #: House-rule files carried to workers that do not share the folder:
    #: ``(file name, text)``; see :func:`shipped`.
    sources: tuple[tuple[str, str], ...] = ()

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
    from ..play.live import make_header

    make_header(reg, plan.game, plan.seat_names(), plan.variants, dict(plan.options), plan.seed)


def play_batch(plan: Plan, numbers: Sequence[int], digests: bool = False) -> list[Played]:
    """Play games ``numbers`` of ``plan`` (in any process: only ``plan`` is
    needed). ``digests``: give each row a digest of its events."""
    reg = registry(_plugins_here(plan))
    bots = [bot_named(reg, spec, plan.game) for spec in plan.bots]
    players = plan.seat_names()
    options = dict(plan.options)
    done = []
    batch = SelfPlay(reg, plan.game, players, bots, plan.variants, options)
    for number in numbers:
        seed = plan.game_seed(number)
        header, match, events = batch.play(seed)
        lines = tuple(reg.codec.log(header, events)) if plan.logs or digests else None
        digest = hashlib.sha1("\n".join(lines[1:]).encode()).hexdigest()[:16] if digests and lines else ""
        row = row_of(
            reg,
            match,
            events=len(events),
            file=log_name(plan, number),
            decisions=decisions_of(events),
            turns=turns_of(match.game, events),
            number=number,
            seed=seed,
            digest=digest,
        )
        done.append(Played(number, row, lines if plan.logs else None))
    return done


def play_arms(arms: Sequence[Plan], numbers: Sequence[int]) -> list[tuple[Played, ...]]:
    """Play each of ``numbers`` under every arm: one tuple per game, in arm order."""
    several = len(arms) > 1
    per_arm = [play_batch(arm, numbers, digests=several) for arm in arms]
    return list(zip(*per_arm))


@attrs.frozen
class Out:
    """Where a worker puts the games it plays (:func:`play_written`)."""

    #: How the totals are counted (``--by``).
    by: tuple[str, ...] = ("seat",)
    #: Rows: appended by the worker to a file in game order
    #: (:class:`~tabletop.log.appending.Appended`), written as a part of a
    #: results folder (:class:`~tabletop.many.parts.Sink`), or sent back (None).
    rows: Appended | Sink | None = None
    #: How rows are written: ``csv`` or ``jsonl`` lines, or ``parquet`` parts.
    kind: str = "jsonl"
    #: Whether rows are wanted at all.
    keep: bool = True
    #: The folder of each arm's logs, written by the worker; empty: the log
    #: lines are sent back (arms that keep logs, ``Plan.logs``).
    logs: tuple[str, ...] = ()
    #: What made the games, as the command has it (:func:`maker_of`): a
    #: worker with other code (another tabletop, other plugins) refuses to
    #: play rather than add games the results would credit to this code.
    maker: tuple[str, tuple[tuple[str, str], ...]] | None = None


def maker_of(arms: Sequence[Plan]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """tabletop's version and the digest of each plugin the ``arms`` use,
    as this process has them (see :mod:`tabletop.many.origin`)."""
    from . import origin

    reg = registry(_plugins_here(arms[0]))
    made = origin.made_by(reg, arms[0].game, [a.variants for a in arms], [b for a in arms for b in a.bots])
    return made["tabletop"], tuple((str(name), str(digest)) for name, digest in made["code"])


_SAME_CODE: set[tuple[str, tuple[tuple[str, str], ...]]] = set()


def _check_maker(arms: Sequence[Plan], expected: tuple[str, tuple[tuple[str, str], ...]]) -> None:
    """Refuse to play with other code than the command's (checked once per process)."""
    if expected in _SAME_CODE:
        return
    here = maker_of(arms)
    if here != expected:
        said = [f"tabletop {here[0]}, the command's {expected[0]}"] if here[0] != expected[0] else []
        theirs, mine = dict(expected[1]), dict(here[1])
        for name in sorted(set(theirs) | set(mine)):
            if theirs.get(name) != mine.get(name):
                said.append(f"{name} {mine.get(name, 'missing')}, the command's {theirs.get(name, 'none')}")
        raise TabletopError(
            f"the worker on {socket.gethostname()} has other code than the command ({'; '.join(said)}); "
            "install the same tabletop and plugins on every machine"
        )
    _SAME_CODE.add(expected)


@attrs.frozen
class Batch:
    """What a worker sends back for a batch of games: their totals, and only
    what it could not write itself."""

    numbers: range
    totals: Totals
    #: Batches appended to a results file by this worker: ``(last game,
    #: bytes of the file after it)`` each (its own, and those waiting after it).
    appended: tuple[tuple[int, int], ...] = ()
    #: The rows, when the worker did not write them: lines (CSV, JSON
    #: Lines) or a part's Parquet bytes.
    data: bytes | None = None
    #: Each game's log lines per arm, when the worker did not write them.
    lines: tuple[tuple[tuple[str, ...], ...], ...] | None = None

    @property
    def written_here(self) -> bool:
        """Whether the worker wrote the rows itself."""
        return self.data is None


def play_written(arms: Sequence[Plan], numbers: range, out: Out) -> Batch:
    """Play games ``numbers`` under every arm, write their rows and logs
    where ``out`` says (in the worker: the command receives no row), and
    return their totals."""
    if out.maker is not None:
        _check_maker(arms, out.maker)
    games = play_arms(arms, numbers)
    totals = Totals(len(arms), out.by, arms[0].players)
    for game in games:
        totals.add([p.row for p in game])
    appended: tuple[tuple[int, int], ...] = ()
    data = None
    if out.keep:
        rows = [record(p.row) for game in games for p in game]
        if isinstance(out.rows, Sink):
            data = out.rows.put(numbers[0], numbers[-1], rows)
        else:
            data = encode_rows(out.kind, rows)
            if out.rows is not None:
                appended = out.rows.add(numbers[0], numbers[-1], data)
                data = None
    lines = None
    if any(arm.logs for arm in arms):
        lines = tuple(tuple(p.lines or () for p in game) for game in games)
        if out.logs:
            write_logs([Path(f) for f in out.logs], arms, numbers, lines)
            lines = None
    return Batch(numbers, totals, appended, data, lines)


def write_logs(
    folders: Sequence[Path],
    arms: Sequence[Plan],
    numbers: Sequence[int],
    lines: Sequence[Sequence[Sequence[str]]],
) -> None:
    """The log of each game of ``numbers`` under each arm (``lines[game][arm]``)
    into that arm's folder: written under a hidden name and renamed, so that
    a log is there whole or not at all."""
    for number, game in zip(numbers, lines):
        for folder, arm, logged in zip(folders, arms, game):
            name = log_name(arm, number)
            tmp = folder / f".{name}.partial"
            try:
                with open(tmp, "w", encoding="utf-8") as out:
                    out.write("".join(line + "\n" for line in logged))
                os.replace(tmp, folder / name)
            except OSError as exc:
                raise UsageError(f"cannot write a log: {exc.strerror or exc}", where=str(folder / name)) from None


def log_name(plan: Plan, number: int) -> str:
    """The file name of game ``number``'s log."""
    return f"{plan.game}-{number:05d}.jsonl"


#: Fewest games in a batch (when there are enough for every worker): handing
#: out a task costs 1 to 15 ms, under 5% of 50 games of a few ms each.
FEWEST = 50
#: Most games in a batch, so that progress shows and the work stays balanced.
MOST = 200
#: The same on Dask, where a task costs the command about 2.5 ms and the
#: scheduler about 4 ms (bench/cluster.py): 1,000 games of a few ms keep
#: both under 1% of the workers' time.
DASK_MOST = 1000
#: Batches handed out ahead per worker: enough to keep every worker busy,
#: few enough that results waiting to be written stay small.
AHEAD = 3


def batches(games: int, workers: int, per_batch: int | None = None, first: int = 1, most: int = MOST) -> Batches:
    """Game numbers ``first``..``games`` cut into batches: about eight per worker
    (so that the work stays balanced to the end), from 50 to ``most`` (200) games each.
    Ranges, made as they are asked for: a billion games' batches would take
    hundreds of megabytes as a list, in every worker process forked with it."""
    count = games - first + 1
    if count <= 0:
        return Batches(first, first - 1, 1)
    fewest = min(FEWEST, math.ceil(count / workers))
    size = per_batch or max(1, fewest, min(most, math.ceil(count / (workers * 8))))
    return Batches(first, games, size)


class Batches(Sequence[range]):
    """Games ``first`` to ``last`` in batches of ``size`` (the last may be shorter)."""

    def __init__(self, first: int, last: int, size: int) -> None:
        self.first, self.last, self.size = first, last, size
        self._starts = range(first, last + 1, size)

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, k):  # type: ignore[override]
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        start = self._starts[k]
        return range(start, min(start + self.size, self.last + 1))

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, Sequence) else NotImplemented

    def __repr__(self) -> str:
        return f"Batches({self.first}, {self.last}, {self.size})"


class Interrupted(TabletopError):
    """Raised when SIGINT or SIGTERM stops a run; exits 128 + the signal's number."""

    def __init__(self, message: str, *, where: str | None = None, signum: int = signal.SIGINT) -> None:
        super().__init__(message, where=where)
        self.signum = signum
        self.exit_code = 128 + signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


class Guard:
    """SIGINT and SIGTERM, caught while a run goes on. The signal is noted; it
    interrupts only a wait for workers (:meth:`waiting`), so that results are
    never half written, and is raised as :class:`Interrupted` at the next
    :meth:`check`. Outside the main thread, signals are left alone."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.signum: int | None = None
        self._waiting = False
        self._old: dict[int, object] = {}

    def __enter__(self) -> Guard:
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self._old[sig] = signal.signal(sig, self._caught)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)  # type: ignore[arg-type]
        self._old.clear()

    def _caught(self, signum: int, frame: object) -> None:
        self.signum = signum
        if self._waiting:
            self._waiting = False
            raise Interrupted("interrupted", signum=signum)

    def check(self) -> None:
        if self.signum is not None:
            raise Interrupted("interrupted", signum=self.signum)

    @contextlib.contextmanager
    def waiting(self) -> Iterator[None]:
        self.check()
        self._waiting = True
        try:
            yield
        finally:
            self._waiting = False


def stream(
    arms: Sequence[Plan],
    numbers: Sequence[int] | range,
    workers: int | None = None,
    scheduler: str | None = None,
    per_batch: int | None = None,
    guard: Guard | None = None,
) -> Iterator[list[tuple[Played, ...]]]:
    """Play game ``numbers`` (consecutive, ascending) under every arm and yield
    the batches in game order, each a list of per-game tuples (one
    :class:`Played` per arm). ``workers``: processes on this machine (default:
    one per core; 1 plays here, in this process); ``scheduler``: the address
    of a Dask scheduler instead. Close the iterator (or let ``guard`` raise)
    to stop: the workers are stopped, none is left behind."""
    yield from _spread(play_arms, arms, numbers, (), workers, scheduler, per_batch, guard)


def stream_written(
    arms: Sequence[Plan],
    numbers: Sequence[int] | range,
    out: Out,
    workers: int | None = None,
    scheduler: str | None = None,
    per_batch: int | None = None,
    guard: Guard | None = None,
) -> Iterator[Batch]:
    """As :func:`stream`, but each worker writes the rows and logs of the games
    it plays where ``out`` says (:func:`play_written`) and sends back only
    their totals: a :class:`Batch` per batch, yielded in game order."""
    yield from _spread(play_written, arms, numbers, (out,), workers, scheduler, per_batch, guard)


def _spread(
    task: Callable,
    arms: Sequence[Plan],
    numbers: Sequence[int] | range,
    extra: tuple,
    workers: int | None,
    scheduler: str | None,
    per_batch: int | None,
    guard: Guard | None,
) -> Iterator[Any]:
    """``task(arms, batch, *extra)`` for each batch of ``numbers``, here, on
    the pool or on Dask, yielded in game order."""
    arms = tuple(arms)
    for arm in arms:
        check(arm)
    guard = guard or Guard()
    if not numbers:
        return
    first, last = numbers[0], numbers[-1]
    if scheduler is not None:
        carried_arms = tuple(shipped(arm) for arm in arms)
        yield from on_dask(
            task,
            lambda workers: (
                (carried_arms, job, *extra) for job in batches(last, workers, per_batch, first, DASK_MOST)
            ),
            scheduler,
            guard,
        )
        return
    count = workers or os.cpu_count() or 1
    jobs = batches(last, count, per_batch, first)
    if count == 1:
        for job in jobs:
            # A signal stops the games at once: what a batch half wrote is
            # not counted, and is cut away or played again.
            with guard.waiting():
                done = task(arms, job, *extra)
            yield done
        return
    pool = Pool(count)
    try:
        yield from pool.ordered(task, _Calls(arms, jobs, extra), guard)
    finally:
        pool.stop()


class _Calls(Sequence[tuple]):
    """The pool's calls, made as they are handed out."""

    def __init__(self, arms: tuple[Plan, ...], jobs: Batches, extra: tuple) -> None:
        self.arms, self.jobs, self.extra = arms, jobs, extra

    def __len__(self) -> int:
        return len(self.jobs)

    def __getitem__(self, k):  # type: ignore[override]
        return (self.arms, self.jobs[k], *self.extra)


def _quiet_worker() -> None:
    # Ctrl-C reaches every process of the terminal's group: the command
    # decides what happens, the workers do not print a traceback of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the command's handlers: stopping it must stop it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Pool:
    """Worker processes on this machine, each fed through a pipe of its own.

    Unlike :class:`concurrent.futures.ProcessPoolExecutor`, no thread of this
    process reads from the workers: stopping them mid-batch (a signal) never
    leaves a reader blocked on a message half sent, so a stop is immediate."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context()
        forked = context.get_start_method() == "fork"
        self.procs = []
        self.conns = []
        for _ in range(workers):
            mine, theirs = context.Pipe()
            # A forked worker inherits this end of its own pipe and of the
            # pipes before it: while it holds one, its own read never ends
            # when the command dies. It closes them first thing.
            ends = tuple(c.fileno() for c in (*self.conns, mine)) if forked else ()
            proc = context.Process(target=_serve, args=(theirs, os.getpid(), ends), daemon=True)
            proc.start()
            theirs.close()
            self.procs.append(proc)
            self.conns.append(mine)

    def ordered(self, task: Callable, calls: Sequence[tuple], guard: Guard) -> Iterator[Any]:
        """``task(*call)`` for each call, on the workers, yielded in call order
        (at most :data:`AHEAD` calls handed to each worker at a time)."""
        queued: list[deque[int]] = [deque() for _ in self.conns]
        finished: dict[int, Any] = {}
        handed = 0
        wanted = 0

        def hand_out() -> None:
            nonlocal handed
            for k, conn in enumerate(self.conns):
                while handed < len(calls) and len(queued[k]) < AHEAD:
                    conn.send((task, calls[handed]))
                    queued[k].append(handed)
                    handed += 1

        hand_out()
        while wanted < len(calls):
            while wanted not in finished:
                busy = [conn for k, conn in enumerate(self.conns) if queued[k]]
                with guard.waiting():
                    ready = multiprocessing.connection.wait(busy, timeout=POLL)
                for conn in ready:
                    k = self.conns.index(conn)
                    try:
                        ok, value = conn.recv()
                    except (EOFError, OSError):
                        code = self.procs[k].exitcode
                        raise TabletopError(f"a worker process ended unexpectedly (exit code {code})") from None
                    if not ok:
                        raise value
                    finished[queued[k].popleft()] = value
                hand_out()
            yield finished.pop(wanted)
            wanted += 1

    def stop(self) -> None:
        """Stop the workers (a batch they are playing is lost) and wait for them."""
        for proc in self.procs:
            with contextlib.suppress(Exception):
                proc.terminate()
        for proc in self.procs:
            proc.join(2)
            if proc.is_alive():
                proc.kill()
                proc.join(1)
        for conn in self.conns:
            conn.close()


def _serve(conn: Any, parent: int, ends: Sequence[int] = ()) -> None:
    """A worker: calls from the pipe, results back, until the pipe closes
    or the command that started it (``parent``) dies."""
    _quiet_worker()
    for fd in ends:
        with contextlib.suppress(OSError):
            os.close(fd)
    _die_with(parent)
    while True:
        try:
            task, call = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            reply = (True, task(*call))
        except Exception as exc:
            reply = (False, exc if isinstance(exc, TabletopError) else TabletopError(f"in a worker: {exc!r}"))
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


#: ``prctl``'s request to be sent a signal when the parent dies (Linux).
PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """End this worker when ``parent`` dies, even by ``kill -9`` and in the
    middle of a batch: where Linux offers it, the kernel sends SIGTERM
    (left at its default, which ends the process); elsewhere a thread looks
    at the parent every half second."""
    if _death_signal():
        if os.getppid() != parent:  # it died before the request was made
            os._exit(1)
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="tabletop-parent-watch", daemon=True).start()


def _death_signal() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class ClusterLost(TabletopError):
    """The Dask cluster stopped answering (its scheduler gone, its workers
    killed): what was done is kept, and the same command on another cluster
    continues."""


def _result(future: Any) -> Any:
    # Waited for in short steps: a signal may reach another thread of this
    # process (Dask's), and Python runs its handler in the main thread only
    # once that thread runs Python code again.
    from distributed import KilledWorker
    from distributed.comm import CommClosedError

    finished = threading.Event()
    future.add_done_callback(lambda _: finished.set())
    while True:
        # Blocked in a lock, not polling Dask: a wait costs no CPU, and a
        # signal (on POSIX) ends it at once with the handler run here.
        if not finished.wait(POLL):
            continue
        try:
            return future.result()
        except TabletopError:
            raise
        except (concurrent.futures.CancelledError, CommClosedError, KilledWorker, OSError) as exc:
            raise ClusterLost(f"the Dask cluster stopped answering ({type(exc).__name__})") from None
        except Exception as exc:
            raise TabletopError(f"in a worker: {exc!r}") from None


#: Seconds between two looks at a signal while waiting for a batch.
POLL = 0.1


def on_dask(task: Callable, calls: Callable[[int], Iterable[tuple]], address: str, guard: Guard) -> Iterator[Any]:
    """``task(*call)`` for each call on the Dask cluster at ``address``,
    yielded in call order; ``calls(workers)`` makes the calls once the
    cluster's number of workers is known. At most :data:`AHEAD` calls per
    worker wait on the cluster; a signal caught by ``guard`` stops the wait,
    and whatever is still on the cluster is cancelled."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask distributed: pip install 'tabletop[dask]'") from None
    try:
        client = Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"--scheduler {address}: cannot connect ({exc})") from None
    waiting: deque = deque()
    # A cluster that goes away is said in one line (ClusterLost), not in
    # the tracebacks Dask logs while it tries to reconnect.
    named = [n for n in logging.root.manager.loggerDict if n == "distributed" or n.startswith("distributed.")]
    levels = {n: logging.getLogger(n).level for n in named}
    for n in named:
        logging.getLogger(n).setLevel(logging.CRITICAL)
    try:
        workers = max(1, sum(client.nthreads().values()))
        todo = iter(calls(workers))
        for call in todo:
            waiting.append(client.submit(task, *call, pure=False))
            if len(waiting) >= workers * AHEAD:
                break
        while waiting:
            with guard.waiting():
                done = _result(waiting.popleft())
            call = next(todo, None)
            if call is not None:
                waiting.append(client.submit(task, *call, pure=False))
            yield done
    finally:
        with contextlib.suppress(Exception):
            client.cancel(list(waiting))
        with contextlib.suppress(Exception):
            client.close(timeout=5)
        for n, level in levels.items():
            logging.getLogger(n).setLevel(level)


def shipped(plan: Plan) -> Plan:
    """``plan`` with its house-rule files (``--plugins`` and ``TABLETOP_PLUGINS``)
    carried in it as text, for workers whose folders do not hold them."""
    return attrs.evolve(plan, plugins=(), sources=carried(plan.plugins))


def carried(plugins: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The house-rule files of ``plugins`` and ``TABLETOP_PLUGINS`` as
    ``(name, text)`` pairs, to send to a worker (see :func:`written`)."""
    paths = [*plugins, *filter(None, os.environ.get(ENV_VAR, "").split(os.pathsep))]
    sources = []
    for file in plugin_files(paths):
        try:
            sources.append((file.name, file.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            raise PluginError(f"cannot read it: {exc}", where=str(file)) from None
    return tuple(sources)


def _plugins_here(plan: Plan) -> tuple[str, ...]:
    """The house-rule files to load in this process: the plan's own paths, or
    the files it carries, written once per process into a folder of their own."""
    if not plan.sources:
        return plan.plugins
    return written(plan.sources)


_WRITTEN: dict[tuple[tuple[str, str], ...], tuple[str, ...]] = {}


def written(sources: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """The paths of house-rule files carried as text (:func:`carried`),
    written once per process into a folder of their own."""
    if sources in _WRITTEN:
        return _WRITTEN[sources]
    digest = hashlib.sha256(repr(sources).encode()).hexdigest()[:16]
    folder = Path(tempfile.mkdtemp(prefix=f"tabletop-rules-{digest}-"))
    paths = []
    for k, (name, text) in enumerate(sources):
        # One folder per file keeps two files of the same name apart.
        place = folder / str(k)
        place.mkdir()
        (place / name).write_text(text, encoding="utf-8")
        paths.append(str(place / name))
    _WRITTEN[sources] = tuple(paths)
    return _WRITTEN[sources]


def run(
    plan: Plan,
    games: int,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    per_batch: int | None = None,
) -> list[Played]:
    """Play ``games`` games of ``plan`` and return them all, in game order
    (for a few games; :func:`stream` or :mod:`tabletop.many.runs` for many)."""
    played: list[Played] = []
    with contextlib.closing(stream([plan], range(1, games + 1), workers, scheduler, per_batch)) as batches_:
        for batch in batches_:
            played += [arms[0] for arms in batch]
            if progress is not None:
                progress(len(batch))
    return played


def rows(played: Iterable[Played]) -> Iterator[GameRow]:
    for p in played:
        yield p.row
