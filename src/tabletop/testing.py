"""The conformance kit: what every game, with any house rules, must hold to.

A game's test suite runs it in one call::

    from tabletop.testing import conform

    def test_my_game_conforms():
        conform(tabletop.host.registry(), "my-game", ("ann", "ben"), games=10)

:func:`conform` plays seeded random games and, at every event, holds the game
to its contracts. Each check is also a function of its own, for a test that
wants one:

- **Views keep secrets** (:func:`twins`, :func:`same_for`): twin states that
  differ only in what a seat may not see, made by filling the seat's view in
  with the game's own :meth:`~tabletop.Game.determinize`, give that seat
  identical views, board texts, ``diff`` facets, pictures in every format,
  scores, features (the AI adapters' observations), legal decisions, what is
  asked, and bot choices.
- **Histories keep secrets** (:func:`histories`, :func:`histories_alike`):
  twin states trust the view they are made from, so after each game two
  histories are played again where a seat may not see (a chance outcome or
  another player's decision that ``sees`` hides, a sealed decision): one as
  it went, one with another outcome or decision there that the seat may not
  see either, then both on through the same later steps, each on a game
  object and a registry of its own (:class:`Played`; the plugin manager and
  the plugins' modules are shared). At every decision they must show the
  seat, and a watcher, the same view, texts, facets, scores, pictures,
  legal decisions, asks, bots' choices, the adapters' observation planes
  and information state (the log as the seat reads it), and wait for the
  same thing, until the viewer sees an event that differs between them. A
  view that shows too much, or a game object that remembers a card, is
  found by what it shows later.
- **Watchers see only what every seat sees** (:func:`public_alike`): the
  public view (:func:`tabletop.sight.seen.public`, for a watcher with no seat) is
  the same whatever order the seats' views are taken in, is its own public
  view, and twin states that differ only in what some seat may not see show
  a watcher the same view, board texts, facets, scores and pictures.
- **Hidden events stay hidden** (:func:`hidden_alike`): the chance outcomes
  (and other players' decisions) a seat, or a watcher, may not see all read
  the same to it, and leave it the same view.
- **Views are views**: the view of a view is that view, and ``determinize``
  gives a state whose view is the one it was given.
- **The fast path is the plain rules** (:func:`fast_agrees`): a state thawed
  from the plain one lists, checks and applies exactly as the plain one.
- **Notation round-trips** (:func:`notation_round_trips`): every legal
  decision, written in the game's notation, reads back as itself.
- **Every path accepts the same events** (:func:`replays_alike`): each
  game played is written as a log file, replayed from it as ``tabletop
  replay`` does (:class:`~tabletop.play.engine.Replay`), and the replay
  must read the same events, accept every one of them and end in the
  state, node and outcome the played game ended in.
- **Logs round-trip and refuse hostile text** (:func:`lines_round_trip`,
  :func:`hostile_lines`): every event is written and read back equal, and a
  mangled line is a :class:`~tabletop.base.errors.TabletopError`, never another
  exception.

A failure is an :class:`AssertionError` naming the check, the game (its
seed), the event number and the seat.
"""

from __future__ import annotations

import hashlib
import random
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from .base.errors import TabletopError
from .host.registry import Registry
from .log import logfile
from .log.header import Header
from .model.events import CHANCE, DECISION, Event, Seal, Unseal
from .model.game import Game, Hidden
from .model.nodes import Chance, Decide, Forced, Over
from .play import chance, live
from .play.engine import Match, Replay
from .play.live import make_header, settle
from .sight import seen
from .sight.views import features


class Nonconformance(AssertionError):
    """Raised when a game breaks one of the contracts the kit checks."""


def _fail(check: str, where: str, detail: str) -> Nonconformance:
    return Nonconformance(f"{check}: {where}: {detail}")


# -- views keep secrets ------------------------------------------------------------
def twins(game: Game, state: Any, seat: str, rng: random.Random, count: int = 2) -> Iterator[Any]:
    """States that differ from ``state`` only in what ``seat`` may not see:
    the seat's view filled in by the game's ``determinize``."""
    view = game.view(state, seat)
    for _ in range(count):
        yield game.determinize(view, seat, rng)


def _pictured(registry: Registry, game: Game, state: Any, viewer: str | None) -> dict[str, Any]:
    """What any viewer is shown of ``state``: view, board text, facets, scores, pictures."""
    view = seen.view(game, state, viewer)
    shown: dict[str, Any] = {
        "view": view,
        "text": seen.text(game, state, viewer),
        "text in colour": seen.text(game, state, viewer, color=True),
        "facets": seen.facets(game, state, viewer),
        "scores": dict(seen.scores(game, state, viewer)),
        "features": list(features(view)),
    }
    for (name, fmt), renderer in sorted(registry.renderers.items()):
        if name == game.name:
            shown[f"picture {fmt}"] = seen.picture(renderer, game, state, viewer)
    return shown


def _alike(a: dict[str, Any], b: dict[str, Any], where: str, who: str) -> None:
    for key in a:
        if a[key] != b.get(key):
            raise _fail(
                "a secret shows",
                where,
                f"two states that differ only in what {who} may not see give {who} different {key}:"
                f" {_short(a[key])} / {_short(b.get(key))}",
            )


def shown_to(registry: Registry, game: Game, state: Any, seat: str, bot_seed: str = "kit") -> dict[str, Any]:
    """Everything tabletop shows ``seat``, or does for it, in ``state``:
    what twin states must agree on."""
    shown = _pictured(registry, game, state, seat)
    legal = shown["legal"] = list(game.legal(state, seat))
    node = game.next(state)
    deciding = isinstance(node, Decide) and seat in node.players
    if deciding:
        shown["asks"] = seen.asks(game, state, seat)
    if legal and deciding:
        for name, bots in sorted(registry.bots.items()):
            for bot in bots:
                if bot.game not in (None, game.name) or name == "mcts":
                    continue  # a search of hundreds of worlds per decision; tests/sight/test_seen.py hands it views
                rng = random.Random(f"{bot_seed} {name}")
                shown[f"bot {name}"] = seen.choice(bot, game, state, seat, legal, rng)
    return shown


def same_for(registry: Registry, game: Game, state: Any, twin: Any, seat: str, where: str = "") -> None:
    """``state`` and ``twin`` (equal in all ``seat`` may see) show ``seat`` the same."""
    _alike(shown_to(registry, game, state, seat), shown_to(registry, game, twin, seat), where, seat)


def public_twin(game: Game, state: Any, rng: random.Random) -> Any:
    """A state that differs from ``state`` only in what some seat may not
    see: each seat's view of it filled in with ``determinize`` in turn."""
    twin = state
    for seat in game.players:
        twin = game.determinize(game.view(twin, seat), seat, rng)
    return twin


def shown_to_public(registry: Registry, game: Game, state: Any) -> dict[str, Any]:
    """Everything tabletop shows a watcher with no seat in ``state``."""
    return _pictured(registry, game, state, seen.PUBLIC)


def public_alike(registry: Registry, game: Game, state: Any, rng: random.Random, where: str = "") -> None:
    """The public view hides what any seat's view hides, whichever seat's
    view is taken first; it is its own public view; and twin states that
    differ only in what some seat may not see show a watcher the same."""
    public = seen.public(game, state)
    backwards = state
    for seat in reversed(game.players):
        backwards = game.view(backwards, seat)
    if backwards != public:
        raise _fail("public view", where, "the seats' views taken in another order hide something else")
    if seen.public(game, public) != public:
        raise _fail("public view", where, "the public view of the public view is not that view")
    a = shown_to_public(registry, game, state)
    b = shown_to_public(registry, game, public_twin(game, state, rng))
    _alike(a, b, where, "a watcher with no seat")


def views_are_views(game: Game, state: Any, seat: str, rng: random.Random, where: str = "") -> None:
    """The view of a view is that view; a world ``determinize`` makes from a
    view has that view."""
    view = game.view(state, seat)
    if game.view(view, seat) != view:
        raise _fail("view", where, f"the view of {seat}'s view is not that view")
    world = game.determinize(view, seat, rng)
    if game.view(world, seat) != view:
        raise _fail("determinize", where, f"a world made from {seat}'s view has another view")


def hidden_alike(match: Match, seat: str, where: str = "") -> None:
    """At a chance node (or another player's decision), the outcomes ``seat``
    (or :data:`~tabletop.sight.seen.PUBLIC`, a watcher) may not see read the same
    to it and leave it the same view."""
    game, state, node = match.game, match.state, match.node
    if isinstance(node, Chance):
        events: Sequence[Event] = node.outcomes
    elif isinstance(node, Decide) and not node.sealed:
        events = [d for p in node.players if p != seat for d in game.legal(state, p)]
    else:
        return
    hidden = [e for e in events if not seen.sees(game, e, seat)]
    if len(hidden) < 2:
        return
    texts = {match.describe(e, seen.told(game, e, seat)) for e in hidden}
    if len(texts) > 1:
        raise _fail("a hidden event shows", where, f"events {seat} may not see read differently: {sorted(texts)}")
    first = seen.view(game, game.apply(state, hidden[0]), seat)
    for event in hidden[1:]:
        if seen.view(game, game.apply(state, event), seat) != first:
            raise _fail(
                "a hidden event shows",
                where,
                f"{match.describe(hidden[0])!r} and {match.describe(event)!r} leave {seat} different views",
            )


# -- histories keep secrets ------------------------------------------------------------
@attrs.frozen
class Choice:
    """One free step of a game played: a chance outcome or a player's
    decision (never what the rules force or a seal's reveal), with what
    could have happened there instead."""

    event: Event
    #: The node's possible outcomes, or the deciding player's legal decisions.
    others: tuple[Event, ...] = ()
    #: A decision the rules keep secret until every player has sealed theirs.
    sealed: bool = False


@attrs.frozen
class Branch:
    """Where two histories part: ``choices[at]`` happens in one and
    ``instead`` in the other, and ``seat`` may see neither."""

    at: int
    instead: Event
    seat: str


def branches(game: Game, choices: Sequence[Choice], seat: str) -> Iterator[tuple[int, tuple[Event, ...]]]:
    """Each step of ``choices`` that ``seat`` may not see (a chance outcome
    ``sees`` hides from it, another player's decision that ``sees`` hides or
    the rules seal), with the other outcomes or decisions there that
    ``seat`` may not see either: where a twin history may part."""
    for at, choice in enumerate(choices):
        event = choice.event
        if event.origin == DECISION and getattr(event, "player", None) == seat:
            continue
        secret = choice.sealed and event.origin == DECISION
        if not secret and seen.sees(game, event, seat):
            continue
        others = tuple(o for o in choice.others if o != event and (secret or not seen.sees(game, o, seat)))
        if others:
            yield at, others


class Played:
    """One history, played on a game, and a registry (rule managers, bots,
    renderers), of its own: what a match leaves on its game object, or on
    the registry's, cannot show in another history. The plugin manager and
    the plugins' modules are the process's, shared."""

    def __init__(self, registry: Registry, header: Header) -> None:
        self.registry = Registry(registry.pm)
        self.match = Match(self.registry, header)
        self.game = self.match.game
        self.secrets: live.Secrets = {}
        self.events: list[Event] = []
        self._settle()

    def take(self, event: Event) -> str | None:
        """Play ``event`` (a decision sealed if the rules seal it) and what
        the rules then force; or say why it may not come next."""
        match = self.match
        node = match.node
        try:
            if isinstance(node, Decide) and node.sealed and event.origin == DECISION:
                player = event.player  # type: ignore[attr-defined]
                # The same salt in every history: one decision, one seal.
                salt = hashlib.sha256(f"kit {match.seq} {player}".encode()).hexdigest()[:32]
                event = live.seal(match, event, self.secrets, salt)
            reason = match.why_illegal(event)
        except TabletopError as exc:
            return exc.message
        if reason is not None:
            return reason
        match.apply(event)
        self.events.append(event)
        self._settle()
        return None

    def _settle(self) -> None:
        match = self.match
        while True:
            node = match.node
            if match.revealing and all(p in self.secrets for p in node.players):  # type: ignore[union-attr]
                for player in node.players:  # type: ignore[union-attr]
                    secret = self.secrets.pop(player)
                    unseal = Unseal(player, secret["salt"], secret["choice"])
                    match.accept(unseal)
                    self.events.append(unseal)
            elif isinstance(node, Forced):
                match.apply(node.event)
                self.events.append(node.event)
            else:
                return

    def waiting(self) -> tuple[Any, ...]:
        """What the game waits for: who decides, a chance outcome, nothing."""
        node = self.match.node
        if isinstance(node, Decide):
            return ("decision", node.players, node.sealed)
        return ("chance",) if isinstance(node, Chance) else ("over",) if isinstance(node, Over) else (node,)

    def known(self, event: Event, viewer: str) -> Any:
        """What ``viewer`` learns of ``event``: the event, or only its kind
        (and, for a seal, who sealed)."""
        if isinstance(event, Seal):
            return ("seal", event.player)
        return event if seen.sees(self.game, event, viewer) else Hidden(event.kind)

    def line(self, event: Event, viewer: str) -> str:
        """``event`` as ``viewer`` reads it in the log, and in the OpenSpiel
        adapter's information state."""
        if isinstance(event, Seal):
            return f"{event.player} seals"
        return self.match.describe(event, seen.told(self.game, event, viewer))

    def shown(self, viewer: str, lines: Sequence[str]) -> dict[str, Any]:
        """Everything ``viewer`` is shown now: view, texts, facets, scores,
        pictures, legal decisions, asks, bots' choices, the adapters'
        observation (the game's planes, or the view's features) and
        information state (``lines``: the log as ``viewer`` reads it)."""
        game, state = self.game, self.match.state
        if viewer == seen.PUBLIC:
            shown = shown_to_public(self.registry, game, state)
        else:
            shown = shown_to(self.registry, game, state, viewer)
            if getattr(game, "planes", None) is not None:
                shown["observation planes"] = _planes(game, state, viewer)
        shown["information state"] = list(lines)
        return shown


def _planes(game: Game, state: Any, viewer: str) -> list[float] | None:
    # What the OpenSpiel and PettingZoo adapters fill (tabletop.sight.planes), spelling aside.
    from .sight.planes import planes_of

    declared = planes_of(game)
    if declared is None:
        return None
    import numpy as np

    out = np.zeros(declared.size, np.float32)
    declared.fill(seen.view(game, state, viewer), viewer, declared.split(out))
    return out.tolist()


def histories_alike(
    registry: Registry,
    header: Header,
    choices: Sequence[Choice],
    branch: Branch,
    steps: int = 12,
    where: str = "",
) -> int:
    """Non-interference over histories: two histories that differ only in
    ``branch`` (a step ``branch.seat`` may not see), each played on game and
    registry objects of its own, then on through the same later steps of
    ``choices``, show that seat, and a watcher with no seat, the same at
    every decision (:meth:`Played.shown`), and the game waits for the same
    thing in both, until the viewer learns something that differs between
    them (an event it sees), a later step is illegal in either, the game
    ends, or ``steps`` later steps are played. Returns the decisions compared.

    The twins are not made from the seat's view: a view that leaks, or a
    game object that remembers, is caught by what it shows later."""
    at = branch.at
    viewers = [branch.seat, seen.PUBLIC]
    # Each history played up to the branch, then one step at a time, and
    # what it shows taken at once, before the other history plays that step:
    # what a match leaves behind, even in a module's globals, is then its own.
    sides = (_Side(registry, header, viewers), _Side(registry, header, viewers))
    for side, first in zip(sides, (choices[at].event, branch.instead)):
        for choice in choices[:at]:
            reason = side.played.take(choice.event)
            if reason is not None:
                seq = side.played.match.seq + 1
                raise _fail("histories", f"{where}, event {seq}", f"the game played does not replay: {reason}")
        side.step(first, viewers)
        if side.refused is not None:
            raise _fail("histories", f"{where}, event {side.played.match.seq + 1}", f"{first!r}: {side.refused}")
    one, two = sides
    parted = f"event {one.start + 1}: {one.parted!r} / {two.parted!r}"
    compared = 0
    for step in range(steps + 1):
        for viewer in list(viewers):
            if one.known[viewer] != two.known[viewer]:
                viewers.remove(viewer)  # it learns something that differs: the twins may differ from now on
        if not viewers:
            break
        here = f"{where}, event {one.played.match.seq + 1}"
        said = f"two histories that differ only in what {{}} may not see ({parted}), then alike for {step} steps,"
        if one.waiting != two.waiting:
            name = viewers[0] or WATCHER
            detail = f"{said.format(name)} wait for different things: {one.waiting} / {two.waiting}"
            raise _fail("a secret shows later", here, detail)
        if one.shown:
            compared += 1
            for viewer in viewers:
                a, b = one.shown[viewer], two.shown[viewer]
                for key in a:
                    if a[key] != b.get(key):
                        name = viewer or WATCHER
                        detail = f"{said.format(name)} give {name} different {key}: {_differing(a[key], b.get(key))}"
                        raise _fail("a secret shows later", here, detail)
        later = at + 1 + step
        if later >= len(choices) or one.waiting == ("over",):
            break
        for side in sides:
            side.step(choices[later].event, viewers)
        if one.refused is not None or two.refused is not None:
            break  # a later step illegal in one twin: nothing more to compare
    return compared


#: How a failure names the viewer with no seat.
WATCHER = "a watcher with no seat"


class _Side:
    """One of two twin histories, and what it showed after its last step."""

    def __init__(self, registry: Registry, header: Header, viewers: Sequence[str]) -> None:
        self.played = Played(registry, header)
        self.lines: dict[str, list[str]] = {v: [] for v in viewers}
        self.start = -1
        self.parted = ""
        self.refused: str | None = None
        self.known: dict[str, list[Any]] = {}
        self.waiting: tuple[Any, ...] = ()
        self.shown: dict[str, dict[str, Any]] = {}

    def step(self, event: Event, viewers: Sequence[str]) -> None:
        played = self.played
        count = len(played.events)
        self.refused = played.take(event)
        if self.refused is not None:
            return
        if self.start < 0:  # the branch: the step where the twins part
            self.start, self.parted = count, played.match.describe(event)
        news = played.events[count:]
        self.known = {v: [played.known(e, v) for e in news] for v in viewers}
        for viewer in viewers:
            self.lines[viewer] += [played.line(e, viewer) for e in news]
        self.waiting = played.waiting()
        decides = isinstance(played.match.node, Decide)
        self.shown = {v: played.shown(v, self.lines[v]) for v in viewers} if decides else {}


# -- the fast path, notation and the log --------------------------------------------
def fast_agrees(
    game: Game, state: Any, players: Sequence[str], rng: random.Random, where: str = "", tries: int = 6
) -> None:
    """The fast path, thawed from ``state``, answers as the plain rules: the
    same node and legal decisions, each of them allowed, and ``tries`` of
    them (drawn with ``rng``) leaving the same state."""
    fast = game.fast()
    if fast is None:
        return
    live = fast.thaw(state)
    if fast.freeze(live) != state:
        raise _fail("fast path", where, "freeze(thaw(state)) is not the state")
    if fast.next(live) != game.next(state):
        raise _fail("fast path", where, "next differs from the plain rules")
    for player in players:
        plain = list(game.legal(state, player))
        if list(fast.legal(live, player)) != plain:
            raise _fail("fast path", where, f"{player}'s legal decisions differ from the plain rules")
        for decision in plain:
            if fast.check(live, decision) is not None:
                raise _fail("fast path", where, f"refuses {game.notate(decision)!r}, which the plain rules allow")
        for decision in rng.sample(plain, min(tries, len(plain))):
            after = fast.thaw(state)
            fast.apply(after, decision)
            if fast.freeze(after) != game.apply(state, decision):
                raise _fail("fast path", where, f"{game.notate(decision)!r} leaves another state")


def notation_round_trips(game: Game, state: Any, player: str, where: str = "") -> None:
    """Each legal decision of ``player``, notated and parsed back, is itself."""
    for decision in game.legal(state, player):
        text = game.notate(decision)
        back = game.parse(text, player, state)
        if back != decision:
            raise _fail("notation", where, f"{text!r} reads back as {back!r}, not {decision!r}")


def lines_round_trip(registry: Registry, game: str, events: Sequence[Event], where: str = "") -> None:
    """Every event, written as a log line and read back, is itself."""
    for seq, event in enumerate(events, start=1):
        line = registry.codec.encode(seq, event)
        if registry.codec.decode_line(game, line) != (seq, event):
            raise _fail("log line", where, f"{line} does not read back as the event written")


def hostile_lines(registry: Registry, game: str, events: Sequence[Event], rng: random.Random, where: str = "") -> None:
    """Mangled event lines are refused with the project's errors, never another exception."""
    for seq, event in enumerate(events, start=1):
        line = registry.codec.encode(seq, event)
        for bad in _mangled(line, rng):
            try:
                registry.codec.decode_line(game, bad)
            except TabletopError:
                pass
            except Exception as exc:  # what the kit is here to find
                raise _fail("hostile line", where, f"{bad!r} raised {type(exc).__name__}: {exc}") from None


def _mangled(line: str, rng: random.Random) -> Iterator[str | bytes]:
    yield line[: rng.randrange(len(line))]
    cut = rng.randrange(len(line))
    yield line[:cut] + rng.choice('{}[]",:0-x\\\x00é') + line[cut + 1 :]
    yield line.replace('"payload":{', '"payload":[', 1)
    yield line.replace(":", ":null,", 1)
    yield line.encode()[:cut] + b"\xff\xfe" + line.encode()[cut:]
    for value in ("1e999", '"x"', "[]", "{}", "-1", "null", "true", '"' + "9" * 50 + '"'):
        yield _each_value(line, value, rng)


#: JSON values that broke tabletop once, for a field of a good line: wrong
#: types, huge numbers, deep nesting, lone surrogates, control characters,
#: bounds just over the line.
HOSTILE_VALUES = (
    "9" * 5000,
    "[" * 1000 + "]" * 1000,
    '"\\ud800"',
    '"a\\u0000b"',
    '"\\u200b"',
    "1e400",
    "-1",
    "true",
    "1.0",
    "null",
    '["draw"]',
    '{"kind":"draw"}',
    "18446744073709551616",
    '"' + "x" * 70_000 + '"',
    "13",
    "3000",
    '{"file":"b.txt","text":"middle: A\\nstart 2: a1 b1\\n' + "9" * 5000 + '  A A\\n"}',
    '{"turn":["ann"],"dice":"SSSSS"}',
    "1000",
)


def _each_value(line: str, value: str, rng: random.Random) -> str:
    # One field's value replaced by ``value`` (a value is what follows a colon).
    return value_replaced(line, rng.choice([i + 1 for i, c in enumerate(line) if c == ":"]), value)


def value_replaced(line: str, start: int, value: str) -> str:
    """``line``, a JSON object's text, with the value that begins at
    ``start`` (just after a colon) replaced by ``value``: hostile input made
    from a good line."""
    end = start
    depth = 0
    while end < len(line) and (depth or line[end] not in ",}]"):
        depth += line[end] in "[{"
        depth -= line[end] in "]}"
        end += 1
    return line[:start] + value + line[end:]


def replays_alike(registry: Registry, header: Header, events: Sequence[Event], played: Match, where: str = "") -> None:
    """The game ``played`` (from ``header``, ``events`` as played), written
    as a log file and replayed from it as ``tabletop replay`` does: the
    replay reads back the same events, accepts every one (one path may not
    write what another refuses) and ends in the same state, node and
    outcome."""
    lines = registry.codec.log(header, events)
    with tempfile.TemporaryDirectory(prefix="tabletop-conform-") as folder:
        path = Path(folder) / "game.jsonl"
        logfile.create(path, lines)
        read = [registry.codec.decode_line(header.game, line) for line in lines[1:]]
        if [event for _, event in read] != list(events):
            at = next(i for i, (a, (_, b)) in enumerate(zip(events, read)) if a != b) if read else 0
            raise _fail("the log is not the game", where, f"event {at + 1} reads back otherwise from its file")
        try:
            replayed = Replay(registry, path).run()
        except TabletopError as exc:
            raise _fail("a replay refuses the game played", where, exc.message) from None
    if replayed.seq != len(events):
        raise _fail("a replay stops short", where, f"it folds {replayed.seq} of {len(events)} events")
    for what, mine, theirs in (
        ("state", played.state, replayed.state),
        ("next node", played.node, replayed.node),
        ("outcome", played.outcome(), replayed.outcome()),
    ):
        if mine != theirs:
            raise _fail(
                "a replay ends elsewhere", where, f"the {what} after the replay differs: {_differing(mine, theirs)}"
            )


def _differing(a: Any, b: Any) -> str:
    """Where two things shown differ: the first lines of two texts that
    differ, or the first items of two lists, else both whole (shortened)."""
    if isinstance(a, str) and isinstance(b, str):
        one, two = a.splitlines(), b.splitlines()
        for n, (x, y) in enumerate(zip(one, two), start=1):
            if x != y:
                return f"line {n} {_short(x)} / {_short(y)}"
        return f"{len(one)} lines / {len(two)} lines"
    if attrs.has(type(a)) and type(a) is type(b):
        for field in attrs.fields(type(a)):
            x, y = getattr(a, field.name), getattr(b, field.name)
            if x != y:
                return f"{type(a).__name__}.{field.name} {_short(x)} / {_short(y)}"
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return f"[{n}] {_short(x)} / {_short(y)}"
    return f"{_short(a)} / {_short(b)}"


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# -- all of it ----------------------------------------------------------------------
def conform(
    registry: Registry,
    game: str,
    players: Sequence[str],
    variants: Sequence[str] = (),
    options: dict[str, str] | None = None,
    games: int = 3,
    seed: str = "conform",
    every: int = 1,
    max_events: int = 2_000,
    pairs: int = 2,
    steps: int = 12,
) -> int:
    """Play ``games`` seeded random games of ``game`` and hold it to every
    check of the kit at every ``every``-th event, and, after each game,
    ``pairs`` twin histories parting where a seat may not see (each played
    on for ``steps`` steps: :func:`histories`); return the events checked."""
    checked = 0
    for number in range(games):
        checked += _one_game(
            registry, game, players, variants, options, f"{seed}-{number}", every, max_events, pairs, steps
        )[0]
    return checked


def random_history(
    registry: Registry,
    game: str,
    players: Sequence[str],
    variants: Sequence[str] = (),
    options: dict[str, str] | None = None,
    seed: str = "history",
    max_events: int = 2_000,
) -> tuple[Header, list[Choice]]:
    """A seeded random game of ``game``, as :func:`conform` plays it but
    unchecked: its header and its steps (for :func:`histories` and
    :func:`histories_alike`, or a reproduction)."""
    _, header, choices = _one_game(registry, game, players, variants, options, seed, 1, max_events, 0, 0, False)
    return header, choices


def histories(
    registry: Registry,
    header: Header,
    choices: Sequence[Choice],
    pairs: int = 2,
    steps: int = 12,
    seed: str = "kit",
    where: str = "",
) -> int:
    """Hold a game played (``choices``, from ``header``) to
    :func:`histories_alike` at ``pairs`` branches drawn (with ``seed``) from
    the steps some seat may not see, each with another outcome or decision
    that seat may not see either. Each kind of hidden step (a draw, a
    sealed setup) is drawn in turn, so that a rare kind is not left out for
    a common one; return the decisions compared."""
    game = registry.game(header)
    rng = random.Random(f"{seed} histories")
    kinds: dict[tuple[str, bool], list[tuple[int, str, tuple[Event, ...]]]] = {}
    for seat in game.players:
        for at, others in branches(game, choices, seat):
            kinds.setdefault((choices[at].event.kind, choices[at].sealed), []).append((at, seat, others))
    picked: list[tuple[int, str, tuple[Event, ...]]] = []
    groups = [rng.sample(found, len(found)) for _, found in sorted(kinds.items())]
    while len(picked) < pairs and any(groups):
        for group in groups:
            if group and len(picked) < pairs:
                picked.append(group.pop())
    compared = 0
    for at, seat, others in sorted(picked, key=lambda p: (p[0], p[1])):
        compared += histories_alike(registry, header, choices, Branch(at, rng.choice(others), seat), steps, where)
    return compared


def _one_game(
    registry, game_name, players, variants, options, seed, every, max_events, pairs, steps, checks=True
) -> tuple[int, Header, list[Choice]]:
    # With ``checks`` false: only the game, played and recorded.
    header, seed, _ = make_header(registry, game_name, players, variants, options, seed)
    match = Match(registry, header)
    game = match.game
    rng = random.Random(seed)
    secrets: dict = {}
    events: list[Event] = []
    checked = 0
    rules = f"{game_name} ({', '.join(variants) or 'official rules'}), seed {seed!r}"
    where = game_name
    # Every chance outcome and decision, with what could have happened
    # instead: the twin histories part at these.
    choices: list[Choice] = []
    nodes: dict[int, Any] = {}

    def number(seq: int) -> int:
        nodes[seq] = match.node  # the chance node a settling draws from
        return chance.number(seed, seq)

    def settled(first: int) -> list[Event]:
        added = settle(match, seed, secrets, number)
        for seq, event in enumerate(added, start=first):
            if event.origin == CHANCE:
                node = nodes.pop(seq, None)
                choices.append(Choice(event, () if node is None else _possible(node)))
        return added

    # The checks draw from generators of their own: the game played is the
    # one the seed names, checked or not (random_history plays it again).
    drawn = random.Random(f"{seed} checks")

    def check() -> None:
        state = match.state
        for seat in players:
            views_are_views(game, state, seat, drawn, where)
            for twin in twins(game, state, seat, drawn, count=1):
                same_for(registry, game, state, twin, seat, where)
        public_alike(registry, game, state, random.Random(f"{seed} public {match.seq}"), where)
        fast_agrees(game, state, players, drawn, where)
        for player in players:
            notation_round_trips(game, state, player, where)

    while not match.over and len(events) <= max_events:
        where = f"{rules}, event {match.seq + 1}"
        node = match.node
        if isinstance(node, Chance) and seed is not None:
            for seat in (*players, seen.PUBLIC) if checks else ():
                hidden_alike(match, seat, where)
            event = node.pick(chance.number(seed, match.seq + 1))
            match.apply(event)
            events.append(event)
            choices.append(Choice(event, _possible(node)))
            continue
        if not isinstance(node, Decide) or match.revealing:
            added = settled(match.seq + 1)
            events += added
            if added:
                continue
            if not isinstance(match.node, Decide):
                break
            node = match.node
        if checks and checked % every == 0:
            for seat in (*players, seen.PUBLIC):
                hidden_alike(match, seat, where)
            check()
        checked += 1
        player = node.players[0]
        legal = list(game.legal(match.state, player))
        decision = legal[rng.randrange(len(legal))]
        choices.append(Choice(decision, tuple(legal), node.sealed))
        logged = live.seal(match, decision, secrets) if node.sealed else decision
        match.accept(logged)
        events += [logged, *settled(match.seq + 1)]
    if checks:
        plain = [e for e in events if not isinstance(e, (Seal, Unseal))]
        lines_round_trip(registry, game_name, events, where)
        replays_alike(registry, header, events, match, rules)
        hostile_lines(registry, game_name, plain[:50], drawn, where)
        if pairs:
            histories(registry, header, choices, pairs, steps, seed, rules)
    return checked, header, choices


def _possible(node: Chance) -> tuple[Event, ...]:
    return tuple(o for o in node.outcomes if node.allows(o))
