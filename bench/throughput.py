"""Replay and self-play speed, measured against python-chess on the same machine.

    python bench/throughput.py [--games 1000] [--chess-games 300] [--game glux]

In one run it:
1. self-plays GAMES 4-player games of each game (random bots) into a temporary
   folder of logs;
2. replays that folder, every event validated: events per second;
3. has python-chess read PGN of CHESS_GAMES random games: plies per second;
4. prints the ratio of the two, self-play games per second (no files
   written) and the peak memory of the process.

Figures are for one core (the benchmark runs in one process). The results are
reported in docs/performance.md.
"""

from __future__ import annotations

import argparse
import io
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

import chess
import chess.pgn

from tabletop import Registry, get_plugin_manager
from tabletop.engine import Replay
from tabletop.live import selfplay
from tabletop.logfile import create

PLAYERS = {"glux": 4, "glyph-chess": 2}


def progress(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


def write_logs(registry: Registry, game: str, count: int, folder: Path) -> int:
    names = [f"p{i}" for i in range(1, PLAYERS.get(game, 2) + 1)]
    bots = [registry.bot("random", game)] * len(names)
    events = 0
    for i in range(count):
        header, _, played = selfplay(registry, game, names, bots, f"bench-{i}")
        lines = registry.codec.log(header, played)
        create(folder / f"{game}-{i:05d}.jsonl", lines)
        events += len(played)
        if (i + 1) % 250 == 0:
            progress(f"{game}: wrote {i + 1}/{count} logs")
    return events


def replay_rate(registry: Registry, folder: Path) -> tuple[float, int]:
    logs = sorted(folder.glob("*.jsonl"))
    start = time.perf_counter()
    events = 0
    for log in logs:
        events += Replay(registry, log).run().seq
    return events / (time.perf_counter() - start), events


def selfplay_rate(registry: Registry, game: str, seconds: float = 5.0) -> float:
    names = [f"p{i}" for i in range(1, PLAYERS.get(game, 2) + 1)]
    bots = [registry.bot("random", game)] * len(names)
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        selfplay(registry, game, names, bots, f"speed-{played}")
        played += 1
    return played / (time.perf_counter() - start)


def random_pgns(count: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for i in range(count):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 200:
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"random {i}"
        texts.append(str(game))
    return texts


def chess_rate(texts: list[str]) -> tuple[float, int]:
    stream = io.StringIO("\n\n".join(texts))
    plies = 0
    start = time.perf_counter()
    while (game := chess.pgn.read_game(stream)) is not None:
        plies += game.end().ply()
    return plies / (time.perf_counter() - start), plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="self-played logs to replay per game (default 1000)")
    parser.add_argument(
        "--chess-games", type=int, default=300, help="random chess games for python-chess (default 300)"
    )
    parser.add_argument("--game", action="append", help="only this game (repeatable; default every built-in game)")
    args = parser.parse_args()
    registry = Registry(get_plugin_manager(environment=False))
    games = args.game or [g for g in PLAYERS if g in registry.games]

    progress(f"python-chess: {args.chess_games} random games to PGN")
    texts = random_pgns(args.chess_games)
    pgn_rate, plies = chess_rate(texts)
    print(f"python-chess PGN read: {pgn_rate:,.0f} plies/s ({plies:,} plies, {args.chess_games} games)")

    for game in games:
        with tempfile.TemporaryDirectory(prefix=f"tabletop-bench-{game}-") as tmp:
            folder = Path(tmp)
            progress(f"{game}: self-playing {args.games} logs into {folder}")
            write_logs(registry, game, args.games, folder)
            progress(f"{game}: replaying")
            rate, events = replay_rate(registry, folder)
        print(
            f"{game} replay: {rate:,.0f} events/s ({events:,} events, {args.games} logs); "
            f"{rate / pgn_rate:.2f}x python-chess PGN plies/s"
        )
        progress(f"{game}: self-play for 5 s")
        print(
            f"{game} self-play: {selfplay_rate(registry, game):,.1f} games/s ({PLAYERS[game]} players, random bots, no files)"
        )

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
