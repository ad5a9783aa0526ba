"""A run: many games under one or more rule sets (*arms*), streamed into a
results file and a folder of logs, summarised as it goes, stopped cleanly by
SIGINT or SIGTERM and resumed by running it again.

This is what ``tabletop simulate`` does, as an API (tournaments and other
commands reuse it)::

    from tabletop.many.runs import Run, play
    from tabletop.many.simulation import Plan

    plan = Plan(game="glux", players=4, bots=("greedy",) * 4, seed="study")
    done = play(Run(arms=(plan,), games=100_000, results=Path("games.csv")))
    print(done.summaries[0].table())

Rerunning the same :class:`Run` continues from the games already in the
results file (or the logs folder); no game is played twice and the finished
file holds the same rows as a run that was never stopped. ``results`` may
be a folder (``Path("study/")`` with ``folder=True``, or a name without a
suffix): a Parquet part per batch and a manifest (:mod:`tabletop.many.parts`).
The workers write the rows; the command merges their totals.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs
import orjson

from ..api import registry
from ..base.errors import UsageError
from ..log.appending import Appended
from . import origin, parts, simulation
from .intervals import wilson
from .paired import Paired
from .parts import Folder
from .results import Results, row_from
from .simulation import Batch, ClusterLost, Guard, Interrupted, Plan, log_name
from .stats import GameRow, Summary
from .totals import Totals

#: The file in a logs folder that records which run its logs belong to.
RUN_FILE = "run.json"
#: Seconds between two syncs to disk (results and logs are durable in batches).
SYNC_EVERY = 5.0


@attrs.frozen
class Run:
    """What to play and where to put it."""

    #: The rule sets, each played on every seed: one (a plain run), two (a
    #: paired comparison: the first is the base), or more (a sweep).
    arms: tuple[Plan, ...]
    games: int
    results: Path | None = None
    logs: Path | None = None
    workers: int | None = None
    scheduler: str | None = None
    per_batch: int | None = None
    #: Stop once every seat's 95% interval (of its win rate, or of the
    #: paired difference) is at most this wide.
    until_interval: float | None = None
    #: How ``tabletop stats`` groups the summaries (``("seat",)``, ``("turn-order",)``...).
    by: tuple[str, ...] = ("seat",)
    #: Add games to a results file or logs folder made by other code (another
    #: tabletop, a house-rule file edited since): refused unless this is set.
    continue_anyway: bool = False
    #: ``results`` is a folder of Parquet parts even if its name has a
    #: suffix (``games.parquet/`` on the command line); a name without a
    #: suffix, or an existing folder, is one anyway.
    folder: bool = False


@attrs.define
class Done:
    """What a run left: a summary per arm, the paired comparison if any."""

    run: Run
    summaries: list[Summary]
    games: int
    resumed: int = 0
    paired: Paired | None = None
    #: Whether ``until_interval`` stopped the run before ``games``.
    narrow: bool = False
    #: The run's metadata as :func:`metadata` gave it when the run began.
    recorded: dict[str, Any] | None = None
    #: The games from which on other code played (``--continue-anyway``), in order.
    continued_from: list[int] = attrs.Factory(list)
    #: Batches whose rows the workers wrote, and those sent back and written here.
    written_by_workers: int = 0
    written_here: int = 0

    def meta(self) -> dict[str, Any]:
        return {**(self.recorded or metadata(self.run)), "played": self.games}


def metadata(run: Run) -> dict[str, Any]:
    """What identifies a run: what was asked (a rerun continues only the same
    run, ``games`` aside) and what made its games (:mod:`tabletop.many.origin`:
    a rerun by other code is refused unless ``continue_anyway``)."""
    base = run.arms[0]
    made = origin.made_by(registry(base.plugins), base.game, [arm.variants for arm in run.arms], base.bots)
    return {
        "tabletop": made["tabletop"],
        "game": base.game,
        "players": base.players,
        "bots": list(base.bots),
        "arms": [list(arm.variants) for arm in run.arms],
        "options": dict(base.options),
        "seed": base.seed,
        "games": run.games,
        "rules": made["rules"],
        "code": made["code"],
    }


def _same_run(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("game", "players", "bots", "arms", "options", "seed")
    return all(a.get(k) == b.get(k) for k in keys)


def _differs(a: dict[str, Any], b: dict[str, Any]) -> str:
    for key in ("game", "players", "bots", "arms", "options", "seed"):
        if a.get(key) != b.get(key):
            return f"{key} {orjson.dumps(a.get(key)).decode()}, not {orjson.dumps(b.get(key)).decode()}"
    return ""


def arm_folder(run: Run, k: int) -> Path:
    """Where arm ``k``'s logs go: the logs folder itself, or a sub-folder per arm."""
    assert run.logs is not None
    if len(run.arms) == 1:
        return run.logs
    slug = "-".join(v.replace(":", "_").replace("=", "-").replace(",", "_") for v in run.arms[k].variants) or "official"
    return run.logs / f"{k + 1}-{slug}"


def results_folder(run: Run) -> bool:
    """Whether ``run.results`` names a folder of Parquet parts (:mod:`tabletop.many.parts`)
    rather than a file: ``Run.folder``, an existing folder, or a name
    without a suffix."""
    path = run.results
    return path is not None and (run.folder or path.is_dir() or not path.suffix)


def play(
    run: Run,
    progress: Callable[[int], None] | None = None,
    guard: Guard | None = None,
    starting: Callable[[int], None] | None = None,
) -> Done:
    """Play ``run``, resuming it if its results file, results folder or logs
    folder holds its beginning. ``starting`` is told how many games they
    hold already, before any game is played; ``progress`` is called with
    the games of each batch finished. Raises :class:`Interrupted` (its
    message says what was kept) on SIGINT or SIGTERM when ``guard`` catches them.

    The workers write the rows and logs of the games they play (a results
    file on this machine: appended in game order under a lock; a results
    folder: a Parquet part per batch) and send back only their totals, which
    are merged here in game order. Rows come back only where a worker cannot
    write them: a results file with ``scheduler``, or a folder the workers
    do not see."""
    for arm in run.arms:
        simulation.check(arm)
    # What this run makes: removed again when it ends in an error before any game.
    made = [path for path in (run.results, run.logs) if path is not None and not os.path.lexists(path)]
    store = _Store.of(run)
    logs_meta = store.resume()
    done = store.begin(logs_meta)
    out = store.out()
    if starting is not None:
        starting(store.kept)
    guard = guard or Guard()
    try:
        store.stream(done, out, guard, progress)
    except (Interrupted, ClusterLost) as exc:
        store.finish(done)
        raise _stopped(exc, done) from None
    except BaseException:
        # Whatever stopped the run (a worker's error, a full disk), what is
        # written stays readable and a rerun continues it; a run that made
        # its files and ended before any game (a bot that cannot play) leaves
        # none, so that the mended run is not refused as other code's.
        with contextlib.suppress(Exception):
            store.finish(done)
            if not done.games and not store.kept:
                _unmake(made)
        raise
    store.finish(done)
    return done


@attrs.define
class _Store:
    """Where a run keeps its games (a results file or folder, a logs folder)
    and what they hold: the games counted so far and their totals."""

    run: Run
    #: The run's metadata as this code gives it (:func:`metadata`).
    meta: dict[str, Any]
    totals: Totals
    folder: Folder | None
    results: Results | None
    #: The games the files held when the run began.
    kept: int = 0
    #: The batches of a results folder, first and last game of each.
    listed: list[tuple[int, int]] = attrs.Factory(list)
    #: The metadata the results say, once resumed (a continued run's history included).
    meta_now: dict[str, Any] = attrs.Factory(dict)
    #: A results file's size after each game counted so far (the last) and
    #: after games the workers appended beyond it.
    offsets: dict[int, int] = attrs.Factory(dict)
    appended: Appended | None = None

    @classmethod
    def of(cls, run: Run) -> _Store:
        meta = metadata(run)
        totals = Totals(len(run.arms), run.by, run.arms[0].players)
        folder = Folder(run.results) if run.results is not None and results_folder(run) else None
        results = Results(run.results, meta) if run.results is not None and folder is None else None
        return cls(run, meta, totals, folder, results)

    @property
    def on_dask(self) -> bool:
        return self.run.scheduler is not None

    def resume(self) -> Callable[[int], dict[str, Any]] | None:
        """Count what the files hold already: the beginning of this run, or
        nothing. Returns what the logs folder's ``run.json`` is to say given
        the games kept (None: the run's metadata)."""
        run, meta, folder, results = self.run, self.meta, self.folder, self.results
        where = str(run.results)
        there = folder.existing() if folder is not None else results.existing() if results is not None else None
        stamp = None
        self.meta_now = meta
        if there is not None:
            there_run = there["run"] if folder is not None else there
            if not _same_run(there_run, meta):
                raise UsageError(f"holds another run ({_differs(there_run, meta)}); choose another", where=where)
            other_code = _made_elsewhere(there_run, meta, run, where)
            kept_meta = {**there_run, "games": run.games}
            stamp = (lambda games: origin.continued(kept_meta, meta, games + 1)) if other_code else None
            self.meta_now = kept_meta
        logs_there, logs_meta = _check_logs(run, meta)
        if folder is not None and there is not None:
            self._resume_folder(there, logs_there, stamp)
        elif results is not None and there is not None:
            self._resume_file(logs_there, stamp)
        elif results is not None:
            results.start()
        if results is None and folder is None and logs_there:
            self.kept = logs_there
            _summaries_from_logs(run, self.kept, self.totals.add)
        if results is not None and logs_there is not None:
            self.kept = min(self.kept, logs_there)
        return logs_meta

    def _resume_folder(
        self, there: dict[str, Any], logs_there: int | None, stamp: Callable[[int], dict[str, Any]] | None
    ) -> None:
        run, where = self.run, str(self.run.results)
        assert self.folder is not None
        self.listed = self.folder.done(there)
        self.kept = kept = there["games"]
        if kept > run.games:
            raise UsageError(
                f"holds more than the {run.games} games asked for; rerun with the --games it was started with",
                where=where,
            )
        if logs_there is not None and logs_there < kept:
            raise UsageError(
                f"holds games 1 to {kept} but the logs folder {run.logs} only 1 to {logs_there}; "
                "choose another results folder or logs folder",
                where=where,
            )
        arms, players = len(run.arms), run.arms[0].players
        try:
            totals = Totals.from_state(there["totals"], players)
            if len(totals.summaries) != arms or totals.by != tuple(run.by) or totals.games != kept:
                raise ValueError
        except (KeyError, TypeError, ValueError):
            # Counted --by otherwise, or damaged: the parts are read again.
            totals = Totals(arms, run.by, players)
            _totals_from_rows(parts.records(run.results), arms, totals, where)
        self.totals = totals
        if stamp is not None:
            self.meta_now = stamp(kept)

    def _resume_file(self, logs_there: int | None, stamp: Callable[[int], dict[str, Any]] | None) -> None:
        run, results = self.run, self.results
        assert results is not None
        results.meta = self.meta_now
        arms = len(run.arms)
        group: list[GameRow] = []
        limit = run.games if logs_there is None else min(run.games, logs_there)
        for rec in results.resume(arms, limit=limit, seed=run.arms[0].seed, stamp=stamp):
            group.append(row_from(rec))
            if len(group) == arms:
                self.totals.add(group)
                group = []
                self.kept += 1
        self.meta_now = results.meta

    def begin(self, logs_meta: Callable[[int], dict[str, Any]] | None) -> Done:
        """What the run has done so far, as it begins; the logs folder made ready."""
        run, meta, kept, totals = self.run, self.meta, self.kept, self.totals
        done = Done(run, totals.summaries, kept, resumed=kept, paired=totals.paired, recorded=meta)
        history = self.meta_now if run.results is not None else logs_meta(kept) if logs_meta is not None else meta
        done.continued_from = [
            int(c.get("from_game", 0)) for c in history.get(origin.CONTINUED) or [] if isinstance(c, dict)
        ]
        if run.logs is not None:
            run.logs.mkdir(parents=True, exist_ok=True)
            record_ = logs_meta(kept) if logs_meta is not None else meta
            (run.logs / RUN_FILE).write_text(orjson.dumps(record_, option=orjson.OPT_INDENT_2).decode() + "\n")
            for k in range(len(run.arms)):
                arm_folder(run, k).mkdir(parents=True, exist_ok=True)
        return done

    def log_folders(self) -> list[Path]:
        return [arm_folder(self.run, k) for k in range(len(self.run.arms))] if self.run.logs is not None else []

    def out(self) -> simulation.Out:
        """Where the workers put what they play."""
        run, folder, results = self.run, self.folder, self.results
        out = simulation.Out(by=tuple(run.by), keep=run.results is not None)
        if folder is not None:
            folder.start()
            folder.open(self.listed)
            folder.save(self.meta_now, self.listed, self.totals.state())
            out = attrs.evolve(out, rows=folder.sink(self.meta_now), kind="parquet")
        elif results is not None:
            self.offsets[self.kept] = results.size()
            out = attrs.evolve(out, kind=results.line_kind)
            if not self.on_dask:
                self.appended = Appended(str(results.appended.resolve()), str(results.appended))
                self.appended.prepare(self.kept + 1)
                out = attrs.evolve(out, rows=self.appended)
        if self.on_dask:
            out = attrs.evolve(out, maker=simulation.maker_of(run.arms))
        log_folders = self.log_folders()
        if log_folders and not self.on_dask:
            out = attrs.evolve(out, logs=tuple(str(f.resolve()) for f in log_folders))
        return out

    def stream(self, done: Done, out: simulation.Out, guard: Guard, progress: Callable[[int], None] | None) -> None:
        """Play the games not kept yet, counting each batch as it comes back in game order."""
        run = self.run
        last_sync = time.monotonic()
        with contextlib.closing(
            simulation.stream_written(
                [attrs.evolve(a, logs=run.logs is not None) for a in run.arms],
                range(self.kept + 1, run.games + 1),
                out,
                run.workers,
                run.scheduler,
                run.per_batch,
                guard,
            )
        ) as batches:
            if run.until_interval is not None and _narrow(done, run.until_interval):
                done.narrow = True
            log_folders = self.log_folders()
            for batch in () if done.narrow else batches:
                self.count(batch, done, log_folders)
                if progress is not None:
                    progress(len(batch.numbers))
                if time.monotonic() - last_sync > SYNC_EVERY:
                    self.save()
                    last_sync = time.monotonic()
                if run.until_interval is not None and _narrow(done, run.until_interval):
                    done.narrow = True
                    break
                guard.check()

    def count(self, batch: Batch, done: Done, log_folders: list[Path]) -> None:
        """Write what ``batch`` sent back (rows, logs) and count its games."""
        run, folder, results, arms = self.run, self.folder, self.results, len(self.run.arms)
        first, last = batch.numbers[0], batch.numbers[-1]
        if batch.lines is not None:
            simulation.write_logs(log_folders, run.arms, batch.numbers, batch.lines)
        if batch.data is not None:
            done.written_here += 1
            if folder is not None:
                folder.put(first, last, batch.data)
            elif results is not None:
                results.write_bytes(batch.data, len(batch.numbers) * arms)
                self.offsets[last] = results.size()
        elif run.results is not None:
            done.written_by_workers += 1
            if results is not None:
                results.added(len(batch.numbers) * arms)
                self.offsets.update(batch.appended)
        self.totals.merge(batch.totals)
        self.listed.append((first, last))
        if results is not None:
            # Only the size after the last game counted, and after those beyond it, is needed.
            for game in [g for g in self.offsets if g < last]:
                del self.offsets[game]
        done.games += len(batch.numbers)

    def save(self) -> None:
        if self.folder is not None:
            self.folder.save(self.meta_now, self.listed, self.totals.state())
        _sync(self.results, self.run)

    def finish(self, done: Done) -> None:
        """Once no worker writes any more: the files hold the games counted, no more."""
        folder, results = self.folder, self.results
        if folder is not None:
            self.save()
            folder.close(self.listed)
            return
        if results is not None:
            if done.games in self.offsets:
                results.cut_at(self.offsets[done.games])
            if self.appended is not None:
                self.appended.clear()
        _sync(results, self.run)
        if results is not None:
            results.close()


def _stopped(exc: Interrupted | ClusterLost, done: Done) -> Exception:
    """What stopped a run, with what it kept and how to continue it."""
    run = done.run
    where = " and ".join(str(p) for p in (run.results, run.logs) if p is not None)
    kept_text = (
        f"{done.games} of {run.games} games are in {where}"
        if where
        else f"{done.games} of {run.games} games were played (nothing was kept: use --results)"
    )
    if isinstance(exc, ClusterLost):
        rerun = "; the same command on a cluster continues them" if where else ""
        return ClusterLost(f"{exc}: {kept_text}{rerun}")
    rerun = "; run the same command again to continue" if where else ""
    return Interrupted(f"interrupted by {exc.name}: {kept_text}{rerun}", signum=exc.signum)


def _unmake(paths: list[Path]) -> None:
    """Remove ``paths``, files or folders this run made."""
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)


def _totals_from_rows(rows: Iterable[dict[str, Any]], arms: int, totals: Totals, where: str) -> None:
    group: list[GameRow] = []
    for rec in rows:
        group.append(row_from(rec))
        if len(group) == arms:
            totals.add(group)
            group = []
    if group:
        raise UsageError(f"game {group[0].number} lacks a rule set's row", where=where)


def _narrow(done: Done, width: float) -> bool:
    if done.paired is not None:
        return done.paired.games > 1 and done.paired.widest() <= width
    for summary in done.summaries:
        for group in summary.groups.values():
            for tally in group.seats:
                low, high = wilson(tally.wins, tally.games)
                if high - low > width:
                    return False
        if not summary.groups:
            return False
    return True


def _sync(results: Results | None, run: Run) -> None:
    if results is not None:
        results.sync()
    if run.logs is not None and hasattr(os, "sync"):
        # One sync for every log written since the last: durable in batches,
        # not file by file.
        os.sync()


def _made_elsewhere(there: dict[str, Any], meta: dict[str, Any], run: Run, where: str) -> bool:
    """Whether the games ``there`` were made by other code than this run's
    (:mod:`tabletop.many.origin`); refused, naming what changed, unless the run
    continues anyway."""
    changed = origin.difference(origin.maker(there), origin.maker(meta))
    if changed and not run.continue_anyway:
        raise UsageError(
            f"its games were made by other code: {changed}; --continue-anyway adds games all the same, "
            "or choose another",
            where=where,
        )
    return bool(changed)


def _check_logs(run: Run, meta: dict[str, Any]) -> tuple[int | None, Callable[[int], dict[str, Any]] | None]:
    """How many games the logs folder holds already (None: no logs wanted),
    and what its ``run.json`` is to say given the games kept (None: ``meta``)."""
    if run.logs is None:
        return None, None
    folder = run.logs
    if not folder.exists():
        return 0, None
    if not folder.is_dir():
        raise UsageError("not a folder", where=str(folder))
    marker = folder / RUN_FILE
    if not marker.exists():
        if any(folder.iterdir()):
            raise UsageError("the output folder is not empty; choose another", where=str(folder))
        return 0, None
    try:
        there = orjson.loads(marker.read_bytes())
        if not isinstance(there, dict):
            raise ValueError
    except (OSError, ValueError):
        raise UsageError(f"{RUN_FILE} cannot be read; choose another folder", where=str(folder)) from None
    if not _same_run(there, meta):
        raise UsageError(f"holds the logs of another run ({_differs(there, meta)}); choose another", where=str(folder))
    count = 0
    while count < run.games and all(
        (arm_folder(run, k) / log_name(run.arms[k], count + 1)).exists() for k in range(len(run.arms))
    ):
        count += 1
    if not count:
        return 0, None
    kept_meta = {**there, "games": run.games}
    if _made_elsewhere(there, meta, run, str(folder / RUN_FILE)):
        return count, lambda games: origin.continued(kept_meta, meta, games + 1)
    return count, lambda games: kept_meta


def _summaries_from_logs(run: Run, kept: int, add: Callable[[tuple[GameRow, ...]], None]) -> None:
    from ..api import registry
    from .stats import rows_from_logs

    reg = registry(run.arms[0].plugins)
    for number in range(1, kept + 1):
        paths = [arm_folder(run, k) / log_name(run.arms[k], number) for k in range(len(run.arms))]
        add(tuple(rows_from_logs(reg, paths)))


def rows_of(path: Path) -> Iterator[GameRow]:
    """The games of a results file, one at a time."""
    from .results import iter_rows

    return iter_rows(path)
