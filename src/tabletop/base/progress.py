"""A progress bar for long runs, on a terminal's stderr.

A resumed run starts where its file left off (4,000 of 10,000 games), and
its time left is reckoned from the games this run has played in the time
it has taken, never from the games it found done: until a batch has been
played it says no time at all rather than a made-up one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO

import click

#: Seconds between two redraws.
EVERY = 0.5
WIDTH = 30


class Progress:
    """``start(kept)`` once, then ``update(games)`` per batch; ``close()`` at the end."""

    def __init__(self, total: int, label: str, out: IO[str], clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.label = label
        self.out = out
        self.clock = clock
        self.shown = out.isatty()
        self.kept = 0
        self.played = 0
        self.began = clock()
        self._drawn = -EVERY
        self._width = 0

    def start(self, kept: int) -> None:
        """The games already done when the run began."""
        self.kept = kept
        self.began = self.clock()
        self._draw(force=True)

    def resuming(self, where: str) -> Callable[[int], None]:
        """What a run calls once it knows the games its files (``where``)
        hold: it says how many on stderr, and the bar starts there."""

        def starting(kept: int) -> None:
            if kept:
                click.echo(f"resuming: {kept:,} of {self.total:,} games already in {where}", err=True)
            self.start(kept)

        return starting

    def update(self, games: int) -> None:
        self.played += games
        self._draw()

    def eta(self) -> float | None:
        """Seconds left at this run's own pace; None before it has played a game."""
        if not self.played:
            return None
        pace = (self.clock() - self.began) / self.played
        return pace * max(0, self.total - self.kept - self.played)

    def line(self) -> str:
        done = min(self.total, self.kept + self.played)
        share = done / self.total if self.total else 1.0
        filled = round(share * WIDTH)
        text = f"{self.label}  [{'#' * filled}{'-' * (WIDTH - filled)}]  {share:4.0%}  {done:,}/{self.total:,}"
        left = self.eta()
        if left is not None and done < self.total:
            whole = int(left + 0.5)
            text += f"  eta {whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
        return text

    def _draw(self, force: bool = False) -> None:
        if not self.shown:
            return
        now = self.clock()
        if not force and now - self._drawn < EVERY and self.kept + self.played < self.total:
            return
        self._drawn = now
        text = self.line()
        self.out.write("\r" + text.ljust(self._width))
        self.out.flush()
        self._width = len(text)

    def close(self) -> None:
        if self.shown and self._width:
            self.out.write("\n")
            self.out.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
