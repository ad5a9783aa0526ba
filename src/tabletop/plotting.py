"""Pictures of many games: win rate per seat with its 95% interval, and the
score distribution of each seat. Drawn with matplotlib (the ``plot`` extra)
on its Agg backend, which needs no display."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from . import files
from .errors import UsageError
from .intervals import wilson
from .stats import Group


def plot(groups: Sequence[Group], path: Path, title: str = "") -> Path:
    """Draw ``groups`` side by side into ``path`` (its suffix picks the
    format: .svg, .png, .pdf) and return the path."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'tabletop[plot]'") from None
    if not groups:
        raise UsageError("--plot: no finished games to draw")
    seats = max(g.players for g in groups)
    fig, (rates, scores) = plt.subplots(1, 2, figsize=(11, 4.5))
    width = 0.8 / len(groups)
    for k, group in enumerate(groups):
        xs, ys, low, high = [], [], [], []
        for i, tally in enumerate(group.seats):
            if not tally.games:
                continue
            p = tally.wins / tally.games
            lo, hi = wilson(tally.wins, tally.games)
            xs.append(i + 1 + (k - (len(groups) - 1) / 2) * width)
            ys.append(p)
            low.append(max(0.0, p - lo))
            high.append(max(0.0, hi - p))
        rates.bar(xs, ys, width=width * 0.9, yerr=[low, high], capsize=4, label=_label(group, groups))
    rates.set_xticks(range(1, seats + 1))
    rates.set_xlabel("seat")
    rates.set_ylabel("win rate (shared victories count for each)")
    rates.set_ylim(0, 1)
    rates.axhline(1 / seats, color="grey", linewidth=0.8, linestyle=":")
    rates.set_title("win rate per seat, 95% interval")
    rates.legend(fontsize="small")
    styles = ["-", "--", ":", "-."]
    for k, group in enumerate(groups):
        for i, tally in enumerate(group.seats):
            if not tally.games:
                continue
            points = sorted(tally.scores.items())
            total = sum(tally.scores.values())
            scores.step(
                [s for s, _ in points],
                [c / total for _, c in points],
                where="mid",
                linestyle=styles[k % len(styles)],
                label=f"seat {i + 1}" + (f", {_label(group, groups)}" if len(groups) > 1 else ""),
            )
    scores.set_xlabel("score")
    scores.set_ylabel("share of games")
    scores.set_title("score distribution per seat")
    scores.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    picture = io.BytesIO()
    try:
        fig.savefig(picture, format=Path(path).suffix.lstrip(".").lower() or None)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot write the plot: {exc}", where=str(path)) from None
    finally:
        plt.close(fig)
    # Written whole, and into a device or FIFO rather than over it.
    files.replace(Path(path), picture.getvalue())
    return path


def _label(group: Group, groups: Sequence[Group]) -> str:
    if len(groups) == 1:
        return f"{group.finished} games"
    return ", ".join(group.variants) or "official rules"
