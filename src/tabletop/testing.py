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
- **Logs round-trip and refuse hostile text** (:func:`lines_round_trip`,
  :func:`hostile_lines`): every event is written and read back equal, and a
  mangled line is a :class:`~tabletop.base.errors.TabletopError`, never another
  exception.

A failure is an :class:`AssertionError` naming the check, the game (its
seed), the event number and the seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from .base.errors import TabletopError
from .host.registry import Registry
from .model.events import Event, Seal, Unseal
from .model.game import Game
from .model.nodes import Chance, Decide
from .play import chance
from .play.engine import Match
from .play.live import decide, make_header, settle
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
) -> int:
    """Play ``games`` seeded random games of ``game`` and hold it to every
    check of the kit at every ``every``-th event; return the events checked."""
    checked = 0
    for number in range(games):
        checked += _one_game(registry, game, players, variants, options, f"{seed}-{number}", every, max_events)
    return checked


def _one_game(registry, game_name, players, variants, options, seed, every, max_events) -> int:
    header, seed, _ = make_header(registry, game_name, players, variants, options, seed)
    match = Match(registry, header)
    game = match.game
    rng = random.Random(seed)
    secrets: dict = {}
    events: list[Event] = []
    checked = 0
    where = game_name

    def check() -> None:
        state = match.state
        for seat in players:
            views_are_views(game, state, seat, rng, where)
            for twin in twins(game, state, seat, rng, count=1):
                same_for(registry, game, state, twin, seat, where)
        # A generator of its own: the games played stay those the seed names.
        public_alike(registry, game, state, random.Random(f"{seed} public {match.seq}"), where)
        fast_agrees(game, state, players, rng, where)
        for player in players:
            notation_round_trips(game, state, player, where)

    while not match.over and len(events) <= max_events:
        where = f"{game_name} ({', '.join(variants) or 'official rules'}), seed {seed!r}, event {match.seq + 1}"
        node = match.node
        if isinstance(node, Chance) and seed is not None:
            for seat in (*players, seen.PUBLIC):
                hidden_alike(match, seat, where)
            event = node.pick(chance.number(seed, match.seq + 1))
            match.apply(event)
            events.append(event)
            continue
        if not isinstance(node, Decide) or match.revealing:
            added = settle(match, seed, secrets)
            events += added
            if added:
                continue
            if not isinstance(match.node, Decide):
                break
            node = match.node
        if checked % every == 0:
            for seat in (*players, seen.PUBLIC):
                hidden_alike(match, seat, where)
            check()
        checked += 1
        player = node.players[0]
        legal = list(game.legal(match.state, player))
        events += decide(match, legal[rng.randrange(len(legal))], seed, secrets)
    plain = [e for e in events if not isinstance(e, (Seal, Unseal))]
    lines_round_trip(registry, game_name, events, where)
    hostile_lines(registry, game_name, plain[:50], rng, where)
    return checked
