"""The fast path answers exactly as the plain path: node, legal decisions,
check reasons for legal and illegal decisions, and every state, over many
seeds, with 2 and 3 players, with and without variants."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import Registry, get_plugin_manager
from tabletop_glyph_chess.actions import Actions
from tabletop_glyph_chess.fast import IndexedChance

from ..conftest import ROOT
from ..fastpath import compare

HOUSE_RULES = [
    str(ROOT / "variants" / "house_rules" / f)
    for f in (
        "glyph_long_scepter.py",
        "glyph_push.py",
        "glyph_hand_limit.py",
        "glyph_minion_steps.py",
        "glyph_no_scepter_swap.py",
        "glyph_wild_sight.py",
    )
]
VARIANTS = [
    (),
    ("glyph-long-scepter",),
    ("glyph-push",),
    ("glyph-long-scepter", "glyph-push"),
    ("glyph-hand-limit:limit=3",),
    ("glyph-push", "glyph-hand-limit:limit=8"),
    ("glyph-minion-steps",),
    ("glyph-no-scepter-swap",),
    ("glyph-wild-sight",),
    ("glyph-minion-steps", "glyph-wild-sight", "glyph-no-scepter-swap", "glyph-long-scepter"),
]


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager(HOUSE_RULES, environment=False))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.text("abcdef0123456789", min_size=1, max_size=8), players=st.sampled_from([2, 3]))
def test_fast_path_plays_as_the_plain_path(house, seed, players):
    assert compare(house, "glyph-chess", ["ann", "ben", "cat"][:players], seed, strangers=4) > 0


# Five here; the conformance kit (tests/test_conformance.py) also holds the fast
# path to the plain rules at every decision under every shipped house rule.
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.text("abcdef0123456789", min_size=1, max_size=8), variants=st.sampled_from(VARIANTS[1:]))
def test_fast_path_plays_as_the_plain_path_under_house_rules(house, seed, variants):
    assert compare(house, "glyph-chess", ["ann", "ben"], seed, variants, strangers=4) > 0


def test_fast_path_with_the_advanced_setup(house):
    assert compare(house, "glyph-chess", ["ann", "ben", "cat"], "sealed", ("glyph-advanced-setup",)) > 0


def test_fast_legal_builds_one_action_at_a_time(house):
    from tabletop import Match
    from tabletop.log.header import Header, Randomness
    from tabletop.play.live import settle

    match = Match(house, Header("glyph-chess", ("ann", "ben"), (), {}, Randomness(seed="lazy")))
    match.hurry()
    settle(match, "lazy", {})
    legal = match.legal(match.node.players[0])
    assert isinstance(legal, Actions) and len(legal) > 20
    assert legal[-1] == list(legal)[-1] and legal[3] == list(legal)[3] and legal[1:3] == list(legal)[1:3]
    with pytest.raises(IndexError):
        legal[len(legal)]


def test_fast_legal_equals_a_list_only_of_the_same_actions(house):
    from tabletop import Match
    from tabletop.log.header import Header, Randomness
    from tabletop.play.live import settle

    match = Match(house, Header("glyph-chess", ("ann", "ben"), (), {}, Randomness(seed="lazy")))
    match.hurry()
    settle(match, "lazy", {})
    legal = match.legal(match.node.players[0])
    plain = list(legal)
    assert legal == plain and legal == tuple(plain)
    assert legal != plain[:-1] and legal != plain + plain[:1] and legal != plain[::-1]
    assert legal != "not a list of actions"


def test_shuffles_are_looked_up_by_dict(house):
    game = house.game(__import__("tabletop").Header("glyph-chess", ("ann", "ben")))
    node = game.next(game.initial())
    assert isinstance(node, IndexedChance) and len(node.outcomes) == 720
    assert node.allows(node.outcomes[500]) and not node.allows(game.shuffles[1].outcomes[0])
    assert node == __import__("tabletop").Chance(node.outcomes)


def test_a_draw_is_made_once_per_player_and_bag(house):
    from tabletop import Chance, Header
    from tabletop_glyph_chess.events import Draw
    from tabletop_glyph_chess.pieces import GLYPHS

    games = [house.game(Header("glyph-chess", ("ann", "ben"))) for _ in range(2)]
    bag = (2, 0, 1, 0, 0, 2)
    node = games[0].draw_node(1, bag)
    # The same node for the same player and bag, in every game of the process ...
    assert games[1].draw_node(1, bag) is node
    # ... and it is the draw from that bag.
    assert node == Chance(tuple(Draw("ben", g) for g in GLYPHS), bag)
    assert games[0].draw_node(0, bag) != node and games[0].draw_node(1, (2, 0, 1, 0, 1, 2)) != node


# -- the fast path's own structures, against the plain computation ----------------
def _scrambled(game, rng, players):
    """A random position of ``game``: pieces of every seat (the minions near
    their summoner, the illusionist sometimes twice), dice, spent dice,
    hands and fates, none of them checked for being reachable in play."""
    from tabletop_glyph_chess.pieces import GLYPHS, ILLUSIONIST, MINION, SCEPTER, SUMMONER
    from tabletop_glyph_chess.state import ALIVE, BURNT, KILLED

    live = game.fast().thaw(game.initial())  # the fast path's twin: it knows its step
    geo = game.geo
    board = [None] * geo.size
    for seat in range(players):
        kinds = [SCEPTER, *(g for g in GLYPHS if rng.random() < 0.8)]
        if rng.random() < 0.3:
            kinds.append(ILLUSIONIST)
        for kind in kinds:
            board[rng.choice([s for s in range(geo.size) if board[s] is None])] = (seat, kind)
        summoner = next((s for s, p in enumerate(board) if p == (seat, SUMMONER)), None)
        if summoner is not None:
            near = [summoner]
            for _ in range(rng.randrange(4)):
                around = [t for s in near for t in geo.neighbours[s] if board[t] is None]
                if around:
                    spot = rng.choice(around)
                    board[spot] = (seat, MINION)
                    near.append(spot)
    live.board = board
    live.dice = [rng.choice(GLYPHS) for _ in live.dice]
    live.spent = rng.sample(range(len(live.dice)), rng.randrange(len(live.dice) + 1))
    live.hands = [[rng.choice((0, 0, 1, 2, 3)) for _ in GLYPHS] for _ in range(players)]
    live.fates = [[rng.choice((ALIVE, ALIVE, ALIVE, KILLED, BURNT)) for _ in GLYPHS] for _ in range(players)]
    if players > 2 and rng.random() < 0.3:
        live.eliminated[rng.randrange(players)] = True
    return live


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize(
    "variants", [(), ("glyph-push",), ("glyph-long-scepter",), ("glyph-minion-steps", "glyph-wild-sight")]
)
def test_ways_remembered_across_listings_are_the_ways_worked_out_afresh(house, players, variants):
    """The fast path's listing is the plain one with the ways to pay
    remembered across listings and games: over random positions, a listing
    with every way remembered is the listing with none."""
    import random

    from tabletop import Header
    from tabletop_glyph_chess import actions
    from tabletop_glyph_chess.game import GlyphChess

    entries = tuple(house.variant_entry(v, "glyph-chess") for v in variants)
    game = house.game(Header("glyph-chess", ("ann", "ben", "cat")[:players], entries))
    assert isinstance(game, GlyphChess)
    fast = game.fast()
    for n in range(150):
        rng = random.Random(f"scramble-{players}-{n}")
        live = _scrambled(game, rng, players)
        for seat in range(players):
            afresh = list(actions.families(game, live, seat, {}))
            assert list(actions.families(game, live, seat, fast.ways)) == afresh, (n, seat)
            assert (
                list(fast.legal(live, game.players[seat]))
                == [cls(*fields, dice, coins) for cls, fields, ways in afresh for dice, coins in ways]
                or live.phase != "act"
            )


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_march_orders_are_the_checked_permutations(seed):
    import random
    from itertools import permutations

    from tabletop import Header
    from tabletop_glyph_chess.context import Context
    from tabletop_glyph_chess.hexes import DIRECTIONS
    from tabletop_glyph_chess.pieces import MINION
    from tabletop_glyph_chess.spells import march, pieces_of

    rng = random.Random(seed)
    game = Registry(get_plugin_manager(environment=False)).game(Header("glyph-chess", ("ann", "ben")))
    live = _scrambled(game, rng, 2)
    for seat in (0, 1):
        minions = pieces_of(live, seat, MINION)
        for budget in range(5):
            plain = [
                (order, direction, count)
                for direction in DIRECTIONS
                for count in range(1, min(len(minions), budget) + 1)
                for order in permutations(minions, count)
                if march.check(game, live, seat, 0, order, direction)[0] is None
            ]
            ctx = Context(game, live, seat)
            ctx.source, ctx.budget = 0, budget
            assert list(march.options(ctx)) == plain


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_blaze_paths_are_every_path_depth_first(seed):
    import random

    from tabletop import Header
    from tabletop_glyph_chess.spells import blaze

    def grow(game, board, seat, path, seen, longest):
        if path:
            yield tuple(path)
        if len(path) == longest:
            return
        for spot in game.geo.neighbours[path[-1]]:
            if spot not in seen and (board[spot] is None or board[spot][0] != seat):
                yield from grow(game, board, seat, [*path, spot], seen | {spot}, longest)

    rng = random.Random(seed)
    game = Registry(get_plugin_manager(environment=False)).game(Header("glyph-chess", ("ann", "ben")))
    live = _scrambled(game, rng, 2)
    for source in rng.sample(range(game.geo.size), 6):
        seat = rng.randrange(2)
        for longest in range(5):
            plain = [p[1:] for p in grow(game, live.board, seat, [source], {source}, longest + 1)][1:]
            assert list(blaze.paths(game, live, seat, source, longest)) == plain


class _Position:
    """What the ways to pay read of a state: the dice, the dice spent, the hands."""


def _dice_and_coins(rng):
    """A random position for the ways to pay: dice of the first three glyphs,
    some spent, a hand of coins; a glyph to pay with and some wild glyphs."""
    from tabletop_glyph_chess.pieces import GLYPHS

    state = _Position()
    state.dice = [rng.choice(GLYPHS[:3]) for _ in range(5)]
    state.spent = rng.sample(range(5), rng.randrange(6))
    state.hands = [[rng.choice((0, 0, 1, 2, 3, 4)) for _ in GLYPHS]]
    glyph = rng.choice(GLYPHS[:3])
    wild = frozenset(rng.sample(GLYPHS, rng.randrange(3)))
    return state, glyph, wild


def test_ways_alike_have_the_same_ways_to_pay():
    import random

    from tabletop_glyph_chess import payment
    from tabletop_glyph_chess.context import ways_alike
    from tabletop_glyph_chess.pieces import GLYPHS

    found: dict = {}
    shared = 0
    for n in range(20_000):
        rng = random.Random(f"ways-{n}")
        state, glyph, wild = _dice_and_coins(rng)
        cost = rng.choice(("x", "item", "die", "die+x", "coin", "any-die"))
        amount, may_coin = rng.randrange(5), rng.random() < 0.7
        free = tuple(i + 1 for i in range(5) if i not in state.spent)
        faces = frozenset({glyph} if rng.random() < 0.7 else rng.sample(GLYPHS[:3], 2))
        coins = (frozenset({glyph}) | wild) if may_coin else frozenset()
        if cost == "any-die":
            showing, pool = tuple(state.dice[i - 1] for i in free), ()
            faces = frozenset(GLYPHS)
        else:
            showing = tuple(i for i in free if state.dice[i - 1] in faces)
            if len(faces) > 1:
                showing = tuple((i, state.dice[i - 1]) for i in showing)
            pool = tuple(c if g in coins else 0 for g, c in zip(GLYPHS, state.hands[0]))
        ways = list(payment.options(state, 0, cost, amount, payment.Payers(faces, coins)))
        key = ways_alike(cost, amount, free, showing, pool)
        shared += key in found
        assert found.setdefault(key, ways) == ways, (key, n)
    assert shared > 10_000  # the keys are shared often: the test compares something


def test_ways_remembered_across_games_follow_each_games_move_costs(house):
    """Ways to pay are remembered across games: a game whose move costs are
    changed (glyph-minion-steps changes the header-time ``glyph_move_costs``,
    a toll changes every move) never lends its moves' prices to another."""
    import random

    from tabletop import Header, Variant, get_plugin_manager, hookimpl, rulehook
    from tabletop_glyph_chess import actions
    from tabletop_glyph_chess.context import WAYS

    class Toll:
        @rulehook(wrapper=True)
        def glyph_move_costs(self, players):
            official = yield
            return lambda piece, distance: (lambda c: (c[0], c[1] + 1, *c[2:]) if c[0] == "x" else c)(
                official(piece, distance)
            )

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("toll", "glyph-chess", "", Toll())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    tolled = registry.game(Header("glyph-chess", ("ann", "ben"), (registry.variant_entry("toll", "glyph-chess"),)))
    official = registry.game(Header("glyph-chess", ("ann", "ben")))
    differ = 0
    for n in range(60):
        live = _scrambled(official, random.Random(f"toll-{n}"), 2)
        for seat in (0, 1):
            with_toll = list(actions.families(tolled, live, seat, WAYS))
            plain = list(actions.families(official, live, seat, WAYS))
            assert plain == list(actions.families(official, live, seat, {})), (n, seat)
            assert with_toll == list(actions.families(tolled, live, seat, {})), (n, seat)
            differ += with_toll != plain
    assert differ > 0


def test_ways_counted_alike_are_the_ways_to_pay():
    """With one face that may pay, the listing works the ways out once for
    as many dice and the same coins (``context.counted_alike``) and names
    the dice of the situation: the ways ``payment.options`` finds, in its order."""
    import random

    from tabletop_glyph_chess import payment
    from tabletop_glyph_chess.context import counted_alike
    from tabletop_glyph_chess.pieces import GLYPHS

    found: dict = {}
    shared = 0
    for n in range(20_000):
        rng = random.Random(f"counted-{n}")
        state, glyph, wild = _dice_and_coins(rng)
        cost = rng.choice(("x", "item", "die", "die+x", "coin"))
        amount = rng.randrange(6)
        coins = (frozenset({glyph}) | wild) if rng.random() < 0.7 else frozenset()
        paid_by = payment.Payers(frozenset({glyph}), coins)
        showing = tuple(i + 1 for i in range(5) if i not in state.spent and state.dice[i] == glyph)
        pool = [(g, c) for g, c in zip(GLYPHS, state.hands[0]) if c and g in coins]
        key = counted_alike(cost, amount, len(showing), pool)
        counts = found.get(key)
        shared += counts is not None
        if counts is None:
            counts = found[key] = list(payment.counted(cost, amount, len(showing), pool))
        named = [(showing[:k], coins) for k, coins in counts]
        assert named == list(payment.options(state, 0, cost, amount, paid_by)), (key, n)
    assert shared > 10_000  # the keys are shared often: the test compares something


def test_a_cost_that_cannot_be_paid_for_the_needed_x_cannot_be_paid_for_any():
    """The listing skips a spell whose cost cannot be paid for the X every
    X's payment includes (``payment.NEEDED``: one die or one item for a
    flat cost, the die of "die+x"): then no X can be paid, with one face or
    several that may pay, with coins or none."""
    import random

    from tabletop_glyph_chess import payment
    from tabletop_glyph_chess.pieces import GLYPHS

    class Position:
        pass

    skipped = 0
    for n in range(5_000):
        rng = random.Random(f"needed-{n}")
        state = Position()
        state.dice = [rng.choice(GLYPHS) for _ in range(5)]
        state.spent = rng.sample(range(5), rng.randrange(6))
        state.hands = [[rng.choice((0, 0, 1, 2, 3)) for _ in GLYPHS]]
        faces = frozenset(rng.sample(GLYPHS, rng.choice((1, 1, 2))))
        coins = frozenset(rng.sample(GLYPHS, rng.randrange(3))) if rng.random() < 0.7 else frozenset()
        paid_by = payment.Payers(faces, coins)
        for cost, needed in payment.NEEDED.items():
            if not list(payment.options(state, 0, cost, needed, paid_by)):
                skipped += 1
                for amount in range(8):
                    assert not list(payment.options(state, 0, cost, amount, paid_by)), (n, cost, amount)
    assert skipped > 1_000  # costs that cannot be paid are met often: the test compares something
