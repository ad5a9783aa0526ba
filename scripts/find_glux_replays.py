"""Search self-play seeds for the Glüx games kept under replays/glux/.

Each recorded game shows something the rules must get right (a forced
start-square option, an exclusion, a tie broken by the middle room, a shared
victory). This script plays seeds in order until it finds one for each and
writes the logs; run it again only to re-record them on purpose:

    python scripts/find_glux_replays.py replays/glux
"""

from __future__ import annotations

import sys
from pathlib import Path

from tabletop import Bot, Registry, get_plugin_manager
from tabletop.log.logfile import create
from tabletop.play.engine import Match
from tabletop.play.live import selfplay

PLAYERS = {2: ["ann", "ben"], 3: ["ann", "ben", "cat"], 4: ["ann", "ben", "cat", "dan"]}


def forced_start(match_events, registry, header) -> bool:
    match = Match(registry, header)
    for event in match_events:
        if event.kind == "place" and event.start:
            seat = match.game.seats[event.player]
            if not match.game.targets(match.state, seat):
                return True
        match.apply(event)
    return False


def thrifty(game, state, player, legal, rng):
    """Random, but keeps the start-square option for when it is forced."""
    counting = [d for d in legal if not getattr(d, "start", False)]
    return rng.choice(counting or legal)


THRIFTY = Bot("thrifty", "random; uses the start-square option only when forced", thrifty, game="glux")

WANTED = {
    "two-players": dict(n=2, bots=["greedy", "random"], test=lambda m, e, r, h: True),
    "three-players": dict(n=3, bots=["greedy", "random", "greedy"], test=lambda m, e, r, h: True),
    "four-players": dict(n=4, bots=["random"], test=lambda m, e, r, h: True),
    "four-players-greedy": dict(n=4, bots=["greedy"], test=lambda m, e, r, h: True),
    "second-place-2p": dict(
        n=2, bots=["greedy", "random"], variants=["glux-second-place-2p"], test=lambda m, e, r, h: True
    ),
    "forced-start-option": dict(n=4, bots=["thrifty"], test=lambda m, e, r, h: forced_start(e, r, h)),
    "excluded-player": dict(n=3, bots=["random"], test=lambda m, e, r, h: any(x.kind == "exclude" for x in e)),
    "middle-room-tiebreak": dict(
        n=4, bots=["random"], test=lambda m, e, r, h: "decided by the middle room" in m.game.outcome(m.state).note
    ),
    "shared-victory": dict(n=3, bots=["random"], test=lambda m, e, r, h: len(m.game.outcome(m.state).winners) > 1),
}


def main(out: Path) -> None:
    registry = Registry(get_plugin_manager())
    only = sys.argv[2:]
    for name, want in WANTED.items():
        if only and name not in only:
            continue
        players = PLAYERS[want["n"]]
        bots = [THRIFTY if b == "thrifty" else registry.bot(b, "glux") for b in want["bots"]]
        bots = bots * len(players) if len(bots) == 1 else bots
        for i in range(20000):
            seed = f"{name}-{i}"
            header, match, events = selfplay(registry, "glux", players, bots, seed, want.get("variants", ()))
            if want["test"](match, events, registry, header):
                lines = registry.codec.log(header, events)
                path = out / f"{name}.jsonl"
                if path.exists():
                    path.unlink()
                create(path, lines)
                print(f"{path}: seed {seed}, bots {', '.join(want['bots'])}")
                break
        else:
            print(f"{name}: no seed found", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
