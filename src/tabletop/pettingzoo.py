"""tabletop's games as PettingZoo AEC environments.

::

    from tabletop.pettingzoo import env
    table = env("glux", players=4, variants=["glux-room-points:first=6"],
                plugins=["variants/house_rules"])
    table.reset(seed=1)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, info = table.last()
        mask = observation["action_mask"]
        action = None if terminated or truncated else int(np.flatnonzero(mask)[0])
        table.step(action)
    table.save("episode.jsonl")   # a tabletop log: replay, verify, view it

Agents are the seats ``p1``, ``p2``, ...; actions are the game's numbered
words (:mod:`tabletop.numbering`, a ``Discrete`` space with a mask of the
words open now); the observation is the agent's view hashed into a vector
(:func:`tabletop.views.hashed`); ``render()`` draws the board as the agent
to act sees it, and the whole board once the game is over. Nothing an agent
is shown comes from more than its view (:mod:`tabletop.seen`). Chance is drawn
inside the environment from
the episode's seed (``reset(seed=N)`` plays the seed ``pettingzoo-N``), as in
any live tabletop game, so a saved episode is checked by ``tabletop verify``.
Rewards come at the end (:func:`tabletop.returns.returns_of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - the extra is not installed
    from .errors import UsageError

    raise UsageError("the PettingZoo adapter needs PettingZoo: pip install 'tabletop[pettingzoo]'") from exc

from . import chance, seen
from .api import Table, registry, start
from .numbering import Actions, Menu, actions_for
from .returns import returns_of
from .views import features, hashed

#: The length of the hashed observation vector.
OBSERVATION_SIZE = 2048


class TabletopEnv(AECEnv):
    """One tabletop game as an AEC environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int = 2,
        variants: Sequence[str] = (),
        options: Mapping[str, str] | None = None,
        plugins: Sequence[str | Path] = (),
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.registry = registry(list(plugins))
        self.game_name = game
        self.variants = tuple(variants)
        self.options = dict(options or {})
        self.possible_agents = [f"p{i}" for i in range(1, players + 1)]
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tabletop_{game.replace('-', '_')}_v0"}
        # One table made now checks the game, players, variants and options at once.
        self.table = self._start("pettingzoo")
        self.actions: Actions = actions_for(self.registry, self.table.header, self.table.game)
        size = len(self.actions)
        self._action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0, 1, (OBSERVATION_SIZE,), np.int8),
                    "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }

    def _start(self, seed: str) -> Table:
        return start(
            self.game_name,
            self.possible_agents,
            variants=self.variants,
            options=self.options,
            seed=seed,
            registry=self.registry,
        )

    # -- PettingZoo's API ------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.table = self._start(f"pettingzoo-{seed}" if seed is not None else chance.new_seed())
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.prefix: tuple[int, ...] = ()
        self._menu: Menu | None = None
        self._settled()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        vector = np.zeros(OBSERVATION_SIZE, np.int8)
        facts = list(features(self.table.view(agent)))
        if agent == self.agent_selection and self.prefix:
            facts += [f"spelling {i} {self.actions.words[w]}" for i, w in enumerate(self.prefix)]
        vector[list(hashed(facts, OBSERVATION_SIZE))] = 1
        mask = np.zeros(len(self.actions), np.int8)
        if agent == self.agent_selection and not self.table.over:
            mask[self._open()] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if action is None or int(action) not in self._open():
            raise ValueError(f"{agent}: action {action} is not open now (see the observation's action_mask)")
        self.prefix, decision = self._menu_now().take(self.prefix, int(action))
        if decision is not None:
            self.table.play(decision)
            self._menu = None
        self._settled()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The board as the agent to act sees it (``ansi``); all of it once the game is over."""
        if self.render_mode != "ansi":
            return None
        if self.table.over:
            return self.table.text(seen.EVERYONE)
        agent = self.agent_selection
        return f"{agent}:\n{self.table.text(agent)}"

    def close(self) -> None:
        pass

    # -- tabletop's side ---------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the episode so far as a tabletop log (a new file)."""
        return self.table.save(path)

    def _menu_now(self) -> Menu:
        if self._menu is None:
            self._menu = self.actions.menu(self.table.legal(self.agent_selection))
        return self._menu

    def _open(self) -> list[int]:
        return self._menu_now().open(self.prefix)

    def _settled(self) -> None:
        """Whose turn it is, or the rewards once the game is over."""
        if self.table.over:
            payoff = returns_of(self.table.outcome, self.possible_agents)
            for agent, value in zip(self.possible_agents, payoff):
                self.rewards[agent] = value
                self.terminations[agent] = True
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        self.agent_selection = self.table.deciding[0]


def env(game: str, **kwargs: Any) -> TabletopEnv:
    """A PettingZoo AEC environment of ``game`` (``players``, ``variants``,
    ``options``, ``plugins``, ``render_mode`` as for :class:`TabletopEnv`)."""
    return TabletopEnv(game, **kwargs)
