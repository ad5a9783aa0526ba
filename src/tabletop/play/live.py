"""Live games: starting them, adding decisions, and letting chance and the rules
run from the seed until someone must decide."""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..base.caches import Bound
from ..base.errors import IllegalEventError, TabletopError, UsageError, shown
from ..base.naming import code_of
from ..host.extensions import Bot
from ..host.registry import Registry
from ..log import chain, logfile
from ..log.header import Header, Randomness, check_players, check_seed
from ..model.events import DECISION, Event, Reveal, Seal, Unseal
from ..model.game import Game
from ..model.nodes import Chance, Decide, Forced, Over
from ..sight import seen
from . import chance
from .engine import Match
from .sampling import draws_uniformly, uniform
from .seat_random import SeatRandom
from .table import at_the_table


def seed_file(log: Path) -> Path:
    """Where ``tabletop new --sealed`` keeps the secret seed of a log."""
    return log.with_name(log.name + ".seed")


def create_log(path: Path, lines: list[str], seed: str | None = None) -> None:
    """Write a new log; with ``seed``, a sealed game's, whose seed goes first
    to ``FILE.seed`` (readable by its owner only). Both or neither are written."""
    if os.path.lexists(path):
        raise UsageError("file exists; choose another name", where=str(path))
    if seed is None:
        logfile.create(path, lines)
        return
    secret = seed_file(path)
    if os.path.lexists(secret):
        raise UsageError(
            f"{shown(secret)} exists without its log (left by a 'new' that failed?): remove it or choose another name",
            where=str(path),
        )
    logfile.create(secret, [seed], mode=0o600)
    try:
        logfile.create(path, lines)
    except TabletopError:
        os.unlink(secret)
        raise


#: Headers made for new games, less their seed, with the game made from
#: them, by what they were made from (the registry, game, players, variants,
#: options): a run makes thousands of games from a few, and checking a
#: header's parts costs more than a short game's turns. Entries are small.
HEADERS_KEPT = Bound(256)
_HEADERS: dict[Any, tuple[Header, Game]] = {}


def make_header(
    registry: Registry,
    game: str,
    players: Sequence[str],
    variants: Sequence[str] = (),
    options: Mapping[str, str] | None = None,
    seed: str | None = None,
    sealed: bool = False,
) -> tuple[Header, str, Game]:
    """A checked header for a new game, the seed it uses, and the game made
    from the header to check it: a new match may start from that game
    (``Match(registry, header, game)``) instead of making it again (self-play
    makes thousands)."""
    template, made = checked_header(registry, game, players, variants, options, sealed)
    if seed is not None:
        check_seed(seed)
    seed = seed if seed is not None else chance.new_seed()
    randomness = Randomness(commitment=chance.commitment(seed)) if sealed else Randomness(seed=seed)
    return seeded(template, randomness), seed, made


def checked_header(
    registry: Registry,
    game: str,
    players: Sequence[str],
    variants: Sequence[str] = (),
    options: Mapping[str, str] | None = None,
    sealed: bool = False,
) -> tuple[Header, Game]:
    """A header checked in every part but its randomness (left empty), and
    the game made from it; kept for the next game made from the same parts."""
    try:
        key = (registry, game, tuple(players), tuple(variants), tuple(sorted((options or {}).items())), sealed)
        known = _HEADERS.get(key)
    except TypeError:  # an option's value that cannot be hashed: checked afresh
        key = known = None
    if known is None:
        known = _checked_header(registry, game, players, variants, options, sealed)
        if key is not None:
            HEADERS_KEPT.keep(_HEADERS, key, known)
    return known


def seeded(template: Header, randomness: Randomness) -> Header:
    """``template`` (from :func:`checked_header`) with ``randomness``: a new header."""
    return Header(
        template.game, template.players, template.variants, dict(template.options), randomness, template.version
    )


def _checked_header(
    registry: Registry,
    game: str,
    players: Sequence[str],
    variants: Sequence[str],
    options: Mapping[str, str] | None,
    sealed: bool,
) -> tuple[Header, Game]:
    """A header checked in every part but its seed, and the game made from it."""
    cls = registry.game_class(game)
    check_players(list(players), "--players")
    if not cls.min_players <= len(players) <= cls.max_players:
        raise UsageError(
            f"--players: {cls.name} is for {cls.min_players} to {cls.max_players} players, not {len(players)}"
        )
    normalized = cls.normalize_options(dict(options or {}), players)
    entries = tuple(registry.variant_entry(v, cls.name) for v in variants)
    # A sealed game's chain salts each line (format 2): the heads mailed to
    # its players do not let them try each possible hidden draw.
    header = Header(game, tuple(players), entries, normalized, Randomness(), chain.SALTED if sealed else 1)
    made = registry.game(header)  # fails now, with a clear error, on a bad player count or variant
    return header, made


#: Sealed decisions kept until they are revealed: player -> {"salt", "choice"}.
Secrets = dict[str, dict[str, Any]]


def settle(
    match: Match, seed: str | None, secrets: Secrets | None = None, number: Callable[[int], int] | None = None
) -> list[Event]:
    """Resolve chance and forced nodes until a decision is due or the game ends;
    reveal sealed decisions once all are in (from ``secrets``). Chance outcomes
    are picked by ``number(seq)`` when given, else by the seed's numbers.

    Returns the events appended to ``match``. In a sealed game that has ended,
    the last of them reveals the seed.
    """
    events = []
    while True:
        node = match.node
        if match.revealing and secrets is not None and all(p in secrets for p in node.players):
            for player in node.players:
                secret = secrets.pop(player)
                unseal = Unseal(player, secret["salt"], secret["choice"])
                match.accept(unseal)
                events.append(unseal)
            continue
        if isinstance(node, Chance):
            if number is None and seed is None:
                if at_the_table(match.header):
                    return events  # a game at a real table: the outcome is entered by hand
                raise UsageError("a chance outcome is due but the seed is not known")
            # As Match.race: no number is drawn for an outcome no number can
            # change, so a generator's draws fall alike on either path.
            event = node.sure
            if event is None:
                seq = match.seq + 1
                event = node.pick(number(seq) if number is not None else chance.number(seed, seq))  # type: ignore[arg-type]
        elif isinstance(node, Forced):
            event = node.event
        elif isinstance(node, Over) and match.header.randomness.sealed and match.revealed is None and seed:
            event = Reveal(seed)
        else:
            return events
        match.apply(event)
        events.append(event)


def decide(match: Match, decision: Event, seed: str | None, secrets: Secrets | None = None) -> list[Event]:
    """Validate and apply ``decision``, then settle; every event appended.

    A decision the rules keep secret is checked, then logged sealed, and kept
    in ``secrets`` until every player has sealed theirs.
    """
    node = match.node
    if isinstance(node, Decide) and node.sealed and not isinstance(decision, (Seal, Unseal)):
        if secrets is None:
            raise UsageError("this decision is secret, and there is nowhere to keep it until it is revealed")
        decision = seal(match, decision, secrets)
    match.accept(decision)
    return [decision, *settle(match, seed, secrets)]


def seal(match: Match, decision: Event, secrets: Secrets, salt: str | None = None) -> Seal:
    """The sealed form of a secret decision (checked first, so that a wrong
    choice is refused now, not when all are revealed)."""
    node = match.node
    player = decision.player  # type: ignore[attr-defined]
    if isinstance(node, Decide) and player in node.players:
        reason = match.check(decision)
        if reason is not None:
            raise IllegalEventError(f"event {match.seq + 1} ({match.describe(decision)}): {reason}")
    line = match.registry.codec.unstructure(decision)
    line.pop("player", None)
    choice = {"kind": decision.kind, "payload": line}
    salt = salt or chance.new_salt()
    secrets[player] = {"salt": salt, "choice": choice}
    return Seal(player, chance.seal(salt, choice))


def bot_rng(seed: str, player: str) -> SeatRandom:
    """The random numbers ``player``'s bot draws in a game: from the seed, so
    runs repeat, and the seat's own (see :mod:`tabletop.play.seat_random`)."""
    return SeatRandom(f"bot {player} {seed}".encode())


class Batch:
    """Games of one game between the same bots, one per seat, under one
    header but for its randomness. What does not change from game to game
    is made once: the header checked in every part but its randomness
    (players, variants, options), the game made from it, its initial state
    and its fast path, the bots by seat."""

    def __init__(
        self,
        registry: Registry,
        game: str,
        players: Sequence[str],
        bots: Sequence[Bot],
        variants: Sequence[str] = (),
        options: Mapping[str, str] | None = None,
        max_events: int = 100_000,
    ) -> None:
        if len(bots) != len(players):
            raise UsageError(f"give one bot per seat ({len(players)}), not {len(bots)}")
        self.registry = registry
        self.template, self.game = checked_header(registry, game, players, variants, options)
        #: The game's fast path, which its games take in turn (None: it has none).
        self.fast = self.game.fast()
        #: The game's initial state, which its matches share (a state never changes).
        self.initial = self.game.initial()
        self.players = tuple(players)
        self.bots = dict(zip(players, bots))
        self.max_events = max_events

    def match(self, header: Header) -> Match:
        """A new match of the batch's game under ``header`` (one of the template's)."""
        return Match(self.registry, header, self.game, self.fast, self.initial)


class SelfPlay(Batch):
    """Complete games between the same bots, one per seat, under the same
    header but for its seed: :meth:`play` plays the game of a seed. A game
    costs its seed's part of the header, the match, the bots' generators,
    the seed's key and its turns (in a short game, checking a whole header
    would cost more than its turns: the batch checks it once)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Bots that all draw as the core's random bot does: their draws,
        #: which :func:`play_out` would hand the race, need no match to hold
        #: them to the rules (None: some bot does not, or there is no fast path).
        self._drawing = (
            {player: bot.choose for player, bot in self.bots.items()}
            if self.fast is not None and all(uniform(bot.choose) and not bot.reads_state for bot in self.bots.values())
            else None
        )

    def play(self, seed: str) -> tuple[Header, Match, list[Event]]:
        """The game of ``seed``, played to its end: its header, the finished
        match and its events. The same seed gives the same game."""
        check_seed(seed)
        header = seeded(self.template, Randomness(seed=seed))
        match = self.match(header)
        rngs = {p: bot_rng(seed, p) for p in self.players}
        number = chance.numbers(seed)
        events: list[Event] = []
        if self._drawing is not None:
            # The race :func:`play_out` begins with, without its setting up:
            # most games end in it (a short game's setting up costs a tenth of it).
            match.race(self._drawing, rngs, number, events, self.max_events)
            if match.over:
                return header, match, events
        return header, match, play_out(match, self.bots, rngs, number, seed, self.max_events, events=events)


def selfplay(
    registry: Registry,
    game: str,
    players: Sequence[str],
    bots: Sequence[Bot],
    seed: str,
    variants: Sequence[str] = (),
    options: Mapping[str, str] | None = None,
    max_events: int = 100_000,
) -> tuple[Header, Match, list[Event]]:
    """A complete game between bots (one per seat); the same seed gives the
    same log. Many games between the same bots: :class:`SelfPlay`."""
    return SelfPlay(registry, game, players, bots, variants, options, max_events).play(seed)


def play_out(
    match: Match,
    bots: Mapping[str, Bot],
    rngs: Mapping[str, random.Random],
    number: Callable[[int], int] | None,
    seed: str | None,
    max_events: int,
    secrets: Secrets | None = None,
    events: list[Event] | None = None,
) -> list[Event]:
    """Play ``match`` on until it is over, or until a player without a bot
    in ``bots`` must decide: each seat's decisions by its bot (shown its
    seat's view) with that seat's generator in ``rngs``, chance outcomes
    picked by ``number(seq)`` (None: the seed's numbers). Sealed decisions
    are kept in ``secrets`` until all are in, salted from ``seed`` (so that
    a seed repeats its game), or from the deciding seat's generator without
    one. A bot's decision must be one the rules allow (:func:`chosen`).

    The events are appended to ``events`` as they are played (an error
    leaves those played so far there), a new list when it is not given;
    ``max_events`` bounds those added. Returns ``events``."""
    game = match.header.game
    # Bots that choose from the legal list alone let the game run on its fast
    # path: no immutable state is built for them.
    looks = False
    for bot in bots.values():
        if bot.reads_state:
            looks = True
            break
    racing = not looks and number is not None and match.hurry()
    if secrets is None:
        secrets = {}
    if events is None:
        events = []
    # The bound counts the events added here (race counts those in the list).
    start = len(events)
    bound = max_events + start
    the_game = match.game
    if racing:
        assert number is not None
        choose = {player: bot.choose if uniform(bot.choose) else _held(match, bot) for player, bot in bots.items()}
        match.race(choose, rngs, number, events, bound)
    events += settle(match, seed, secrets, number)
    while not match.over:
        if racing:
            # Back on the fast path after a sealed decision (a secret setup):
            # race stops at each one, and the rest of the game need not be
            # played the long way.
            match.race(choose, rngs, number, events, bound)  # type: ignore[arg-type]
            events += settle(match, seed, secrets, number)
            if match.over:
                break
        node = match.node
        if not isinstance(node, Decide):  # settle() leaves decisions, or chance for a table's hand
            return events
        player = next((p for p in node.players if p in bots), None)
        if player is None:
            return events  # a player without a bot decides
        legal = match.legal(player)
        if not legal:
            raise IllegalEventError(f"{game}: {player} must decide but has no legal decision")
        bot = bots[player]
        choice = seen.choice(bot, the_game, match.state, player, legal, rngs[player])
        if not uniform(bot.choose):
            chosen(match, bot, player, choice)
        if node.sealed:
            if seed is not None:
                # Self-play salts come from the seed, so that a seed repeats its game.
                salt = hashlib.sha256(f"salt {player} {match.seq} {seed}".encode()).hexdigest()[:32]
            else:
                salt = f"{rngs[player].getrandbits(128):032x}"
            choice = seal(match, choice, secrets, salt)
        match.apply(choice)
        events.append(choice)
        events += settle(match, seed, secrets, number)
        if len(events) > bound:
            raise IllegalEventError(f"{game}: self-play did not end within {max_events} events")
    return events


def chosen(match: Match, bot: Bot, player: str, choice: Any) -> Event:
    """``choice``, the decision ``bot`` took for ``player`` in ``match`` now,
    when it is a decision of the game the rules allow (one of the legal
    decisions the bot was handed, or one a listing leaves out: Glyph Chess
    lists blazes up to a length); else an error in one line naming the bot,
    where its code is, what it chose and why it may not. (The core's random
    bot, declared with :func:`tabletop.play.sampling.draws_uniformly`, draws
    from the listing and is not asked.)"""
    game = match.header.game
    if (
        not isinstance(choice, Event)
        or choice.origin != DECISION
        or match.registry.codec.kinds[game].get(choice.kind) is not type(choice)
    ):
        reason: str | None = f"not a decision of {game}"
    elif getattr(choice, "player", None) != player:
        reason = f"a decision of {getattr(choice, 'player', None)}'s, not {player}'s"
    else:
        reason = match.check(choice)
    if reason is None:
        return choice
    try:
        said = f"'{match.game.format(choice)}'" if isinstance(choice, Event) else repr(choice)
    except Exception:  # noqa: BLE001 - the bot's object, whatever it is, is only named
        said = f"a {type(choice).__name__}"
    if len(said) > 80:
        said = said[:77] + "..."
    raise IllegalEventError(f"bot '{bot.name}' chose {said} for {player}: {reason}", where=code_of(bot.choose))


def _held(match: Match, bot: Bot) -> Callable[..., Event]:
    """``bot.choose``, its decision held to the rules (:func:`chosen`)."""
    choose = bot.choose

    def held(game: Game, view: Any, player: str, legal: Sequence[Event], rng: random.Random) -> Event:
        return chosen(match, bot, player, choose(game, view, player, legal, rng))

    return held


@draws_uniformly
def random_choice(game: Any, state: Any, player: str, legal: Sequence[Event], rng: random.Random) -> Event:
    """The core's bot: any legal decision, uniformly.

    A listing that offers ``sample(rng)`` draws its own uniform choice
    (Glyph Chess's without listing every move: see its ``Actions``; a test
    holds each such listing to every decision alike). Any other is asked its
    length and one item: the index is drawn as ``random.Random.randrange(n)``
    draws it in CPython (numbers of ``n.bit_length()`` bits from the
    generator until one is below ``n``), written out: the bot then repeats
    its games whatever a Python release does to ``randrange`` (only the
    generator's bits are promised to repeat), and a self-played turn is
    spared its checks (a test holds the two equal)."""
    if type(legal) is not list:  # a list offers no draw of its own
        sample = getattr(legal, "sample", None)
        if sample is not None:
            return sample(rng)  # type: ignore[no-any-return]
    n = len(legal)
    if not n:
        raise ValueError("no legal decision to choose from")
    # :func:`~tabletop.play.sampling.below`, written out: a call fewer in
    # every decision of a short game.
    bits = rng.getrandbits
    k = n.bit_length()
    index = bits(k)
    while index >= n:
        index = bits(k)
    return legal[index]
