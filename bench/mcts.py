"""The MCTS bot against the greedy bot: win rate with a 95% interval.

Each game seats MCTS in one seat (seat i mod N for game i) and the game's
greedy bot in the others; the seed of game i is ``mcts-bench-i``.

    .venv/bin/python bench/mcts.py glux 2 --games 200
    .venv/bin/python bench/mcts.py glyph-chess 2 --games 200 --bot mcts:iterations=400
    .venv/bin/python bench/mcts.py glyph-chess 3 --games 200 --workers 2

Games are independent and seeded by number, so ``--workers`` (processes
playing at once) and ``--first`` (split a long run) give the same games.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time

import tabletop
from tabletop.api import bot_named
from tabletop.many.intervals import wilson
from tabletop.play.live import selfplay


def _play(job: tuple[str, int, str, str, int]) -> tuple[int, list[str], int, float]:
    """Game ``i``: (i, winners, events, seconds)."""
    game, players, bot, against, i = job
    registry = tabletop.api.registry()
    searcher = bot_named(registry, bot, game)
    other = bot_named(registry, against, game)
    names = [f"p{k}" for k in range(1, players + 1)]
    bots = [other] * players
    bots[i % players] = searcher
    started = time.perf_counter()
    _, match, played = selfplay(registry, game, names, bots, f"mcts-bench-{i}")
    return i, list(match.game.outcome(match.state).winners), len(played), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the number of the first game (its seed)")
    parser.add_argument("--bot", default="mcts", help="the searching bot (NAME or NAME:key=value,...)")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games at once")
    args = parser.parse_args()
    players = [f"p{i}" for i in range(1, args.players + 1)]
    wins = 0
    full = 0
    by_seat = [[0, 0] for _ in players]
    events = 0
    seconds = 0.0
    jobs = [(args.game, args.players, args.bot, args.against, i) for i in range(args.first, args.first + args.games)]
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for done, (i, winners, played, spent) in enumerate(pool.imap_unordered(_play, jobs), start=1):
            seat = i % args.players
            won = players[seat] in winners
            full += won and len(winners) == 1
            wins += won
            by_seat[seat][0] += won
            by_seat[seat][1] += 1
            events += played
            seconds += spent
            print(
                f"  game {i}: {'won' if won else 'lost'} in seat {seat + 1}, {played} events, {spent:.1f} s"
                f"  [{done}/{args.games}: {wins} won]",
                file=sys.stderr,
                flush=True,
            )
    elapsed = time.perf_counter() - started
    low, high = wilson(wins, args.games)
    print(
        f"{args.game}, {args.players} players: {args.bot} vs {args.against}, {args.games} games"
        f" (seeds mcts-bench-{args.first}..{args.first + args.games - 1})"
    )
    print(f"  {args.bot} wins {wins} ({wins / args.games:.1%}, 95% CI {low:.1%}-{high:.1%}); alone {full}")
    for seat, (w, n) in enumerate(by_seat, start=1):
        lo, hi = wilson(w, n)
        print(f"  in seat {seat}: {w}/{n} ({w / n:.1%}, {lo:.1%}-{hi:.1%})")
    print(
        f"  {seconds / args.games:.2f} s per game in a worker, {elapsed:.0f} s in all with {args.workers}"
        f" worker(s), {events / args.games:.0f} events per game"
    )


if __name__ == "__main__":
    main()
