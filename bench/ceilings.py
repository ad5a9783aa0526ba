"""What one part of self-play costs, and how fast self-play could be without it.

    python bench/ceilings.py [--rounds 5] [--games 25]

A part that does the same work again when called twice (a pure function of
the position) is measured by doing it twice over: the games slow by its
cost once more, so its share of a game is read off (doubled - plain) /
plain, and the speed self-play would reach if the part cost nothing is the
plain rate divided by (1 - share). Each round plays its seeds once
untimed (so that the ways to pay and other tables they meet are made
before either side is timed: a long run's speed, not a fresh process's),
then plain and doubled, in turn first, then python-chess's random games
(``throughput.py``'s yardstick), all in this process's CPU time; printed
are min / median / max over the rounds.

Parts:
- ``glyph-listing``: Glyph Chess's listing of every piece's slots
  (``actions.legal``, on a context of its own so that nothing it works out
  is reused by the listing the bot draws from);
- ``glyph-chance`` and ``glux-chance``: the chance numbers
  (``chance.numbers``, HMAC-SHA256 of the seed), fixed by the logs' format.

The self-played games are the same either way: the part's answers are thrown
away the second time (a test of this script would be a timed test; it is run
by hand, as the other benches are).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import throughput  # noqa: E402  (the yardstick: python-chess's random games)

from tabletop import Registry, get_plugin_manager  # noqa: E402
from tabletop.play import chance  # noqa: E402

PLAYERS = {"glux": ["p1", "p2", "p3", "p4"], "glyph-chess": ["p1", "p2"]}


@contextmanager
def listing_twice() -> Iterator[None]:
    """Glyph Chess lists every piece's slots twice for each decision."""
    from tabletop_glyph_chess import actions

    legal = actions.legal

    def twice(game, state, seat):  # type: ignore[no-untyped-def]
        kept = getattr(state, "listed", None)
        if kept is not None:
            state.listed = None  # a context of its own: nothing is shared with the real listing
        legal(game, state, seat)
        if kept is not None:
            state.listed = kept
        return legal(game, state, seat)

    actions.legal = twice
    try:
        yield
    finally:
        actions.legal = legal


@contextmanager
def numbers_twice() -> Iterator[None]:
    """Every chance number is worked out twice."""
    numbers = chance.numbers

    def twice(seed: str) -> Callable[[int], int]:
        number = numbers(seed)

        def number_of(seq: int) -> int:
            number(seq)
            return number(seq)

        return number_of

    chance.numbers = twice
    try:
        yield
    finally:
        chance.numbers = numbers


PARTS: dict[str, tuple[str, Callable[[], Any]]] = {
    "glyph-listing": ("glyph-chess", listing_twice),
    "glyph-chance": ("glyph-chess", numbers_twice),
    "glux-chance": ("glux", numbers_twice),
}


def rate(play: Callable[[str], object], seeds: list[str]) -> float:
    start = time.process_time()
    for seed in seeds:
        play(seed)
    return len(seeds) / (time.process_time() - start)


def chess_rate(seconds: float, start: int) -> float:
    """python-chess's random games per second of CPU, for about ``seconds``."""
    rng = random.Random(start)
    played = 0
    begin = time.process_time()
    while (spent := time.process_time() - begin) < seconds or not played:
        throughput.random_chess_game(rng)
        played += 1
    return played / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of measurements (default 5)")
    parser.add_argument("--games", type=int, default=25, help="games of the part's game each round (default 25)")
    parser.add_argument("--chess-seconds", type=float, default=2.0, help="python-chess each round (default 2 s)")
    parser.add_argument("--part", action="append", choices=sorted(PARTS), help="only this part (repeatable)")
    args = parser.parse_args()
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games must be at least 1")
    registry = Registry(get_plugin_manager(environment=False))
    for name in args.part or list(PARTS):
        game, twice = PARTS[name]
        players = PLAYERS[game]
        games = args.games * (40 if game == "glux" else 1)  # a Glüx game is some 40 times shorter
        play = throughput.batch(registry, game, players)
        for i in range(3):
            play(f"warm-{i}")
        shares, ceilings, ratios = [], [], []
        for r in range(args.rounds):
            seeds = [f"ceiling-{r}-{i}" for i in range(games)]
            rate(play, seeds)  # the ways to pay and other tables these games meet, made before either is timed
            if r % 2:
                with twice():
                    doubled = rate(play, seeds)
                plain = rate(play, seeds)
            else:
                plain = rate(play, seeds)
                with twice():
                    doubled = rate(play, seeds)
            chess = chess_rate(args.chess_seconds, r)
            share = max(0.0, 1 / doubled - 1 / plain) * plain
            shares.append(100 * share)
            ratios.append(plain / chess)
            ceilings.append(plain / (1 - min(share, 0.99)) / chess)
            print(
                f"{name} round {r + 1}: {plain:,.1f} games/s plain, {doubled:,.1f} doubled, "
                f"python-chess {chess:,.1f} games/s",
                file=sys.stderr,
                flush=True,
            )
        print(f"{name}: share of a {game} game (min / median / max) {throughput.spread(shares)}%")
        print(f"{name}: {game} self-play / python-chess random games, as it is: {throughput.spread(ratios)}x")
        print(f"{name}: the same if the part cost nothing: {throughput.spread(ceilings)}x")


if __name__ == "__main__":
    main()
