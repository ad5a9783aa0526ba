"""Building Glyph Chess positions and short recorded scenarios for the tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop import Chance, Decide, Forced, Registry
from tabletop.log.header import Header, Randomness
from tabletop.log.logfile import create
from tabletop.play.engine import Match, Replay
from tabletop_glyph_chess.events import Draw, Roll
from tabletop_glyph_chess.game import GlyphChess
from tabletop_glyph_chess.state import ACT, State

# Where pieces a test does not place wait: on their owner's home edge, far
# from the middle of the board where the tests play.
HOME = {
    "ann": ["a4", "a1", "a2", "a3", "a5", "a6", "a7"],
    "ben": ["m4", "m1", "m2", "m3", "m5", "m6", "m7"],
    "cat": ["j1", "k1", "l1", "i1", "h1", "i2", "j2"],
}
PIECES = ["K", "S", "I", "E", "F", "N", "U"]


def position(
    pieces: dict[str, dict[str, str]],
    turn: str = "ann",
    dice: str = "S S S S S",
    hands: dict[str, str] | None = None,
    used: dict[str, str] | None = None,
    fates: dict[str, dict[str, str]] | None = None,
    players: Sequence[str] = ("ann", "ben"),
    full: bool = True,
) -> dict[str, Any]:
    """A position option; hands and used areas as strings of coin letters ("N N S").

    With ``full``, each piece a player lacks (the scepter and glyph pieces not
    placed, nor named in ``fates``) waits on their home edge."""
    placed = {p: dict(pieces.get(p, {})) for p in players}
    taken = {s for mine in placed.values() for s in mine}
    for p in players if full else ():
        dead = set((fates or {}).get(p, {}))
        for kind in PIECES:
            if kind not in placed[p].values() and kind not in dead:
                home = next(s for s in HOME[p] if s not in taken)
                placed[p][home] = kind
                taken.add(home)
    data: dict[str, Any] = {
        "turn": turn,
        "dice": dice.split(),
        "pieces": placed,
        "hands": {p: (hands or {}).get(p, "").split() for p in players},
        "used": {p: (used or {}).get(p, "").split() for p in players},
    }
    if fates:
        data["fates"] = fates
    return data


def game_at(registry: Registry, data: dict[str, Any], variants: Sequence[str] = ()) -> tuple[GlyphChess, State]:
    """The game and its first state (the awakening step of ``turn``)."""
    players = tuple(data["pieces"])
    game = registry.game(Header("glyph-chess", players, tuple(variants), {"position": data}))
    return game, game.settle(game.initial())


def to_action(game: GlyphChess, state: State, draws: str = "S") -> State:
    """Skip a re-roll, draw the coins named, until the action step."""
    coins = draws.split()
    while state.phase != ACT:
        node = game.next(state)
        if isinstance(node, Decide):
            state = game.apply(state, game.parse("skip", node.players[0], state))
        elif isinstance(node, Chance):
            outcome = node.outcomes[0]
            if isinstance(outcome, Draw) and coins:
                outcome = Draw(outcome.player, coins.pop(0))
            state = game.apply(state, outcome)
        else:
            raise AssertionError(f"not on the way to the action step: {node}")
    return state


def act(game: GlyphChess, state: State, player: str, text: str) -> State:
    """Apply a decision written in notation, which must be legal."""
    decision = game.parse(text, player, state)
    reason = game.check(state, decision)
    assert reason is None, f"{text}: {reason}"
    return game.apply(state, decision)


def why_not(game: GlyphChess, state: State, player: str, text: str) -> str | None:
    return game.check(state, game.parse(text, player, state))


def spot(game: GlyphChess, state: State, name: str) -> tuple[str, str] | None:
    """(owner, piece letter) on a spot, or None."""
    piece = state.board[game.geo.spot(name)]
    return None if piece is None else (game.players[piece[0]], piece[1])


def record(
    registry: Registry, path: Path, data: dict[str, Any], script: Sequence[str], variants: Sequence[str] = ()
) -> Match:
    """Write a recorded scenario (outcomes observed at a table: no seed) and
    replay it from the file, every event validated.

    Script lines: ``PLAYER DECISION`` in notation; ``roll FACE...`` for the next
    dice rolled; ``draw GLYPH`` for the next coin drawn. A chance outcome not
    given is the first possible one; events the rules force are added.
    """
    players = tuple(data["pieces"])
    header = Header("glyph-chess", players, tuple(variants), {"position": data}, Randomness())
    match = Match(registry, header)
    events = []
    queue = list(script)

    def add(event):
        match.accept(event)
        events.append(event)

    while True:
        node = match.node
        if isinstance(node, Forced):
            add(node.event)
        elif isinstance(node, Chance):
            first = next(o for o in node.outcomes if node.allows(o))
            if (
                queue
                and queue[0].split()[0] in ("roll", "draw")
                and isinstance(first, Roll) == (queue[0].startswith("roll"))
            ):
                words = queue[0].split()
                value = words[1]
                rest = words[2:]
                queue[0] = " ".join([words[0], *rest]) if rest else ""
                if not queue[0]:
                    queue.pop(0)
                first = Roll(first.die, value) if isinstance(first, Roll) else Draw(first.player, value)
            add(first)
        elif isinstance(node, Decide) and queue and queue[0].split()[0] in match.game.players:
            player, text = queue.pop(0).split(" ", 1)
            add(match.game.parse(text, player, match.state))
        else:
            break
    assert not queue, f"script left over: {queue}"
    lines = registry.codec.log(header, events)
    create(path, lines)
    return Replay(registry, path).run()


def house_rules(*files: str) -> Registry:
    """A registry with the house rules of ``variants/house_rules/`` named (file names)."""
    from tabletop import get_plugin_manager

    folder = Path(__file__).resolve().parent.parent.parent / "variants" / "house_rules"
    return Registry(get_plugin_manager([str(folder / name) for name in files], environment=False))


def self_played(registry: Registry, variant: str, count: int, players: Sequence[str] = ("ann", "ben"), bot="random"):
    """``count`` games self-played by bots under ``variant``: each (header, events)."""
    from tabletop.play.live import selfplay

    for i in range(count):
        bots = [registry.bot(bot, "glyph-chess")] * len(players)
        header, _, events = selfplay(registry, "glyph-chess", players, bots, f"{variant}-{i}", [variant])
        yield header, events


def replayed(registry: Registry, path: Path, header: Header, events: Sequence[Any]) -> Match:
    """The game written to ``path`` and replayed from the file, every event validated."""
    create(path, registry.codec.log(header, events))
    return Replay(registry, path).run()
