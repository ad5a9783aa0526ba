"""Pictures of many games that a designer can read: win rates with their 95%
intervals on an axis zoomed around the fair share, the paired difference a
comparison measured (with its interval and the zero line), and score
histograms on the same integer bins for every series. Drawn with matplotlib
(the ``plot`` extra) on its Agg backend, which needs no display.

The data behind each panel comes from plain functions (:func:`rate_bars`,
:func:`zoomed`, :func:`histograms`), which the tests check."""

from __future__ import annotations

import io
import math
import os
import stat
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..base.errors import UsageError
from ..log import files
from .intervals import wilson
from .stats import Group, Tally

if TYPE_CHECKING:
    from .balance import Report
    from .paired import Paired


@attrs.frozen
class Bar:
    """One win rate: what it is of (``seat 1``, ``greedy``, ``1st``), and its interval."""

    label: str
    wins: int
    games: int
    rate: float
    low: float
    high: float


def rate_bars(group: Group) -> list[Bar]:
    """The win rates a group's picture shows, by what its ``--by`` names:
    seats, bots, start player or place in turn order."""
    if group.by == ("seat",):
        items: list[tuple[str, Tally]] = [(f"seat {i + 1}", t) for i, t in enumerate(group.seats)]
    elif group.by == ("bot",):
        items = sorted(group.by_bot.items())
    else:
        items = [(" ".join(key), t) for key, t in group.crossed_rows()]
    bars = []
    for label, tally in items:
        if tally.games:
            low, high = wilson(tally.wins, tally.games)
            bars.append(Bar(label, tally.wins, tally.games, tally.wins / tally.games, low, high))
    return bars


def fair_share(group: Group) -> float:
    """The win rate of a seat when no seat is favoured: the winners per game
    shared among the seats. A shared victory counts for each winner, so the
    more games are shared, the higher every seat's fair rate (1/players
    only when none is)."""
    if not group.finished:
        return 1 / group.players
    return sum(t.wins for t in group.seats) / (group.finished * group.players)
    return 1 / group.players


def zoomed(bars: Sequence[Bar], fair: float, least: float = 0.04) -> tuple[float, float]:
    """An axis around ``fair`` that holds every interval with a margin, at
    least ``least`` each side: effects of a point or two stay visible."""
    reach = max([least] + [max(abs(b.high - fair), abs(fair - b.low)) for b in bars])
    reach *= 1.15
    return max(0.0, fair - reach), min(1.0, fair + reach)


def histograms(series: Sequence[Counter[int]]) -> tuple[list[int], list[list[float]]]:
    """Scores (whole numbers) of several series on the same bins, from the
    lowest score of all to the highest, one bin per score a game can give
    (every other score when all are even); each series as shares of its
    scores."""
    scores = sorted({s for c in series for s in c})
    if not scores:
        return [], [[] for _ in series]
    step = 0
    for score in scores:
        step = math.gcd(step, score - scores[0])
    bins = list(range(scores[0], scores[-1] + 1, step or 1))
    shares = []
    for counts in series:
        total = sum(counts.values()) or 1
        shares.append([counts.get(b, 0) / total for b in bins])
    return bins, shares


def pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'tabletop[plot]'") from None
    return plt


def check_target(path: Path) -> None:
    """Refuse now, before a game is played or a log read, a picture that
    could not be drawn or written later: no matplotlib, a format it does not
    draw (told by the suffix, as when drawing), a folder that is missing or
    cannot be written, something in the way that is neither a file, a
    device nor a FIFO."""
    plt = pyplot()
    path = Path(path)
    suffix = path.suffix.lstrip(".").lower()
    if suffix:
        formats = plt.figure().canvas.get_supported_filetypes()
        plt.close("all")
        if suffix not in formats:
            known = ", ".join(f".{f}" for f in sorted(formats))
            raise UsageError(f"--plot: cannot draw '.{suffix}' pictures (formats: {known})", where=str(path))
    if os.path.islink(path):
        path = Path(os.path.realpath(path))
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"no such folder: {directory}", where=str(path))
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise UsageError(f"cannot write: {files.reason(exc)}", where=str(path)) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise UsageError("cannot write: a folder", where=str(path))
    if info is not None and not stat.S_ISREG(info.st_mode):
        if not (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            raise UsageError("cannot write: not a regular file, a device or a FIFO", where=str(path))
        return  # written into when the picture is drawn, as a shell's '>' would
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise UsageError(f"cannot write: {files.reason(exc)}", where=str(path)) from None
    os.close(fd)
    os.unlink(tmp)


def _label(group: Group, groups: Sequence[Group]) -> str:
    if len(groups) == 1:
        return f"{group.finished:,} games"
    parts = [", ".join(group.variants) or "official rules"]
    if len({g.lineup for g in groups}) > 1 and group.lineup:
        parts.append(group.bots_label)
    return "; ".join(parts)


def title_of(groups: Sequence[Group]) -> str:
    """Game, players, bots, variants and games of the groups drawn."""
    games = sorted({g.game for g in groups})
    players = sorted({g.players for g in groups})
    bots = sorted({g.bots_label for g in groups if g.lineup}) or (
        [", ".join(sorted({b for g in groups for b in g.by_bot}))] if any(g.by_bot for g in groups) else []
    )
    variants = sorted({", ".join(g.variants) or "official rules" for g in groups})
    count = sum(g.finished for g in groups)
    parts = [", ".join(games), "/".join(map(str, players)) + " players"]
    if bots:
        parts.append("bots " + " / ".join(bots))
    parts.append(" / ".join(variants))
    parts.append(f"{count:,} games")
    return ", ".join(parts)


def plot(
    groups: Sequence[Group],
    path: Path,
    title: str = "",
    paired: Paired | None = None,
    paired_name: str = "",
) -> Path:
    """Draw ``groups`` into ``path`` (its suffix picks the format: .svg, .png,
    .pdf): win rates, the paired difference when there is one, scores."""
    plt = pyplot()
    groups = [g for g in groups if g.finished]
    if not groups:
        raise UsageError("--plot: no finished games to draw")
    panels = 3 if paired is not None else 2
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 4.8))
    _rates_panel(axes[0], groups)
    if paired is not None:
        _paired_panel(axes[1], paired, paired_name)
    _scores_panel(axes[-1], groups)
    fig.suptitle(title or title_of(groups))
    fig.tight_layout()
    return save_figure(plt, fig, path)


def _rates_panel(rates: Any, groups: list[Group]) -> None:
    """Win rates, zoomed around the fair share."""
    from matplotlib.ticker import PercentFormatter

    all_bars = [rate_bars(g) for g in groups]
    labels = list(dict.fromkeys(b.label for bars in all_bars for b in bars))
    width = 0.8 / len(groups)
    fairs = [fair_share(g) for g in groups]
    fair = sum(fairs) / len(fairs)
    for k, (group, bars) in enumerate(zip(groups, all_bars)):
        xs = [labels.index(b.label) + (k - (len(groups) - 1) / 2) * width for b in bars]
        rates.errorbar(
            xs,
            [b.rate for b in bars],
            yerr=[[b.rate - b.low for b in bars], [b.high - b.rate for b in bars]],
            fmt="o",
            capsize=4,
            label=_label(group, groups),
        )
    rates.set_xticks(range(len(labels)))
    rates.set_xticklabels(labels, rotation=30 if len(labels) > 4 else 0)
    rates.set_xlim(-0.6, len(labels) - 0.4)
    lines = [Bar("", 0, 0, f, f, f) for f in fairs]
    rates.set_ylim(*zoomed([b for bars in all_bars for b in bars] + lines, fair))
    rates.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    if max(fairs) - min(fairs) < 0.0005:
        rates.axhline(fair, color="grey", linewidth=0.8, linestyle=":", label=f"fair share {fair:.1%}")
    else:
        # Rule sets that share victories more often have a higher fair share each.
        for k, (group, share) in enumerate(zip(groups, fairs)):
            rates.axhline(
                share,
                color=f"C{k}",
                linewidth=0.8,
                linestyle=":",
                label=f"fair share {share:.1%} ({_label(group, groups)})",
            )
    rates.set_ylabel("win rate (a shared victory counts for each)")
    rates.set_title("win rate, 95% interval")
    rates.legend(fontsize="small")


def _paired_panel(diff: Any, paired: Paired, paired_name: str) -> None:
    """Each seat's paired difference in win rate, with its interval."""
    from matplotlib.ticker import PercentFormatter

    seats = paired.seats()
    xs = list(range(1, len(seats) + 1))
    ys = [e["difference"] for e in seats]
    diff.errorbar(
        xs,
        ys,
        yerr=[[y - e["ci95"][0] for y, e in zip(ys, seats)], [e["ci95"][1] - y for y, e in zip(ys, seats)]],
        fmt="o",
        capsize=4,
        color="C3",
    )
    diff.axhline(0, color="grey", linewidth=0.8)
    reach = max([0.02] + [max(abs(e["ci95"][0]), abs(e["ci95"][1])) for e in seats]) * 1.2
    diff.set_ylim(-reach, reach)
    diff.set_xlim(0.5, len(xs) + 0.5)
    diff.set_xticks(xs)
    diff.set_xticklabels([paired.label(x) for x in xs])
    diff.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    diff.set_ylabel("change in win rate (percentage points)")
    diff.set_title(f"with minus without {paired_name}\n(paired by seed, 95% interval)", fontsize="medium")


def _scores_panel(scores: Any, groups: list[Group]) -> None:
    """Scores: one series per group, on the same integer bins."""
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    series = [Counter() for _ in groups]
    for counts, group in zip(series, groups):
        for tally in group.seats:
            counts.update(tally.scores)
    bins, shares = histograms(series)
    step = bins[1] - bins[0] if len(bins) > 1 else 1
    width = 0.85 * step / len(groups)
    for k, (group, share) in enumerate(zip(groups, shares)):
        xs = [b + (k - (len(groups) - 1) / 2) * width for b in bins]
        scores.bar(xs, share, width=width, alpha=0.85, label=_label(group, groups))
    scores.xaxis.set_major_locator(MaxNLocator(integer=True))
    scores.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    scores.set_xlabel("score (every seat)")
    scores.set_ylabel("share of scores")
    scores.set_title("scores")
    scores.legend(fontsize="small")


def plot_sweep(report: Report, path: Path) -> Path:
    """Each seat's win rate (with its interval) at each value of a sweep."""
    plt = pyplot()
    from matplotlib.ticker import PercentFormatter

    rows = report.sweep_rows()
    fig, ax = plt.subplots(figsize=(7, 4.8))
    values = [r["value"] for r in rows]
    seats = len(rows[0]["seats"])
    for seat in range(seats):
        ys = [r["seats"][seat]["win_rate"] for r in rows]
        lows = [y - r["seats"][seat]["ci95"][0] for y, r in zip(ys, rows)]
        highs = [r["seats"][seat]["ci95"][1] - y for y, r in zip(ys, rows)]
        shift = (seat - (seats - 1) / 2) * 0.06
        ax.errorbar(
            [i + shift for i in range(len(values))],
            ys,
            yerr=[lows, highs],
            fmt="o-",
            capsize=3,
            label=f"seat {seat + 1}",
        )
    # The fair share at each value: its winners per game shared among the seats.
    fairs = [sum(s["win_rate"] or 0 for s in r["seats"]) / seats for r in rows]
    fair = sum(fairs) / len(fairs)
    bars = [Bar("", 0, 0, s["win_rate"], s["ci95"][0], s["ci95"][1]) for r in rows for s in r["seats"]]
    ax.set_ylim(*zoomed(bars + [Bar("", 0, 0, f, f, f) for f in fairs], fair))
    ax.plot(range(len(values)), fairs, color="grey", linewidth=0.8, linestyle=":", label="fair share")
    ax.set_xticks(range(len(values)))
    ax.set_xticklabels(values)
    ax.set_xlabel(report.sweep.split(":", 1)[1].split("=")[0] if report.sweep else "value")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("win rate, 95% interval")
    ax.legend(fontsize="small")
    fig.suptitle(report.title())
    fig.tight_layout()
    return save_figure(plt, fig, path)


def plot_report(report: Report, path: Path) -> Path:
    """The picture of a ``simulate`` run: a sweep's curve, else :func:`plot`."""
    if report.sweep:
        return plot_sweep(report, path)
    paired = report.done.paired
    name = report.changed() if paired is not None else ""
    return plot(report.groups, path, report.title(), paired, name)


def plot_ratings(rated: Sequence[dict[str, Any]], title: str, path: Path) -> Path:
    """A tournament's ratings: each bot's OpenSkill mu with ±3 sigma, best on top."""
    plt = pyplot()
    names = [r["bot"] for r in rated][::-1]
    mus = [r["mu"] for r in rated][::-1]
    spans = [3 * r["sigma"] for r in rated][::-1]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.6 * len(names)))
    ax.errorbar(mus, range(len(names)), xerr=spans, fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("OpenSkill mu, with ±3 sigma")
    ax.set_title(title)
    fig.tight_layout()
    return save_figure(plt, fig, path)


def save_figure(plt: Any, fig: Any, path: Path) -> Path:
    picture = io.BytesIO()
    try:
        fig.savefig(picture, format=Path(path).suffix.lstrip(".").lower() or None, dpi=110)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot write the plot: {exc}", where=str(path)) from None
    finally:
        plt.close(fig)
    # Written whole, and into a device or FIFO rather than over it.
    files.replace(Path(path), picture.getvalue())
    return path
