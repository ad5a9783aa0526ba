"""Liar's Dice self-play (the template game of examples/liars_dice) against
OpenSpiel's C++ ``liars_dice`` played from Python, in the same process, in
the same round.

    python bench/liars_dice.py [--rounds 5] [--seconds 4] [--dice 1]

Both sides play two-player games (OpenSpiel's ``liars_dice`` has two
players) with the same rules: ``--dice`` dice each, six faces, the six
wild, bids by count then face.

- tabletop: ``tabletop.play.live.SelfPlay`` with the random bot in both seats,
  as ``tabletop selfplay`` plays a run (the header checked once, a header per
  game for its seed, the
  bots' random numbers and every roll drawn from the game's seed, every
  event kept for the log);
- OpenSpiel: a random rollout from Python, ``new_initial_state()``, then
  each chance outcome drawn by its probability (``chance_outcomes()``) and
  each decision uniformly among ``legal_actions()`` with Python's
  ``random``, until ``is_terminal()``.

- tabletop rollouts: ``tabletop.play.rollouts.Rollouts.play(rng)``, the header
  checked once and one generator drawing every decision and chance outcome,
  as OpenSpiel's rollout does (no log, no seed per game).

Each round pairs them in turns of about 20 ms of CPU each, ``--seconds`` of
CPU in all per measure, timed in CPU time, so that a shared machine's
changes of speed fall on both alike. Two tabletop measures: the template as
written (its fast path: the steps run on the state's mutable twin), and its
plain path (``apply`` building a new state per event; the fast path turned
off in this process). Then, once per round, where a self-played game's time
goes: the core's per-game work (the header, the match, the bots' random
generators, the seed's key) and the rest (the turn loop: the game's rules
and the engine's dispatch).

Printed: each round, then min / median / max of each figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyspiel

from tabletop import Game
from tabletop.api import registry
from tabletop.log.header import Randomness
from tabletop.play import chance
from tabletop.play.engine import Match
from tabletop.play.live import SelfPlay, bot_rng, seeded
from tabletop.play.rollouts import Rollouts

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "liars_dice"
NAMES = ("p1", "p2")
#: CPU seconds of each side's turn in a paired measure.
TURN = 0.02


def progress(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


def openspiel_rollouts(game: pyspiel.Game, rng: random.Random) -> Callable[[], None]:
    def play() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return play


def tabletop_selfplay(reg, dice: int, start: str) -> Callable[[], None]:
    # As ``tabletop selfplay`` plays a run: one batch, a game per seed.
    batch = SelfPlay(reg, "liars-dice", NAMES, [reg.bot("random", "liars-dice")] * len(NAMES), (), {"dice": str(dice)})
    count = iter(range(10**9))

    def play() -> None:
        batch.play(f"{start}-{next(count)}")

    return play


def tabletop_rollouts(reg, dice: int, seed: int) -> Callable[[], None]:
    rollouts = Rollouts(
        reg, "liars-dice", NAMES, [reg.bot("random", "liars-dice")] * len(NAMES), options={"dice": str(dice)}
    )
    rng = random.Random(seed)

    def play() -> None:
        rollouts.play(rng)

    return play


def paired(mine: Callable[[], None], peer: Callable[[], None], seconds: float) -> tuple[float, float]:
    """Games/s of ``mine`` and of ``peer``, in turns of :data:`TURN` s of CPU each."""
    clock = time.process_time
    spent = spent_peer = 0.0
    played = played_peer = 0
    while spent + spent_peer < seconds:
        begin = clock()
        while (now := clock()) - begin < TURN:
            peer()
            played_peer += 1
        spent_peer += now - begin
        begin = now
        while (now := clock()) - begin < TURN:
            mine()
            played += 1
        spent += now - begin
    return played / spent, played_peer / spent_peer


class plain_path:
    """The game's fast path turned off in this process, for a ``with`` block."""

    def __init__(self, cls: type[Game]) -> None:
        self.cls = cls

    def __enter__(self) -> None:
        self.cls.fast = lambda game: None  # the engine folds with apply

    def __exit__(self, *exc: object) -> None:
        del self.cls.fast  # the core's: the turn's fast path


def per_game(reg, dice: int, games: int, round_: int) -> dict[str, float]:
    """Microseconds of CPU per game: self-play, and the core's per-game parts of it."""
    options = {"dice": str(dice)}
    seeds = [f"parts-{round_}-{i}" for i in range(games)]
    bots = [reg.bot("random", "liars-dice")] * len(NAMES)
    batch = SelfPlay(reg, "liars-dice", NAMES, bots, (), options)
    template, game = batch.template, batch.game

    def cost(work: Callable[[str], object]) -> float:
        begin = time.process_time()
        for seed in seeds:
            work(seed)
        return (time.process_time() - begin) / games * 1e6

    found = {
        "self-play, all of it": cost(batch.play),
        "the header (its seed)": cost(lambda seed: seeded(template, Randomness(seed=seed))),
        "the match (Match)": cost(lambda seed: Match(reg, template, game)),
        "the bots' generators (bot_rng x2)": cost(lambda seed: [bot_rng(seed, p) for p in NAMES]),
        "the seed's key (chance.numbers)": cost(chance.numbers),
    }
    found["the rest: the turn loop"] = found["self-play, all of it"] - sum(
        value for name, value in found.items() if name != "self-play, all of it"
    )
    return found


def spread(values: list[float]) -> str:
    """min / median / max."""
    return " / ".join(_num(v) for v in (min(values), statistics.median(values), max(values)))


def _num(value: float) -> str:
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of measurements (default 5)")
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU seconds of each paired measure (default 4)")
    parser.add_argument("--dice", type=int, default=1, help="dice each player rolls (default 1, as OpenSpiel)")
    args = parser.parse_args()
    reg = registry([EXAMPLE])
    cls = reg.game_class("liars-dice")
    peer_game = pyspiel.load_game("liars_dice", {"numdice": args.dice})
    rng = random.Random(1)
    peer = openspiel_rollouts(peer_game, rng)
    for _ in range(200):  # warm up both sides
        peer()
        tabletop_selfplay(reg, args.dice, "warm")()

    figures: dict[str, list[float]] = {}
    for r in range(args.rounds):
        progress(f"round {r + 1} of {args.rounds}")
        found: dict[str, float] = {}
        mine, theirs = paired(tabletop_selfplay(reg, args.dice, f"fast-{r}"), peer, args.seconds)
        found["tabletop self-play, fast path (games/s)"] = mine
        found["OpenSpiel liars_dice, paired with it (games/s)"] = theirs
        found["ratio, fast path"] = mine / theirs
        mine, theirs = paired(tabletop_rollouts(reg, args.dice, r), peer, args.seconds)
        found["tabletop rollouts, fast path (games/s)"] = mine
        found["OpenSpiel liars_dice, paired with the rollouts (games/s)"] = theirs
        found["ratio, rollouts"] = mine / theirs
        with plain_path(cls):
            mine, theirs = paired(tabletop_selfplay(reg, args.dice, f"plain-{r}"), peer, args.seconds)
        found["tabletop self-play, plain path (games/s)"] = mine
        found["OpenSpiel liars_dice, paired with the plain path (games/s)"] = theirs
        found["ratio, plain path"] = mine / theirs
        for name, micros in per_game(reg, args.dice, 2000, r).items():
            found[f"µs a game: {name}"] = micros
        for name, value in found.items():
            figures.setdefault(name, []).append(value)
        print(f"round {r + 1}: " + "; ".join(f"{name} {_num(v)}" for name, v in found.items()), flush=True)

    print()
    print(f"{args.rounds} rounds, {args.dice} di{'e' if args.dice == 1 else 'ce'} each, CPU time: min / median / max")
    print()
    print("| figure | min / median / max |")
    print("| --- | --- |")
    for name, values in figures.items():
        print(f"| {name} | {spread(values)}{'×' if name.startswith('ratio') else ''} |")


if __name__ == "__main__":
    main()
