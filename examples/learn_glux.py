"""Learning two-player Glüx from its planes: a value of positions, fitted by
scikit-learn, that beats a random player.

    python examples/learn_glux.py [--games 100] [--test-games 1000] [--seed 1]

The algorithm is Monte Carlo control over afterstates, the framing of
TD-Gammon: a player weighs each of its legal placements by the position it
leads to, as that player sees it (OpenSpiel's ``observation_tensor``: Glüx's
planes, from the player's view only), and plays the one its value function
likes best (or, one time in ``--explore``, any). After each game of
self-play, every position a player chose is labelled with whether that
player won, and the value function (scikit-learn's ``SGDClassifier`` with
the logistic loss: a logistic regression fitted online) learns from them.
Then the learnt player meets a uniformly random player, seats
alternating, and the share it wins is printed with its 95% Wilson interval.

It needs the extras ``openspiel`` and ``learn`` (``pip install -e
".[openspiel,learn]"``); docs/ai.md shows a run.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from sklearn.linear_model import SGDClassifier

import tabletop.ai.openspiel  # noqa: F401  (registers tabletop_glux with pyspiel)
from tabletop.many.intervals import wilson


class Learner:
    """Picks the placement whose afterstate the value function likes best."""

    def __init__(self, seed: int) -> None:
        self.model = SGDClassifier(loss="log_loss", alpha=1e-4, random_state=seed)
        self.fitted = False

    def afterstates(self, state: pyspiel.State, player: int) -> tuple[list[int], np.ndarray]:
        actions = state.legal_actions()
        seen = []
        for action in actions:
            after = state.child(action)
            seen.append(after.observation_tensor(player))
        return actions, np.asarray(seen, np.float32)

    def choose(self, state: pyspiel.State, rng: random.Random, explore: float) -> tuple[int, np.ndarray]:
        player = state.current_player()
        actions, seen = self.afterstates(state, player)
        if not self.fitted or rng.random() < explore:
            k = rng.randrange(len(actions))
        else:
            k = int(np.argmax(self.model.decision_function(seen)))
        return actions[k], seen[k]

    def learn(self, positions: np.ndarray, won: np.ndarray) -> None:
        self.model.partial_fit(positions, won, classes=[0, 1])
        self.fitted = True


def chance(state: pyspiel.State, rng: random.Random) -> None:
    actions, probabilities = zip(*state.chance_outcomes())
    state.apply_action(rng.choices(actions, probabilities)[0])


def self_play(game: pyspiel.Game, learner: Learner, rng: random.Random, explore: float) -> int:
    """One game of the learner against itself; it learns from it. The decisions taken."""
    state = game.new_initial_state()
    chosen: list[tuple[int, np.ndarray]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
            continue
        player = state.current_player()
        action, position = learner.choose(state, rng, explore)
        chosen.append((player, position))
        state.apply_action(action)
    returns = state.returns()
    learner.learn(np.asarray([p for _, p in chosen]), np.asarray([int(returns[who] > 0) for who, _ in chosen]))
    return len(chosen)


def against_random(game: pyspiel.Game, learner: Learner, seat: int, rng: random.Random) -> float:
    """One game, the learner in ``seat`` and a uniformly random player in the other: its return."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
        elif state.current_player() == seat:
            state.apply_action(learner.choose(state, rng, explore=0.0)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()[seat]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games of self-play to learn from")
    parser.add_argument("--test-games", type=int, default=1000, help="games against the random player")
    parser.add_argument("--explore", type=float, default=0.2, help="how often a random placement is tried")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    game = pyspiel.load_game("tabletop_glux", {"players": 2})
    rng = random.Random(args.seed)
    learner = Learner(args.seed)
    start = time.process_time()
    steps = sum(self_play(game, learner, rng, args.explore) for _ in range(args.games))
    learnt = time.process_time() - start
    print(f"learnt from {args.games} games of self-play ({steps} decisions) in {learnt:.0f} s of CPU")
    won = sum(against_random(game, learner, g % 2, rng) > 0 for g in range(args.test_games))
    low, high = wilson(won, args.test_games)
    print(
        f"against a random player: won {won} of {args.test_games} "
        f"({won / max(args.test_games, 1):.0%}, 95% interval {low:.0%} to {high:.0%})"
    )


if __name__ == "__main__":
    main()
