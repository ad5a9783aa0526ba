"""Search self-play seeds for the Glyph Chess games kept under replays/glyph_chess/.

Each recorded game shows something the rules must get right: a win on the
centre, by elimination, a three-player game that goes on after an elimination,
the advanced setup; together they cast every spell. Run it again only to
re-record them on purpose:

    python scripts/find_glyph_replays.py replays/glyph_chess
"""

from __future__ import annotations

import sys
from pathlib import Path

from tabletop import Registry, get_plugin_manager
from tabletop.log.logfile import create
from tabletop.play.live import selfplay

PLAYERS = {2: ["ann", "ben"], 3: ["ann", "ben", "cat"]}
SPELLS = {"swap", "replica", "foresee", "blaze", "blast", "revive", "march", "summon"}


def spells(events) -> set[str]:
    return {e.spell for e in events if e.kind == "cast"}


def centre(match, events) -> bool:
    return match.game.outcome(match.state).note == "scepter on the centre"


def elimination(match, events) -> bool:
    return match.game.outcome(match.state).note == "last player standing"


def mid_game_elimination(match, events) -> bool:
    # Someone is out, and the game went on to a winner among the others.
    state = match.state
    return sum(state.eliminated) >= 1 and centre(match, events) or sum(state.eliminated) == 2


WANTED = [
    ("two-players-centre", 2, ["greedy", "random"], (), centre),
    ("two-players-elimination", 2, ["random"], (), elimination),
    ("two-players-random", 2, ["random"], (), lambda m, e: len(spells(e)) >= 5),
    ("two-players-greedy", 2, ["greedy"], (), lambda m, e: True),
    ("advanced-setup", 2, ["random"], ("glyph-advanced-setup",), lambda m, e: len(spells(e)) >= 3),
    ("three-players-elimination-mid-game", 3, ["random"], (), mid_game_elimination),
    ("three-players-centre", 3, ["random", "greedy", "random"], (), centre),
    ("three-players-random", 3, ["random"], (), lambda m, e: len(spells(e)) >= 5),
]


def main(out: Path) -> None:
    registry = Registry(get_plugin_manager(environment=False))
    cast: set[str] = set()
    for name, n, bot_names, variants, test in WANTED:
        bots = [registry.bot(b, "glyph-chess") for b in bot_names]
        bots = bots * n if len(bots) == 1 else bots
        for i in range(500):
            seed = f"{name}-{i}"
            header, match, events = selfplay(registry, "glyph-chess", PLAYERS[n], bots, seed, variants)
            if not test(match, events) or len(events) > 1500:
                continue
            missing = SPELLS - cast
            # Prefer, for the last few, games that cast what is still missing.
            if name.endswith("random") and missing and not (spells(events) & missing) and i < 400:
                continue
            cast |= spells(events)
            lines = registry.codec.log(header, events)
            path = out / f"{name}.jsonl"
            path.unlink(missing_ok=True)
            create(path, lines)
            print(f"{path}: seed {seed}, {len(events)} events, spells {sorted(spells(events))}")
            break
        else:
            print(f"{name}: no seed found", file=sys.stderr)
    print(f"spells cast: {sorted(cast)}; missing: {sorted(SPELLS - cast)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
