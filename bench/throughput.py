"""Replay and self-play speed of both games, each as a ratio to a peer measured
in the same process, in the same round.

    python bench/throughput.py [--rounds 5] [--glux-logs 300] [--glyph-logs 40]
                               [--chess-games 150] [--seconds 2] [--game glux]

The machine is shared, so no single figure says much; a ratio to a peer
measured right beside it does. First it self-plays the logs to replay (random
bots: Glüx with four players, Glyph Chess with two) and has python-chess play
random games to PGN. Then, round by round, it measures back to back:

- python-chess reading the PGN (plies/s) and playing random games (games/s);
- ``json.loads`` of every event line of the Glüx logs (lines/s), and the
  same paired with the replay every ten logs (their lines loaded, then the
  logs replayed, both in CPU time: the ratio least moved by a shared
  machine's changes of speed);
- each game's replay of its logs through the public engine (``Replay.run()``,
  every event validated; events/s), from memory like the two peers;
- each game's self-play through the public engine (a ``SelfPlay`` batch, as
  ``tabletop selfplay -n`` and ``simulate`` play, random bots, no files;
  games/s), and the same paired with python-chess's random
  games, some 20 ms of CPU of each in turn (the firmer ratio, as with
  ``json.loads``).

It prints every round, then the min/median/max of each ratio and of each rate,
by wall-clock time and by CPU time of the process. Figures are for one core.
The results are reported in docs/performance.md.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

from tabletop import Registry, get_plugin_manager
from tabletop.play.engine import Replay
from tabletop.play.live import selfplay

try:
    from tabletop.play.live import SelfPlay
except ImportError:  # a tree from before batches (bench/versus.py runs this file's pairing on other commits)
    SelfPlay = None

PLAYERS = {"glux": 4, "glyph-chess": 2}


def progress(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


def timed(work: Callable[[], int]) -> tuple[float, float]:
    """Units per second of ``work()`` (which returns how many it did): by wall
    clock and by the process's CPU time."""
    wall, cpu = time.perf_counter(), time.process_time()
    done = work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return done / wall, done / max(cpu, 1e-9)


# -- the logs to replay ------------------------------------------------------------
def make_logs(registry: Registry, game: str, count: int) -> list[tuple[bytes, int]]:
    """Self-played logs of ``game`` in memory: (the log's bytes, its number of events)."""
    names = [f"p{i}" for i in range(1, PLAYERS[game] + 1)]
    bots = [registry.bot("random", game)] * len(names)
    logs = []
    for i in range(count):
        header, _, played = selfplay(registry, game, names, bots, f"bench-{i}")
        text = "\n".join(registry.codec.log(header, played)) + "\n"
        logs.append((text.encode(), len(played)))
    return logs


def replay(registry: Registry, logs: list[tuple[bytes, int]]) -> int:
    events = 0
    for data, _ in logs:
        events += Replay(registry, Path("bench.jsonl"), io.BytesIO(data)).run().seq
    return events


def json_lines(logs: list[tuple[bytes, int]]) -> list[bytes]:
    """The event lines of the logs (the header lines left out)."""
    return [line for data, _ in logs for line in data.splitlines()[1:]]


def json_loads(lines: list[bytes]) -> int:
    loads = json.loads
    for line in lines:
        loads(line)
    return len(lines)


def paired(registry: Registry, logs: list[tuple[bytes, int]], every: int = 10) -> tuple[float, float]:
    """Replay against ``json.loads`` a few logs at a time: for each ``every``
    logs, ``json.loads`` of their event lines, then their replay, each timed
    in CPU time. Returns (replay events/s, json.loads lines/s) over all the
    logs. Pairing the two every ten logs or so (some ten milliseconds each)
    leaves a shared machine's changes of speed, which last longer, to both
    sides alike; a log at a time would instead have each side start with
    caches the other has just filled."""
    loads = json.loads
    clock = time.process_time
    spent_json = spent_replay = 0.0
    events = lines = 0
    for first in range(0, len(logs), every):
        chunk = logs[first : first + every]
        event_lines = [line for data, _ in chunk for line in data.splitlines()[1:]]
        start = clock()
        for line in event_lines:
            loads(line)
        middle = clock()
        for data, _ in chunk:
            events += Replay(registry, Path("bench.jsonl"), io.BytesIO(data)).run().seq
        spent_json += middle - start
        spent_replay += clock() - middle
        lines += len(event_lines)
    return events / max(spent_replay, 1e-9), lines / max(spent_json, 1e-9)


def batch(registry: Registry, game: str, names: list[str]) -> Callable[[str], object]:
    """The self-play of a seed with random bots: one batch, as ``tabletop
    selfplay -n`` and ``simulate`` play theirs (a game at a time on a tree
    from before batches)."""
    bots = [registry.bot("random", game)] * len(names)
    if SelfPlay is None:
        return lambda seed: selfplay(registry, game, names, bots, seed)
    return SelfPlay(registry, game, names, bots).play


def selfplay_for(registry: Registry, game: str, seconds: float, start: int) -> Callable[[], int]:
    names = [f"p{i}" for i in range(1, PLAYERS[game] + 1)]
    play = batch(registry, game, names)

    def work() -> int:
        played = 0
        until = time.perf_counter() + seconds
        while time.perf_counter() < until or not played:
            play(f"speed-{start}-{played}")
            played += 1
        return played

    return work


def paired_selfplay(registry: Registry, game: str, seconds: float, start: int) -> tuple[float, float]:
    """Self-play against python-chess's random games, a few of each at a
    time for ``seconds`` of CPU in all: each turn plays python-chess games
    for about 20 ms of CPU, then ``game``'s games for about as long, each
    side timed in CPU time. Returns (games/s, python-chess games/s). As with
    ``paired``, a shared machine's changes of speed, which last longer than
    a turn, then fall on both sides alike."""
    names = [f"p{i}" for i in range(1, PLAYERS[game] + 1)]
    play = batch(registry, game, names)
    rng = random.Random(start)
    clock = time.process_time
    spent = spent_chess = 0.0
    played = played_chess = 0
    turn = 0.02
    while spent + spent_chess < seconds:
        begin = clock()
        while (now := clock()) - begin < turn:
            random_chess_game(rng)
            played_chess += 1
        spent_chess += now - begin
        begin = now
        while (now := clock()) - begin < turn:
            play(f"paired-{start}-{played}")
            played += 1
        spent += now - begin
    return played / spent, played_chess / spent_chess


# -- python-chess, the yardstick ---------------------------------------------------
def random_chess_game(rng: random.Random) -> chess.Board:
    board = chess.Board()
    while not board.is_game_over() and board.ply() < 200:
        board.push(rng.choice(list(board.legal_moves)))
    return board


def random_pgns(count: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    texts = []
    for i in range(count):
        game = chess.pgn.Game.from_board(random_chess_game(rng))
        game.headers["Event"] = f"random {i}"
        texts.append(str(game))
    return "\n\n".join(texts)


def chess_read(pgn: str) -> int:
    stream = io.StringIO(pgn)
    plies = 0
    while (game := chess.pgn.read_game(stream)) is not None:
        plies += game.end().ply()
    return plies


def chess_play(seconds: float, start: int) -> Callable[[], int]:
    def work() -> int:
        rng = random.Random(start)
        played = 0
        until = time.perf_counter() + seconds
        while time.perf_counter() < until or not played:
            random_chess_game(rng)
            played += 1
        return played

    return work


# -- reporting --------------------------------------------------------------------
def spread(values: list[float]) -> str:
    """min / median / max."""
    return " / ".join(_num(v) for v in (min(values), statistics.median(values), max(values)))


def _num(value: float) -> str:
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds of measurements (default 5; at least 5 to report)"
    )
    parser.add_argument("--glux-logs", type=int, default=300, help="Glüx logs to replay each round (default 300)")
    parser.add_argument("--glyph-logs", type=int, default=40, help="Glyph Chess logs to replay each round (default 40)")
    parser.add_argument("--chess-games", type=int, default=150, help="random chess games read as PGN (default 150)")
    parser.add_argument("--seconds", type=float, default=2.0, help="each self-play measurement (default 2 s)")
    parser.add_argument("--game", action="append", help="only this game (repeatable; default both)")
    args = parser.parse_args()
    registry = Registry(get_plugin_manager(environment=False))
    games = args.game or [g for g in PLAYERS if g in registry.games]

    progress(f"python-chess: {args.chess_games} random games to PGN")
    pgn = random_pgns(args.chess_games)
    logs = {}
    for game in games:
        count = args.glux_logs if game == "glux" else args.glyph_logs
        progress(f"{game}: self-playing {count} logs to replay")
        logs[game] = make_logs(registry, game, count)
    lines = json_lines(logs["glux"]) if "glux" in logs else []

    # Every measure of every round: name -> [(wall rate, cpu rate), ...].
    rates: dict[str, list[tuple[float, float]]] = {}
    for r in range(args.rounds):
        progress(f"round {r + 1} of {args.rounds}")
        found = {
            "python-chess PGN read (plies/s)": timed(lambda: chess_read(pgn)),
            "python-chess random games (games/s)": timed(chess_play(args.seconds, r)),
        }
        if lines:
            found["json.loads of the Glüx event lines (lines/s)"] = timed(lambda: json_loads(lines))
        if lines:
            pair = paired(registry, logs["glux"])
            found["glux replay, paired with json.loads (events/s)"] = (pair[0], pair[0])
            found["json.loads, paired with the replay (lines/s)"] = (pair[1], pair[1])
        for game in games:
            found[f"{game} replay (events/s)"] = timed(lambda game=game: replay(registry, logs[game]))
            found[f"{game} self-play (games/s)"] = timed(selfplay_for(registry, game, args.seconds, r))
            pair = paired_selfplay(registry, game, 2 * args.seconds, r)
            found[f"{game} self-play, paired with python-chess (games/s)"] = (pair[0], pair[0])
            found[f"python-chess random games, paired with {game} (games/s)"] = (pair[1], pair[1])
        for name, rate in found.items():
            rates.setdefault(name, []).append(rate)
        print(f"round {r + 1}: " + "; ".join(f"{name} {_num(wall)}" for name, (wall, _) in found.items()), flush=True)

    ratios = {}
    chess_plies = rates["python-chess PGN read (plies/s)"]
    chess_games = rates["python-chess random games (games/s)"]
    for game in games:
        replayed = rates[f"{game} replay (events/s)"]
        played = rates[f"{game} self-play (games/s)"]
        ratios[f"{game} replay / python-chess PGN plies"] = (replayed, chess_plies)
        if game == "glux":
            ratios["glux replay / json.loads of its lines"] = (
                replayed,
                rates["json.loads of the Glüx event lines (lines/s)"],
            )
            ratios["glux replay / json.loads, paired every 10 logs (CPU)"] = (
                rates["glux replay, paired with json.loads (events/s)"],
                rates["json.loads, paired with the replay (lines/s)"],
            )
        ratios[f"{game} self-play games / python-chess random games"] = (played, chess_games)
        ratios[f"{game} self-play / python-chess random games, paired every 20 ms (CPU)"] = (
            rates[f"{game} self-play, paired with python-chess (games/s)"],
            rates[f"python-chess random games, paired with {game} (games/s)"],
        )

    print()
    print(f"{args.rounds} rounds, min / median / max; wall clock, then CPU time of the process")
    print()
    print("| ratio (same round) | wall clock | CPU time |")
    print("| --- | --- | --- |")
    for name, (mine, peer) in ratios.items():
        wall = [m[0] / p[0] for m, p in zip(mine, peer)]
        cpu = [m[1] / p[1] for m, p in zip(mine, peer)]
        print(f"| {name} | {spread(wall)}× | {spread(cpu)}× |")
    print()
    print("| rate | wall clock | CPU time |")
    print("| --- | --- | --- |")
    for name, values in rates.items():
        print(f"| {name} | {spread([v[0] for v in values])} | {spread([v[1] for v in values])} |")
    for game in games:
        events = sum(n for _, n in logs[game]) / len(logs[game])
        print(f"| {game}: events per logged game | {events:,.0f} | |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (max RSS): {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
