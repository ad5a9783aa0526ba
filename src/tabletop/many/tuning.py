"""Tuning a rule's parameters: which values of a variant's parameters come
nearest a target (:mod:`tabletop.many.targets`), found by successive halving on
paired seeds.

Every candidate (one value per tuned parameter, from the grid the ranges
give) plays the same games in the first round; the better half by the
target's loss, counted over every game it has played, plays the next round
on new seeds, and so on until one is left. Each round spends about the same
share of the budget, so the last candidates standing play the most games.
All candidates of a round play the same seeds (``SEED-rK-i``), and the
survivors of round K have all played rounds 1 to K: every comparison the
search makes is between candidates measured on the same games.

A round is one :mod:`tabletop.many.runs` run whose arms are the round's
candidates (times the line-ups the target plays), streamed into its own
results file in the search's folder (``round-K.csv``) on the process pool or
a Dask cluster, stopped and resumed as ``simulate`` is. The folder's
``tune.json`` records what the search is and where it stands. Which
candidates survive a round is worked out from the rows alone, so a search
stopped and run again reaches the answer of one never stopped.
"""

from __future__ import annotations

import itertools
import math
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import orjson

from ..base.errors import TabletopError, UsageError
from ..host.registry import Registry
from ..host.rules import Parameter, format_value, split_entry
from ..log import files
from . import runs, simulation
from .results import iter_rows
from .runs import Run
from .simulation import Guard, Interrupted, Plan
from .targets import Measure, Target

#: The search's record in its folder.
MANIFEST = "tune.json"
#: The method, as the manifest names it.
METHOD = "successive-halving"
#: Most candidates a search takes: a grid larger than this asks for another method.
MOST_CANDIDATES = 1024
#: Values of a float range when no step is given (its ends included).
FLOAT_POINTS = 11


@attrs.frozen
class Param:
    """A tuned parameter and the values it takes."""

    key: str
    kind: type
    values: tuple[Any, ...]
    #: As written: ``first=2..8``.
    text: str


def read_param(text: str, variant: str, declared: Sequence[Parameter], fixed: Sequence[str]) -> Param:
    """``--param key=LOW..HIGH`` or ``key=LOW..HIGH:STEP``: every whole number
    from LOW to HIGH (every STEP-th), or for a float parameter a grid of
    :data:`FLOAT_POINTS` values (or STEP apart)."""
    where = f"--param {text}"
    key, eq, span = text.partition("=")
    key = key.strip()
    low_text, dots, rest = span.partition("..")
    high_text, colon, step_text = rest.partition(":")
    if not eq or not key or not dots or not low_text.strip() or not high_text.strip() or (colon and not step_text):
        raise UsageError(f"{where}: write key=LOW..HIGH (or key=LOW..HIGH:STEP)")
    by_name = {p.name: p for p in declared}
    parameter = by_name.get(key)
    if parameter is None:
        known = ", ".join(p.describe() for p in declared) or "none"
        raise UsageError(f"{where}: variant '{variant}' has no parameter '{key}' (parameters: {known})")
    if key in fixed:
        raise UsageError(f"{where}: '{key}' is also fixed in --variant {variant}; give it in one place")
    if parameter.type not in (int, float):
        raise UsageError(
            f"{where}: '{key}' is a {parameter.type.__name__} parameter; only int and float ones are tuned"
        )
    kind = parameter.type
    low, high = _value(where, kind, low_text), _value(where, kind, high_text)
    if low > high:
        raise UsageError(f"{where}: LOW ({format_value(low)}) is above HIGH ({format_value(high)})")
    if colon:
        step = _value(where, kind, step_text)
        if step <= 0:
            raise UsageError(f"{where}: STEP must be above 0")
        count = math.floor((high - low) / step + 1e-9) + 1
    else:
        step = 1 if kind is int else (high - low) / (FLOAT_POINTS - 1)
        count = high - low + 1 if kind is int else (FLOAT_POINTS if high > low else 1)
    if count > MOST_CANDIDATES:
        raise UsageError(f"{where}: {count:,} values; a search takes at most {MOST_CANDIDATES:,} candidates")
    if kind is int:
        values = tuple(low + k * step for k in range(count))
    else:
        # Rounded so that the grid reads as written (0.3, not 0.30000000000000004).
        values = tuple(dict.fromkeys(round(low + k * step, 10) for k in range(count)))
    return Param(key, kind, values, f"{key}={span}")


def _value(where: str, kind: type, text: str) -> Any:
    text = text.strip()
    try:
        value = int(text, 10) if kind is int else float(text)
    except ValueError:
        raise UsageError(f"{where}: '{text}' is not {'a whole number' if kind is int else 'a number'}") from None
    if kind is float and not math.isfinite(value):
        raise UsageError(f"{where}: '{text}' is not a finite number")
    return value


@attrs.frozen
class Search:
    """What a tuning search is: the games, the variant, its grid, the target, the budget."""

    #: The games as played without the tuned variant (its line-up, options, seed).
    plan: Plan
    #: The tuned variant's name, and its parameters fixed at a value.
    variant: str
    fixed: tuple[tuple[str, str], ...]
    params: tuple[Param, ...]
    target: Target
    #: The most games the search plays (every candidate, round and line-up).
    budget: int

    def grid(self) -> list[tuple[Any, ...]]:
        """Every candidate: one value per tuned parameter, the first parameter slowest."""
        return list(itertools.product(*(p.values for p in self.params)))

    def label(self, values: Sequence[Any]) -> str:
        return ",".join(f"{p.key}={format_value(v)}" for p, v in zip(self.params, values))

    def entry(self, registry: Registry, values: Sequence[Any]) -> str:
        """The variant as a log's header names it, the tuned values and the fixed ones."""
        given = [f"{k}={v}" for k, v in self.fixed] + [
            f"{p.key}={format_value(v)}" for p, v in zip(self.params, values)
        ]
        return registry.variant_entry(f"{self.variant}:{','.join(given)}", self.plan.game)

    def lineups(self) -> tuple[tuple[str, ...], ...]:
        return self.target.lineups(self.plan.bots)

    def schedule(self) -> list[tuple[int, int]]:
        """Each round's number of candidates and games per candidate and
        line-up: about the same share of the budget per round, the last
        round taking what the others leave."""
        n = len(self.grid())
        seatings = len(self.lineups())
        rounds = max(1, math.ceil(math.log2(n))) if n > 1 else 1
        sizes = [n]
        for _ in range(rounds - 1):
            sizes.append(math.ceil(sizes[-1] / 2))
        least = rounds * n * seatings
        if self.budget < least:
            raise UsageError(
                f"--budget {self.budget:,}: too few games for {n:,} candidates in {rounds} rounds"
                f"{f' of {seatings} seatings' if seatings > 1 else ''} (at least {least:,}; a useful search plays "
                "dozens per candidate and round)"
            )
        share = self.budget // rounds
        plan: list[tuple[int, int]] = []
        spent = 0
        for k, size in enumerate(sizes):
            money = self.budget - spent if k == rounds - 1 else share
            games = money // (size * seatings)
            plan.append((size, games))
            spent += games * size * seatings
        return plan

    def definition(self) -> dict[str, Any]:
        """What identifies the search: a folder holding another one is refused."""
        return {
            "method": METHOD,
            "game": self.plan.game,
            "players": self.plan.players,
            "bots": list(self.plan.bots),
            "options": dict(self.plan.options),
            "variant": self.variant,
            "fixed": dict(self.fixed),
            "params": {p.key: list(p.values) for p in self.params},
            "target": self.target.text,
            "budget": self.budget,
            "seed": self.plan.seed,
        }

    def round_plan(self, k: int) -> Plan:
        """Round ``k``'s games: game i is played with the seed ``SEED-rK-i``."""
        return attrs.evolve(self.plan, seed=f"{self.plan.seed}-r{k}")


def search_of(
    registry: Registry,
    plan: Plan,
    variant: str,
    params: Sequence[str],
    target: Target,
    budget: int,
) -> Search:
    """A search, every part of it checked before any game is played: one line
    naming the option at fault."""
    from ..api import bot_named

    cls = registry.game_class(plan.game)
    for spec in dict.fromkeys(plan.bots):
        try:
            bot_named(registry, spec, plan.game)
        except UsageError as exc:
            raise UsageError(f"--bot {spec}: {exc.message}") from None
    try:
        cls.normalize_options(dict(plan.options), plan.seat_names())
    except UsageError as exc:
        raise UsageError(f"--option: {exc.message}") from None
    name, raw = split_entry(variant)
    try:
        registry.variant(name, plan.game)
    except UsageError as exc:
        raise UsageError(f"--variant {variant}: {exc.message}") from None
    declared = registry.parameters[name]
    if not params:
        raise UsageError("missing option '--param' (key=LOW..HIGH, a parameter of the variant to tune)")
    read = [read_param(text, name, declared, tuple(raw)) for text in params]
    keys = [p.key for p in read]
    for key in keys:
        if keys.count(key) > 1:
            raise UsageError(f"--param {key}: given twice")
    search = Search(plan, name, tuple(raw.items()), tuple(read), target, budget)
    count = math.prod(len(p.values) for p in read)
    if count > MOST_CANDIDATES:
        raise UsageError(f"--param: {count:,} candidates; a search takes at most {MOST_CANDIDATES:,}")
    try:
        entries = [search.entry(registry, values) for values in search.grid()]
    except UsageError as exc:
        raise UsageError(f"--variant {variant}: {exc.message}") from None
    search.schedule()
    # Every candidate and seating is a game the workers can make: a value the
    # variant refuses is found now, not in the middle of the night.
    for k, (values, entry) in enumerate(zip(search.grid(), entries)):
        for lineup in search.lineups() if k == 0 else search.lineups()[:1]:
            try:
                simulation.check(attrs.evolve(plan, bots=lineup, variants=(*plan.variants, entry)))
            except TabletopError as exc:
                raise type(exc)(f"--param {search.label(values)}: {exc.message}", where=exc.where) from None
    return search


# -- the search ------------------------------------------------------------------


@attrs.define
class Candidate:
    """One candidate: its values, and what the games it played say."""

    index: int
    values: tuple[Any, ...]
    label: str
    entry: str
    #: Rounds played (the last candidate standing played them all).
    rounds: int = 0
    measure: Measure | None = None
    #: The loss after each round it played.
    losses: list[float] = attrs.Factory(list)

    def as_json(self, search: Search) -> dict[str, Any]:
        return {
            "params": {p.key: v for p, v in zip(search.params, self.values)},
            "variant": self.entry,
            "rounds": self.rounds,
            **(self.measure.as_json() if self.measure is not None else {"games": 0}),
            "losses": [None if math.isinf(x) else round(x, 6) for x in self.losses],
        }


@attrs.define
class Tuned:
    """A search's answer and how it was reached."""

    search: Search
    schedule: list[tuple[int, int]]
    candidates: list[Candidate]
    #: Each round: its seed, games per candidate, the candidates it played and kept.
    rounds: list[dict[str, Any]]
    best: Candidate | None
    #: Games played in all (this run and any before it), and found already.
    played: int
    resumed: int
    folder: Path | None

    def ranked(self) -> list[Candidate]:
        """Every candidate: the best first, then by rounds reached and loss."""

        def key(c: Candidate) -> tuple[Any, ...]:
            loss = c.measure.loss if c.measure is not None else math.inf
            return (c is not self.best, -c.rounds, loss, c.index)

        return sorted(self.candidates, key=key)

    def as_json(self) -> dict[str, Any]:
        return {
            "search": self.search.definition(),
            "target": {"text": self.search.target.text, "meaning": self.search.target.meaning},
            "schedule": [{"round": k, "candidates": n, "seeds": g} for k, (n, g) in enumerate(self.schedule, start=1)],
            "seatings": [list(lineup) for lineup in self.search.lineups()],
            "best": self.best.as_json(self.search) if self.best is not None else None,
            "candidates": [c.as_json(self.search) for c in self.ranked()],
            "rounds": self.rounds,
            "played": self.played,
            "resumed": self.resumed,
            "folder": str(self.folder) if self.folder is not None else None,
        }

    def text(self) -> str:
        s = self.search
        base = s.plan
        bots = base.bots[0] if len(set(base.bots)) == 1 else ", ".join(base.bots)
        ranges = ", ".join(p.text for p in s.params)
        fixed = f" ({', '.join(f'{k}={v}' for k, v in s.fixed)} fixed)" if s.fixed else ""
        planned = sum(n * g for n, g in self.schedule) * len(s.lineups())
        lines = [
            f"Tuning {s.variant}{fixed} in {base.game}, {base.players} players, bots {bots}: "
            f"{s.target.meaning} ({s.target.text})",
            f"Successive halving over {len(self.candidates):,} candidates ({ranges}): {len(self.schedule)} rounds, "
            f"{planned:,} of {s.budget:,} games, seed {base.seed}",
        ]
        if len(s.lineups()) > 1:
            lines.append(
                f"Each seed is played in {len(s.lineups())} seatings: " + "; ".join(map(" ".join, s.lineups()))
            )
        if self.best is not None and self.best.measure is not None:
            m = self.best.measure
            lines += ["", f"Best: {self.best.label}  ({self.best.entry})", f"  {m.text}, {m.games:,} games"]
            places = m.details.get("places")
            if places:
                lines.append(
                    "  "
                    + ", ".join(
                        f"{p['place']} {p['win_rate']:.1%} ({p['ci95'][0]:.1%}-{p['ci95'][1]:.1%})" for p in places
                    )
                )
        lines += ["", *self.table()]
        lines += ["", *self.round_lines()]
        if self.resumed:
            lines.append(f"Resumed: {self.resumed:,} games were played before.")
        return "\n".join(lines)

    def table(self) -> list[str]:
        rows = [["candidate", "rounds", "games", "loss", "measured"]]
        for c in self.ranked():
            m = c.measure
            loss = "-" if m is None or math.isinf(m.loss) else f"{m.loss:.4g}"
            rows.append([c.label, str(c.rounds), f"{m.games:,}" if m else "0", loss, m.text if m else ""])
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]

    def round_lines(self) -> list[str]:
        out = []
        seatings = len(self.search.lineups())
        each = "games" if seatings == 1 else f"seeds x {seatings} seatings"
        for r in self.rounds:
            kept = ", ".join(r["kept_labels"])
            out.append(
                f"Round {r['round']}: {len(r['candidates'])} candidates x {r['seeds']:,} {each} "
                f"(seeds {r['seed']}-1..{r['seeds']}); kept {kept}"
            )
        return out


@attrs.frozen
class Where:
    """Where and how the games are played (as ``simulate`` takes them)."""

    results: Path | None = None
    workers: int | None = None
    scheduler: str | None = None
    per_batch: int | None = None
    continue_anyway: bool = False


def check_folder(search: Search, folder: Path) -> dict[str, Any] | None:
    """The manifest already in ``folder`` if it holds this search; an empty
    or missing folder gives None; anything else is refused, naming it."""
    if not folder.exists():
        return None
    if not folder.is_dir():
        raise UsageError("not a folder", where=str(folder))
    marker = folder / MANIFEST
    if not marker.exists():
        if any(folder.iterdir()):
            raise UsageError(
                f"the folder is not empty and holds no search ({MANIFEST}); choose another", where=str(folder)
            )
        return None
    try:
        there = orjson.loads(marker.read_bytes())
        if not isinstance(there, dict) or not isinstance(there.get("search"), dict):
            raise ValueError
    except (OSError, ValueError):
        raise UsageError(f"{MANIFEST} cannot be read; choose another folder", where=str(folder)) from None
    mine = search.definition()
    for key, value in mine.items():
        if there["search"].get(key) != value:
            was = orjson.dumps(there["search"].get(key)).decode()
            raise UsageError(
                f"holds another search ({key} {was}, not {orjson.dumps(value).decode()}); choose another folder",
                where=str(folder),
            )
    return there


def tune(
    registry: Registry,
    search: Search,
    where: Where,
    guard: Guard | None = None,
    progress: Any = None,
    note: Callable[[str], None] | None = None,
) -> Tuned:
    """Run ``search`` (resuming it from ``where.results`` if that folder holds
    its beginning) and return its answer. ``progress`` is a
    :class:`tabletop.base.progress.Progress` for every game of the search;
    ``note`` is told, once, how many games were found already. Raises
    :class:`Interrupted` on SIGINT or SIGTERM, saying what is kept."""
    guard = guard or Guard()
    schedule = search.schedule()
    seatings = search.lineups()
    planned = sum(n * g for n, g in schedule) * len(seatings)
    temporary = where.results is None
    if where.results is not None:
        check_folder(search, where.results)
    folder = where.results if where.results is not None else Path(tempfile.mkdtemp(prefix="tabletop-tune-"))
    grid = search.grid()
    candidates = [
        Candidate(k, values, search.label(values), search.entry(registry, values)) for k, values in enumerate(grid)
    ]
    tallies = [search.target.tally(search.plan.players) for _ in candidates]
    count = _Count(planned, folder, temporary, progress, note)
    rounds: list[dict[str, Any]] = []
    alive = list(range(len(candidates)))
    best: Candidate | None = None
    try:
        _make(folder)
        _write_manifest(folder, search, schedule, rounds, None)
        for k, (size, games) in enumerate(schedule, start=1):
            assert len(alive) == size
            guard.check()
            run = _round_run(search, k, [candidates[c].entry for c in alive], seatings, folder, where, games)
            _play_round(search, run, k, len(schedule), count, guard)
            _measure(run, k, alive, len(seatings), candidates, tallies)
            keep = schedule[k][0] if k < len(schedule) else 1
            alive = _next_round(run, k, alive, keep, candidates, rounds)
            if k == len(schedule):
                best = candidates[alive[0]]
            _write_manifest(folder, search, schedule, rounds, best)
    finally:
        if temporary:
            shutil.rmtree(folder, ignore_errors=True)
    if not count.started and progress is not None:
        progress.start(count.kept)
    kept, folder_kept = count.kept, None if temporary else folder
    return Tuned(
        search, schedule, candidates, rounds, best, played=kept + count.played, resumed=kept, folder=folder_kept
    )


def _make(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the folder: {files.reason(exc)}", where=str(folder)) from None


@attrs.define
class _Count:
    """The games of a search: those its folder held, those played since;
    the progress bar and the note are told as they come."""

    planned: int
    folder: Path
    #: Whether the folder goes when the search ends (no ``--results``).
    temporary: bool
    progress: Any
    note: Callable[[str], None] | None
    kept: int = 0
    played: int = 0
    started: bool = False

    def starting(self, arms: int, games: int) -> Callable[[int], None]:
        """What a round's run (of ``arms`` arms, ``games`` seeds) tells of the seeds it holds already."""

        def starting(kept: int) -> None:
            self.kept += kept * arms
            if kept < games and not self.started:
                self.started = True
                if self.kept and self.note is not None:
                    self.note(
                        f"resuming: {self.kept:,} of {self.planned:,} games of the search already in {self.folder}"
                    )
                if self.progress is not None:
                    self.progress.start(self.kept)

        return starting

    def playing(self, arms: int) -> Callable[[int], None]:
        """What a round's run (of ``arms`` arms) tells of each batch of seeds played."""

        def played(seeds: int) -> None:
            self.played += seeds * arms
            if self.progress is not None:
                self.progress.update(seeds * arms)

        return played


def _round_run(
    search: Search,
    k: int,
    entries: list[str],
    seatings: tuple[tuple[str, ...], ...],
    folder: Path,
    where: Where,
    games: int,
) -> Run:
    """Round ``k``: every candidate left (by its variant ``entries``) in
    every line-up on the round's seeds, into the round's results file."""
    plan = search.round_plan(k)
    arms = tuple(
        attrs.evolve(plan, bots=lineup, variants=(*plan.variants, entry)) for entry in entries for lineup in seatings
    )
    return Run(
        arms=arms,
        games=games,
        results=folder / f"round-{k}.csv",
        workers=where.workers,
        scheduler=where.scheduler,
        per_batch=where.per_batch,
        continue_anyway=where.continue_anyway,
    )


def _play_round(search: Search, run: Run, k: int, of: int, count: _Count, guard: Guard) -> None:
    """Play round ``k`` of ``of``; interrupted, say what the search kept."""
    if count.progress is not None:
        count.progress.label = f"tune {search.plan.game} round {k}/{of}"
    arms = len(run.arms)
    try:
        runs.play(run, count.playing(arms), guard, starting=count.starting(arms, run.games))
    except Interrupted as exc:
        done = count.kept + count.played
        if count.temporary:
            kept_text = f"{done:,} of {count.planned:,} games were played (nothing was kept: use --results)"
            rerun = ""
        else:
            kept_text = f"{done:,} of {count.planned:,} games of the search are in {count.folder} (round {k} of {of})"
            rerun = "; run the same command again to continue"
        raise Interrupted(f"interrupted by {exc.name}: {kept_text}{rerun}", signum=exc.signum) from None


def _measure(
    run: Run, k: int, alive: list[int], seatings: int, candidates: list[Candidate], tallies: list[Any]
) -> None:
    """Count the games of round ``k`` for the candidates ``alive``, and measure each."""
    # A row is told by its variants and its seat names, which each arm
    # makes from its own line-up (p1-mcts, p2-random).
    arm_of = {(arm.variants, tuple(arm.seat_names())): alive[j // seatings] for j, arm in enumerate(run.arms)}
    assert run.results is not None
    for row in iter_rows(run.results):
        c = arm_of.get((row.variants, row.players))
        if c is None:
            raise UsageError(f"game {row.number}: a row of no candidate of round {k}", where=str(run.results))
        tallies[c].add(row)
    for c in alive:
        candidates[c].rounds = k
        candidates[c].measure = tallies[c].measure()
        candidates[c].losses.append(candidates[c].measure.loss)


def _next_round(
    run: Run, k: int, alive: list[int], keep: int, candidates: list[Candidate], rounds: list[dict[str, Any]]
) -> list[int]:
    """The ``keep`` best of the candidates ``alive`` after round ``k``, the round recorded in ``rounds``."""
    # The ranking counts every game each survivor played (all on the
    # same seeds); ties go to the earlier candidate of the grid.
    ranked = sorted(alive, key=lambda c: (candidates[c].measure.loss, c))  # type: ignore[union-attr]
    survivors = sorted(ranked[:keep])
    rounds.append(
        {
            "round": k,
            "seed": run.arms[0].seed,
            "seeds": run.games,
            "file": run.results.name if run.results is not None else None,
            "candidates": [{"label": candidates[c].label, "loss": _loss(candidates[c].measure)} for c in alive],
            "kept": [list(candidates[c].values) for c in survivors],
            "kept_labels": [candidates[c].label for c in survivors],
        }
    )
    return survivors


def _loss(measure: Measure | None) -> float | None:
    if measure is None or math.isinf(measure.loss):
        return None
    return round(measure.loss, 6)


def _write_manifest(
    folder: Path, search: Search, schedule: list[tuple[int, int]], rounds: list[dict[str, Any]], best: Candidate | None
) -> None:
    data = {
        "search": search.definition(),
        "schedule": [{"round": k, "candidates": n, "seeds": g} for k, (n, g) in enumerate(schedule, start=1)],
        "rounds": rounds,
        "finished": best is not None,
        "best": best.as_json(search) if best is not None else None,
    }
    files.replace(folder / MANIFEST, orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")


# -- the picture -------------------------------------------------------------------


def plot_search(tuned: Tuned, path: Path) -> Path:
    """The search in one picture. Left: each candidate's measured value with
    its 95% interval, coloured by the round it reached (the aim dotted, the
    best ringed). Right: each candidate's loss after each round it played,
    as the halving went."""
    from .plotting import pyplot, save_figure

    plt = pyplot()
    search = tuned.search
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.8))
    rounds = max(1, len(tuned.schedule))
    _values_panel(left, tuned, rounds, plt.get_cmap("viridis"))
    _losses_panel(right, tuned, rounds)
    best_label = tuned.best.label if tuned.best is not None else "none"
    fig.suptitle(f"{search.plan.game}: {search.variant} tuned for {search.target.text}; best {best_label}")
    fig.tight_layout()
    return save_figure(plt, fig, path)


def _values_panel(left: Any, tuned: Tuned, rounds: int, colours: Any) -> None:
    """Each candidate's measured value with its interval, coloured by the round it reached."""
    search = tuned.search
    numeric = len(search.params) == 1
    xs = [c.values[0] if numeric else c.index for c in tuned.candidates]
    shown: set[int] = set()
    for x, c in zip(xs, tuned.candidates):
        m = c.measure
        if m is None or not math.isfinite(m.value):
            continue
        colour = colours(0.85 * (c.rounds - 1) / max(1, rounds - 1)) if rounds > 1 else colours(0.3)
        low = m.value - m.low if math.isfinite(m.low) else 0
        high = m.high - m.value if math.isfinite(m.high) else 0
        label = None
        if c.rounds not in shown:
            shown.add(c.rounds)
            label = f"out after round {c.rounds}" if c.rounds < rounds else "played every round"
        left.errorbar(
            [x], [m.value], yerr=[[max(0, low)], [max(0, high)]], fmt="o", capsize=3, color=colour, label=label
        )
        if c is tuned.best:
            left.plot(
                [x], [m.value], "o", markersize=14, markerfacecolor="none", markeredgecolor="crimson", label="best"
            )
    aim = _aim(search.target)
    if aim is not None:
        left.axhline(aim, color="grey", linewidth=0.8, linestyle=":")
    if numeric:
        left.set_xlabel(search.params[0].key)
        if search.params[0].kind is int and len(xs) <= 30:
            left.set_xticks(xs)
    else:
        left.set_xlabel("candidate")
        left.set_xticks(xs)
        left.set_xticklabels([c.label for c in tuned.candidates], rotation=60, ha="right", fontsize="x-small")
    if isinstance(aim, float) and not _is_length(search.target):
        from matplotlib.ticker import PercentFormatter

        left.yaxis.set_major_formatter(PercentFormatter(1.0))
    left.set_ylabel(f"{search.target.text}: measured, 95% interval")
    left.legend(fontsize="small")


def _losses_panel(right: Any, tuned: Tuned, rounds: int) -> None:
    """Each candidate's loss after each round it played."""
    ends: dict[tuple[int, float], list[str]] = {}
    for c in tuned.candidates:
        ys = [y for y in c.losses if math.isfinite(y)]
        if not ys:
            continue
        best = c is tuned.best
        right.plot(
            range(1, len(ys) + 1), ys, "o-" if best else ".-", alpha=1 if best else 0.6, linewidth=2 if best else 1
        )
        ends.setdefault((len(ys), ys[-1]), []).append(c.label)
    if len(tuned.candidates) <= 16:
        # Candidates that ended on the same point (the same games, the same loss) share one label.
        for (x, y), labels in ends.items():
            right.annotate(", ".join(labels), (x, y), textcoords="offset points", xytext=(4, 0), fontsize="x-small")
    right.set_xlabel("round")
    right.set_xticks(range(1, rounds + 1))
    right.set_xlim(0.8, rounds + 0.6)
    right.set_ylabel("loss over every game played so far")


def _is_length(target: Target) -> bool:
    from .targets import Length

    return isinstance(target, Length)


def _aim(target: Target) -> float | None:
    from .targets import Even, Length, Shared, Stronger

    if isinstance(target, Even):
        return 0.0
    if isinstance(target, (Shared, Stronger)):
        return target.share
    if isinstance(target, Length):
        return target.turns
    return None
