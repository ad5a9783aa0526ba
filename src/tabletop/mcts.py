"""A search bot for any game: information-set Monte Carlo tree search.

The bot plans from its own player's view alone. Each iteration fills in what
the view hides with the game's :meth:`~tabletop.Game.determinize` (one
"world" consistent with what the player knows), then walks a tree of
decisions in that world: chance outcomes are drawn by their weights, rule
events follow, and every player chooses among the decisions legal in that
world by UCB1 with availability counts (Cowling, Powley and Whitehouse's
single-observer ISMCTS, as OpenSpiel's ``ismcts.py``). The tree is keyed by
the decisions taken, so one tree collects every world. A leaf is valued by a
short random playout and then by the game's standings
(:meth:`~tabletop.Game.outcome`), or by the winners when the game ends.

Everything random comes from the ``rng`` the engine gives the bot, so a
seeded game repeats exactly with an iteration budget. A time budget
(``seconds``) depends on the machine and does not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from .errors import UsageError
from .events import Event
from .nodes import Chance, Decide, Forced, Over


class _Node:
    """Statistics of one decision in the tree, for the player who takes it."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[Event, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


@attrs.frozen
class MCTS:
    """The bot's settings; calling it chooses a decision (the ``Bot.choose`` contract).

    ``iterations`` worlds are searched per decision, or as many as fit in
    ``seconds`` when that is given. ``playout`` is how many events a random
    playout goes past a new leaf before the standings value it.
    ``exploration`` is UCB1's constant.
    """

    iterations: int = 200
    seconds: float | None = None
    playout: int = 8
    exploration: float = 0.7
    #: How playouts choose decisions (a ``Bot.choose``); None: uniformly at random.
    policy: Any = None

    #: The settings ``configured`` accepts, with their types.
    PARAMETERS = {"iterations": int, "seconds": float, "playout": int, "exploration": float}

    def configured(self, params: Mapping[str, str]) -> MCTS:
        """These settings changed from text (``iterations=400,playout=0``)."""
        changes: dict[str, Any] = {}
        for key, text in params.items():
            kind = self.PARAMETERS.get(key)
            if kind is None:
                raise UsageError(f"mcts has no setting '{key}' (settings: {', '.join(self.PARAMETERS)})")
            try:
                value = kind(text)
            except ValueError:
                raise UsageError(f"mcts setting {key}={text!r}: expected {kind.__name__}") from None
            if value < 0 or (key == "iterations" and value < 1):
                raise UsageError(f"mcts setting {key}={text!r}: out of range")
            changes[key] = value
        return attrs.evolve(self, **changes)

    def __call__(self, game: Any, state: Any, player: str, legal: Sequence[Event], rng: random.Random) -> Event:
        if len(legal) == 1:
            return legal[0]
        # The search starts from the view: nothing below reads ``state`` again.
        view = game.view(state, player)
        return self.search(game, view, player, legal, rng)

    def search(self, game: Any, view: Any, player: str, legal: Sequence[Event], rng: random.Random) -> Event:
        """The decision among ``legal`` that the search over worlds consistent
        with ``view`` finds best for ``player``."""
        choices = list(legal)
        allowed = set(choices)
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if deadline is None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline and done:
                break
            done += 1
            world = game.determinize(view, player, rng)
            self._iterate(game, world, root, player, allowed, rng)
        # The most visited decision; ties in the order the game lists them.
        best, best_visits = choices[0], -1
        for decision in choices:
            child = root.children.get(decision)
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best, best_visits = decision, visits
        return best

    def _iterate(
        self, game: Any, world: Any, root: _Node, player: str, allowed: set[Event], rng: random.Random
    ) -> None:
        path: list[tuple[_Node, str]] = []
        node: _Node | None = root
        expanded = False
        first = True
        while True:
            step = game.next(world)
            if isinstance(step, Over):
                values = _values(game, world, finished=True)
                break
            if isinstance(step, Chance):
                world = game.apply(world, _draw(step, rng))
                continue
            if isinstance(step, Forced):
                world = game.apply(world, step.event)
                continue
            assert isinstance(step, Decide)
            mover = step.players[0]
            if first:
                first = False
                mover = player if player in step.players else mover
                options = game.legal(world, mover)
                if mover == player:
                    options = [d for d in options if d in allowed]
                if not options:
                    return  # a world where none of the player's real choices is open: skip it
            else:
                options = game.legal(world, mover)
            if not options:  # pragma: no cover - a game always lets the player to decide do something
                values = _values(game, world, finished=False)
                break
            if expanded or node is None:
                # Below the tree: a random playout, then the standings.
                world = self._playout(game, world, rng)
                values = _values(game, world, finished=isinstance(game.next(world), Over))
                break
            decision = self._select(node, options, rng)
            child = node.children.get(decision)
            if child is None:
                child = node.children[decision] = _Node()
                child.available = 1
                expanded = True
            path.append((child, mover))
            node = child
            world = game.apply(world, decision)
        for child, mover in path:
            child.visits += 1
            child.total += values[mover]

    def _select(self, node: _Node, options: Sequence[Event], rng: random.Random) -> Event:
        children = node.children
        untried = []
        known = []
        for decision in options:
            child = children.get(decision)
            if child is None:
                untried.append(decision)
            else:
                child.available += 1
                known.append((decision, child))
        if untried:
            return untried[rng.randrange(len(untried))]
        c = self.exploration
        best, best_score = known[0][0], -math.inf
        for decision, child in known:
            score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = decision, score
        return best

    def _playout(self, game: Any, world: Any, rng: random.Random) -> Any:
        for _ in range(self.playout):
            step = game.next(world)
            if isinstance(step, Over):
                break
            if isinstance(step, Chance):
                event = _draw(step, rng)
            elif isinstance(step, Forced):
                event = step.event
            else:
                mover = step.players[0]
                options = game.legal(world, mover)
                if not options:  # pragma: no cover
                    break
                if self.policy is None:
                    event = options[rng.randrange(len(options))]
                else:
                    event = self.policy(game, world, mover, options, rng)
            world = game.apply(world, event)
        return world


def _draw(node: Chance, rng: random.Random) -> Event:
    """A chance outcome drawn by its weights."""
    if node.weights is None:
        return node.outcomes[rng.randrange(len(node.outcomes))]
    return rng.choices(node.outcomes, weights=node.weights)[0]


def _values(game: Any, world: Any, finished: bool) -> dict[str, float]:
    """Each player's value of a world, between 0 and 1: a share of the victory
    when the game is over, else a share of the standings' scores."""
    outcome = game.outcome(world)
    if finished:
        share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
        return {p: (share if p in outcome.winners else 0.0) for p in game.players}
    scores = outcome.scores
    low = min(scores.values())
    total = sum(s - low + 1 for s in scores.values())
    return {p: (scores[p] - low + 1) / total for p in game.players}


#: The registered ``mcts`` bot's settings: a game of either built-in game in seconds.
DEFAULT = MCTS()
