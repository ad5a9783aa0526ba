"""tabletop's games as PettingZoo AEC environments.

::

    from tabletop.ai.pettingzoo import env
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
words (:mod:`tabletop.ai.actions`, a ``Discrete`` space with a mask of the
words open now); the observation is the agent's view as the game's planes
(:mod:`tabletop.sight.planes`), or hashed into a vector for a game that declares
none (:func:`tabletop.sight.views.hashed`); ``render()`` draws the board as the
agent to act sees it, and the whole board once the game is over. Nothing an
agent is shown comes from more than its view (:mod:`tabletop.sight.seen`). Chance
is drawn inside the environment from the episode's seed (``reset(seed=N)``
plays the seed ``pettingzoo-N``), as in any live tabletop game, so a saved
episode is checked by ``tabletop verify``. Rewards are the game's payoffs
(:meth:`tabletop.Game.payoffs`; by default a share of the victory), at the
end, and during play for a game that declares :meth:`tabletop.Game.rewards`
(the rest of its payoffs then comes at the end); an episode the rules do not
bound is truncated after ``limit`` steps (:mod:`tabletop.base.limits`).
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
    from ..base.errors import UsageError

    raise UsageError("the PettingZoo adapter needs PettingZoo: pip install 'tabletop[pettingzoo]'") from exc

from ..api import Table, registry, start
from ..base.caches import Bound
from ..base.errors import PluginError
from ..base.limits import LIMIT, length_of
from ..model.events import Event
from ..play import chance
from ..sight import seen
from ..sight.planes import Observation, planes_of
from ..sight.views import features, hashed
from .actions import Actions, Menu, actions_for
from .returns import Payout

#: The length of the hashed observation vector (a game that declares no planes).
OBSERVATION_SIZE = 2048
#: Spellings kept between decision points (a Glüx placement is met again and
#: again): each a decision and its few words; a game meets some hundreds.
SPELLINGS_KEPT = Bound(1 << 16)


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
        limit: int = LIMIT,
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
        #: The most steps an episode takes, and where one is truncated (``tabletop.base.limits``).
        self.length = length_of(self.table.game, limit)
        #: What the game pays (:mod:`tabletop.ai.returns`).
        self.payout = Payout(self.table.game)
        #: What the episode paid each agent so far, in seat order.
        self.paid = self.payout.none()
        declared = planes_of(self.table.game)
        #: The game's planes and the words being spelt (``tabletop.sight.planes``), or None: hashed.
        self.planes = None if declared is None else Observation(declared, self.actions.words)
        size = len(self.actions)
        if self.planes is None:
            observation = gymnasium.spaces.Box(0, 1, (OBSERVATION_SIZE,), np.int8)
        else:
            observation = gymnasium.spaces.Box(np.zeros_like(self.planes.high), self.planes.high, dtype=np.float32)
        self._action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {
            a: gymnasium.spaces.Dict(
                {"observation": observation, "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8)}
            )
            for a in self.possible_agents
        }
        self._spelt: dict[Event, tuple[int, ...]] = {}
        self.prefix: tuple[int, ...] = ()
        self.words = 0

    def _start(self, seed: str) -> Table:
        table = start(
            self.game_name,
            self.possible_agents,
            variants=self.variants,
            options=self.options,
            seed=seed,
            registry=self.registry,
        )
        # Nothing keeps the states between steps: the game's fast path (a
        # mutable state, frozen only when a view is asked for) plays them.
        table.match.hurry()
        return table

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
        self.prefix = ()
        self.words = 0
        self.paid = self.payout.none()
        self._menu: _Menu | None = None
        self._mask: np.ndarray | None = None
        self._settled()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        acting = agent == self.agent_selection and not self._ended()
        if self.planes is None:
            vector = np.zeros(OBSERVATION_SIZE, np.int8)
            facts = list(features(self.table.view(agent)))
            if acting and self.prefix:
                facts += [f"spelling {i} {self.actions.words[w]}" for i, w in enumerate(self.prefix)]
            vector[list(hashed(facts, OBSERVATION_SIZE))] = 1
        else:
            vector = self.planes.vector(self.table.game, self.table.match.state, agent, self.prefix if acting else ())
        if acting:
            mask = self._mask_now().copy()
        else:
            mask = np.zeros(len(self.actions), np.int8)
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        mask = self._mask_now()
        if action is None or not 0 <= int(action) < len(mask) or not mask[int(action)]:
            raise ValueError(f"{agent}: action {action} is not open now (see the observation's action_mask)")
        self.words += 1
        self.prefix, decision = self._menu_now().take(self.prefix, int(action))
        self._mask = None
        got = None
        if decision is not None:
            before = self.table.match.state if self.payout.during else None
            added = self.table.play(decision)
            self._menu = None
            if before is not None:
                got = self.payout.along(before, added, self.table.match.unsealed)
        self._settled(got)
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

    def _ended(self) -> bool:
        return self.table.over or self.truncations.get(self.agent_selection, False)

    def _menu_now(self) -> _Menu:
        if self._menu is None:
            self._menu = _Menu(self.actions, self.table.legal(self.agent_selection), self._spelt)
        return self._menu

    def _mask_now(self) -> np.ndarray:
        """The words open to the agent to act: made once per step, for its
        observation and for checking its action."""
        if self._mask is None:
            mask = np.zeros(len(self.actions), np.int8)
            mask[self._menu_now().open(self.prefix)] = 1
            self._mask = mask
        return self._mask

    def _settled(self, got: list[float] | None = None) -> None:
        """Whose turn it is, the rewards (``got``, what the step paid
        during play; once the game is over, the rest of its payoffs), or
        the truncation once it reaches the limit unfinished."""
        got = got or self.payout.none()
        if self.table.over:
            payoffs = self.payout.at_end(self.table.match.state)
            for k, agent in enumerate(self.possible_agents):
                self.rewards[agent] = payoffs[k] - self.paid[k]
                self.terminations[agent] = True
            self.paid = payoffs
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
            return
        for k, agent in enumerate(self.possible_agents):
            self.rewards[agent] = got[k]
        self.paid = [a + b for a, b in zip(self.paid, got)]
        self.agent_selection = self.table.deciding[0]
        stop = self.length.stop
        if stop is not None and self.words >= stop:
            for agent in self.agents:
                self.truncations[agent] = True
            return
        self.length.check(self.table.game, self.words, True)


class _Menu:
    """The legal decisions of the agent to act, by their words. A game whose
    decisions are one word each (a Glüx placement) is a table from word to
    decision; longer spellings are chosen a word at a time (``Menu``)."""

    __slots__ = ("single", "menu")

    def __init__(self, actions: Actions, legal: Sequence[Event], spelt: dict[Event, tuple[int, ...]]) -> None:
        entries = []
        for decision in legal:
            words = spelt.get(decision)
            if words is None:
                words = SPELLINGS_KEPT.keep(spelt, decision, actions.of(decision))
            entries.append((words, decision))
        self.single: dict[int, Event] | None = None
        self.menu: Menu | None = None
        if all(len(words) == 1 for words, _ in entries):
            self.single = {words[0]: decision for words, decision in entries}
            if len(self.single) != len(entries):
                raise PluginError(f"{actions.game.name}: two legal decisions are spelt with the same words")
        else:
            self.menu = actions.menu(legal)

    def open(self, prefix: tuple[int, ...]) -> list[int]:
        if self.menu is not None:
            return self.menu.open(prefix)
        return sorted(self.single)  # type: ignore[arg-type]

    def take(self, prefix: tuple[int, ...], action: int) -> tuple[tuple[int, ...], Event | None]:
        if self.menu is not None:
            return self.menu.take(prefix, action)
        return (), self.single[action]  # type: ignore[index]


def env(game: str, **kwargs: Any) -> TabletopEnv:
    """A PettingZoo AEC environment of ``game`` (``players``, ``variants``,
    ``options``, ``plugins``, ``render_mode``, ``limit`` as for :class:`TabletopEnv`)."""
    return TabletopEnv(game, **kwargs)
