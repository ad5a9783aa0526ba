"""What a Glüx house rule that changes nothing costs: self-play speed with a
pass-through wrapper on rule 4 (``glux_may_cover`` returning ``(yield)``),
and with every per-move rule wrapped so (the house rules
``variants/house_rules/glux_wrapped.py``), as a ratio to the official rules,
measured in the same process, round by round, interleaved.

    python bench/glux_wrapped.py [--rounds 7] [--games 150] [--players 4]

The target (docs/performance.md): the wrapper on a placement predicate
keeps at least 0.6x the official speed. A wrapped rule is asked on both
paths (it declares no table form, ``tabletop_glux.forms``), and the game
stays on its fast path. Rates are per second of this process's CPU time
(``time.process_time``), so other work on a shared machine counts against
neither side; each round plays the same seeds on every side.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from tabletop import Registry, get_plugin_manager
from tabletop.play.live import selfplay

SIDES = {
    "official": (),
    "rule 4 wrapped": ("glux-wrapped-cover",),
    "rule 4 wrapped, taking the face": ("glux-wrapped-cover-by-face",),
    "every per-move rule wrapped": ("glux-wrapped-rules",),
}
WRAPPED = Path(__file__).resolve().parent.parent / "variants" / "house_rules" / "glux_wrapped.py"


def rate(registry: Registry, variants: tuple[str, ...], games: int, players: int, tag: str) -> float:
    names = [f"p{i}" for i in range(1, players + 1)]
    bots = [registry.bot("random", "glux")] * players
    start = time.process_time()
    for i in range(games):
        selfplay(registry, "glux", names, bots, f"{tag}-{i}", variants)
    return games / (time.process_time() - start)


def compare(sides: dict[str, tuple[str, ...]], plugin: Path, rounds: int, games: int) -> None:
    """Self-play under each of ``sides`` (the variants of ``plugin`` in
    force; one side named "official" with none), round by round,
    interleaved, printed as rates and ratios to the official rules.
    Command-line options: ``--rounds``, ``--games`` (defaults as given) and
    ``--players``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    registry = Registry(get_plugin_manager([plugin], environment=False))
    for variants in sides.values():
        rate(registry, variants, 10, args.players, "warm")
    ratios: dict[str, list[float]] = {side: [] for side in sides if side != "official"}
    rates: dict[str, list[float]] = {side: [] for side in sides}
    for r in range(args.rounds):
        found = {
            side: rate(registry, variants, args.games, args.players, f"round-{r}") for side, variants in sides.items()
        }
        for side, value in found.items():
            rates[side].append(value)
            if side != "official":
                ratios[side].append(value / found["official"])
        print(
            f"round {r + 1}: " + ", ".join(f"{side} {value:.0f} games/s" for side, value in found.items()), flush=True
        )
    print(
        f"\n{args.players}-player self-play, random bots, {args.rounds} rounds of {args.games} games (min / median / max):"
    )
    for side, values in rates.items():
        print(f"  {side}: {min(values):.0f} / {statistics.median(values):.0f} / {max(values):.0f} games/s")
    for side, values in ratios.items():
        print(f"  {side} / official: {min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}x")


def main() -> None:
    compare(SIDES, WRAPPED, rounds=7, games=150)


if __name__ == "__main__":
    main()
