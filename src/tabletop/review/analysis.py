"""A bot's analysis of every decision of a game, from each mover's information only.

For each decision of the main line, a search bot (:class:`~tabletop.MCTS`)
is handed the mover's view of the position before it, never the state: it
fills in what the view hides with the game's ``determinize``, world after
world, as it does when it plays. It weighs every legal decision; the one it
tries most is the decision it prefers, and that decision's value is the
mover's winning chance **before** the decision. The chance **after** it is
the value of the decision played: the same when it is the preferred one,
else a search of that decision alone, with the same budget. The drop from
one to the other marks the decision (:data:`tabletop.review.study.THRESHOLDS`:
an inaccuracy from 0.05, a mistake from 0.10, a blunder from 0.15).

What a value is: the share of the victory the bot expects for the mover
(the game's own judgement of a position, :meth:`~tabletop.Game.evaluate`,
where it has one; the outcome of short random playouts where it has not).

Reproducible: the searches for event ``n`` draw from ``Random("SEED n")``
alone, so with an iteration budget (``mcts:iterations=N``) the same seed
gives the same analysis however the decisions are split among workers. A
time budget (``mcts:seconds=S``) searches as far as the machine gets in
that much CPU time, which differs from machine to machine and run to run.

Resumable: judgements are written into the study file as batches finish;
an analysis run again with the same bot and seed does only the decisions
not judged yet.
"""

from __future__ import annotations

import io
import math
import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..base.errors import UsageError
from ..host.registry import Registry
from ..model.events import DECISION, Event, Resign, Seal, Unseal
from ..model.game import Game
from ..play.engine import Match, Replay
from ..sight import seen
from .study import JUDGED, Judgement, Study, sees

#: Batches handed to each worker over a whole analysis: small enough that
#: judgements reach the study file steadily, and an interrupted run loses little.
BATCHES_PER_WORKER = 6


@attrs.frozen
class Verdict:
    """The analysis of one decision: the mover's winning chance before it
    (with the bot's preferred decision) and after it, and that decision."""

    before: float | None
    after: float | None
    best: Event | None


def weigh(game: Game, state: Any, mover: str, played: Event, searcher: Any, key: str) -> Verdict:
    """Analyse ``played``, ``mover``'s decision in ``state``, with
    ``searcher`` (an :class:`~tabletop.MCTS`) handed ``mover``'s view alone;
    its random numbers come from ``key`` (the same key, the same verdict)."""
    legal = list(game.legal(state, mover))
    if played not in legal:
        legal.append(played)  # legal all the same (the log was checked): searched beside the rest
    view = seen.view(game, state, mover)
    weighed = searcher.weigh(game, view, mover, legal, _rng(key, "before"))
    preferred = max(weighed, key=lambda w: w.visits)  # the first of the most tried, in the game's order
    if preferred.visits == 0:
        return Verdict(None, None, None)
    if preferred.decision == played:
        return Verdict(preferred.value, preferred.value, preferred.decision)
    alone = searcher.weigh(game, view, mover, [played], _rng(key, "after"))[0]
    return Verdict(preferred.value, alone.value, preferred.decision)


def _rng(key: str, which: str) -> random.Random:
    return random.Random(f"{key} {which}")


def analysable(event: Event) -> bool:
    """Whether an event is a decision the bot can weigh (a secret decision,
    revealed later, and a resignation are not)."""
    return event.origin == DECISION and not isinstance(event, (Seal, Unseal, Resign))


def decisions(study: Study, viewer: str | None = None) -> list[int]:
    """The event numbers of the main line's decisions to analyse (``viewer``'s alone, when given)."""
    return [
        seq
        for seq, event in enumerate(study.events, start=1)
        if analysable(event) and (viewer is None or getattr(event, "player", None) == viewer)
    ]


def searcher_of(registry: Registry, spec: str, game: str) -> Any:
    """The search that ``spec`` (``mcts``, ``mcts:iterations=200``) names, for ``game``."""
    from ..api import bot_named

    bot = bot_named(registry, spec, game)
    if not callable(getattr(bot.choose, "weigh", None)):
        raise UsageError(f"--bot {spec}: analysis needs a bot that estimates winning chances (mcts)")
    return bot.choose


def judge_batch(
    plugins: Sequence[str], log: str, data: bytes, seqs: Sequence[int], spec: str, seed: str
) -> list[dict[str, Any]]:
    """Analyse decisions ``seqs`` of the log whose bytes are ``data`` (in any
    process: the pool's workers run it). Each is weighed from its mover's
    view of the position before it."""
    from ..api import registry as registry_of

    registry = registry_of(plugins)
    replay = Replay(registry, Path(log), io.BytesIO(data))
    searcher = searcher_of(registry, spec, replay.header.game)
    wanted = set(seqs)
    found: list[dict[str, Any]] = []

    def before(match: Match, seq: int, event: Event) -> None:
        if seq in wanted:
            mover = event.player  # type: ignore[attr-defined]
            verdict = weigh(match.game, match.state, mover, event, searcher, f"{seed} {seq}")
            found.append({"seq": seq, "player": mover, **attrs.asdict(verdict, recurse=False)})
            wanted.discard(seq)

    replay.before = before
    for _ in replay:
        if not wanted:
            replay.close()
            break
    return found


@attrs.frozen
class Begun:
    """Where an analysis begins: the decisions to judge, and those judged before this run."""

    total: int
    kept: int


def run(
    study: Study,
    spec: str,
    seed: str,
    viewer: str | None = None,
    workers: int | None = None,
    plugins: Sequence[str] = (),
    starting: Callable[[Begun], None] | None = None,
    progress: Callable[[int], None] | None = None,
    guard: Any = None,
) -> str | None:
    """Analyse the decisions of ``study``'s game (``viewer``'s alone, when
    given) that its analysis by ``spec`` and ``seed`` has not judged yet,
    writing each batch's judgements into the study as it finishes. Returns
    the analysis's id (None until a first judgement is written)."""
    from ..many.simulation import Guard, Pool

    searcher_of(study.registry, spec, study.header.game)  # a bad bot is said now, before any work
    known = study.analysis_by(spec, seed)
    todo = decisions(study, viewer)
    done = {seq for (a, seq) in study.judgements if known is not None and a == known.id}
    left = [seq for seq in todo if seq not in done]
    if starting is not None:
        starting(Begun(len(todo), len(todo) - len(left)))
    guard = guard or Guard()
    data = study.source  # the log as the study was checked against it, whatever it has become since
    count = workers or os.cpu_count() or 1
    calls = [(tuple(plugins), str(study.log), data, part, spec, seed) for part in _parts(left, count)]

    def keep(found: list[dict[str, Any]]) -> None:
        study.judge(spec, seed, found)
        if progress is not None:
            progress(len(found))
        guard.check()

    if count == 1 or len(calls) <= 1:
        for call in calls:
            # Nothing is written while a batch is searched: a signal stops it at once.
            with guard.waiting():
                found = judge_batch(*call)
            keep(found)
    else:
        pool = Pool(min(count, len(calls)))
        try:
            for found in pool.ordered(judge_batch, calls, guard):
                keep(found)
        finally:
            pool.stop()
    made = study.analysis_by(spec, seed)
    return made.id if made is not None else None


def kept(study: Study, spec: str, seed: str, viewer: str | None = None) -> int:
    """How many of the decisions to analyse (``viewer``'s) the analysis by ``spec`` and ``seed`` has judged."""
    known = study.analysis_by(spec, seed)
    if known is None:
        return 0
    return sum((known.id, seq) in study.judgements for seq in decisions(study, viewer))


def _parts(seqs: list[int], workers: int) -> list[list[int]]:
    if not seqs:
        return []
    size = max(1, math.ceil(len(seqs) / (workers * BATCHES_PER_WORKER)))
    return [seqs[i : i + size] for i in range(0, len(seqs), size)]


# -- what is shown ------------------------------------------------------------------
def summary(judgements: Sequence[Judgement], players: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per player: the decisions judged, the average drop in winning chance, and how many of each mark."""
    found: dict[str, dict[str, Any]] = {}
    for player in players:
        mine = [j for j in judgements if j.player == player]
        drops = [j.drop for j in mine if j.drop is not None]
        counts = {mark: sum(j.mark == mark for j in mine) for mark in JUDGED}
        found[player] = {
            "decisions": len(mine),
            "average_drop": round(sum(drops) / len(drops), 4) if drops else None,
            **{_plural(mark): count for mark, count in counts.items()},
        }
    return found


def _counted(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else _plural(word)}"


def _plural(mark: str) -> str:
    return {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders", "decision": "decisions"}[mark]


def report(study: Study, analysis: str, viewer: str | None) -> dict[str, Any]:
    """The analysis as data (``tabletop analyse --json``), as ``viewer`` may see it."""
    from .study import THRESHOLDS

    ran = study.analyses[analysis]
    judgements = study.judgements_of(analysis, viewer)
    players = [p for p in study.header.players if sees(viewer, p)]
    return {
        "file": str(study.log),
        "study": str(study.path),
        "bot": ran.bot,
        "seed": ran.seed,
        "as": viewer,
        "thresholds": {mark: value for mark, value in reversed(THRESHOLDS)},
        "decisions": [decision_json(study, j) for j in judgements],
        "summary": summary(judgements, players),
    }


def decision_json(study: Study, judgement: Judgement) -> dict[str, Any]:
    game = study.game
    played = study.events[judgement.at.seq - 1]
    return {
        "seq": judgement.at.seq,
        "player": judgement.player,
        "played": game.notate(played),
        "before": judgement.before,
        "after": judgement.after,
        "drop": None if judgement.drop is None else round(judgement.drop, 4),
        "mark": judgement.mark,
        "best": None if judgement.best is None else game.notate(judgement.best),
    }


def text(study: Study, analysis: str, viewer: str | None) -> list[str]:
    """The analysis in words: each marked decision, then a summary per player."""
    data = report(study, analysis, viewer)
    seen_words = f" as {viewer} saw it" if viewer else ""
    lines = [f"{study.log.name}{seen_words}: analysed by {data['bot']} (seed {data['seed']}), from each mover's view."]
    marked = [d for d in data["decisions"] if d["mark"] is not None]
    for d in marked:
        prefer = f"; the bot prefers {d['best']}" if d["best"] is not None and d["best"] != d["played"] else ""
        lines.append(
            f"  {d['seq']:>4}. {d['player']} {d['played']}: {d['mark']}, "
            f"winning chance {d['before']:.2f} to {d['after']:.2f}{prefer}"
        )
    if not marked:
        lines.append("  No decision lost 0.05 of its mover's winning chance or more.")
    lines.append("Summary:")
    for player, s in data["summary"].items():
        average = "-" if s["average_drop"] is None else f"{s['average_drop']:.3f}"
        counts = ", ".join(_counted(s[_plural(mark)], mark) for mark in JUDGED)
        lines.append(f"  {player}: {_counted(s['decisions'], 'decision')}, average drop {average}; {counts}")
    return lines
