"""Glyph Chess replay and self-play speed, interleaved round by round with
python-chess reading PGN on the same machine.

    python bench/glyph_speed.py [--rounds 5] [--logs 100] [--chess-games 100] [--seconds 3]

Each round: python-chess reads CHESS_GAMES random games from PGN (plies/s),
tabletop replays LOGS self-played 2-player Glyph Chess logs, every event
validated (events/s), and self-plays 2-player games with random bots for
SECONDS (games/s). Printed: each round, then min/median/max of the ratio of
the replay rate to python-chess's rate and of the self-play rate, with
python-chess's own rounds beside them so the machine's speed can be read off.

Rates are per second of this process's CPU time (``time.process_time``), so
that other work on a shared machine does not count against either side.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import chess
import chess.pgn

from tabletop import Registry, get_plugin_manager
from tabletop.log.logfile import create
from tabletop.play.engine import Replay
from tabletop.play.live import selfplay

GAME = "glyph-chess"
NAMES = ["p1", "p2"]


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


def chess_rate(texts: list[str]) -> float:
    stream = io.StringIO("\n\n".join(texts))
    plies = 0
    start = time.process_time()
    while (game := chess.pgn.read_game(stream)) is not None:
        plies += game.end().ply()
    return plies / (time.process_time() - start)


def write_logs(registry: Registry, count: int, folder: Path) -> list[Path]:
    bots = [registry.bot("random", GAME)] * len(NAMES)
    paths = []
    for i in range(count):
        header, _, played = selfplay(registry, GAME, NAMES, bots, f"bench-{i}")
        path = folder / f"{i:05d}.jsonl"
        create(path, registry.codec.log(header, played))
        paths.append(path)
    return paths


def replay_rate(registry: Registry, logs: list[Path]) -> float:
    events = 0
    start = time.process_time()
    for log in logs:
        events += Replay(registry, log).run().seq
    return events / (time.process_time() - start)


def selfplay_rate(registry: Registry, seconds: float, round_: int) -> float:
    bots = [registry.bot("random", GAME)] * len(NAMES)
    played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        selfplay(registry, GAME, NAMES, bots, f"speed-{round_}-{played}")
        played += 1
    return played / (time.process_time() - start)


def spread(values: list[float], fmt: str) -> str:
    return " / ".join(format(v, fmt) for v in (min(values), statistics.median(values), max(values)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--logs", type=int, default=100, help="self-played logs replayed each round")
    parser.add_argument("--chess-games", type=int, default=100, help="random chess games read each round")
    parser.add_argument("--seconds", type=float, default=3.0, help="self-play time each round")
    args = parser.parse_args()
    registry = Registry(get_plugin_manager(environment=False))
    texts = random_pgns(args.chess_games)
    pgn, replay, ratio, play = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="tabletop-glyph-bench-") as tmp:
        logs = write_logs(registry, args.logs, Path(tmp))
        for r in range(args.rounds):
            pgn.append(chess_rate(texts))
            replay.append(replay_rate(registry, logs))
            ratio.append(replay[-1] / pgn[-1])
            play.append(selfplay_rate(registry, args.seconds, r))
            print(
                f"round {r + 1}: python-chess {pgn[-1]:,.0f} plies/s; glyph replay {replay[-1]:,.0f} events/s "
                f"({ratio[-1]:.2f}x); self-play {play[-1]:.1f} games/s",
                file=sys.stderr,
                flush=True,
            )
    print(f"python-chess PGN plies/s (min/median/max): {spread(pgn, ',.0f')}")
    print(f"Glyph Chess replay events/s: {spread(replay, ',.0f')}")
    print(f"Glyph Chess replay / python-chess: {spread(ratio, '.2f')}x")
    print(f"Glyph Chess self-play, 2 players, random bots: {spread(play, '.1f')} games/s")


if __name__ == "__main__":
    main()
