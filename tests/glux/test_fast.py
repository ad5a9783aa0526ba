"""Glüx's fast path agrees with its plain rules: every node, legal set, check
reason (for legal decisions and for decisions from elsewhere in the game) and
state, event by event, over many seeds, 2-4 players, with and without variants."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import Decide, Match, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.play.live import random_choice, selfplay
from tabletop_glux import recall, remember
from tabletop_glux.chips import FACES
from tabletop_glux.placement import Placements
from tabletop_glux.steps import step_of

from ..conftest import ROOT
from ..fastpath import compare

SEEDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=10)
HOUSE_RULES = ROOT / "variants" / "house_rules"

#: Variants the fast path runs under (each changes a rule the fast path asks).
FAST_VARIANTS = [
    (),
    ("glux-no-cover",),
    ("glux-stack-height",),
    ("glux-diagonals",),
    ("glux-room-points:first=6,second=1",),
    ("glux-diagonals", "glux-stack-height:height=4", "glux-no-cover"),
    ("glux-cover-fewer",),
    ("glux-soft-ones", "glux-middle-double"),
    ("glux-wrapped-cover",),
    ("glux-wrapped-cover-by-face",),
    ("glux-wrapped-rules",),
    ("glux-two-chips",),
    ("glux-two-chips", "glux-cover-fewer", "glux-diagonals"),
    ("glux-put-back",),
    ("glux-put-back", "glux-two-chips", "glux-soft-ones"),
    ("glux-joker", "glux-two-chips", "glux-cover-fewer"),
    ("glux-lucky-chip",),
    ("glux-lucky-chip", "glux-put-back", "glux-joker"),
]


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry(get_plugin_manager(sorted(HOUSE_RULES.glob("glux_*.py")), environment=False))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=SEEDS, players=st.integers(2, 4), variants=st.sampled_from(FAST_VARIANTS))
def test_fast_path_agrees_with_the_plain_rules(registry, seed, players, variants):
    names = ["ann", "ben", "cat", "dan"][:players]
    events = compare(registry, "glux", names, seed, variants)
    assert events > 2 * players  # at least setup and a round of placements


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_path_replays_the_same_final_state(registry, players):
    names = ["ann", "ben", "cat", "dan"][:players]
    bot = registry.bot("random", "glux")
    for i in range(5):
        header, played, events = selfplay(registry, "glux", names, [bot] * players, f"fast-{i}")
        plain = Match(registry, header)
        for event in events:
            plain.accept(event)
        # selfplay with the random bot ran on the fast path; the plain fold agrees.
        assert played._fast is not None
        assert plain.state == played.state and plain.over


def test_no_fast_path_when_a_variant_adds_a_decision(registry):
    from tabletop import Header

    assert registry.game(Header("glux", ("ann", "ben"), ("glux-redraw",))).fast() is None
    assert registry.game(Header("glux", ("ann", "ben"), ("glux-no-cover",))).fast() is not None


class CountCovers:
    """Memory asked before each event takes effect: how many placements went
    onto a chip (the state before the placement tells)."""

    @rulehook(wrapper=True)
    def glux_memo(self, game, state, event, memo):
        memo = yield
        if event.kind == "place" and state.stacks[game.board.indices[event.square]]:
            memo = remember(memo, "covers", recall(state, "covers", 0) + 1)
        return memo


class CountCoversPlugin:
    @hookimpl
    def register_variants(self):
        return [Variant("count-covers", "glux", "count the covers", CountCovers())]


@pytest.fixture(scope="module")
def counting() -> Registry:
    pm = get_plugin_manager(sorted(HOUSE_RULES.glob("glux_*.py")), environment=False)
    pm.register(CountCoversPlugin())
    return Registry(pm)


@pytest.mark.parametrize("variants", [("count-covers",), ("count-covers", "glux-lucky-chip", "glux-two-chips")])
def test_glux_memo_keeps_the_fast_path_and_remembers_as_the_plain_rules(counting, variants):
    names = ["ann", "ben", "cat"]
    bot = counting.bot("random", "glux")
    for seed in ("covers-1", "covers-2"):
        assert compare(counting, "glux", names, seed, variants) > 50
        header, played, events = selfplay(counting, "glux", names, [bot] * 3, seed, variants)
        assert played._fast is not None  # self-play ran on the fast path
        plain = Match(counting, header)
        covers = 0
        for event in events:
            if event.kind == "place":
                covers += bool(plain.state.stacks[plain.game.board.indices[event.square]])
            plain.accept(event)
        assert plain.state == played.state and recall(played.state, "covers") == covers > 0


@pytest.mark.parametrize("variants", FAST_VARIANTS)
def test_a_changed_or_wrapped_rule_keeps_the_fast_path(registry, variants):
    bot = registry.bot("random", "glux")
    names = ["ann", "ben", "cat"]
    header, played, events = selfplay(registry, "glux", names, [bot] * 3, "wrapped", variants)
    assert registry.game(header).fast() is not None and played._fast is not None
    if variants in (("glux-wrapped-cover",), ("glux-wrapped-cover-by-face",), ("glux-wrapped-rules",)):
        # Asked instead of read in their forms, the rules say the same: the same game.
        _, official, same = selfplay(registry, "glux", names, [bot] * 3, "wrapped")
        assert [str(e) for e in events] == [str(e) for e in same] and official.state == played.state


@pytest.mark.parametrize(
    ("variants", "by_face"),
    [(("glux-wrapped-cover",), False), (("glux-wrapped-cover-by-face",), True), (("glux-cover-fewer",), True)],
)
def test_rule_4_is_asked_once_per_square_unless_a_rule_in_force_takes_the_face(registry, variants, by_face):
    from tabletop import Header

    game = registry.game(Header("glux", ("ann", "ben"), variants))
    assert game.placement.cover is not None and game.placement.by_face is by_face
    asked = []
    cover = game.placement.cover
    game.placement.cover = lambda **kwargs: asked.append(kwargs["face"]) or cover(**kwargs)
    state = game.initial()
    bot = registry.bot("random", "glux")
    _, _, events = selfplay(registry, "glux", ["ann", "ben"], [bot] * 2, "asked", variants)
    for event in events:
        if state.began and state.turn is not None and not state.drawing:
            list(game.legal(state, game.players[state.turn]))  # counted: rule 4 asked of every covered square
        state = game.apply(state, event)
    faces = set(asked)
    # Once per square asks with the low face only; by face, both faces are asked.
    assert faces and (faces <= {1, 2, 3}) is (not by_face)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=SEEDS,
    players=st.integers(2, 4),
    variants=st.sampled_from(FAST_VARIANTS),
    listed_from=st.integers(0, 400),
    data=st.data(),
)
def test_fast_path_agrees_while_replaying_then_listing(registry, seed, players, variants, listed_from, data):
    # A replay never lists placements, so the fast path checks squares looking
    # back from them; once a list is asked for (here from event `listed_from`
    # on) it keeps each seat's reach. Both ways must agree with the plain rules.
    names = ["ann", "ben", "cat", "dan"][:players]
    bot = registry.bot("random", "glux")
    header, _, events = selfplay(registry, "glux", names, [bot] * players, seed, variants)
    game = registry.game(header)
    fast = game.fast()
    state, live = game.initial(), fast.thaw(game.initial())
    decisions = [e for e in events if e.origin == "decision"]
    for i, event in enumerate(events):
        node = game.next(state)
        assert fast.next(live) == node, i
        if i >= listed_from and isinstance(node, Decide):
            for player in node.players:
                assert list(fast.legal(live, player)) == list(game.legal(state, player))
        if isinstance(node, Decide):
            strangers = data.draw(st.lists(st.sampled_from(decisions), max_size=4))
            for decision in [event, *strangers]:
                if decision.player in node.players:
                    assert fast.check(live, decision) == game.check(state, decision), (i, decision)
        state = game.apply(state, event)
        fast.apply(live, event)
        assert fast.freeze(live) == state, i


@settings(max_examples=200, deadline=None)
@given(
    picks=st.lists(
        st.tuples(
            st.sampled_from(["ann", "ben"]),
            st.lists(st.integers(0, 168), min_size=1, max_size=12, unique=True).map(sorted),
            st.booleans(),
            st.sampled_from(sorted(FACES)),
            st.lists(st.integers(-30, 30), max_size=6),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_placements_with_made_events_are_the_placements_made_afresh(picks):
    # The fast path's Placements keep each event made for a player (on a board)
    # and give it again: element for element, the events made afresh.
    names = tuple(f"s{i}" for i in range(169))
    made = {"ann": [None] * (169 << 4), "ben": [None] * (169 << 4)}
    for player, squares, option, kind, indices in picks:
        kept = Placements(player, list(squares), names, option, FACES[kind], made[player])
        fresh = Placements(player, list(squares), names, option, FACES[kind])
        assert len(kept) == len(fresh)
        for index in [*indices, *range(len(fresh))]:
            try:
                expected = fresh[index]
            except IndexError:
                with pytest.raises(IndexError):
                    kept[index]
            else:
                assert kept[index] == expected, index
        assert list(kept) == list(fresh) and kept[1:-1:2] == fresh[1:-1:2]
        assert [e.start for e in kept] == [option and i >= len(kept) - 2 for i in range(len(kept))]
        # Indexed as the list of the same events is, out of range included.
        as_list = list(fresh)
        for index in indices:
            if -len(as_list) <= index < len(as_list):
                assert kept[index] == fresh[index] == as_list[index]
            else:
                with pytest.raises(IndexError):
                    fresh[index]


@settings(max_examples=60, deadline=None)
@given(
    squares=st.lists(st.integers(0, 168), unique=True, max_size=40),
    option=st.booleans(),
    kind=st.sampled_from(sorted(FACES)),
    seed=st.integers(0, 2**32),
)
def test_placements_sample_is_the_random_bots_draw_from_the_list(squares, option, kind, seed):
    # A listing's own draw (``sample``) is the placement the core's random bot
    # would draw from the same placements as a plain list: the same number
    # from the generator, the same index, so self-played games stay as they are.
    names = tuple(f"s{i}" for i in range(169))
    placements = Placements("ann", sorted(squares), names, option, FACES[kind], [None] * (169 << 4))
    plain = list(placements)
    if not plain:
        with pytest.raises(ValueError):
            placements.sample(random.Random(seed))
        with pytest.raises(ValueError):
            random_choice(None, None, "ann", plain, random.Random(seed))
        return
    drawn, listed = random.Random(seed), random.Random(seed)
    for _ in range(5):
        assert placements.sample(drawn) == random_choice(None, None, "ann", plain, listed)
    assert drawn.getrandbits(32) == listed.getrandbits(32)


def _self_played(registry, variants, tag, count):
    """``count`` games self-played by random bots under ``variants``, 2 to 4
    players: each game's players, match, events, game and fast path."""
    names = ["ann", "ben", "cat", "dan"]
    bot = registry.bot("random", "glux")
    for i in range(count):
        players = names[: 2 + i % 3]
        header, played, events = selfplay(registry, "glux", players, [bot] * len(players), f"{tag}-{i}", variants)
        game = registry.game(header)
        yield players, played, events, game, game.fast()


@pytest.mark.parametrize("variants", FAST_VARIANTS)
def test_the_random_bots_draw_without_the_listing_is_its_draw_from_the_listing(registry, variants):
    # At every decision of self-played games, for every player, the placement
    # step's own draw (declared on its listing, ``sampled_by``) is the
    # decision the random bot draws from the listing: the same one, the same
    # numbers taken from the generator; None where the listing is empty.
    for players, _, events, game, fast in _self_played(registry, variants, "draw", 3):
        draw = fast.samplers.get("place")
        if draw is None:
            # A variant adds a decision to the step (``TurnStep.adding``):
            # its listing is another, and the random bot draws from it.
            assert "glux-put-back" in variants
            return
        live = fast.thaw(game.initial())
        drawn = 0
        for k, event in enumerate(events):
            if live.at == "place":
                for player in players:
                    listing = fast.legal(live, player)
                    ours, theirs = random.Random(k), random.Random(k)
                    expected = random_choice(game, None, player, listing, theirs) if listing else None
                    assert draw(game, live, player, ours) == expected, (k, player)
                    assert ours.getrandbits(32) == theirs.getrandbits(32)
                    drawn += expected is not None
            fast.apply(live, event)
        assert drawn > 10


@pytest.mark.parametrize("variants", [(), ("glux-cover-fewer", "glux-two-chips"), ("glux-lucky-chip",)])
def test_self_play_by_the_random_bot_is_self_play_drawing_from_the_listings(registry, variants, monkeypatch):
    # Self-play gives the random bot the placement step's own draw; a bot
    # that draws the same way from the listing (not the random bot itself,
    # so it is handed the listings) plays the same games.
    from tabletop.host.extensions import Bot
    from tabletop_glux import steps
    from tabletop_glux.placement import Placement

    # The step's own draw picks a placement (``steps.placed_at``) or, under
    # a house rule on rule 4, asks the listing's draw (``Placement.drawn``).
    drawn = []
    draw, pick = Placement.drawn, steps.placed_at
    monkeypatch.setattr(Placement, "drawn", lambda *asked: drawn.append(asked[2]) or draw(*asked))
    monkeypatch.setattr(steps, "placed_at", lambda *asked: drawn.append(asked[0]) or pick(*asked))
    names = ["ann", "ben", "cat", "dan"]
    random_bot = registry.bot("random", "glux")
    listing_bot = Bot("listing", "the random bot's draw", lambda *asked: random_choice(*asked), reads_state=False)
    for i in range(4):
        players = names[: 2 + i % 3]
        header, played, events = selfplay(registry, "glux", players, [random_bot] * len(players), f"same-{i}", variants)
        assert played._fast is not None
        by_random = len(drawn)
        _, _, listed = selfplay(registry, "glux", players, [listing_bot] * len(players), f"same-{i}", variants)
        assert registry.codec.log(header, events) == registry.codec.log(header, listed)
        # Only the random bot was given the step's own draw (under a house
        # rule on rule 4 too: the step then draws as the listing does).
        assert len(drawn) == by_random
    assert len(drawn) > 50


@pytest.mark.parametrize("variants", FAST_VARIANTS)
def test_self_play_gives_the_placements_of_the_plain_rules(registry, variants):
    # Self-play with events kept from game to game (the fast path's Placements
    # and its shared tables): each game's log is the plain rules' own game
    # (every decision legal there) and every list of placements the plain one.
    for _, played, events, game, fast in _self_played(registry, variants, "kept", 12):
        state, live = game.initial(), fast.thaw(game.initial())
        for event in events:
            node = game.next(state)
            if isinstance(node, Decide):
                assert list(fast.legal(live, event.player)) == list(game.legal(state, event.player))
                assert event in game.legal(state, event.player)
            state = game.apply(state, event)
            fast.apply(live, event)
        assert fast.freeze(live) == state and played.state == state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=SEEDS, players=st.integers(2, 4), variants=st.sampled_from(FAST_VARIANTS))
def test_reach_and_filled_squares_kept_are_those_counted_afresh(registry, seed, players, variants):
    # Self-play keeps each seat's reach, the mask of squares holding a chip
    # and the squares with room up to date chip by chip; after every event they are what counting
    # afresh on the same position gives.
    names = ["ann", "ben", "cat", "dan"][:players]
    bot = registry.bot("random", "glux")
    header, _, events = selfplay(registry, "glux", names, [bot] * players, seed, variants)
    game = registry.game(header)
    fast = game.fast()
    if not fast.incremental:
        return  # a variant changes the counting rules: no reach is kept
    state = game.initial()
    live = fast.thaw(state)
    fast.count_reach(live)
    for i, event in enumerate(events):
        state = game.apply(state, event)
        fast.apply(live, event)
        afresh = fast.thaw(state)
        # The step the fast path keeps after each event (worked out in its
        # ``apply`` without a call) is the step the state is in.
        assert live.at == afresh.at == step_of(state), i
        assert fast.count_reach(afresh) == live.reach, i
        assert live.filled == afresh.filled == sum(1 << sq for sq, stack in enumerate(state.stacks) if stack), i
        # And the squares with room for a chip (rule 5).
        assert live.room == afresh.room == [len(stack) < fast.height for stack in state.stacks], i
