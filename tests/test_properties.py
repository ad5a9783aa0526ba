"""Properties that hold for every installed game (hypothesis)."""

from __future__ import annotations

import typing
from itertools import accumulate

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.play.engine import Match
from tabletop.play.live import selfplay

SEEDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12)


def installed_games():
    from tabletop import Registry, get_plugin_manager

    from .conftest import PILE

    return sorted(Registry(get_plugin_manager([PILE], environment=False)).games)


def play_out(registry, game: str, players: int, seed: str):
    cls = registry.game_class(game)
    count = min(max(players, cls.min_players), cls.max_players)
    names = [f"p{i}" for i in range(1, count + 1)]
    bot = registry.bot("random", game)
    return selfplay(registry, game, names, [bot] * count, seed)


@pytest.mark.parametrize("game", installed_games())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=SEEDS, players=st.integers(2, 4))
def test_selfplay_then_replay_reproduces_the_final_state(registry, game, seed, players):
    header, match, events = play_out(registry, game, players, seed)
    lines = [registry.codec.encode(i, e) for i, e in enumerate(events, start=1)]
    replayed = Match(registry, header)
    for line in lines:
        seq, event = registry.codec.decode_line(game, line)
        replayed.accept(event, seq)
    assert replayed.over
    assert replayed.state == match.state
    assert replayed.game.outcome(replayed.state) == match.game.outcome(match.state)


@pytest.mark.parametrize("game", installed_games())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=SEEDS, players=st.integers(2, 4))
def test_the_same_seed_reproduces_the_same_log(registry, game, seed, players):
    first = play_out(registry, game, players, seed)
    again = play_out(registry, game, players, seed)
    encode = registry.codec.encode
    assert [encode(i, e) for i, e in enumerate(first[2], 1)] == [encode(i, e) for i, e in enumerate(again[2], 1)]


@pytest.mark.parametrize("game", installed_games())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=SEEDS, players=st.integers(2, 4), data=st.data())
def test_notation_round_trips_every_legal_decision(registry, game, seed, players, data):
    header, match, events = play_out(registry, game, players, seed)
    # Walk to a random point of the game and check every decision open there.
    stop = data.draw(st.integers(0, len(events)))
    walk = Match(registry, header)
    for event in events[:stop]:
        walk.apply(event)
    for player in getattr(walk.node, "players", ()):
        for decision in walk.game.legal(walk.state, player):
            text = walk.game.notate(decision)
            assert walk.game.parse(text, player, walk.state) == decision, text


def event_classes():
    from tabletop import Registry, get_plugin_manager

    from .conftest import PILE

    registry = Registry(get_plugin_manager([PILE], environment=False))
    return [(game, cls) for game, table in sorted(registry.codec.kinds.items()) for cls in table.values()]


@pytest.mark.parametrize(("game", "cls"), event_classes(), ids=lambda v: getattr(v, "kind", v))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_event_kind_round_trips_through_a_log_line(registry, game, cls, data):
    attrs.resolve_types(cls)
    event = data.draw(st.builds(cls, **{f.name: _values(f.type) for f in attrs.fields(cls)}))
    line = registry.codec.encode(7, event)
    assert registry.codec.decode_line(game, line) == (7, event)


def _values(kind):
    # The log format keeps integers to 64 bits, like most JSON readers.
    if kind is int:
        return st.integers(-(2**63), 2**63 - 1)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(_values(args[0]), max_size=5).map(tuple)
    if origin is dict:
        # Free JSON (an unsealed decision): any JSON object.
        scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8)
        json_values = st.recursive(
            scalars,
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
            max_leaves=8,
        )
        return st.dictionaries(st.text(max_size=8), json_values, max_size=4)
    return st.from_type(kind)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=256),
    seq=st.integers(1, 10**9) | st.integers(-3, 5000),
)
def test_the_numbers_of_one_seed_are_the_numbers_of_the_seed(seed, seq):
    """Self-play draws with ``chance.numbers`` (HMAC's padded keys hashed
    once, the messages of the first 4096 events made once); replay checks
    with ``chance.number`` (``hmac.digest``): the two agree on every seed
    (up to the longest, 256 characters, which may be more than a hash block
    in UTF-8) and event, on both sides of the messages made."""
    from tabletop.play import chance

    assert chance.numbers(seed)(seq) == chance.number(seed, seq)


@pytest.mark.parametrize("length", [1, 31, 32, 63, 64, 65, 128, 256])
@pytest.mark.parametrize("char", ["a", "é", "\U0001d11e"])
def test_the_numbers_of_one_seed_around_the_hash_block(length, char):
    """Keys shorter than, as long as and longer than SHA-256's 64-byte block
    (a longer key is hashed first): the same numbers as ``hmac.digest``."""
    from tabletop.play import chance

    seed = char * length
    number_of = chance.numbers(seed)
    for seq in (1, 2, 9, 10, 193, 4095, 4096, 10**6, 2**63):
        assert number_of(seq) == chance.number(seed, seq)


def _picked_one_by_one(outcomes, weights, number):
    """A chance outcome as the rules define the pick: the number (modulo the
    total weight) counted off outcome by outcome."""
    n = number % sum(weights)
    for outcome, weight in zip(outcomes, weights):
        if n < weight:
            return outcome
        n -= weight
    raise AssertionError


@settings(max_examples=300, deadline=None)
@given(
    weights=st.lists(st.integers(0, 6), min_size=1, max_size=10).filter(any),
    number=st.integers(0, 2**256 - 1),
)
def test_a_weighted_chance_picks_as_counting_off_the_weights(weights, number):
    """``Chance.pick`` finds the outcome by its running totals; the same
    outcome as counting the weights off one by one, zero weights included."""
    from tabletop.model.nodes import Chance

    outcomes = tuple(f"o{i}" for i in range(len(weights)))
    assert Chance(outcomes, tuple(weights)).pick(number) == _picked_one_by_one(outcomes, weights, number)


@settings(max_examples=300, deadline=None)
@given(
    weights=st.none() | st.lists(st.integers(0, 3), min_size=1, max_size=6).filter(any),
    numbers=st.lists(st.integers(0, 2**256 - 1), min_size=1, max_size=20),
)
def test_a_sure_chance_outcome_is_the_one_every_number_picks(weights, numbers):
    """``Chance.sure``, which self-play takes without drawing a number, is
    the outcome when only one can happen (one outcome, or one weight above
    zero), and then every number picks it; when two can happen it is None,
    and some numbers pick each of them."""
    from tabletop.model.nodes import Chance

    size = len(weights) if weights is not None else len(numbers) % 3 + 1
    outcomes = tuple(f"o{i}" for i in range(size))
    node = Chance(outcomes, tuple(weights) if weights is not None else None)
    possible = [o for i, o in enumerate(outcomes) if weights is None or weights[i] > 0]
    if len(possible) == 1:
        assert node.sure == possible[0]
        assert {node.pick(n) for n in numbers} == {possible[0]}
    else:
        assert node.sure is None
        ends = list(accumulate(weights)) if weights is not None else list(range(1, size + 1))
        # A number just below each possible outcome's running total picks it.
        assert {node.pick(end - 1) for end, o in zip(ends, outcomes) if o in possible} == set(possible)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64), sizes=st.lists(st.integers(1, 5000), min_size=1, max_size=20))
def test_the_random_bot_draws_as_randrange_does(seed, sizes):
    """The random bot writes ``randrange(n)``'s draw out (``random_choice``):
    from the same generator it picks the same decisions, and leaves the
    generator in the same place, so every self-played game repeats."""
    import random

    from tabletop.play.live import random_choice

    ours, theirs = random.Random(seed), random.Random(seed)
    for n in sizes:
        legal = list(range(n))
        assert random_choice(None, None, "p1", legal, ours) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


def test_the_random_bot_refuses_an_empty_choice():
    import random

    from tabletop.play.live import random_choice

    with pytest.raises(ValueError, match="no legal decision"):
        random_choice(None, None, "p1", [], random.Random(1))


@pytest.mark.parametrize("bot", ["random", "greedy"])  # the fast loop, and the loop that builds states
def test_self_play_stops_at_its_limit_of_events(registry, bot):
    from tabletop.base.errors import IllegalEventError

    players = ["ann", "ben", "cat"]
    bots = [registry.bot(bot, "glux")] * 3
    _, _, events = selfplay(registry, "glux", players, bots, "limit-1")
    # A game of exactly the limit ends; one event fewer allowed, it is stopped.
    assert len(selfplay(registry, "glux", players, bots, "limit-1", max_events=len(events))[2]) == len(events)
    with pytest.raises(IllegalEventError, match=f"did not end within {len(events) - 1} events"):
        selfplay(registry, "glux", players, bots, "limit-1", max_events=len(events) - 1)


@pytest.mark.parametrize("game, players", [("glux", 2), ("glux", 4), ("glyph-chess", 2)])
def test_self_play_draws_no_number_for_a_sure_outcome(registry, monkeypatch, game, players):
    """The fast loop takes a chance node's sure outcome (a draw from a bag
    of one kind) without drawing its number, and plays the same games as
    the loop that draws a number for every chance event: a bot that reads
    the state (the same random choice) keeps the game on that loop."""
    import attrs

    from tabletop.model.events import CHANCE
    from tabletop.play import chance
    from tabletop.play.live import random_choice

    drawn: list[int] = []
    numbers = chance.numbers

    def counted(seed):
        number_of = numbers(seed)

        def number(seq):
            drawn.append(seq)
            return number_of(seq)

        return number

    monkeypatch.setattr(chance, "numbers", counted)
    names = [f"p{i}" for i in range(1, players + 1)]
    fast_bot = registry.bot("random", game)
    assert fast_bot.choose is random_choice and not fast_bot.reads_state
    looking = attrs.evolve(fast_bot, reads_state=True)
    spared = 0
    for i in range(6):
        drawn.clear()
        _, _, raced = selfplay(registry, game, names, [fast_bot] * players, f"sure-{i}")
        chance_events = [seq for seq, event in enumerate(raced, start=1) if event.origin == CHANCE]
        assert set(drawn) <= set(chance_events)
        spared += len(chance_events) - len(drawn)
        _, _, plain = selfplay(registry, game, names, [looking] * players, f"sure-{i}")
        assert plain == raced
    assert spared > 0
