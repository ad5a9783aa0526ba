"""The MCTS bot against the greedy bot: win rate with a 95% interval.

Each game seats MCTS in one seat (seat i mod N for game i) and the game's
greedy bot in the others; the seed of game i is ``mcts-bench-i``.

    .venv/bin/python bench/mcts.py glux 2 --games 200
    .venv/bin/python bench/mcts.py glyph-chess 2 --games 200 --bot mcts:iterations=400
"""

from __future__ import annotations

import argparse
import time

import tabletop
from tabletop.api import bot_named
from tabletop.intervals import wilson
from tabletop.live import selfplay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="mcts", help="the searching bot (NAME or NAME:key=value,...)")
    parser.add_argument("--against", default="greedy")
    args = parser.parse_args()
    registry = tabletop.api.registry()
    searcher = bot_named(registry, args.bot, args.game)
    other = bot_named(registry, args.against, args.game)
    players = [f"p{i}" for i in range(1, args.players + 1)]
    wins = 0.0
    full = 0
    by_seat = [[0, 0] for _ in players]
    events = 0
    started = time.perf_counter()
    for i in range(args.games):
        seat = i % args.players
        bots = [other] * args.players
        bots[seat] = searcher
        _, match, played = selfplay(registry, args.game, players, bots, f"mcts-bench-{i}")
        winners = match.game.outcome(match.state).winners
        events += len(played)
        won = players[seat] in winners
        full += won and len(winners) == 1
        wins += won
        by_seat[seat][0] += won
        by_seat[seat][1] += 1
    elapsed = time.perf_counter() - started
    low, high = wilson(int(wins), args.games)
    print(f"{args.game}, {args.players} players: {args.bot} vs {args.against}, {args.games} games")
    print(f"  {args.bot} wins {int(wins)} ({wins / args.games:.1%}, 95% CI {low:.1%}-{high:.1%}); alone {full}")
    for seat, (w, n) in enumerate(by_seat, start=1):
        lo, hi = wilson(w, n)
        print(f"  in seat {seat}: {w}/{n} ({w / n:.1%}, {lo:.1%}-{hi:.1%})")
    print(f"  {elapsed / args.games:.2f} s per game, {events / args.games:.0f} events per game")


if __name__ == "__main__":
    main()
