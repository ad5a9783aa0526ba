"""tabletop's games as OpenSpiel games: ``import tabletop.ai.openspiel``.

Importing this module registers every installed game with ``pyspiel`` as
``tabletop_<game>`` (``tabletop_glux``, ``tabletop_glyph_chess``), with the
parameters ``players`` (a count), ``variants`` (the text of ``--variant``,
several separated by ``;``), ``options`` (``key=value,...``) and ``plugins``
(house-rule files or folders, separated by ``;``, as ``--plugins`` takes
them)::

    import pyspiel, tabletop.ai.openspiel
    game = pyspiel.load_game("tabletop_glux", {"players": 4,
        "variants": "glux-room-points:first=5,second=3",
        "plugins": "variants/house_rules"})

The adapter is thin: the rules are tabletop's own engine. Chance nodes are the
game's (with their weights as probabilities), decisions are numbered by the
game's :mod:`~tabletop.model.numbering`, information-state and observation strings
and tensors come from what the game shows each player (its events as that
player sees them, its ``view``: never the state; the tensors are the game's
declared planes, :mod:`tabletop.sight.planes`, or hashed), ``max_game_length`` is
the bound the rules in force give (:mod:`tabletop.base.limits`; the parameter
``limit`` stops a game they do not bound), returns, rewards and utilities are
the game's declared payoffs (:mod:`.returns`; by default win/loss), and a
state serializes as its tabletop log.

What the adapter guarantees (docs/ai.md):

- Observations come from the player's view only (:mod:`tabletop.sight.seen`);
  ``str(state)`` is OpenSpiel's whole state, asked for by name.
- Text never runs code. A state is read back from its log, never unpickled:
  importing this module routes ``pyspiel.serialize_game_and_state`` and
  ``pyspiel.deserialize_game_and_state`` through the log for tabletop games
  (OpenSpiel's own form of a Python game's state carries a pickle), and a
  pickled state holds its game string and log. A game string's ``plugins=``
  names only house rules the program registered with :func:`register`.
- Search: ``resample_from_infostate`` draws worlds from the player's view
  with the game's ``determinize`` (ISMCTS); OpenSpiel's plain ``MCTSBot``
  searches the true state, and says so with an
  :class:`OmniscientSearchWarning`.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is not installed
    from ..base.errors import UsageError

    raise UsageError("the OpenSpiel adapter needs OpenSpiel: pip install 'tabletop[openspiel]'") from exc

from ..api import registry as registry_of
from ..base.errors import PluginError, TabletopError, UsageError
from ..base.errors import quote as quoted
from ..base.limits import LIMIT, Length, length_of
from ..host.registry import Registry
from ..log import jsonline
from ..log.header import Header, Randomness
from ..model.events import DECISION, Event, Seal, Unseal
from ..model.game import Game
from ..model.nodes import Chance, Decide, Forced, Over
from ..model.shapes import Deal
from ..play import chance, live
from ..play.engine import Match
from ..sight import seen
from ..sight.planes import MOST_WORDS, Observation, planes_of
from ..sight.views import features, hashed
from .actions import Actions, Menu, actions_for
from .returns import CONSTANT_SUM, GENERAL_SUM, Payout, kind_of, returns_of  # noqa: F401 (imported from here)

#: Sizes of the hashed tensors (see :func:`tabletop.sight.views.hashed`); the
#: information state of a game with planes ends with the hashed history.
OBSERVATION_SIZE = 2048
INFORMATION_SIZE = 4096
#: The most events a serialized state may hold (tabletop's self-play stops at 100,000).
LONGEST = 100_000
#: The line of a serialized state that holds the words of a decision being spelt.
SPELLING = "#spelling "
#: A line of a serialized state that holds a sealed decision not yet revealed.
SECRET = "#sealed "
#: Characters kept as they are in a parameter's value in OpenSpiel's game string.
SAFE = ":;/-_.@ ~+"
#: The first line of OpenSpiel's own form of a Python game's state, whose
#: ``__dict__=`` line is a pickle: never read for a tabletop game.
PICKLED = "history="


class OmniscientSearchWarning(UserWarning):
    """OpenSpiel's plain ``MCTSBot`` is searching a tabletop game: it plans on
    the true state, hidden items included, so it uses what its player may not
    know. ISMCTS plans on worlds drawn from the player's information; filter
    this warning by name to search the true state on purpose."""


#: House-rule files and folders the program registered (see :func:`register`),
#: resolved: the only ones a game string's ``plugins=`` may name, since a game
#: string is data and never loads code.
_REGISTERED: set[str] = set()


def short_name(game: str) -> str:
    """The name OpenSpiel knows ``game`` by: ``tabletop_glyph_chess``."""
    return "tabletop_" + game.replace("-", "_")


def _split(text: str, sep: str) -> list[str]:
    return [part.strip() for part in text.split(sep) if part.strip()]


def _resolved(path: str | Path) -> str | None:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError, ValueError):  # a NUL byte, a loop of links
        return None


def _registered(text: str) -> tuple[str, ...]:
    """The house rules ``plugins=`` names, each one the program registered."""
    named = tuple(_split(text, ";"))
    for path in named:
        if _resolved(path) not in _REGISTERED:
            raise UsageError(
                f"plugins: {quoted(path)} is not a house-rule file or folder this program registered; "
                "a game string names only what tabletop.ai.openspiel.register([...]) loaded and never loads code"
            )
    return named


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
        plugins = _registered(str(params.get("plugins", "")))
        self.registry: Registry = registry_of([Path(p) for p in plugins])
        count = int(params.get("players", 2))
        players = [f"p{i}" for i in range(1, count + 1)]
        variants = _split(str(params.get("variants", "")), ";")
        options = _options(str(params.get("options", "")))
        limit = params.get("limit", LIMIT)
        try:
            limit = int(limit)
        except (TypeError, ValueError):
            raise UsageError(f"limit: {limit!r} is not a whole number of words above 0") from None
        header, _, made = live.make_header(self.registry, name, players, variants, options, seed="openspiel")
        # Chance is OpenSpiel's: the log records outcomes as a table would, with no seed.
        self.header = Header(header.game, header.players, header.variants, header.options, Randomness())
        self.game = self.registry.game(self.header)
        self.actions: Actions = actions_for(self.registry, self.header, self.game)
        self.players = tuple(players)
        self.seats = {p: i for i, p in enumerate(players)}
        #: The most decision words a game takes, and where the adapter stops one (``tabletop.base.limits``).
        self.length: Length = length_of(self.game, limit)
        declared = planes_of(self.game)
        #: The game's planes and the words being spelt, or None: the hashed form.
        self.observation = None if declared is None else Observation(declared, self.actions.words)
        #: What the game pays (its declared payoffs, rewards during play and bounds).
        self.payout = Payout(self.game)
        #: How many events the rules force before the first action (paid at the end).
        self.opening = 0

    def match(self) -> Match:
        return Match(self.registry, self.header, self.game)

    def __deepcopy__(self, memo: dict) -> Setup:
        return self  # fixed by the parameters: shared by every state of the game

    def __reduce__(self) -> tuple:
        return Setup, (self.name, self.params)


#: OpenSpiel's kind of utility for each kind of payoffs (:mod:`.returns`).
UTILITY = {CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM, GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM}


def game_type(cls: type) -> pyspiel.GameType:
    """The game's OpenSpiel type: its kind of utility is its ``payoff_sum``'s,
    and its rewards come during play where it declares ``rewards``."""
    kind = kind_of(cls.payoff_sum)
    during = cls.rewards is not Game.rewards
    return pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"tabletop {cls.title or cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=UTILITY.get(kind, pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.REWARDS if during else pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": cls.min_players,
            "variants": "",
            "options": "",
            "plugins": "",
            "limit": LIMIT,
        },
        default_loadable=True,
        provides_factored_observation_string=False,
    )


def _make_game_class(name: str, spiel_type: pyspiel.GameType) -> type:
    class TabletopGame(pyspiel.Game):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            full = {
                "players": spiel_type.min_num_players,
                "variants": "",
                "options": "",
                "plugins": "",
                "limit": LIMIT,
                **params,
            }
            # OpenSpiel writes a game as name(key=value,...): ',' and '=' in a
            # value are kept percent-encoded there, and read back either way.
            for key in ("variants", "options", "plugins"):
                full[key] = quote(unquote(str(full[key])), safe=SAFE)
            self.setup = Setup(name, full)
            n = len(self.setup.players)
            payout = self.setup.payout
            info = pyspiel.GameInfo(
                num_distinct_actions=len(self.setup.actions),
                # A house rule's deal may have more outcomes than the game's own chance.
                max_chance_outcomes=max(
                    self.setup.actions.numbering.most_outcomes(self.setup.game), Deal.most(self.setup.game)
                ),
                num_players=n,
                min_utility=payout.low,
                max_utility=payout.high,
                utility_sum=payout.total,
                max_game_length=self.setup.length.longest,
            )
            super().__init__(spiel_type, info, full)

        def new_initial_state(self) -> TabletopState:
            return TabletopState(self)

        def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
            return Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self.setup)

        def deserialize_state(self, text: str) -> TabletopState:
            return TabletopState.from_log(self, text)

        def get_type(self) -> pyspiel.GameType:
            # OpenSpiel's MCTSBot asks for the game type as it is made: the one
            # moment the adapter can tell it is about to search the true state.
            _warn_if_searching_the_state(sys._getframe(1), self)
            return super().get_type()

    TabletopGame.__name__ = TabletopGame.__qualname__ = "Tabletop_" + name.replace("-", "_")
    return TabletopGame


def _warn_if_searching_the_state(caller: Any, game: pyspiel.Game) -> None:
    mcts = sys.modules.get("open_spiel.python.algorithms.mcts")
    if mcts is None or caller.f_code.co_name != "__init__":
        return
    bot = caller.f_locals.get("self")
    if isinstance(bot, mcts.MCTSBot):
        warnings.warn(
            OmniscientSearchWarning(
                f"OpenSpiel's MCTSBot ({type(bot).__name__}) searches the true state of {short_name(game.setup.name)}, "
                "hidden items included: it plans with what its player may not know. ISMCTS "
                "(open_spiel.python.algorithms.ismcts.ISMCTSBot) plans on worlds drawn from the player's "
                "information (resample_from_infostate); filter tabletop.ai.openspiel.OmniscientSearchWarning "
                "to search the true state on purpose"
            ),
            stacklevel=4,
        )


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
        self.setup.opening = len(self.events)

    # -- OpenSpiel's state API ----------------------------------------------
    def current_player(self) -> int:
        node = self.match.node
        if isinstance(node, Over) or self.stopped:
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
        if self.stopped:
            return []
        node = self.match.node
        assert isinstance(node, Chance)
        weights = node.weights or (1,) * len(node.outcomes)
        total = sum(weights)
        return [(i, w / total) for i, w in enumerate(weights) if w > 0]

    def _apply_action(self, action: int) -> None:
        node = self.match.node
        paying = self.setup.payout.during
        if paying:
            before, count = self.match.state, len(self.events)
        if isinstance(node, Chance):
            self._add(node.outcomes[action])
        else:
            self.play.words += 1
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
        if paying:
            got = self.setup.payout.along(before, self.events[count:], self.match.unsealed)
            self._paid(got, since=self.play.last if isinstance(node, Chance) else None)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            node = self.match.node
            if isinstance(node, Chance) and 0 <= action < len(node.outcomes):
                return self.match.describe(node.outcomes[action])
            return f"outcome {action}"
        words = self.setup.actions.words
        return words[action] if 0 <= action < len(words) else f"action {action}"

    def is_terminal(self) -> bool:
        return self.match.over or self.stopped

    @property
    def stopped(self) -> bool:
        """Stopped unfinished at the adapter's limit (``tabletop.base.limits``)."""
        stop = self.setup.length.stop
        return stop is not None and self.play.words >= stop and not self.match.over

    def returns(self) -> list[float]:
        """The game's payoffs once it is over; before (or stopped at the
        limit), what it paid during play so far."""
        payout = self.setup.payout
        if self.match.over:
            return payout.at_end(self.match.state)
        return list(self.play.paid) if payout.during else payout.none()

    def rewards(self) -> list[float]:
        """What the last decision paid: for a game that pays only at the
        end, its payoffs at the end and nothing before; for one that declares
        rewards, those of the events the last decision brought and of the
        chance outcomes and forced events after it (so that rewards read
        before each decision, as OpenSpiel's loops read them, miss none),
        and at the end the rest of the payoffs."""
        payout = self.setup.payout
        if not payout.during:
            return self.returns() if self.match.over else payout.none()
        return list(self.play.last)

    def _paid(self, got: list[float], since: Sequence[float] | None = None) -> None:
        """Count what the last action paid (after a chance outcome, added
        to ``since``: what was paid since the last decision); the game
        over, the rest of its payoffs."""
        play = self.play
        paid = [a + b for a, b in zip(play.paid, got)]
        if since is not None:
            got = [a + b for a, b in zip(since, got)]
        if self.match.over:
            rest = [a - b for a, b in zip(self.setup.payout.at_end(self.match.state), paid)]
            got, paid = [a + b for a, b in zip(got, rest)], [a + b for a, b in zip(paid, rest)]
        play.paid, play.last = tuple(paid), tuple(got)

    def _recount(self) -> None:
        """What the events of a state read from its log paid: in all, and
        since the last decision (see :meth:`rewards`)."""
        payout = self.setup.payout
        if not payout.during:
            return
        events, opening = self.events, self.setup.opening
        start = max(
            [k for k, e in enumerate(events) if e.origin == DECISION and not isinstance(e, Unseal)],
            default=opening,
        )
        each = list(payout.each(self.setup.game.initial(), events, self.match.unsealed))
        self.play.paid = tuple(map(sum, zip(payout.none(), *each[opening : max(start, opening)])))
        self._paid(list(map(sum, zip(payout.none(), *each[max(start, opening) :]))))

    def __str__(self) -> str:
        # OpenSpiel's ToString is the whole state, as for every game: asked for
        # by name. What a player is shown is their observation string.
        text = seen.text(self.setup.game, self.match.state, seen.EVERYONE)
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
        """The state a serialized log leads to: every event checked, and any
        other text refused with one line naming the line at fault."""
        return _Reading(cls(game), text).state

    def __reduce__(self) -> tuple:
        # Pickled as its game string and log, read back as text: OpenSpiel's
        # own pickling of a Python state would nest a pickle of its __dict__.
        return _state_from_text, (str(self.get_game()), self.serialize())

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
                    # Checked as a replay checks it: a secret read from text may not open its seal.
                    unseal = Unseal(player, secret["salt"], secret["choice"])
                    match.accept(unseal)
                    self.events.append(unseal)
                    self._menu = None
            elif isinstance(node, Forced):
                self._add(node.event)
            else:
                self.setup.length.check(self.setup.game, self.play.words, isinstance(node, Decide))
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
        anew by the game's ``determinize`` from the player's view, and the
        others' sealed decisions drawn anew among their legal ones."""
        name = self.setup.players[player]
        game = self.setup.game
        view = seen.view(game, self.match.state, name)
        u = sampler() if callable(sampler) else random.random()
        rng = random.Random(int(float(u) * 2**53))
        world = game.determinize(view, name, rng)
        if seen.view(game, world, name) != view:
            raise PluginError(
                f"{game.name}: determinize made a world that {name} would see otherwise than the view it was given"
            )
        other = self.clone()
        other.play.before = self.seen(player)
        other.play.seen = {}
        other.events = []
        # A Match over made-up hidden items: never logged (see log()).
        match = other.match
        match.restore(world, match.seq, match.revealed, match.seals)
        other._menu = None
        for who in sorted(other.secrets):
            if who != name:
                legal = list(match.legal(who))
                if not legal:
                    raise PluginError(f"{game.name}: in a world drawn for {name}, {who} has no decision to seal")
                decision = rng.choice(legal)
                salt = hashlib.sha256(f"world {who} {u}".encode()).hexdigest()[:32]
                match.seals[who] = live.seal(match, decision, other.secrets, salt).commitment
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
        #: Decision words taken so far (OpenSpiel's game length).
        self.words = 0
        #: For a game that pays during play: what it paid so far, and what the last action paid.
        self.paid: tuple[float, ...] = tuple(setup.payout.none())
        self.last: tuple[float, ...] = self.paid

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
        # OpenSpiel's own copy of a Python state pickles its __dict__: this
        # part goes as its events (a resampled state as what its player had
        # seen). A state pickled by Python goes as its log (TabletopState).
        return _restore, (
            self.setup,
            self.events,
            self.secrets,
            self.prefix,
            self.before,
            self.own,
            self.words,
            self.paid,
            self.last,
        )


def _restore(
    setup: Setup,
    events: list[Event],
    secrets: live.Secrets,
    prefix: tuple[int, ...],
    before: Any,
    own: dict[int, str],
    words: int = 0,
    paid: tuple[float, ...] | None = None,
    last: tuple[float, ...] | None = None,
) -> Play:
    play = Play(setup)
    for event in events:
        play.match.accept(event)
    play.events, play.secrets, play.prefix, play.before = list(events), dict(secrets), prefix, before
    play.own = dict(own)
    play.words = words
    play.paid = play.paid if paid is None else tuple(paid)
    play.last = play.last if last is None else tuple(last)
    return play


class _Reading:
    """A serialized state read back: the header, one event a line (each
    checked as a replay checks it), then the trailers ``serialize`` writes.
    Anything else is one :class:`UsageError` naming its line, in time and
    memory bounded by the text's length."""

    def __init__(self, state: TabletopState, text: str) -> None:
        if not isinstance(text, str):
            raise UsageError(f"a serialized state is text, not {type(text).__name__}")
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        setup = state.setup
        # Header, events (as many as a game may have), sealed decisions, a spelling.
        most = 1 + LONGEST + len(setup.players) + 1
        if len(lines) > most:
            raise UsageError(f"line {most + 1}: a serialized state has at most {most:,} lines")
        self.state = state
        #: Player -> the decisions open when they sealed theirs (see _counted).
        self.sealing: dict[str, Menu] = {}
        state.play = Play(setup)  # nothing settled yet: the log holds what the rules forced
        end = len(lines)
        while end > 1 and lines[end - 1].startswith("#"):
            end -= 1
        self._events(lines[:end])
        spelling = None
        secrets = []
        for number, line in enumerate(lines[end:], start=end + 1):
            if spelling is not None:
                raise UsageError(f"line {number}: nothing follows the spelling line (line {spelling[0]})")
            if line.startswith(SPELLING):
                spelling = (number, line[len(SPELLING) :])
            elif line.startswith(SECRET):
                secrets.append((number, line[len(SECRET) :]))
            else:
                raise UsageError(f"line {number}: not a line of a serialized state ('#sealed ' or '#spelling ')")
        for number, secret in secrets:
            self._secret(number, secret)
        missing = sorted(set(state.match.seals) - set(state.secrets))
        if missing:
            raise UsageError(f"line {end + 1}: no '#sealed' line for the decision {missing[0]} sealed")
        self._settle(secrets)
        state._recount()
        if spelling is not None:
            self._spell(*spelling)

    def _events(self, lines: list[str]) -> None:
        state = self.state
        setup = state.setup
        if not lines or lines[0] != setup.header.line():
            if lines and lines[0].startswith(PICKLED):
                raise UsageError(
                    "line 1: OpenSpiel's own form of a state (history=, __dict__=) holds a pickle and is never "
                    "read; a tabletop state is read from its log (state.serialize())"
                )
            raise UsageError("line 1: not the header of this game and these parameters")
        codec, name = setup.registry.codec, setup.header.game
        for number, line in enumerate(lines[1:], start=2):
            if len(line) > jsonline.MAX_LINE:
                raise UsageError(f"line {number}: longer than {jsonline.MAX_LINE:,} characters")
            try:
                seq, event = codec.decode_line(name, line)
                counted = self._counted(event)
                state.match.accept(event, seq)
                if counted is not None:
                    state.play.words += self._words_taken(*counted)
            except TabletopError as exc:
                raise UsageError(f"line {number}: {exc}") from None
            state.events.append(event)

    def _counted(self, event: Event) -> tuple[Menu, Event] | None:
        """The menu a decision was chosen from and the decision, for counting
        its words, or None. OpenSpiel's game length counts the words taken,
        and a decision is played as soon as its words so far are its own:
        only the legal decisions of that moment say how many that was. A
        sealed decision is counted when it is revealed (or read from its
        #sealed line), from the decisions open when it was sealed."""
        state = self.state
        if state.setup.length.stop is None and state.setup.length.bound is None:
            return None
        if isinstance(event, Unseal):
            menu = self.sealing.pop(event.player, None)
            return None if menu is None else (menu, state.match.unsealed(event))
        node = state.match.node
        # Checked before it is accepted: a line the replay will refuse is not counted.
        if (
            event.origin != DECISION
            or not isinstance(node, Decide)
            or getattr(event, "player", None) not in node.players
        ):
            return None
        menu = state.setup.actions.menu(state.match.legal(event.player))  # type: ignore[attr-defined]
        if isinstance(event, Seal):
            self.sealing[event.player] = menu
            return None
        return menu, event

    def _words_taken(self, menu: Menu, decision: Event) -> int:
        """How many words the adapter took to play ``decision`` from ``menu``
        (none for a decision its numbering does not spell, as a resignation)."""
        try:
            spelt = self.state.setup.actions.of(decision)
        except PluginError:
            return 0
        branch = menu.root
        for taken, word in enumerate(spelt, start=1):
            branch = branch.children.get(word)
            if branch is None:
                break
            if branch.count == 1:
                return taken
        # Where longer decisions go on, the end word closes this one.
        return len(spelt) + (1 if branch is not None and branch.children else 0)

    def _secret(self, number: int, text: str) -> None:
        """One sealed decision not yet revealed: it must open its player's seal."""
        state, where = self.state, f"line {number}"
        try:
            data = jsonline.loads(text)
        except TabletopError as exc:
            raise UsageError(f"{where}: {exc}") from None
        if type(data) is not dict or set(data) != {"player", "salt", "choice"}:
            raise UsageError(f"{where}: a sealed decision is an object of 'player', 'salt' and 'choice'")
        player, salt, choice = data["player"], data["salt"], data["choice"]
        if not isinstance(player, str) or player not in state.setup.seats:
            raise UsageError(f"{where}: {quoted(player)} is not a player of this game")
        if player in state.secrets:
            raise UsageError(f"{where}: a second sealed decision of {player}")
        commitment = state.match.seals.get(player)
        if commitment is None:
            raise UsageError(f"{where}: {player} has no sealed decision waiting")
        if not isinstance(salt, str) or type(choice) is not dict:
            raise UsageError(f"{where}: 'salt' is text and 'choice' an object")
        try:
            sealed = state.match.unsealed(Unseal(player, salt, choice))
        except TabletopError as exc:
            raise UsageError(f"{where}: the sealed decision cannot be read: {exc.message}") from None
        try:
            opens = chance.matches_seal(salt, choice, commitment)
        except (RecursionError, ValueError, TypeError):  # nested deeper than JSON is written back
            opens = False
        if not opens:
            raise UsageError(f"{where}: this does not open {player}'s sealed decision (the hash differs)")
        try:
            if player in self.sealing:
                state.play.words += self._words_taken(self.sealing.pop(player), sealed)
        except TabletopError as exc:
            raise UsageError(f"{where}: {exc}") from None
        state.secrets[player] = {"salt": salt, "choice": choice}
        # The sealer's own line is written again from the secret.
        for k, event in enumerate(state.events):
            if isinstance(event, Seal) and event.player == player:
                state.play.own[k] = f"{player} seals {state.match.describe(sealed, player)}"

    def _settle(self, secrets: list[tuple[int, str]]) -> None:
        try:
            self.state._settle()
        except TabletopError as exc:
            # Only a sealed decision revealed here can break the rules: the log was checked.
            if not secrets:
                raise
            where = f"line {secrets[0][0]}" if len(secrets) == 1 else f"lines {secrets[0][0]}-{secrets[-1][0]}"
            raise UsageError(f"{where}: {exc}") from None

    def _spell(self, number: int, text: str) -> None:
        """The words of a decision being spelt: each open in turn, none the last."""
        state, where = self.state, f"line {number}"
        words = text.split(" ")
        if len(words) > MOST_WORDS:
            raise UsageError(f"{where}: more than {MOST_WORDS} words")
        count = len(state.setup.actions)
        for k, word in enumerate(words, start=1):
            if not (word.isascii() and word.isdigit() and len(word) <= 9 and int(word) < count):
                raise UsageError(f"{where}: word {k} ({quoted(word)}) is not an action number below {count}")
            action = int(word)
            if state.stopped or not isinstance(state.match.node, Decide):
                raise UsageError(f"{where}: no player is spelling a decision here")
            if action not in state.menu().open(state.prefix):
                raise UsageError(f"{where}: word {k} (action {action}) is not open here")
            state.apply_action(action)
            if len(state.prefix) != k:
                raise UsageError(f"{where}: word {k} ends a decision; a spelling holds a decision not yet whole")


def _state_from_text(game_string: str, text: str) -> TabletopState:
    """A pickled state: its game loaded (``plugins=`` as the program
    registered them) and its log read."""
    return pyspiel.load_game(game_string).deserialize_state(text)


class Observer:
    """What a player may know, as OpenSpiel's observers give it.

    With perfect recall (the information state) it is every event so far as
    the player saw it (others' hidden draws redacted by the game), plus the
    words of a decision the player is spelling; without (the observation) it
    is the player's view of the position, drawn as the game draws it for that
    player.

    The tensors: for a game that declares planes (:mod:`tabletop.sight.planes`),
    the observation is its planes filled from the player's view, then the
    words being spelt; the information state is the same, then the events
    seen hashed into :data:`INFORMATION_SIZE` (``history``). For any other
    game both hash the same facts as the strings (:func:`tabletop.sight.views.hashed`).
    ``dict`` holds each named part, shaped.
    """

    def __init__(self, iig_obs_type: Any, params: Any, setup: Setup) -> None:
        if params:
            raise ValueError(f"tabletop observers take no parameters; given {params}")
        self.recall = bool(iig_obs_type.perfect_recall)
        self.planes = setup.observation
        if self.planes is None:
            size = INFORMATION_SIZE if self.recall else OBSERVATION_SIZE
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"hashed": self.tensor}
            return
        size = self.planes.size
        self.tensor = np.zeros(size + (INFORMATION_SIZE if self.recall else 0), np.float32)
        self.head = self.tensor[:size]
        self.dict = self.planes.layout.split(self.head)
        if self.recall:
            self.dict["history"] = self.tensor[size:]

    def _facts(self, state: TabletopState, player: int) -> list[str]:
        if self.recall:
            return [f"{i} {line}" for i, line in enumerate(state.seen(player))] + [
                f"spelling {i} {w}" for i, w in enumerate(state.spelling_of(player))
            ]
        name = state.setup.players[player]
        view = seen.view(state.setup.game, state.match.state, name)
        return [*features(view), *(f"spelling {i} {w}" for i, w in enumerate(state.spelling_of(player)))]

    def set_from(self, state: TabletopState, player: int) -> None:
        if self.planes is None:
            self.tensor.fill(0)
            for index in hashed(self._facts(state, player), len(self.tensor)):
                self.tensor[index] = 1.0
            return
        size = self.planes.size
        name = state.setup.players[player]
        spelling = state.prefix if state.prefix and state.current_player() == player else ()
        self.planes.fill(state.setup.game, state.match.state, name, spelling, self.head)
        if self.recall:
            history = self.tensor[size:]
            history.fill(0)
            for index in hashed(self._facts(state, player), INFORMATION_SIZE):
                history[index] = 1.0

    def string_from(self, state: TabletopState, player: int) -> str:
        name = state.setup.players[player]
        if self.recall:
            lines = [f"{name}:", *state.seen(player)]
        else:
            lines = [f"{name}:", seen.text(state.setup.game, state.match.state, name)]
        spelling = state.spelling_of(player)
        if spelling:
            lines.append("spelling: " + " ".join(spelling))
        return "\n".join(lines)


def register(plugins: Sequence[str | Path] = ()) -> list[str]:
    """Register every game installed (and in ``plugins``) with pyspiel, once
    each; return their OpenSpiel names. The files and folders of ``plugins``
    are then the ones a game string's ``plugins=`` may name."""
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
    _REGISTERED.update(filter(None, map(_resolved, plugins)))
    return names


# -- OpenSpiel's game-and-state text ---------------------------------------------------
# pyspiel writes a Python game's state as its history and a pickle of its
# __dict__, and reads it back by unpickling: a crafted string would run any
# code. For a tabletop game its module-level functions read and write the log.

#: The sections of OpenSpiel's game-and-state text.
META, GAME, STATE = "[Meta]", "[Game]", "[State]"


def serialize_game_and_state(game: pyspiel.Game, state: pyspiel.State) -> str:
    """OpenSpiel's game-and-state text; for a tabletop state, its log."""
    if not isinstance(state, TabletopState):
        return _OPENSPIEL[0](game, state)
    return (
        "# Automatically generated by OpenSpiel SerializeGameAndState\n"
        f"{META}\nVersion: 1\n\n{GAME}\n{game}\n{STATE}\n{state.serialize()}"
    )


def deserialize_game_and_state(text: str) -> tuple[pyspiel.Game, pyspiel.State]:
    """The game and state of OpenSpiel's game-and-state text; for a tabletop
    game, the state is read from its log and nothing is unpickled."""
    game_string, state_text = _sections(text)
    game = pyspiel.load_game(game_string)
    if not isinstance(getattr(game, "setup", None), Setup):
        return _OPENSPIEL[1](text)
    return game, game.deserialize_state(state_text)


def _sections(text: str) -> tuple[str, str]:
    """The game string and the state's text, the game's read as OpenSpiel
    reads it (so the game named is the one OpenSpiel would load)."""
    if not isinstance(text, str):
        raise UsageError(f"OpenSpiel's game-and-state text is text, not {type(text).__name__}")
    lines = text.split("\n")
    section, game = "", []
    for number, line in enumerate(lines, start=1):
        if not line or line.startswith("#"):
            continue
        if line in (META, GAME, STATE):
            before = {META: "", GAME: META, STATE: GAME}[line]
            if section != before:
                raise UsageError(f"line {number}: {line} out of place in OpenSpiel's game-and-state text")
            section = line
            if line == STATE:
                game_string = "\n".join(game).split("[GameRNGState]")[0].rstrip("\n")
                return game_string, "\n".join(lines[number:])
        elif not section:
            raise UsageError(f"line {number}: OpenSpiel's game-and-state text starts with {META}")
        elif section == GAME:
            game.append(line)
    raise UsageError(f"OpenSpiel's game-and-state text has no {STATE} section")


# The functions pyspiel had before: kept once, however often this module is loaded.
_OPENSPIEL = getattr(pyspiel.deserialize_game_and_state, "openspiel", None) or (
    pyspiel.serialize_game_and_state,
    pyspiel.deserialize_game_and_state,
)
serialize_game_and_state.openspiel = deserialize_game_and_state.openspiel = _OPENSPIEL  # type: ignore[attr-defined]
pyspiel.serialize_game_and_state = serialize_game_and_state
pyspiel.deserialize_game_and_state = deserialize_game_and_state

register()
