"""What a Glyph Chess house rule that changes nothing costs: self-play speed
with every official spell replaced by an equal copy, against the official
rules, in the same process, round by round.

    python bench/glyph_rules_cost.py [--rounds 5] [--seconds 3]

Each round self-plays two-player games with random bots for SECONDS under
each set of rules, one after the other:

- ``official``: no variant;
- ``spell copies``: every official spell replaced by ``attrs.evolve`` of
  itself (an equal spell, not the same object);
- ``spells rewritten``: every spell's functions wrapped in functions of the
  variant's own that call the official ones (as a house rule that re-states
  a spell has);
- ``landing wrapper``: a pass-through wrapper on ``glyph_may_land``
  (``return (yield)``), so the landing rule is asked spot by spot.

Printed: each round, then min/median/max of each one's rate over the
official rate of the same round (the issue's target for spell copies: at
least 0.9x). Rates are per second of this process's CPU time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import attrs

from tabletop import Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.play.live import selfplay

GAME = "glyph-chess"


class SpellCopies:
    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        return {name: attrs.evolve(spell) for name, spell in (yield).items()}


def _forward(function):
    def forwarded(*args):
        return function(*args)

    return forwarded


class SpellsRewritten:
    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        table = yield
        return {
            name: attrs.evolve(
                spell,
                check=_forward(spell.check),
                effect=_forward(spell.effect),
                options=_forward(spell.options),
            )
            for name, spell in table.items()
        }


class LandingWrapper:
    @rulehook(wrapper=True)
    def glyph_may_land(self, game, state, seat, piece, spot):
        return (yield)


class Plugin:
    @hookimpl
    def register_variants(self):
        return [
            Variant("bench-spell-copies", GAME, "every spell an equal copy", SpellCopies()),
            Variant("bench-spells-rewritten", GAME, "every spell's functions wrapped", SpellsRewritten()),
            Variant("bench-landing-wrapper", GAME, "a pass-through glyph_may_land", LandingWrapper()),
        ]


CONFIGS = {
    "official": (),
    "spell copies": ("bench-spell-copies",),
    "spells rewritten": ("bench-spells-rewritten",),
    "landing wrapper": ("bench-landing-wrapper",),
}


def rate(registry: Registry, variants: tuple[str, ...], seconds: float, tag: str) -> float:
    bots = [registry.bot("random", GAME)] * 2
    played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        selfplay(registry, GAME, ["p1", "p2"], bots, f"{tag}-{played}", variants)
        played += 1
    return played / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    ratios: dict[str, list[float]] = {name: [] for name in CONFIGS if name != "official"}
    official_rates = []
    for r in range(args.rounds):
        # The same seeds for every set of rules in a round: the same games when they change nothing.
        rates = {name: rate(registry, variants, args.seconds, f"cost-{r}") for name, variants in CONFIGS.items()}
        official_rates.append(rates["official"])
        for name in ratios:
            ratios[name].append(rates[name] / rates["official"])
        print(f"round {r + 1}: " + "; ".join(f"{n} {v:.1f} games/s" for n, v in rates.items()), file=sys.stderr)
    spread = lambda v: " / ".join(f"{x:.2f}" for x in (min(v), statistics.median(v), max(v)))  # noqa: E731
    print(f"official self-play, games/s (min/median/max): {spread(official_rates)}")
    for name, values in ratios.items():
        print(f"{name} / official: {spread(values)}x")


if __name__ == "__main__":
    main()
