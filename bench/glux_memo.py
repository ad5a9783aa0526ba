"""What a Glüx house rule that keeps memory costs: self-play speed under
``glux-lucky-chip`` (``variants/house_rules/glux_lucky_chip.py``, which
wraps ``glux_memo``), as a ratio to the official rules, measured in the
same process, round by round, interleaved.

    python bench/glux_memo.py [--rounds 5] [--games 100] [--players 4]

Rates are per second of this process's CPU time (``time.process_time``);
each round plays the same seeds on both sides.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from tabletop import Registry, get_plugin_manager
from tabletop.live import selfplay

SIDES = {"official": (), "glux-lucky-chip": ("glux-lucky-chip",)}
LUCKY = Path(__file__).resolve().parent.parent / "variants" / "house_rules" / "glux_lucky_chip.py"


def rate(registry: Registry, variants: tuple[str, ...], games: int, players: int, tag: str) -> float:
    names = [f"p{i}" for i in range(1, players + 1)]
    bots = [registry.bot("random", "glux")] * players
    start = time.process_time()
    for i in range(games):
        selfplay(registry, "glux", names, bots, f"{tag}-{i}", variants)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    registry = Registry(get_plugin_manager([LUCKY], environment=False))
    for variants in SIDES.values():
        rate(registry, variants, 10, args.players, "warm")
    rates: dict[str, list[float]] = {side: [] for side in SIDES}
    ratios: list[float] = []
    for r in range(args.rounds):
        found = {side: rate(registry, v, args.games, args.players, f"round-{r}") for side, v in SIDES.items()}
        for side, value in found.items():
            rates[side].append(value)
        ratios.append(found["glux-lucky-chip"] / found["official"])
        print(f"round {r + 1}: " + ", ".join(f"{s} {v:.0f} games/s" for s, v in found.items()), flush=True)
    print(
        f"\n{args.players}-player self-play, random bots, {args.rounds} rounds of {args.games} games (min / median / max):"
    )
    for side, values in rates.items():
        print(f"  {side}: {min(values):.0f} / {statistics.median(values):.0f} / {max(values):.0f} games/s")
    print(f"  glux-lucky-chip / official: {min(ratios):.2f} / {statistics.median(ratios):.2f} / {max(ratios):.2f}x")


if __name__ == "__main__":
    main()
