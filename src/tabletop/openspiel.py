"""tabletop's games as OpenSpiel games: ``import tabletop.openspiel``.

Importing this module registers every installed game with ``pyspiel`` as
``tabletop_<game>`` (``tabletop_glux``, ``tabletop_glyph_chess``), with the
parameters ``players`` (a count), ``variants`` (the text of ``--variant``,
several separated by ``;``), ``options`` (``key=value,...``) and ``plugins``
(house-rule files or folders, separated by ``;``, as ``--plugins`` takes
them)::

    import pyspiel, tabletop.openspiel
    game = pyspiel.load_game("tabletop_glux", {"players": 4,
        "variants": "glux-room-points:first=5,second=3",
        "plugins": "variants/house_rules"})

The adapter is thin: the rules are tabletop's own engine. Chance nodes are the
game's (with their weights as probabilities), decisions are numbered by the
game's :mod:`~tabletop.numbering`, information-state and observation strings
and tensors come from what the game shows each player (its events as that
player sees them, its ``view``), and a state serializes as its tabletop log.
See docs/ai.md.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is not installed
    from .errors import UsageError

    raise UsageError("the OpenSpiel adapter needs OpenSpiel: pip install 'tabletop[openspiel]'") from exc

from . import live
from .api import registry as registry_of
from .engine import Match
from .errors import TabletopError, UsageError
from .events import Event, Seal, Unseal
from .header import Header, Randomness
from .nodes import Chance, Decide, Forced, Over
from .numbering import Actions, Menu, actions_for
from .registry import Registry
from .returns import returns_of
from .views import features, hashed

#: Sizes of the hashed tensors (see :func:`tabletop.views.hashed`).
OBSERVATION_SIZE = 2048
INFORMATION_SIZE = 4096
#: OpenSpiel needs a bound on a game's length in actions; tabletop's self-play stops at 100,000 events.
LONGEST = 100_000
#: The line of a serialized state that holds the words of a decision being spelt.
SPELLING = "#spelling "
#: A line of a serialized state that holds a sealed decision not yet revealed.
SECRET = "#sealed "
#: Characters kept as they are in a parameter's value in OpenSpiel's game string.
SAFE = ":;/-_.@ ~+"


def short_name(game: str) -> str:
    """The name OpenSpiel knows ``game`` by: ``tabletop_glyph_chess``."""
    return "tabletop_" + game.replace("-", "_")


def _split(text: str, sep: str) -> list[str]:
    return [part.strip() for part in text.split(sep) if part.strip()]


def _options(text: str) -> dict[str, str]:
    options = {}
    for pair in _split(text, ","):
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"options: {pair!r} is not key=value")
        options[key.strip()] = value.strip()
    return options


class Setup:
    """One loaded game's fixed parts: registry, header, rules, action numbers."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.name, self.params = name, dict(params)
        params = {k: unquote(v) if isinstance(v, str) else v for k, v in params.items()}
        plugins = tuple(_split(str(params.get("plugins", "")), ";"))
        self.registry: Registry = registry_of([Path(p) for p in plugins])
        count = int(params.get("players", 2))
        players = [f"p{i}" for i in range(1, count + 1)]
        variants = _split(str(params.get("variants", "")), ";")
        options = _options(str(params.get("options", "")))
        header, _, made = live.make_header(self.registry, name, players, variants, options, seed="openspiel")
        # Chance is OpenSpiel's: the log records outcomes as a table would, with no seed.
        self.header = Header(header.game, header.players, header.variants, header.options, Randomness())
        self.game = self.registry.game(self.header)
        self.actions: Actions = actions_for(self.registry, self.header, self.game)
        self.players = tuple(players)
        self.seats = {p: i for i, p in enumerate(players)}

    def match(self) -> Match:
        return Match(self.registry, self.header, self.game)

    def __deepcopy__(self, memo: dict) -> Setup:
        return self  # fixed by the parameters: shared by every state of the game

    def __reduce__(self) -> tuple:
        return Setup, (self.name, self.params)


def game_type(cls: type) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"tabletop {cls.title or cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": cls.min_players, "variants": "", "options": "", "plugins": ""},
        default_loadable=True,
        provides_factored_observation_string=False,
    )


def _make_game_class(name: str, spiel_type: pyspiel.GameType) -> type:
    class TabletopGame(pyspiel.Game):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            full = {"players": spiel_type.min_num_players, "variants": "", "options": "", "plugins": "", **params}
            # OpenSpiel writes a game as name(key=value,...): ',' and '=' in a
            # value are kept percent-encoded there, and read back either way.
            for key in ("variants", "options", "plugins"):
                full[key] = quote(unquote(str(full[key])), safe=SAFE)
            self.setup = Setup(name, full)
            n = len(self.setup.players)
            info = pyspiel.GameInfo(
                num_distinct_actions=len(self.setup.actions),
                max_chance_outcomes=self.setup.actions.numbering.most_outcomes(self.setup.game),
                num_players=n,
                min_utility=-1.0 / (n - 1),
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=LONGEST,
            )
            super().__init__(spiel_type, info, full)

        def new_initial_state(self) -> TabletopState:
            return TabletopState(self)

        def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
            return Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

        def deserialize_state(self, text: str) -> TabletopState:
            return TabletopState.from_log(self, text)

    TabletopGame.__name__ = TabletopGame.__qualname__ = "Tabletop_" + name.replace("-", "_")
    return TabletopGame


def _of_play(name: str) -> property:
    return property(lambda self: getattr(self.play, name), lambda self, value: setattr(self.play, name, value))


class TabletopState(pyspiel.State):
    """A tabletop match seen by OpenSpiel."""

    match = _of_play("match")
    events = _of_play("events")
    secrets = _of_play("secrets")
    #: The words (action numbers) of a decision being spelt.
    prefix = _of_play("prefix")
    #: After a resample: what the resampling player had seen before it.
    before = _of_play("before")
    _menu = _of_play("menu")

    def __init__(self, game: pyspiel.Game) -> None:
        super().__init__(game)
        self.setup: Setup = game.setup
        self.play = Play(self.setup)
        self._settle()

    # -- OpenSpiel's state API ----------------------------------------------
    def current_player(self) -> int:
        node = self.match.node
        if isinstance(node, Over):
            return pyspiel.PlayerId.TERMINAL
        if isinstance(node, Chance):
            return pyspiel.PlayerId.CHANCE
        assert isinstance(node, Decide)
        return self.setup.seats[node.players[0]]

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self.menu().open(self.prefix)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self.match.node
        assert isinstance(node, Chance)
        weights = node.weights or (1,) * len(node.outcomes)
        total = sum(weights)
        return [(i, w / total) for i, w in enumerate(weights) if w > 0]

    def _apply_action(self, action: int) -> None:
        node = self.match.node
        if isinstance(node, Chance):
            self._add(node.outcomes[action])
        else:
            self.prefix, decision = self.menu().take(self.prefix, action)
            self._menu = self._menu if decision is None else None
            if decision is not None:
                if node.sealed:
                    player = decision.player  # type: ignore[attr-defined]
                    salt = hashlib.sha256(f"salt {player} {self.match.seq}".encode()).hexdigest()[:32]
                    # The sealer remembers what they sealed (perfect recall); the others see a seal.
                    self.play.own[len(self.events)] = f"{player} seals {self.match.describe(decision, player)}"
                    decision = live.seal(self.match, decision, self.secrets, salt)
                self._add(decision)
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            node = self.match.node
            if isinstance(node, Chance) and 0 <= action < len(node.outcomes):
                return self.match.describe(node.outcomes[action])
            return f"outcome {action}"
        words = self.setup.actions.words
        return words[action] if 0 <= action < len(words) else f"action {action}"

    def is_terminal(self) -> bool:
        return self.match.over

    def returns(self) -> list[float]:
        if not self.match.over:
            return [0.0] * len(self.setup.players)
        return returns_of(self.setup.game.outcome(self.match.state), self.setup.players)

    def __str__(self) -> str:
        text = self.setup.game.render(self.match.state, None)
        if self.prefix:
            text += "\nspelling: " + " ".join(self.setup.actions.words[a] for a in self.prefix)
        return text

    # -- tabletop's side -------------------------------------------------------
    def menu(self) -> Menu:
        if self._menu is None:
            node = self.match.node
            assert isinstance(node, Decide)
            self._menu = self.setup.actions.menu(self.match.legal(node.players[0]))
        return self._menu

    def log(self) -> list[str]:
        """The game so far as a tabletop log (header first)."""
        if self.before is not None:
            raise UsageError("a state resampled from a player's information has no log of its own")
        return self.setup.registry.codec.log(self.setup.header, self.events)

    def serialize(self) -> str:
        """The tabletop log; a decision being spelt adds a last line with its words."""
        lines = self.log()
        for player, secret in sorted(self.secrets.items()):
            # Sealed and not yet revealed: kept apart from the log, as a referee keeps them.
            lines.append(SECRET + json.dumps({"player": player, **secret}, sort_keys=True))
        if self.prefix:
            lines.append(SPELLING + " ".join(map(str, self.prefix)))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_log(cls, game: pyspiel.Game, text: str) -> TabletopState:
        """The state a serialized log leads to (every event checked)."""
        state = cls(game)
        lines = text.splitlines()
        prefix: tuple[int, ...] = ()
        if lines and lines[-1].startswith(SPELLING):
            prefix = tuple(int(w) for w in lines.pop()[len(SPELLING) :].split())
        secrets = {}
        while lines and lines[-1].startswith(SECRET):
            secret = json.loads(lines.pop()[len(SECRET) :])
            secrets[secret.pop("player")] = secret
        if not lines or lines[0] != state.setup.header.line():
            raise UsageError("line 1: not the header of this game and these parameters")
        codec = state.setup.registry.codec
        game_name = state.setup.header.game
        for number, line in enumerate(lines[1:], start=2):
            try:
                _, event = codec.decode_line(game_name, line)
                state.match.accept(event)
            except TabletopError as exc:
                raise UsageError(f"line {number}: {exc}") from None
            state.events.append(event)
            state._menu = None
        state.secrets.update(secrets)
        # The sealer's own lines are written again from the secrets.
        for k, event in enumerate(state.events):
            if isinstance(event, Seal) and event.player in secrets:
                sealed = state.match.unsealed(Unseal(event.player, **secrets[event.player]))
                state.play.own[k] = f"{event.player} seals {state.match.describe(sealed, event.player)}"
        for action in prefix:
            state.apply_action(action)
        return state

    def _add(self, event: Event) -> None:
        self.match.apply(event)
        self.events.append(event)
        self._menu = None

    def _settle(self) -> None:
        """Apply what the rules force and reveal sealed decisions, until a
        player or chance acts (or the game is over)."""
        match = self.match
        while True:
            node = match.node
            if match.revealing and all(p in self.secrets for p in node.players):
                for player in node.players:
                    secret = self.secrets.pop(player)
                    self._add(Unseal(player, secret["salt"], secret["choice"]))
            elif isinstance(node, Forced):
                self._add(node.event)
            else:
                return

    # -- what each player knows ------------------------------------------------
    def seen(self, player: int) -> tuple[str, ...]:
        """The events so far as ``player`` saw them, one line each."""
        # Kept per player and extended as events come: OpenSpiel asks at every step.
        count, lines = self.play.seen.get(player, (0, self.before or ()))
        if count < len(self.events):
            name = self.setup.players[player]
            describe = self.match.describe
            own = self.play.own
            lines += tuple(
                (own.get(k, "") if e.player == name else "") or f"{e.player} seals"
                if isinstance(e, Seal)
                else describe(e, name)
                for k, e in enumerate(self.events[count:], start=count)
            )
            self.play.seen[player] = (len(self.events), lines)
        return lines

    def spelling_of(self, player: int) -> list[str]:
        """The words of the decision being spelt, for the one spelling it."""
        if self.prefix and self.current_player() == player:
            return [self.setup.actions.words[a] for a in self.prefix]
        return []

    def resample_from_infostate(self, player: int, sampler: Any = None) -> TabletopState:
        """A state ``player`` cannot tell from this one: the hidden items drawn
        anew by the game's ``determinize`` from the player's view."""
        name = self.setup.players[player]
        game = self.setup.game
        view = game.view(self.match.state, name)
        u = sampler() if callable(sampler) else random.random()
        world = game.determinize(view, name, random.Random(int(float(u) * 2**53)))
        other = self.clone()
        other.play.before = self.seen(player)
        other.play.seen = {}
        other.events = []
        # A Match over made-up hidden items: never logged (see log()).
        match = other.match
        match.restore(world, match.seq, match.revealed, match.seals)
        other._menu = None
        return other


class Play:
    """The changing part of a state, copied cheaply (OpenSpiel copies states
    all the time): a match's state is an immutable value, so a copy of the
    match shares it."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.match = setup.match()
        self.events: list[Event] = []
        self.secrets: live.Secrets = {}
        self.prefix: tuple[int, ...] = ()
        self.before: tuple[str, ...] | None = None
        self.menu: Menu | None = None
        #: player -> (events seen, their lines), see TabletopState.seen.
        self.seen: dict[int, tuple[int, tuple[str, ...]]] = {}
        #: Event index of a seal -> the line its sealer sees for it.
        self.own: dict[int, str] = {}

    def __deepcopy__(self, memo: dict) -> Play:
        other = Play.__new__(Play)
        other.__dict__.update(self.__dict__)
        other.match = copy.copy(self.match)
        other.match.seals = dict(self.match.seals)
        other.events = list(self.events)
        other.secrets = {k: dict(v) for k, v in self.secrets.items()}
        other.seen = dict(self.seen)
        other.own = dict(self.own)
        return other

    def __reduce__(self) -> tuple:
        # Pickled as its log (a resampled state as what its player had seen).
        return _restore, (self.setup, self.events, self.secrets, self.prefix, self.before, self.own)


def _restore(
    setup: Setup,
    events: list[Event],
    secrets: live.Secrets,
    prefix: tuple[int, ...],
    before: Any,
    own: dict[int, str],
) -> Play:
    play = Play(setup)
    for event in events:
        play.match.accept(event)
    play.events, play.secrets, play.prefix, play.before = list(events), dict(secrets), prefix, before
    play.own = dict(own)
    return play


class Observer:
    """What a player may know, as OpenSpiel's observers give it.

    With perfect recall (the information state) it is every event so far as
    the player saw it (others' hidden draws redacted by the game), plus the
    words of a decision the player is spelling; without (the observation) it
    is the player's view of the position, drawn as the game draws it for that
    player. The tensors hash the same facts (see :func:`tabletop.views.hashed`).
    """

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"tabletop observers take no parameters; given {params}")
        self.recall = bool(iig_obs_type.perfect_recall)
        size = INFORMATION_SIZE if self.recall else OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"hashed": self.tensor}

    def _facts(self, state: TabletopState, player: int) -> list[str]:
        if self.recall:
            return [f"{i} {line}" for i, line in enumerate(state.seen(player))] + [
                f"spelling {i} {w}" for i, w in enumerate(state.spelling_of(player))
            ]
        name = state.setup.players[player]
        view = state.setup.game.view(state.match.state, name)
        return [*features(view), *(f"spelling {i} {w}" for i, w in enumerate(state.spelling_of(player)))]

    def set_from(self, state: TabletopState, player: int) -> None:
        self.tensor.fill(0)
        for index in hashed(self._facts(state, player), len(self.tensor)):
            self.tensor[index] = 1.0

    def string_from(self, state: TabletopState, player: int) -> str:
        name = state.setup.players[player]
        if self.recall:
            lines = [f"{name}:", *state.seen(player)]
        else:
            lines = [f"{name}:", state.setup.game.render(state.match.state, name)]
        spelling = state.spelling_of(player)
        if spelling:
            lines.append("spelling: " + " ".join(spelling))
        return "\n".join(lines)


def register(plugins: Sequence[str | Path] = ()) -> list[str]:
    """Register every game installed (and in ``plugins``) with pyspiel, once
    each; return their OpenSpiel names."""
    names = []
    registered = set(pyspiel.registered_names())
    for name, cls in registry_of(list(plugins)).games.items():
        spiel_name = short_name(name)
        names.append(spiel_name)
        if spiel_name in registered:
            continue
        spiel_type = game_type(cls)
        made = _make_game_class(name, spiel_type)
        globals()[made.__name__] = made  # so that pickle finds it
        pyspiel.register_game(spiel_type, made)
    return names


register()
