"""The Python API: recorded games, live games, bots and branches.

Two entry points cover it: :func:`open` reads a log (a :class:`Record`, whose
iteration yields each event with the position after it) and :func:`start`
begins a game (a :class:`Table`, where decisions are listed, played, and
chance runs from the seed). ``Record.cut(seq)`` turns a log into a table at
any event, to continue it differently and save the branch as a new log. Both
use the same engine as the command line: every event is validated.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .base.errors import IllegalEventError, PluginError, UsageError
from .base.naming import code_of, takes
from .host.extensions import Bot
from .host.plugins import get_plugin_manager
from .host.registry import Registry
from .log import logfile
from .log.header import Header
from .model.events import Event
from .model.game import Game
from .model.nodes import Decide, Outcome, Over
from .play import chance
from .play.engine import Match, Replay
from .play.live import Secrets, bot_rng, decide, make_header, play_out, settle
from .play.rollouts import Rollouts
from .play.seat_random import SeatRandom
from .sight import seen

PathLike = str | os.PathLike[str]


@functools.lru_cache(maxsize=8)
def _registry(plugins: tuple[str, ...]) -> Registry:
    return Registry(get_plugin_manager([Path(p) for p in plugins]))


def registry(plugins: Sequence[PathLike] = ()) -> Registry:
    """Every installed game, variant and bot, plus house rules loaded from
    ``plugins`` (files or folders) and ``TABLETOP_PLUGINS``; built once per
    set of paths."""
    return _registry(tuple(str(p) for p in plugins))


def _registry_of(given: Registry | None, plugins: Sequence[PathLike]) -> Registry:
    return given if given is not None else registry(plugins)


@attrs.frozen
class Moment:
    """One event of a log and the position right after it."""

    #: The event's sequence number (1 for the first event after the header).
    seq: int
    #: Its line in the file.
    line: int
    event: Event
    #: The full state after the event (everything, hidden items included).
    state: Any
    game: Game = attrs.field(repr=False)
    _match: Match = attrs.field(repr=False, alias="match")

    def view(self, player: str | None) -> Any:
        """The position after the event as ``player`` may see it (None: everything)."""
        _check_player(self.game.players, player)
        return seen.view(self.game, self.state, player)

    def text(self, player: str | None = None) -> str:
        """The event in the game's notation, as ``player`` may see it."""
        _check_player(self.game.players, player)
        return self._match.describe(self.event, player)


class Record:
    """A recorded game (a log file). Iterate it for its :class:`Moment` s;
    every event is checked against the rules as it is read, and an illegal
    one raises :class:`~tabletop.IllegalEventError` naming ``FILE:LINE``."""

    def __init__(self, path: PathLike, registry: Registry) -> None:
        self.path = Path(path)
        self.registry = registry
        first = Replay(registry, self.path)
        first.close()  # only the header is read here; iterating reads the log again
        #: The log's first line: game, players, variants, options, randomness.
        self.header: Header = first.header
        #: The rules in force for this log.
        self.game: Game = first.match.game

    def __iter__(self) -> Iterator[Moment]:
        replay = Replay(self.registry, self.path)
        match = replay.match
        game = match.game
        for line, seq, event in replay:
            yield Moment(seq, line, event, match.state, game, match)

    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players

    def final(self) -> Table:
        """The game as the whole log leaves it, ready to continue."""
        return self.cut(None)

    def outcome(self) -> Outcome:
        """Scores and winners at the end of the log (standings if unfinished)."""
        return self.final().outcome

    def cut(self, seq: int | None) -> Table:
        """The game right after event ``seq`` (None: the end of the log): a
        :class:`Table` to continue differently, whose :meth:`Table.save`
        writes the branch as a new log (the header and the events up to
        ``seq``, then what was played on the table)."""
        replay = Replay(self.registry, self.path)
        events: list[Event] = []
        if seq is None or seq > 0:
            for _, number, event in replay:
                events.append(event)
                if seq is not None and number >= seq:
                    break
        if seq is not None and len(events) < seq:
            raise UsageError(f"{self.path} has {len(events)} events; it cannot be cut at event {seq}")
        match = replay.match
        return Table(match, match.seed, events)


class Table:
    """A game in play: its decisions are listed and played here, chance and
    the rules run from the seed by themselves, and bots can play seats.

    Made by :func:`start` or :meth:`Record.cut`.
    """

    def __init__(self, match: Match, seed: str | None, events: Sequence[Event] = ()) -> None:
        self.match = match
        self.seed = seed
        self._events = list(events)
        self._secrets: Secrets = {}
        self._bot_rngs: dict[str, SeatRandom] = {}
        self._events += settle(match, seed, self._secrets)

    # -- what there is to see ---------------------------------------------
    @property
    def header(self) -> Header:
        return self.match.header

    @property
    def game(self) -> Game:
        """The rules in force: the game with its variants."""
        return self.match.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players

    @property
    def state(self) -> Any:
        """The full current state (hidden items included)."""
        return self.match.state

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event since the header, the cut log's included."""
        return tuple(self._events)

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def outcome(self) -> Outcome:
        """Scores and winners (the standings while the game goes on)."""
        return self.match.outcome()

    def view(self, player: str | None) -> Any:
        """The current position as ``player`` may see it (None: everything)."""
        _check_player(self.game.players, player)
        return seen.view(self.game, self.match.state, player)

    def text(self, player: str | None = None) -> str:
        """The board as text, as ``player`` may see it."""
        _check_player(self.game.players, player)
        return seen.text(self.game, self.match.state, player)

    # -- deciding ------------------------------------------------------------
    @property
    def deciding(self) -> tuple[str, ...]:
        """The players who may decide now (none once the game is over)."""
        node = self.match.node
        if isinstance(node, Decide):
            # In a secret decision, the players who still have to seal theirs.
            return tuple(p for p in node.players if p not in self._secrets)
        return ()

    def legal(self, player: str | None = None) -> list[Event]:
        """The legal decisions of ``player`` (default: the one player who may decide)."""
        who = self._who(player)
        return list(self.game.legal(self.match.state, who))

    def notate(self, decision: Event) -> str:
        """A decision as its player writes it (what :meth:`play` reads back)."""
        return self.game.notate(decision)

    def play(self, decision: Event | str, player: str | None = None) -> list[Event]:
        """Play one decision (an event, or the game's notation for ``player``),
        validated against the rules, then let chance and the rules run until
        someone must decide. Returns every event added.

        Raises :class:`~tabletop.IllegalEventError` (with the rules' reason)
        for an illegal decision, and changes nothing then.
        """
        if isinstance(decision, str):
            decision = self.game.parse(decision, self._who(player), self.match.state)
        elif player is not None and getattr(decision, "player", player) != player:
            raise UsageError(f"this decision is {decision.player}'s, not {player}'s")  # type: ignore[attr-defined]
        added = decide(self.match, decision, self.seed, self._secrets)
        self._events += added
        return added

    def ask(self, bot: str | Bot, player: str | None = None) -> Event:
        """The decision ``bot`` (a name or a :class:`~tabletop.Bot`) would take
        for ``player`` now; not played. Bots draw their random numbers from
        the seed, so a seeded game repeats."""
        who = self._who(player)
        chooser = self._bot(bot)
        # The game's own listing, as self-play hands it to bots: a listing
        # may offer its own uniform draw (``random_choice``).
        legal = self.game.legal(self.match.state, who)
        if not legal:
            raise IllegalEventError(f"{who} must decide but has no legal decision")
        if who not in self._bot_rngs:
            self._bot_rngs[who] = bot_rng(self.seed or "", who)
        return seen.choice(chooser, self.game, self.match.state, who, legal, self._bot_rngs[who])

    def run(
        self, bots: str | Bot | Mapping[str, str | Bot] | Sequence[str | Bot], max_events: int = 100_000
    ) -> Outcome:
        """Let bots play until the game is over and return the outcome.

        ``bots``: one bot for every seat, one per seat in seat order, or a
        mapping player -> bot (a player left out stops the run when it must
        decide: :attr:`deciding` then names who).
        """
        seats = self._seats(bots)
        rngs = self._bot_rngs
        for who in seats:
            if who not in rngs:
                rngs[who] = bot_rng(self.seed or "", who)
        # Self-play's own loop: bots that read no state play on the fast path.
        number = None if self.seed is None else chance.numbers(self.seed)
        play_out(self.match, seats, rngs, number, self.seed, max_events, self._secrets, self._events)
        return self.outcome

    # -- writing --------------------------------------------------------------
    def lines(self) -> list[str]:
        """The log of this game, line by line (header first)."""
        return self.match.registry.codec.log(self.header, self._events)

    def save(self, path: PathLike) -> Path:
        """Write the log to a new file (never replacing one) and return its path."""
        path = Path(path)
        logfile.create(path, self.lines())
        return path

    # -- helpers ---------------------------------------------------------------
    def _who(self, player: str | None) -> str:
        if isinstance(self.match.node, Over):
            raise UsageError("the game is over: nobody decides")
        deciding = self.deciding
        if player is None:
            if len(deciding) != 1:
                raise UsageError(f"several players may decide now ({', '.join(deciding)}); name one")
            return deciding[0]
        _check_player(self.game.players, player)
        if player not in deciding:
            raise UsageError(f"{player} may not decide now ({', '.join(deciding) or 'nobody'} may)")
        return player

    def _bot(self, bot: str | Bot) -> Bot:
        return _made(self.match.registry, self.header.game, bot)

    def _seats(self, bots: Any) -> dict[str, Bot]:
        return seated(self.match.registry, self.header.game, self.players, bots)


def _check_player(players: Sequence[str], player: str | None) -> None:
    if player is not None and player not in players:
        raise UsageError(f"'{player}' is not a player of this game ({', '.join(players)})")


def _made(registry: Registry, game: str, bot: str | Bot) -> Bot:
    return bot if isinstance(bot, Bot) else bot_named(registry, bot, game)


def seated(registry: Registry, game: str, players: Sequence[str], bots: Any) -> dict[str, Bot]:
    """A bot for each seat of ``players``: one for every seat, one per seat
    in seat order, or a mapping player -> bot (a seat left out has none). A
    bot is a name (as :func:`bot_named`) or a :class:`Bot`."""
    if isinstance(bots, (str, Bot)):
        return dict.fromkeys(players, _made(registry, game, bots))
    if isinstance(bots, Mapping):
        for p in bots:
            _check_player(players, p)
        return {p: _made(registry, game, b) for p, b in bots.items()}
    bots = list(bots)
    if len(bots) != len(players):
        raise UsageError(f"give one bot per seat ({len(players)}), not {len(bots)}")
    return {p: _made(registry, game, b) for p, b in zip(players, bots)}


def rollouts(
    game: str,
    players: Sequence[str],
    bots: str | Bot | Sequence[str | Bot] | Mapping[str, str | Bot] = "random",
    *,
    variants: Sequence[str] = (),
    options: Mapping[str, str] | None = None,
    plugins: Sequence[PathLike] = (),
    registry: Registry | None = None,
) -> Rollouts:
    """Games of ``game`` between ``bots`` (one for every seat, one per seat,
    or a mapping naming every player) played to the end from one header,
    for outcomes without logs:
    ``rollouts(...).play(rng)`` plays a game drawing every decision and
    chance outcome from ``rng`` (see :mod:`tabletop.play.rollouts`)."""
    reg = _registry_of(registry, plugins)
    seats = seated(reg, game, players, bots)
    missing = [p for p in players if p not in seats]
    if missing:
        raise UsageError(f"give a bot for every seat: none for {', '.join(missing)}")
    return Rollouts(reg, game, players, [seats[p] for p in players], variants, options)


def bot_named(registry: Registry, spec: str, game: str) -> Bot:
    """The bot ``spec`` names for ``game``: ``NAME`` or ``NAME:key=value,...``
    for a bot with settings (``mcts:iterations=400``), which goes by the
    whole spec."""
    name, _, settings = spec.partition(":")
    bot = registry.bot(name, game)
    if not settings:
        return bot
    params: dict[str, str] = {}
    for pair in settings.split(","):
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"bot '{spec}': settings are key=value, separated by commas")
        params[key.strip()] = value.strip()
    configure = getattr(bot.choose, "configured", None)
    if configure is None:
        raise UsageError(f"bot '{name}' has no settings")
    try:
        configured = configure(params)
    except UsageError as error:
        raise UsageError(f"bot '{spec}': {error}") from None
    wrong = takes(configured, ("game", "view", "player", "legal", "rng"))
    if wrong:
        raise PluginError(f"bot '{name}': its choose.configured gave a choose that {wrong}", where=code_of(configure))
    # Named by the whole spec: totals and tables tell its settings apart.
    return attrs.evolve(bot, name=spec, choose=configured)


def open(path: PathLike, *, plugins: Sequence[PathLike] = (), registry: Registry | None = None) -> Record:  # noqa: A001
    """A recorded game: ``for moment in tabletop.open("game.jsonl")`` gives each
    event with the position after it.

    House rules not installed as packages are loaded from ``plugins``.
    """
    return Record(path, _registry_of(registry, plugins))


def start(
    game: str,
    players: Sequence[str],
    *,
    variants: Sequence[str] = (),
    options: Mapping[str, str] | None = None,
    seed: str | None = None,
    plugins: Sequence[PathLike] = (),
    registry: Registry | None = None,
) -> Table:
    """A new game of ``game`` for ``players`` (in seat order), with the setup's
    chance outcomes already drawn from ``seed`` (default: a fresh random seed).

    ``variants`` are names (``"glux-second-place-2p"``, or with parameters
    ``"NAME:key=value"``); ``options`` are the game's options (``board``...).
    """
    reg = _registry_of(registry, plugins)
    header, seed, made = make_header(reg, game, players, variants, options, seed)
    return Table(Match(reg, header, made), seed)
