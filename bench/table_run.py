"""Bots playing a game through the Python API (``tabletop.start(...).run``)
as a ratio to self-play (``tabletop.play.live.selfplay``, what ``tabletop
selfplay`` runs), in the same process, in the same round.

    python bench/table_run.py [--rounds 5] [--seconds 2]

Both sides play the same seeds with the random bot in every seat (Glüx with
four players, Glyph Chess with two) and keep every event; the table also
makes a registry look-up of the game per game, as a script does. Each round
pairs them in turns of about 20 ms of CPU, ``--seconds`` of CPU per side
in all, so that a shared machine's changes of speed fall on both alike.

Printed: each round, then min / median / max of each ratio and rate.
"""

from __future__ import annotations

import argparse
import statistics
import time

import tabletop
import tabletop.api
from tabletop.play.live import selfplay

PLAYERS = {"glux": 4, "glyph-chess": 2}
#: CPU seconds of each side's turn.
TURN = 0.02


def paired(game: str, seconds: float, start: int) -> tuple[float, float]:
    """Games per CPU second of ``Table.run`` and of ``selfplay``, in turns."""
    registry = tabletop.api.registry()
    players = [f"p{k}" for k in range(PLAYERS[game])]
    bots = [registry.bot("random", game)] * len(players)
    spent = {"table": 0.0, "selfplay": 0.0}
    # Each side plays the seeds from ``start`` on: the same games, as far as each gets.
    played = {"table": 0, "selfplay": 0}
    while min(spent.values()) < seconds:
        for side in ("table", "selfplay"):
            began = time.process_time()
            while time.process_time() - began < TURN:
                seed = f"t{start + played[side]}"
                if side == "table":
                    tabletop.start(game, players, seed=seed, registry=registry).run("random")
                else:
                    selfplay(registry, game, players, bots, seed)
                played[side] += 1
            spent[side] += time.process_time() - began
    return played["table"] / spent["table"], played["selfplay"] / spent["selfplay"]


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    found: dict[str, dict[str, list[float]]] = {g: {"ratio": [], "table": [], "selfplay": []} for g in PLAYERS}
    for r in range(args.rounds):
        for game in PLAYERS:
            table, played = paired(game, args.seconds, 100_000 * r)
            found[game]["ratio"].append(table / played)
            found[game]["table"].append(table)
            found[game]["selfplay"].append(played)
            print(
                f"round {r + 1} {game}: Table.run {table:.1f} games/s, selfplay {played:.1f}, ratio {table / played:.2f}"
            )
    print("\nmin / median / max, CPU time:")
    for game, figures in found.items():
        print(
            f"  {game}: Table.run / selfplay {spread(figures['ratio'])}x"
            f" (Table.run {spread(figures['table'])} games/s, selfplay {spread(figures['selfplay'])})"
        )


if __name__ == "__main__":
    main()
