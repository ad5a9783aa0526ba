"""Replay: a fold of validated events over a game's state.

Nothing in a log is trusted. Each event is checked against the node the rules
reach at that point (whose decision it is, which chance outcomes are possible,
what the rules force) before it is applied.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from ..base.errors import CheckFailed, IllegalEventError, LogFormatError, TabletopError
from ..host.registry import Registry
from ..log.header import Header
from ..log.logfile import parse_header, read_batches
from ..model.events import AGREED, CHANCE, DECISION, Agreement, Event, Handover, Resign, Reveal, Seal, Unseal
from ..model.game import Fast, Game
from ..model.nodes import Chance, Decide, Forced, Node, Outcome, Over
from . import chance
from .turn import TurnFast

_COMMITMENT = re.compile(r"^sha256:[0-9a-f]{64}$")


class Match:
    """A game as far as its log goes: the header, the rules, the state.

    A match folds events on the game's immutable states, or, after
    :meth:`hurry`, on the game's fast path (a mutable state, when the game has
    one); :attr:`state` is the immutable state either way.
    """

    def __init__(
        self,
        registry: Registry,
        header: Header,
        game: Game | None = None,
        fast: Fast | None = None,
        initial: Any = None,
    ) -> None:
        self.registry = registry
        self.header = header
        #: ``game``, when given, is the game made from ``header``'s parts
        #: (see ``live.make_header``), which matches may share.
        self.game: Game = game if game is not None else registry.game(header)
        #: ``fast``, when given, is that game's fast path (``game.fast()``),
        #: which matches played one after the other may share: a batch of
        #: games makes it once.
        self._ready = fast
        #: ``initial``, when given, is that game's ``initial()``, which
        #: matches may share too: a state never changes.
        self._state: Any = self.game.initial() if initial is None else initial
        self.seq = 0
        self.revealed: str | None = None
        #: Sealed decisions not yet revealed: player -> commitment.
        self.seals: dict[str, str] = {}
        #: The players' agreement that ended the game, if they agreed to end it.
        self.agreed: Agreement | None = None
        self._node: Node | None = None
        self._fast: Fast | None = None
        self._live: Any = None
        self._stale = False
        self._foreign = registry.foreign_events(header)

    def restore(self, state: Any, seq: int, revealed: str | None, seals: dict[str, str]) -> None:
        """Put the match where a fold of its first ``seq`` events left it
        (a snapshot already checked against the log, see ``tabletop.play.snapshot``)."""
        self._state, self.seq, self.revealed, self.seals = state, seq, revealed, dict(seals)
        self._node, self._fast, self._live, self._stale = None, None, None, False

    @property
    def state(self) -> Any:
        """The game's state after the last event (immutable)."""
        if self._stale:
            self._state = self._fast.freeze(self._live)  # type: ignore[union-attr]
            self._stale = False
        return self._state

    def hurry(self) -> bool:
        """Fold the events to come on the game's fast path, if it has one.
        Whether it does."""
        if self._fast is None:
            fast = self._ready if self._ready is not None else self.game.fast()
            if fast is None:
                return False
            self._live = fast.thaw(self.state)
            self._fast = fast
        return True

    @property
    def node(self) -> Node:
        """What comes next. For a sealed decision: the players still to seal,
        or, once all have sealed, the players to reveal."""
        if self._node is None:
            if self.agreed is not None:  # the players ended it, whatever the rules would ask next
                self._node = Over()
                return self._node
            node = self.game.next(self._state) if self._fast is None else self._fast.next(self._live)
            if isinstance(node, Decide) and node.sealed:
                waiting = tuple(p for p in node.players if p not in self.seals)
                node = Decide(waiting or node.players, sealed=True)
            self._node = node
        return self._node

    def check(self, decision: Event) -> str | None:
        """The game's reason why ``decision`` is illegal now, or None (the
        player's right to decide now is not looked at)."""
        if self._fast is None:
            return self.game.check(self._state, decision)
        return self._fast.check(self._live, decision)

    def legal(self, player: str) -> Sequence[Event]:
        """Every legal decision of ``player`` now."""
        if self._fast is None:
            return self.game.legal(self._state, player)
        return self._fast.legal(self._live, player)

    def _fold(self, event: Event) -> None:
        if self._fast is None:
            self._state = self.game.apply(self._state, event)
        else:
            self._fast.apply(self._live, event)
            self._stale = True
        self._node = None

    @property
    def revealing(self) -> bool:
        """Whether every player of the open sealed decision has sealed it."""
        node = self.node
        return isinstance(node, Decide) and node.sealed and all(p in self.seals for p in node.players)

    @property
    def over(self) -> bool:
        return isinstance(self.node, Over)

    @property
    def seed(self) -> str | None:
        """The seed, if the header or a reveal made it known."""
        return self.header.randomness.seed or self.revealed

    def why_illegal(self, event: Event) -> str | None:
        """Why ``event`` may not come next, or None."""
        node = self.node
        if isinstance(event, Reveal):
            return self._check_reveal(event, node)
        if isinstance(node, Over):
            return "the game is over; no event may follow"
        if isinstance(event, (Seal, Unseal)):
            return self._check_sealed(event, node)
        if isinstance(event, Resign):
            return self._check_resign(event)
        if isinstance(event, Agreement):
            return self._check_agreement(event)
        if isinstance(event, Handover):
            return None if event.player in self.game.players else f"'{event.player}' is not a player of this game"
        if self._foreign and type(event) in self._foreign:
            return (
                f"'{event.kind}' belongs to the variant '{self._foreign[type(event)]}', which this game does not enable"
            )
        if isinstance(node, Forced):
            # The event the rules force is taken where it is forced, whatever
            # its origin (a chance event a rule forces, say): every path plays
            # and folds it so (``settle``, ``TurnFast.race`` and ``follow``).
            if event == node.event:
                return None
            if event.origin != DECISION:
                return f"the rules give '{self.game.format(node.event)}' here"
        if event.origin == DECISION:
            if not isinstance(node, Decide):
                return f"no decision is open now ({_expected(node)} comes next)"
            if node.sealed:
                return "this decision is secret: it must be sealed first"
            player = event.player  # type: ignore[attr-defined]
            if player not in node.players:
                if player not in self.game.players:
                    return f"'{player}' is not a player of this game"
                return f"not {player}'s turn: {_names(node.players)} to decide"
            return self.check(event)
        if event.origin == CHANCE:
            if not isinstance(node, Chance):
                return f"no chance outcome is due now ({_expected(node)} comes next)"
            if not node.allows(event):
                return "not a possible outcome here"
            return None
        return f"the rules force nothing now ({_expected(node)} comes next)"

    def _check_reveal(self, event: Reveal, node: Node) -> str | None:
        if not isinstance(node, Over):
            return "the seed is revealed only after the game is over"
        commit = self.header.randomness.commitment
        if commit is None:
            return "this game is not sealed; there is no seed to reveal"
        if self.revealed is not None:
            return "the seed is already revealed"
        if not chance.matches(event.seed, commit):
            return "the revealed seed does not match the commitment in the header"
        return None

    def _check_resign(self, event: Resign) -> str | None:
        if event.player not in self.game.players:
            return f"'{event.player}' is not a player of this game"
        try:
            self.game.resign(self.state, event.player)
        except TabletopError as exc:
            return exc.message
        return None

    def _check_agreement(self, event: Agreement) -> str | None:
        if event.result not in AGREED:
            return f"an agreement ends a game with one of: {', '.join(AGREED)}"
        if not event.players or len(set(event.players)) != len(event.players):
            return "an agreement names each player who agreed, once"
        strangers = [p for p in event.players if p not in self.game.players]
        if strangers:
            return f"'{strangers[0]}' is not a player of this game"
        return None

    def outcome(self) -> Outcome:
        """Scores and winners: the game's (its standings while it goes on), or,
        after the players agreed to end it, a victory shared by those who
        agreed to a draw, or none for a game abandoned."""
        outcome = self.game.outcome(self.state)
        agreed = self.agreed
        if agreed is None:
            return outcome
        if agreed.result == "draw":
            return Outcome(outcome.scores, tuple(agreed.players), "a draw agreed")
        return Outcome(outcome.scores, (), "abandoned by agreement")

    def _check_sealed(self, event: Seal | Unseal, node: Node) -> str | None:
        if not (isinstance(node, Decide) and node.sealed):
            return "no secret decision is open now"
        player = event.player
        if player not in node.players:
            if player not in self.game.players:
                return f"'{player}' is not a player of this game"
            return f"not {player}'s turn: {_names(node.players)} to decide"
        if isinstance(event, Seal):
            if self.revealing:
                return f"{player} has sealed a decision already"
            if not _COMMITMENT.match(event.commitment):
                return "a commitment is 'sha256:' and 64 hex digits"
            return None
        if not self.revealing:
            return "sealed decisions are revealed only once every player has sealed one"
        # Read first: a choice that is no decision is refused before hashing it.
        try:
            inner = self.unsealed(event)
        except TabletopError as exc:
            return f"the revealed decision cannot be read: {exc.message}"
        if not chance.matches_seal(event.salt, event.choice, self.seals[player]):
            return f"this does not open {player}'s sealed decision (the hash differs)"
        return self.check(inner)

    def unsealed(self, event: Unseal) -> Event:
        """The decision an unseal event reveals."""
        if set(event.choice) - {"kind", "payload"}:
            raise LogFormatError("a sealed choice has only 'kind' and 'payload'")
        data = {
            "seq": 0,
            "kind": event.choice.get("kind"),
            "player": event.player,
            "payload": event.choice.get("payload", {}),
        }
        inner = self.registry.codec.decode(self.header.game, data)[1]
        if inner.origin != DECISION:
            raise LogFormatError(f"'{inner.kind}' is not a decision")
        return inner

    def accept(self, event: Event, seq: int | None = None) -> None:
        """Validate ``event`` as the next one (numbered ``seq``) and apply it."""
        expected = self.seq + 1
        if seq is not None and seq != expected:
            raise IllegalEventError(f"event {seq}: wrong sequence number (expected {expected})")
        reason = self.why_illegal(event)
        if reason is not None:
            raise IllegalEventError(f"event {expected} ({self.describe(event)}): {reason}")
        self.apply(event)

    def apply(self, event: Event) -> None:
        """Apply an event known to be legal."""
        if isinstance(event, Reveal):
            self.revealed = event.seed
        elif isinstance(event, Seal):
            self.seals[event.player] = event.commitment
            self._node = None
        elif isinstance(event, Resign):
            # A sealed decision of theirs not yet revealed goes with them.
            self.seals.pop(event.player, None)
            resigned = self.game.resign(self.state, event.player)
            if self._fast is None:
                self._state = resigned
            else:
                self._live = self._fast.thaw(resigned)
                self._stale = False
                self._state = resigned
            self._node = None
        elif isinstance(event, Agreement):
            self.agreed = event
            self.seals.clear()  # a sealed decision not yet revealed goes with the game
            self._node = None
        elif isinstance(event, Handover):
            pass  # the seat is the same; only who plays it changed
        elif isinstance(event, Unseal):
            inner = self.unsealed(event)
            del self.seals[event.player]
            self._fold(inner)
        else:
            self._fold(event)
        self.seq += 1

    def describe(self, event: Event, viewer: str | None = None) -> str:
        """``event`` in notation (redacted for ``viewer``); core events too."""
        if isinstance(event, Reveal):
            return f"the seed is revealed: {event.seed}"
        if isinstance(event, Seal):
            return f"{event.player} seals a secret decision"
        if isinstance(event, Resign):
            return f"{event.player} resigns"
        if isinstance(event, Agreement):
            what = "a draw" if event.result == "draw" else "abandon the game"
            return f"{', '.join(event.players)} agree to {what}"
        if isinstance(event, Handover):
            return f"a new player takes {event.player}'s seat"
        try:
            if isinstance(event, Unseal):
                return f"{event.player} reveals: {self.game.format(self.unsealed(event), viewer)}"
            return self.game.format(event, viewer)
        except Exception:  # an event that breaks the rules may not format; its kind still names it
            return event.kind

    # -- the fast loops: folding a log, and playing on -----------------------------
    def follow(self, events: Iterable[tuple[int, Event]]) -> None:
        """Validate and apply each ``(seq, event)`` in turn, as :meth:`accept`
        does, on the fast path when the match has one (see :meth:`hurry`).

        On a fast path on the core's turn (``tabletop.play.turn.Stepped``),
        the common events (a decision of a player the node names, a possible
        chance outcome, the event the rules force) are checked and folded a
        batch at a time by the fast path itself (``TurnFast.follow``, which
        asks the steps directly); anything else (sealed decisions, the
        seed's reveal, a resignation, an illegal event and its message) goes
        through :meth:`accept`, as every event does on the plain path or on
        a game's own fast path."""
        fast = self._fast
        if not isinstance(fast, TurnFast):
            for seq, event in events:
                self.accept(event, seq)
            return
        # Events of these kinds, and any event while a node is pending or a
        # decision sealed, go through :meth:`accept`; only it changes those.
        unusual = {*self._foreign, Resign, Agreement, Handover}
        events = iter(events)
        while True:
            if self._node is None and not self.seals and self.agreed is None:
                reached = [self.seq]
                try:
                    stopped = fast.follow(self._live, events, reached, unusual)
                finally:
                    if reached[0] != self.seq:  # accept reads the state as folded so far
                        self.seq, self._stale = reached[0], True
                if stopped is None:
                    return
                seq, event, self._node = stopped  # the node asked for it, if any
            else:
                item = next(events, None)
                if item is None:
                    return
                seq, event = item
            self.accept(event, seq)  # says why, or handles what is not common (a resignation makes a new live state)

    def race(
        self,
        choose: Mapping[str, Callable[..., Event]],
        rngs: Mapping[str, Any],
        number: Callable[[int], float],
        events: list[Event],
        max_events: int,
    ) -> None:
        """Play on, on the fast path, as far as the game goes without the
        engine's help: chance outcomes from ``number(seq)``, the events the
        rules force, and decisions of one player at a time by that player's
        bot, ``choose[player](game, None, player, legal, rngs[player])`` (a
        bot's ``choose`` that reads no state: it picks from the legal list,
        so every choice is legal). Each event is appended to ``events``; more
        than ``max_events`` in all is an error. A sealed decision, a decision
        of a player missing from ``choose`` or the end leaves the rest to the
        caller, and so does a game whose fast path is not on the core's turn
        (``tabletop.play.turn.Stepped``): the fast path on the turn plays
        (``TurnFast.race``), asking the steps directly.

        A player whose bot draws as the core's random bot does (declared
        with ``tabletop.play.sampling.draws_uniformly``) is given, in a step whose
        listing declares the random bot's draw
        (``tabletop.play.sampling.sampled_by``), that draw: the same decision,
        without the listing."""
        if not self.hurry() or not isinstance(self._fast, TurnFast):
            return
        reached = [self.seq]
        try:
            stopped = self._fast.race(self._live, choose, rngs, number, events, reached, max_events)
        finally:
            self.seq = reached[0]
            self._stale = True
            self._node = None
        if type(stopped) is Over:
            self._node = stopped  # the end, as :attr:`node` would find it again


def _names(players: tuple[str, ...]) -> str:
    return " or ".join(players)


def _expected(node: Node) -> str:
    if isinstance(node, Decide):
        return f"a decision by {_names(node.players)}"
    if isinstance(node, Chance):
        return "a chance outcome"
    if isinstance(node, Forced):
        return "an event the rules force"
    return "nothing"


class Replay:
    """A log read event by event, each validated; iterate to fold it.

    Iterating yields ``(lineno, seq, event)`` after each event is applied to
    :attr:`match`. Errors carry ``FILE:LINE``.
    """

    def __init__(
        self, registry: Registry, path: Path, handle: IO[bytes] | None = None, start: tuple[int, int] | None = None
    ) -> None:
        self.registry = registry
        self.path = Path(path)
        self._batches = read_batches(self.path, handle)
        first, lines = next(self._batches)
        self.header = parse_header(self.path, lines[0])
        try:
            self.match = Match(registry, self.header)
        except TabletopError as exc:
            raise exc.at(f"{self.path}:1") from None
        self.lines = 1
        #: The lines read but not folded yet, and the number of the first.
        self._read: tuple[int, list[bytes]] | None = (2, lines[1:]) if len(lines) > 1 else None
        if start is not None:
            # The lines from byte ``start[0]`` on, the first numbered ``start[1] + 1``:
            # the caller restores the match to where line ``start[1]`` left it.
            self._batches.close()
            self._batches = read_batches(self.path, handle, start)
            self._read = None
            self.lines = start[1]
        #: Called with (match, seq, event) before each event is applied.
        self.before: Callable[[Match, int, Event], None] | None = None

    def close(self) -> None:
        """Stop reading the log (the file is closed; nothing more is folded)."""
        self._batches.close()

    def _blocks(self) -> Iterator[tuple[int, list[bytes]]]:
        """The lines not folded yet, a block at a time (see ``read_batches``)."""
        if self._read is not None:
            read, self._read = self._read, None
            yield read
        yield from self._batches

    def __iter__(self) -> Iterator[tuple[int, int, Event]]:
        codec = self.registry.codec
        game = self.header.game
        match = self.match
        for lineno, text in (line for first, lines in self._blocks() for line in enumerate(lines, first)):
            try:
                seq, event = codec.decode_line(game, text)
                if self.before is not None and seq == match.seq + 1:
                    self.before(match, seq, event)
                match.accept(event, seq)
            except TabletopError as exc:
                raise exc.at(f"{self.path}:{lineno}") from None
            self.lines = lineno
            yield lineno, seq, event

    def run(self, until: int | None = None) -> Match:
        """Fold the whole log (or up to event ``until``) and return the match.

        No state but the last is kept, so the game's fast path folds it."""
        if self.match.hurry() and until is None and self.before is None:
            return self._run_fast()
        for _, seq, _ in self:
            if until is not None and seq >= until:
                break
        return self.match

    def _run_fast(self) -> Match:
        # Lines are read and decoded a block at a time, and each block folded
        # in one call: one loop per event rather than a chain of generators.
        # An error names the line of the event at fault; a line that cannot be
        # read is reported only once the events before it are folded (an
        # illegal one among them is the first error).
        decode = self.registry.codec.decode_lines
        game = self.header.game
        match = self.match
        for first, lines in self._blocks():
            failed: TabletopError | None = None
            events: list[tuple[int, Event]] = []
            try:
                decode(game, lines, events)
            except TabletopError as exc:  # a line that is no event: the events before it are folded first
                failed = exc.at(f"{self.path}:{first + len(events)}")
            done = match.seq
            try:
                match.follow(events)
            except TabletopError as exc:
                raise exc.at(f"{self.path}:{first + match.seq - done}") from None
            if failed is not None:
                raise failed from None
            self.lines = first + len(lines) - 1
        return match


def verify(
    registry: Registry, path: Path, require_seed: bool = True, seed: str | None = None
) -> tuple[Match, int | None]:
    """Replay a log and re-derive every chance outcome from its seed (or
    ``seed``, a sealed game's, given before the log reveals it): the match
    and the number of outcomes checked (None when the seed is not known and
    ``require_seed`` is false).

    Raises :class:`CheckFailed` at the first outcome the seed does not give.
    """
    replay = Replay(registry, path)
    randomness = replay.header.randomness
    if seed is not None and not (seed == randomness.seed or chance.matches(seed, randomness.commitment or "")):
        what = "the seed in the header" if randomness.seed is not None else "the commitment in the header"
        raise CheckFailed(f"--seed: this is not the game's seed (it does not match {what})", where=f"{path}:1")
    seed = seed or randomness.seed
    if seed is None:
        # The seed of a sealed game is its last event: replay once to find it.
        match = replay.run()
        seed = match.seed
        if seed is None:
            if not require_seed:
                return match, None
            if replay.header.randomness.sealed:
                raise CheckFailed("the seed is not revealed yet (the game is not over)", where=str(path))
            raise CheckFailed("the log has no seed: its chance outcomes were recorded, not drawn", where=str(path))
        replay = Replay(registry, path)
    checked = 0
    number = chance.numbers(seed)  # the seed's key prepared once for every outcome

    def check(match: Match, seq: int, event: Event) -> None:
        nonlocal checked
        node = match.node
        if event.origin == CHANCE and isinstance(node, Chance):
            expected = node.pick(number(seq))
            if expected != event:
                raise CheckFailed(
                    f"event {seq}: the seed gives '{match.describe(expected)}', the log has '{match.describe(event)}'"
                )
            checked += 1

    replay.before = check
    return replay.run(), checked
