"""glyph-six-dice (variants/house_rules/glyph_six_dice.py): the number of dice is
the rule hook ``glyph_dice``, read by the state, the rolls, the notation, the
action numbers, the observation planes and the log's schema."""

from __future__ import annotations

import json

import pytest

from tabletop import Header, PluginError, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop_glyph_chess import Cast, Move, Roll
from tabletop_glyph_chess.numbering import words

from ..fastpath import compare
from ..log.test_schema import check_line
from .helpers import house_rules, replayed, self_played

SIX = ("glyph-six-dice",)


@pytest.fixture(scope="module")
def house() -> Registry:
    return house_rules("glyph_six_dice.py")


def test_glyph_dice_six_dice_are_held_rolled_and_paid_with_in_whole_games(house, tmp_path):
    paid_with_six = 0
    for number, (header, events) in enumerate(self_played(house, "glyph-six-dice", 4)):
        rolls = [event.die for event in events if isinstance(event, Roll)]
        assert rolls[:6] == [1, 2, 3, 4, 5, 6]  # the starting player rolls all six
        paid_with_six += sum(6 in event.dice for event in events if isinstance(event, (Move, Cast)))
        match = replayed(house, tmp_path / f"{number}.jsonl", header, events)
        assert match.over and len(match.state.dice) == 6
        for line in (tmp_path / f"{number}.jsonl").read_text().splitlines()[1:]:
            check_line("glyph-chess", json.loads(line))  # the published schema takes die 6
    assert paid_with_six > 0


def test_glyph_dice_the_official_rules_have_no_sixth_die(house, registry):
    game = house.game(Header("glyph-chess", ("ann", "ben"), SIX))
    official = registry.game(Header("glyph-chess", ("ann", "ben")))
    assert (game.dice, len(game.initial().dice), len(game.rolls)) == (6, 6, 6)
    assert (official.dice, len(official.initial().dice)) == (5, 5)
    move = Move("ann", "c3", "c5", (2, 6), ("E",))
    assert game.notate(move) == "c3-c5 / D2 D6 E"
    assert game.parse("c3-c5 / D2 D6 E", "ann", game.initial()) == move
    assert "D6" in words(game) and "D6" not in words(official)
    shapes = {name: shape for name, shape, _ in game.planes().describe()}
    assert shapes["dice"] == (6, 6) and shapes["rolling"] == shapes["spent"] == (6,)


def test_glyph_dice_the_fast_path_agrees_with_the_plain_rules(house):
    assert compare(house, "glyph-chess", ("ann", "ben", "cat"), "six dice", SIX, max_events=300) > 100


def test_glyph_dice_a_count_the_game_cannot_hold_is_refused_naming_the_variant():
    class TenDice:
        @rulehook
        def glyph_dice(self, players):
            return 10

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("ten-dice", "glyph-chess", "", TenDice())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    with pytest.raises(PluginError, match="variant 'ten-dice': glyph_dice gave 10 dice"):
        Registry(pm).game(Header("glyph-chess", ("ann", "ben"), ("ten-dice",)))


def test_glyph_dice_a_position_lists_every_die_of_the_game(house, registry):
    # A position file gives the dice's faces: six in a six-dice game, five in
    # the official one, and a count the game does not share is refused
    # naming the dice, when the game starts (a position is read before the
    # house rules are known).
    from tabletop_glyph_chess.position import PositionError

    from .helpers import game_at, position

    six = position({"ann": {"g3": "E"}})
    six["dice"] = ["S", "E", "E", "N", "U", "F"]
    game, state = game_at(house, six, SIX)
    assert state.dice == tuple(six["dice"]) and game.dice == 6
    assert game.next(state) is not None  # the game plays on from it
    five = position({"ann": {"g3": "E"}})
    assert len(game_at(registry, five)[1].dice) == 5
    with pytest.raises(PositionError, match="the 6 faces of this game's 6 dice, not 5"):
        game_at(house, five, SIX)
    with pytest.raises(PositionError, match="the 5 faces of this game's 5 dice, not 6"):
        game_at(registry, six)
    ten = dict(five, dice=["S"] * 10)
    with pytest.raises(PositionError, match="1 to 9 dice, not 10"):
        game_at(registry, ten)
