"""A search bot for any game: information-set Monte Carlo tree search.

The bot plans from its own player's view alone. Each iteration fills in what
the view hides with the game's :meth:`~tabletop.Game.determinize` (one
"world" consistent with what the player knows), then walks a tree of
decisions in that world: chance outcomes are drawn by their weights, rule
events follow, and every player chooses among the decisions legal in that
world by UCB1 with availability counts (Cowling, Powley and Whitehouse's
single-observer ISMCTS, as OpenSpiel's ``ismcts.py``). The tree is keyed by
the decisions taken, so one tree collects every world. A leaf is valued by the
winners when the game ends there. Otherwise, when the game judges positions
(:meth:`~tabletop.Game.evaluate`), by that judgement at the next decision
anyone makes (chance drawn and rule events followed up to it); when it does
not, by a short random playout and then the game's standings
(:meth:`~tabletop.Game.outcome`).

With a judgement, the tree below the root also widens step by step
(progressive widening, Coulom 2007; Chaslot et al. 2008): a decision node
seen ``n`` times offers at most ``1 + sqrt(n)`` of its decisions, adding first
the one the game prefers (:meth:`~tabletop.Game.prefer`), then others at
random. Where one reply among fifty refutes a line (a scepter struck), it is
then the first reply searched, instead of one the search may never reach;
without widening, every reply of a node is tried once before any is tried
twice. The root's decisions are all tried.

Everything random comes from the ``rng`` the engine gives the bot, so a
seeded game repeats exactly with an iteration budget. A time budget
(``seconds``) depends on the machine and does not; it counts the CPU time of
the thread that searches (``time.thread_time``), not the clock on the wall,
so a bot on a busy machine or a crowded process pool searches as much as on
an idle core, and a tournament rates it fairly beside iteration budgets.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ..base.errors import UsageError
from ..model.events import Event
from ..model.game import Game
from ..model.nodes import Chance, Decide, Forced, Over
from .live import random_choice


class _Node:
    """Statistics of one decision in the tree, for the player who takes it."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[Event, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


@attrs.frozen
class Weighed:
    """A decision at the root of a search: how often it was tried, and its
    mean value for the player who takes it (None: never tried)."""

    decision: Event
    visits: int
    value: float | None


@attrs.frozen
class MCTS:
    """The bot's settings; calling it chooses a decision (the ``Bot.choose`` contract).

    ``iterations`` worlds are searched per decision, or as many as fit in
    ``seconds`` when that is given; None (the default) is 400 for a game
    that judges positions and 200 for one that does not (a judged leaf costs
    a fraction of a playout, so a decision takes about as long). ``playout`` is how many events a random
    playout goes past a new leaf before the position is valued; None (the
    default) is 0 for a game that judges positions (a random playout only
    blurs the judgement) and 8 for one that does not. ``exploration`` is
    UCB1's constant.
    """

    iterations: int | None = None
    seconds: float | None = None
    playout: int | None = None
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
                raise UsageError(f"no setting '{key}' (settings: {', '.join(self.PARAMETERS)})")
            try:
                value = kind(text)
            except ValueError:
                raise UsageError(f"{key}={text}: expected {'a whole number' if kind is int else 'a number'}") from None
            if not math.isfinite(value) or value < 0 or (key == "iterations" and value < 1):
                raise UsageError(f"{key}={text}: out of range")
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
        # The most visited decision; ties in the order the game lists them.
        best, best_visits = legal[0], -1
        for weighed in self.weigh(game, view, player, legal, rng):
            if weighed.visits > best_visits:
                best, best_visits = weighed.decision, weighed.visits
        return best

    def weigh(self, game: Any, view: Any, player: str, legal: Sequence[Event], rng: random.Random) -> list[Weighed]:
        """Each decision of ``legal``, in order, with the visits the search
        over worlds consistent with ``view`` gave it and its mean value for
        ``player`` there (their estimated share of the victory after it;
        None for a decision never visited). What :meth:`search` chooses
        from, and what ``tabletop analyse`` reports."""
        choices = list(legal)
        allowed = set(choices)
        root = _Node()
        judges = _judges(game)
        playout = self.playout if self.playout is not None else (0 if judges else 8)
        iterations = self.iterations if self.iterations is not None else (400 if judges else 200)
        deadline = None if self.seconds is None else time.thread_time() + self.seconds
        # Playouts run on the game's fast path, one thaw and one freeze each,
        # unless a policy reads the worlds they pass through.
        stepper = (game.fast() if playout and self.policy is None else None) or _Plain(game)
        done = 0
        while True:
            if deadline is None:
                if done >= iterations:
                    break
            elif time.thread_time() >= deadline and done:
                break
            done += 1
            world = game.determinize(view, player, rng)
            self._iterate(game, world, root, player, allowed, rng, playout, judges, stepper)
        weighed = []
        for decision in choices:
            child = root.children.get(decision)
            if child is None or not child.visits:
                weighed.append(Weighed(decision, 0, None))
            else:
                weighed.append(Weighed(decision, child.visits, child.total / child.visits))
        return weighed

    def _iterate(
        self,
        game: Any,
        world: Any,
        root: _Node,
        player: str,
        allowed: set[Event],
        rng: random.Random,
        playout: int,
        judges: bool,
        stepper: Any,
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
                # Below the tree: a random playout, then the game's judgement or the standings.
                values = self._leaf(game, world, rng, playout, judges, stepper)
                break
            if judges and node is not root:
                decision = self._widen(game, world, node, mover, options, rng)
            else:
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

    def _widen(
        self, game: Any, world: Any, node: _Node, mover: str, options: Sequence[Event], rng: random.Random
    ) -> Event:
        """UCB1 among the children open here, after adding one when the node
        has been seen often enough for another."""
        children = node.children
        known = [d for d in options if d in children]
        for decision in known:
            children[decision].available += 1
        if len(known) < min(len(options), 1 + int(math.sqrt(node.visits))):
            untried = [d for d in options if d not in children]
            choice = game.prefer(world, mover, untried, rng)
            if choice not in untried:
                choice = untried[rng.randrange(len(untried))]
            return choice
        c = self.exploration
        best, best_score = known[0], -math.inf
        for decision in known:
            child = children[decision]
            score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = decision, score
        return best

    def _leaf(
        self, game: Any, world: Any, rng: random.Random, playout: int, judges: bool, stepper: Any
    ) -> dict[str, float]:
        """The value of a new leaf for each player."""
        if playout:
            world = self._playout(game, world, rng, playout, stepper)
        step = game.next(world)
        if judges:
            # Judged where someone decides next: the dice rolled and the rule
            # events done that a position before them would leave open.
            while isinstance(step, (Chance, Forced)):
                world = game.apply(world, _draw(step, rng) if isinstance(step, Chance) else step.event)
                step = game.next(world)
            if not isinstance(step, Over):
                judged = game.evaluate(world)
                if judged is not None:
                    return {p: float(judged.get(p, 0.0)) for p in game.players}
        return _values(game, world, finished=isinstance(step, Over))

    def _playout(self, game: Any, world: Any, rng: random.Random, events: int, stepper: Any) -> Any:
        """The world after up to ``events`` events drawn at random (or by the
        policy) by ``stepper``: the game's fast path, or :class:`_Plain`."""
        live = stepper.thaw(world)
        # The random bot's own draw in a step that declares one (a space of
        # slots, or a draw from its listing): the uniform choice without the
        # listing. A playout by a policy is handed the listing.
        samplers = getattr(stepper, "samplers", None) if self.policy is None else None
        for _ in range(events):
            step = stepper.next(live)
            if isinstance(step, Over):
                break
            if isinstance(step, Chance):
                event = _draw(step, rng)
            elif isinstance(step, Forced):
                event = step.event
            else:
                mover = step.players[0]
                sampler = samplers.get(live.at) if samplers else None
                if sampler is not None:
                    event = sampler(game, live, mover, rng)
                    if event is None:  # pragma: no cover
                        break
                else:
                    options = stepper.legal(live, mover)
                    if not options:  # pragma: no cover
                        break
                    if self.policy is None:
                        event = random_choice(game, None, mover, options, rng)
                    else:
                        event = self.policy(game, stepper.freeze(live), mover, options, rng)
            stepper.apply(live, event)
        return stepper.freeze(live)


class _Plain:
    """The plain rules in the shape of a fast path (``thaw``, ``next``,
    ``legal``, ``apply``, ``freeze``) on a one-item list holding the world,
    so that one playout loop serves a game with a fast path and one without."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def thaw(self, world: Any) -> list[Any]:
        return [world]

    def freeze(self, cell: list[Any]) -> Any:
        return cell[0]

    def next(self, cell: list[Any]) -> Any:
        return self.game.next(cell[0])

    def legal(self, cell: list[Any], player: str) -> Sequence[Event]:
        return self.game.legal(cell[0], player)

    def apply(self, cell: list[Any], event: Event) -> None:
        cell[0] = self.game.apply(cell[0], event)


def _judges(game: Any) -> bool:
    """Whether ``game`` judges positions (overrides :meth:`Game.evaluate`)."""
    method = getattr(type(game), "evaluate", None)
    return method is not None and method is not Game.evaluate


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
