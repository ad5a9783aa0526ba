"""Building Glüx positions by hand for rule tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tabletop import Registry
from tabletop.log.header import Header
from tabletop_glux.game import Glux
from tabletop_glux.state import State


def make_game(registry: Registry, players: Sequence[str] = ("ann", "ben"), variants=(), options=None) -> Glux:
    return registry.game(Header("glux", tuple(players), tuple(variants), options or {}))


def position(
    game: Glux,
    chips: Mapping[str, Sequence[tuple[str, int]]],
    hands: Mapping[str, str | None] | None = None,
    turn: str | None = None,
    option_used: Sequence[str] = (),
    excluded: Sequence[str] = (),
    bags: Mapping[str, tuple[int, int, int]] | None = None,
) -> State:
    """A position after setup: ``chips`` maps squares to stacks (bottom first)
    of (player, face); start squares not named hold nothing."""
    n = len(game.players)
    stacks = [()] * len(game.board.rooms)
    tops: list[tuple[int, ...]] = [()] * n
    for name, stack in chips.items():
        square = game.board.square(name)
        stacks[square] = tuple((game.seats[p], f) for p, f in stack)
        owner = game.seats[stack[-1][0]]
        tops[owner] = tops[owner] + (square,)
    hands = {p: "3/4" for p in game.players} | dict(hands or {})
    bags = {p: (5, 5, 5) for p in game.players} | dict(bags or {})
    return State(
        stacks=tuple(stacks),
        tops=tuple(tops),
        bags=tuple(bags[p] for p in game.players),
        hands=tuple(hands[p] for p in game.players),
        started=(True,) * n,
        option_used=tuple(p in option_used for p in game.players),
        excluded=tuple(p in excluded for p in game.players),
        began=True,
        turn=game.seats[turn or game.players[0]],
    )


def squares(game: Glux, state: State, player: str) -> set[str]:
    """Where ``player`` can place by counting, as square names."""
    return {game.board.name_of(s) for s in game.targets(state, game.seats[player])}
