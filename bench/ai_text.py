"""Hostile text for the OpenSpiel adapter's ``deserialize_state``: how many
of N generated inputs end in anything but a state or one TabletopError of
one line, and the slowest (the figures of docs/robustness.md).

    .venv/bin/python bench/ai_text.py --inputs 2000

Each input is a serialized position (a sealed decision waiting, a decision
half spelt, or neither), its own trailers kept or dropped, with one to
three hostile ``#sealed`` or ``#spelling`` lines after it.

Needs the extra: pip install -e ".[openspiel]".
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import time
from pathlib import Path

HOUSE = str(Path(__file__).resolve().parent.parent / "variants" / "house_rules")
VALUES = [0, -1, 2**70, "x", None, [], {}, 1.5, True, "a" * 5, {"kind": "move", "payload": {}}]


def positions():
    import pyspiel

    import tabletop.ai.openspiel

    tabletop.ai.openspiel.register([HOUSE])

    def load(name, variants=""):
        return pyspiel.load_game(name, {"players": 2, "variants": variants, "plugins": HOUSE})

    def play(state, rng, done):
        while not done(state):
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return state.serialize()

    rng = random.Random(0)
    sealed, spelt, glux = (
        load("tabletop_glyph_chess", "glyph-advanced-setup"),
        load("tabletop_glyph_chess"),
        load("tabletop_glux"),
    )
    return [
        (sealed, play(sealed.new_initial_state(), rng, lambda s: s.secrets)),
        (spelt, play(spelt.new_initial_state(), rng, lambda s: s.prefix and len(s.events) > 20)),
        (glux, play(glux.new_initial_state(), rng, lambda s: len(s.events) > 10)),
    ]


def hostile(rng: random.Random) -> str:
    """One hostile trailer line."""
    value = rng.choice(VALUES)
    return rng.choice(
        [
            "#sealed " + "".join(rng.choice('{}[]":,ab01 ') for _ in range(rng.randrange(20))),
            "#sealed " + json.dumps(value),
            "#sealed "
            + json.dumps(
                {"player": rng.choice(["p1", "p2", "p9", 0, None]), "salt": value, "choice": rng.choice(VALUES)}
            ),
            "#sealed "
            + json.dumps({rng.choice(["player", "salt", "choice", "x"]): value for _ in range(rng.randrange(4))}),
            "#sealed " + '{"player":"p1","salt":"s","choice":{"kind":"arrange","payload":' + json.dumps(value) + "}}",
            "#sealed " + "[" * rng.randrange(2000),
            "#spelling " + " ".join(str(rng.choice([0, 1, -1, 5, 99, 10**9, 2**70])) for _ in range(rng.randrange(6))),
            "#spelling "
            + " ".join(rng.choice(["a", "1.5", "", "x1", "\u0663", "1e3"]) for _ in range(rng.randrange(4))),
            "#spelling " + " ".join(str(rng.randrange(200)) for _ in range(rng.randrange(1, 40))),
            rng.choice(["#sealed", "#spelling", "#spelling 1 2"]),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=2000)
    args = parser.parse_args()
    from tabletop import TabletopError

    bases = positions()
    raw: collections.Counter[str] = collections.Counter()
    slowest = 0.0
    for i in range(args.inputs):
        rng = random.Random(i)
        game, text = rng.choice(bases)
        lines = text.splitlines()
        if rng.random() < 0.5:
            while lines[-1].startswith("#"):
                lines.pop()
        lines += [hostile(rng) for _ in range(rng.randrange(1, 4))]
        start = time.process_time()
        try:
            game.deserialize_state("\n".join(lines) + "\n")
        except TabletopError as exc:
            if "\n" in str(exc):
                raw["TabletopError of several lines"] += 1
        except Exception as exc:  # what the adapter must never let out
            raw[type(exc).__name__] += 1
        slowest = max(slowest, time.process_time() - start)
    kinds = ", ".join(f"{kind} {n}" for kind, n in raw.most_common()) or "none"
    print(f"{args.inputs} hostile texts: {sum(raw.values())} raw errors ({kinds}); slowest {slowest:.2f} s of CPU")


if __name__ == "__main__":
    main()
