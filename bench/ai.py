"""The worked examples of docs/ai.md, with their numbers: an OpenSpiel
algorithm (ISMCTS) and a PettingZoo random-policy loop, both on Glüx with
the glux-room-points house rule.

    .venv/bin/python bench/ai.py ismcts --games 20 --simulations 25
    .venv/bin/python bench/ai.py pettingzoo --episodes 100

Needs the extras: pip install -e ".[openspiel,pettingzoo]".
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

HOUSE = str(Path(__file__).resolve().parent.parent / "variants" / "house_rules")
RULE = "glux-room-points:first=5,second=3"


def ismcts_against_random(games: int, simulations: int) -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    import tabletop.ai.openspiel

    tabletop.ai.openspiel.register([HOUSE])
    game = pyspiel.load_game("tabletop_glux", {"players": 2, "variants": RULE, "plugins": HOUSE})

    class ISMCTS(ismcts.ISMCTSBot):
        def restart_at(self, state):  # evaluate_bots restarts bots; each search starts afresh anyway
            pass

    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ISMCTS(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng, allow_inconsistent_action_sets=True
    )
    wins, start = 0.0, time.process_time()
    for g in range(games):
        # The searcher sits first in even games, second in odd ones.
        seats = [searcher, UniformRandomBot(1, rng)] if g % 2 == 0 else [UniformRandomBot(0, rng), searcher]
        returns = evaluate_bots(game.new_initial_state(), seats, rng)
        mine = returns[g % 2]
        wins += 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
    cpu = time.process_time() - start
    print(f"ISMCTS ({simulations} simulations) against random, tabletop_glux, 2 players, {RULE}:")
    print(f"  won {wins:g} of {games} games ({cpu:.0f} s of CPU, {cpu / games:.1f} s a game)")


def pettingzoo_random(episodes: int) -> None:
    import numpy as np

    from tabletop.ai.pettingzoo import env

    table = env("glux", players=4, variants=[RULE], plugins=[HOUSE])
    rng = np.random.default_rng(0)
    lengths, totals = [], dict.fromkeys(table.possible_agents, 0.0)
    wins = dict.fromkeys(table.possible_agents, 0)
    start = time.process_time()
    for episode in range(episodes):
        table.reset(seed=episode)
        steps = 0
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            totals[agent] += reward
            wins[agent] += reward > 0
            if terminated or truncated:
                table.step(None)
            else:
                table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
        lengths.append(steps)
    cpu = time.process_time() - start
    print(f"PettingZoo, random policy, glux 4 players, {RULE}: {episodes} episodes")
    print(f"  {statistics.mean(lengths):.1f} decisions an episode, {sum(lengths) / cpu:.0f} steps/s of CPU")
    print("  wins by seat: " + ", ".join(f"{a} {wins[a]}" for a in table.possible_agents))
    print("  mean return by seat: " + ", ".join(f"{a} {totals[a] / episodes:+.3f}" for a in table.possible_agents))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("ismcts")
    one.add_argument("--games", type=int, default=20)
    one.add_argument("--simulations", type=int, default=25)
    two = sub.add_parser("pettingzoo")
    two.add_argument("--episodes", type=int, default=100)
    args = parser.parse_args()
    if args.what == "ismcts":
        ismcts_against_random(args.games, args.simulations)
    else:
        pettingzoo_random(args.episodes)


if __name__ == "__main__":
    main()
