"""PettingZoo steps per second: two-player Glüx beside PettingZoo's own classic games.

    python bench/pettingzoo_speed.py [--rounds 7] [--seconds 1.0] [--game glux] [--players 2]

Every environment is played by the same loop, the one PettingZoo's
documentation shows: ``agent_iter()``, ``last()``, then a random action
among those the observation's ``action_mask`` opens (``None`` once the
agent is done), episode after episode, each reset with the next seed. A
step is one ``step()`` call. The peers are PettingZoo's ``tictactoe_v3``
and ``connect_four_v3`` (they need ``pygame``: ``pip install -e
".[bench]"``). The machine is shared, so round by round each environment
runs for ``--seconds`` of CPU time in turn, and the ratio to each peer is
taken within the round; the min/median/max of every rate and ratio are
printed at the end. Figures are for one core, in CPU time of the process.
The results are reported in docs/ai.md and docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def steps_per_second(make: Callable[[], Any], seconds: float, seed: int) -> tuple[float, int]:
    """Random play of the environment ``make()`` gives, for ``seconds`` of
    CPU time (whole episodes): steps per CPU second, and the episodes played."""
    table = make()
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        table.reset(seed=seed + episodes)
        for _agent in table.agent_iter():
            observation, _reward, terminated, truncated, _info = table.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            table.step(action)
            steps += 1
        episodes += 1
    return steps / (time.process_time() - start), episodes


def spread(values: list[float]) -> str:
    return f"min {min(values):,.0f}  median {statistics.median(values):,.0f}  max {max(values):,.0f}"


def ratios(values: list[float]) -> str:
    return f"min {min(values):.2f}  median {statistics.median(values):.2f}  max {max(values):.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--game", default="glux")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from pettingzoo.classic import connect_four_v3, tictactoe_v3

    from tabletop.ai.pettingzoo import env

    ours = f"{args.game} ({args.players} players)"
    makers: dict[str, Callable[[], Any]] = {
        ours: lambda: env(args.game, players=args.players),
        "tictactoe_v3": tictactoe_v3.env,
        "connect_four_v3": connect_four_v3.env,
    }
    rates: dict[str, list[float]] = {name: [] for name in makers}
    print(f"PettingZoo, random actions through the action mask, {args.seconds:g} s of CPU each per round")
    for round_ in range(1, args.rounds + 1):
        line = []
        for name, make in makers.items():
            rate, episodes = steps_per_second(make, args.seconds, 1000 * round_)
            rates[name].append(rate)
            line.append(f"{name} {rate:,.0f} steps/s ({episodes} episodes)")
        print(f"round {round_}: " + ", ".join(line), flush=True)
    print()
    for name, values in rates.items():
        print(f"{name:>22}: {spread(values)} steps/s")
    for peer in ("tictactoe_v3", "connect_four_v3"):
        share = [a / b for a, b in zip(rates[ours], rates[peer])]
        print(f"{ours} / {peer}: {ratios(share)}")


if __name__ == "__main__":
    main()
