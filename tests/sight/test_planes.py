"""Observations a network can learn from: the games' declared planes, and
the true bound of a game's length the adapters give OpenSpiel."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from tabletop import PluginError, testing  # noqa: E402
from tabletop.ai.actions import actions_for  # noqa: E402
from tabletop.api import registry, start  # noqa: E402
from tabletop.base.limits import LIMIT, length_of  # noqa: E402
from tabletop.model.events import DECISION  # noqa: E402
from tabletop.play.live import selfplay  # noqa: E402
from tabletop.sight import seen  # noqa: E402
from tabletop.sight.planes import Observation, Plane, Planes, planes_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HOUSE = str(ROOT / "variants" / "house_rules")
PEEK = str(Path(__file__).resolve().parents[1] / "ai" / "ai_games" / "peek.py")
DOC = (ROOT / "docs" / "ai.md").read_text()

CONFIGS = [
    ("glux", 2, ()),
    ("glux", 3, ()),
    ("glux", 4, ("glux-room-points:first=6,second=1",)),
    ("glux", 2, ("glux-two-chips",)),
    ("glyph-chess", 2, ()),
    ("glyph-chess", 3, ("glyph-push",)),
    ("glyph-chess", 2, ("glyph-advanced-setup",)),
]


def table_of(game, players, variants, seed):
    return start(game, [f"p{i}" for i in range(1, players + 1)], variants=variants, seed=seed, plugins=[HOUSE])


def observation_of(table):
    planes = planes_of(table.game)
    assert planes is not None
    return Observation(planes, actions_for(table.match.registry, table.header, table.game).words)


def positions(table, rng, every=3, most=400):
    """The states of one random game, every few decisions (and the last)."""
    decisions = 0
    while not table.over and decisions < most:
        if decisions % every == 0:
            yield table.match.state
        player = table.deciding[0]
        table.play(rng.choice(table.legal(player)), player)
        decisions += 1
    yield table.match.state


@pytest.mark.parametrize(("game", "players", "variants"), CONFIGS)
def test_twins_give_the_same_planes(game, players, variants):
    """Two states that differ only in what a seat may not see (the seat's
    view filled in by the game's determinize, tabletop.testing.twins) give
    that seat the same planes; the hidden items really differ."""
    rng = random.Random(f"{game} {players}")
    table = table_of(game, players, variants, "twins")
    observation = observation_of(table)
    differed = 0
    for state in positions(table, rng, every=2 if game == "glux" else 7):
        for seat in table.players:
            for world in testing.twins(table.game, state, seat, rng, count=3):
                differed += world != state
                one = observation.vector(table.game, state, seat)
                two = observation.vector(table.game, world, seat)
                assert (one == two).all(), (seat, [p.name for p in observation.layout.planes])
    assert differed, "no twin differed from its state: the test saw nothing hidden"


@pytest.mark.parametrize(("game", "players", "variants"), CONFIGS)
def test_planes_have_a_fixed_shape_and_stay_within_their_bounds(game, players, variants):
    rng = random.Random(players)
    table = table_of(game, players, variants, "shapes")
    observation = observation_of(table)
    for state in positions(table, rng):
        for seat in table.players:
            vector = observation.vector(table.game, state, seat)
            assert vector.shape == (observation.size,) and vector.dtype == np.float32
            assert (vector >= 0).all() and (vector <= observation.high).all()
            assert vector.any()


def test_the_shapes_follow_the_header():
    two = observation_of(table_of("glux", 2, (), "a")).layout
    four = observation_of(table_of("glux", 4, (), "a")).layout
    assert two.split(np.zeros(two.size))["chips"].shape == (6, 2, 9, 13)
    assert four.split(np.zeros(four.size))["chips"].shape == (6, 4, 13, 13)
    small = start("glyph-chess", ["p1", "p2"], options={"radius": "7"}, seed="a")
    observation = observation_of(small)
    planes = observation.layout.split(observation.vector(small.game, small.match.state, "p1"))
    assert planes["pieces"].shape == (8, 2, 15, 15)
    assert planes["spots"].sum() == 169  # a hexagon of radius 7
    assert planes["spelt"].shape == (len(actions_for(small.match.registry, small.header, small.game)),)


def named(observation, vector):
    return observation.layout.split(vector)


def test_glux_planes_show_the_board_and_the_hand_from_the_seat():
    """The seat observing is seat 0 of every plane per seat; its hand chip
    is shown by kind, another's only as a count."""
    table = table_of("glux", 2, (), "board")
    rng = random.Random(3)
    for _ in range(12):
        table.play(rng.choice(table.legal(table.deciding[0])), table.deciding[0])
    state, observation = table.match.state, observation_of(table)
    for seat, me in enumerate(table.players):
        planes = named(observation, observation.vector(table.game, state, me))
        # Each stack's top chip, at its square, as the seat's own or the other's.
        for square, stack in enumerate(state.stacks):
            row, column = divmod(square, table.game.board.width)
            if stack:
                owner, face = stack[-1]
                assert planes["chips"][face - 1, (owner - seat) % 2, row, column] == 1
            else:
                assert not planes["chips"][:, :, row, column].any()
        assert planes["chips"].sum() == sum(1 for s in state.stacks if s)
        assert planes["hand"].sum() == 1 and planes["held"].tolist() == [1, 1]
        assert planes["hand"][["1/6", "2/5", "3/4"].index(state.hands[seat])] == 1
        start_row, start_column = divmod(table.game.start_squares[seat], table.game.board.width)
        assert planes["start"][0, start_row, start_column] == 1


def test_glyph_chess_planes_show_the_pieces_and_the_coins_from_the_seat():
    table = table_of("glyph-chess", 2, (), "pieces")
    rng = random.Random(4)
    for _ in range(30):
        table.play(rng.choice(table.legal(table.deciding[0])), table.deciding[0])
    state, observation = table.match.state, observation_of(table)
    for seat, me in enumerate(table.players):
        planes = named(observation, observation.vector(table.game, state, me))
        assert planes["pieces"].sum() == sum(1 for p in state.board if p is not None)
        assert planes["pieces"][0, 0].sum() == 1  # the seat's own scepter
        assert planes["coins"].tolist() == list(state.hands[seat])
        assert planes["in hand"].tolist() == [sum(state.hands[seat]), sum(state.hands[1 - seat])]
        assert planes["dice"].sum() == sum(d is not None for d in state.dice)


@pytest.mark.parametrize("game", ["glux", "glyph-chess"])
def test_every_plane_is_documented(game):
    """docs/ai.md lists each plane of each game, by name, in order (the
    spelling planes the adapters add are described there in words)."""
    layout = observation_of(table_of(game, 2, (), "doc")).game_planes
    section = DOC.split(f"<!-- planes:{game} -->", 1)[1].split("<!-- /planes -->", 1)[0]
    documented = re.findall(r"^\| `([^`]+)` \|", section, re.M)
    assert documented == [p.name for p in layout.planes]


def test_a_plane_declared_wrongly_is_refused():
    with pytest.raises(PluginError, match="named 'a'"):
        Planes([Plane("a", (2,)), Plane("a", (3,))], lambda view, viewer, out: None)
    with pytest.raises(PluginError, match="shape"):
        Planes([Plane("a", (0,))], lambda view, viewer, out: None)
    with pytest.raises(PluginError, match="high"):
        Planes([Plane("a", (2,), 0)], lambda view, viewer, out: None)


def test_a_game_without_planes_keeps_the_hashed_form():
    table = start("peek", ["p1", "p2"], seed="x", plugins=[PEEK])
    assert planes_of(table.game) is None


def test_planes_are_filled_from_the_view_only():
    """A game's fill is handed the seat's view (tabletop.sight.seen), never the state."""
    table = table_of("glux", 2, (), "view")
    handed = []
    declared = planes_of(table.game)
    spy = Planes(declared.planes, lambda view, viewer, out: handed.append(view), one_word=True)
    Observation(spy, ["."]).vector(table.game, table.match.state, "p1")
    assert handed == [seen.view(table.game, table.match.state, "p1")]
    assert handed[0] != table.match.state


# -- the length of a game ---------------------------------------------------------------


def decisions_of(events):
    return sum(e.origin == DECISION for e in events)


@pytest.mark.parametrize(("players", "variants", "bound"), [(2, (), 48), (3, (), 72), (4, (), 96)])
def test_no_random_glux_game_takes_more_decisions_than_the_bound(players, variants, bound):
    """max_game_length is computed from the rules in force (one word per
    chip: the players times a bag), no game of thousands passes it, and it
    is not loose: random games reach it."""
    reg = registry([HOUSE])
    game = start("glux", [f"p{i}" for i in range(1, players + 1)], seed="b", registry=reg).game
    assert length_of(game).longest == bound
    bot = reg.bots["random"]
    bots = [bot[0] if isinstance(bot, (list, tuple)) else bot] * players
    lengths = Counter(
        decisions_of(selfplay(reg, "glux", [f"p{i}" for i in range(1, players + 1)], bots, f"b{i}", variants)[2])
        for i in range(2000 if players == 2 else 700)
    )
    assert max(lengths) <= bound
    assert max(lengths) == bound


def test_the_bound_follows_the_bag_and_a_variant_that_adds_decisions():
    reg = registry([HOUSE])

    def game(*variants):
        return start("glux", ["a", "b"], variants=variants, seed="c", registry=reg).game

    assert length_of(game("glux-two-chips")).longest == 48
    assert length_of(game("glux-redraw")).bound is None
    assert length_of(game("glux-redraw")).longest == LIMIT
    assert length_of(game()).stop is None and length_of(game(), limit=10).stop == 10


def test_glyph_chess_has_no_bound_from_its_rules():
    game = start("glyph-chess", ["a", "b"], seed="c").game
    assert length_of(game).bound is None and length_of(game).stop == LIMIT
