"""Blaze paths longer than the listed ones (``spells/blaze.py``: ``LISTED``
steps are listed, longer paths are legal too) are counted for the player at
turn, up to a cap of ``COUNTED`` (10,000): the action step says how many
(``steps.py``), or "10,000 or more" once the cap is reached."""

from __future__ import annotations

from tabletop_glyph_chess.spells import blaze

from .helpers import game_at, position, to_action, why_not

ASKED = "move a piece or cast a spell; also legal, not listed: "


def elementalist_at_the_centre(registry, coins, **kw):
    """ann's elementalist on g7 with five dice showing E and ``coins`` in hand;
    ben's seeress is dead, so nothing bars ann's coins."""
    data = position({"ann": {"g7": "E"}}, dice="E E E E E", hands={"ann": coins}, fates={"ben": {"S": "killed"}}, **kw)
    game, state = game_at(registry, data)
    return game, to_action(game, state, draws="S")


def test_unlisted_blazes_are_counted_up_to_the_cap_of_10000(registry):
    # Two E coins: X up to 6, paths of 4 to 6 steps, more than 10,000 of them.
    game, state = elementalist_at_the_centre(registry, "E E")
    g7 = game.geo.spot("g7")
    assert blaze.COUNTED == 10_000 and blaze.longest(game, state, 0, g7) == 6
    every = blaze.unlisted(game, state, 0, g7, 10**6)
    assert every > 15_000
    assert blaze.unlisted(game, state, 0, g7, blaze.COUNTED) == 10_000  # the count stops at the cap
    assert blaze.unlisted(game, state, 0, g7, 50) == 50
    assert game.asks(state, "ann") == ASKED + "10,000 or more blaze paths of 4+ steps"
    # A path of six steps is among them, and legal.
    assert why_not(game, state, "ann", "blaze g7 g8 g9 g10 g11 g12 g13 / D1 D2 D3 D4 D5 E E") is None


def test_unlisted_blazes_below_the_cap_are_counted_exactly(registry):
    # No coin: X up to 4, the paths of exactly 4 steps on an open board (618, as
    # on an endless board of hexagons: nothing stops a walk of 4 from g7).
    game, state = elementalist_at_the_centre(registry, "")
    g7 = game.geo.spot("g7")
    assert blaze.longest(game, state, 0, g7) == 4
    assert blaze.unlisted(game, state, 0, g7, blaze.COUNTED) == blaze.unlisted(game, state, 0, g7, 10**6) == 618
    assert game.asks(state, "ann") == ASKED + "618 blaze paths of 4+ steps"
    # One coin: paths of 5 steps too, still under the cap.
    game, state = elementalist_at_the_centre(registry, "E")
    count = blaze.unlisted(game, state, 0, g7, 10**6)
    assert 618 < count < blaze.COUNTED
    assert game.asks(state, "ann") == ASKED + f"{count:,} blaze paths of 4+ steps"


def test_unlisted_blazes_are_counted_for_the_player_at_turn_alone(registry):
    # ben's elementalist could blaze far too, but it is ann's turn: only hers are counted.
    data = position(
        {"ann": {"g7": "E"}, "ben": {"j7": "E"}},
        dice="E E E E E",
        hands={"ann": "", "ben": "E E"},
        fates={"ben": {"S": "killed"}, "ann": {"S": "killed"}},
    )
    game, state = game_at(registry, data)
    state = to_action(game, state, draws="S")
    assert blaze.unlisted(game, state, 1, game.geo.spot("j7"), 10**6) > 0
    ann = blaze.unlisted(game, state, 0, game.geo.spot("g7"), blaze.COUNTED)
    assert 0 < ann < blaze.COUNTED
    assert game.asks(state, "ann") == ASKED + f"{ann:,} blaze paths of 4+ steps"
