"""The house rules that need the reach of the one listing: a payment by
another type (glyph-minion-steps), a rule in a spell's targets
(glyph-no-scepter-swap) and sight that blocks only some coins
(glyph-wild-sight). Each plays whole games under its rule and asserts the
rule held in every position met and mattered (the official rules would have
answered otherwise somewhere in those games)."""

from __future__ import annotations

import pytest

from tabletop import Header, PluginError, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.play.engine import Match
from tabletop.play.live import selfplay
from tabletop_glyph_chess import MINION, SCEPTER, SUMMONER, Cast, Move
from tabletop_glyph_chess.sight import in_sight

from ..conftest import ROOT
from .helpers import game_at, position, to_action, why_not

HOUSE_RULES = ROOT / "variants" / "house_rules"
FILES = ["glyph_minion_steps.py", "glyph_no_scepter_swap.py", "glyph_wild_sight.py"]


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager([str(HOUSE_RULES / f) for f in FILES], environment=False))


def positions(house, variant, count, bot="random", players=("ann", "ben")):
    """Every decision of whole self-played games under ``variant``: (match
    before the event, the event); the game ends (the match is over)."""
    for i in range(count):
        bots = [house.bot(bot, "glyph-chess")] * len(players)
        header, _, events = selfplay(house, "glyph-chess", players, bots, f"{variant}-{i}", [variant])
        match = Match(house, header)
        for event in events:
            yield match, event
            match.accept(event)
        assert match.over


def official_game(house, match):
    return house.game(Header("glyph-chess", match.game.players))


def test_glyph_move_costs_minion_steps_minions_move_paid_with_summoner_items(house):
    steps = 0
    for match, event in positions(house, "glyph-minion-steps", 14):
        if isinstance(event, Move):
            state, geo = match.state, match.game.geo
            seat, piece = state.board[geo.spot(event.source)]
            if piece == MINION:
                # The rule held: one spot, one summoner item (a U die, a U or wild coin).
                assert geo.distance(geo.spot(event.source), geo.spot(event.target)) == 1
                assert len(event.dice) + len(event.coins) == 1
                assert all(state.dice[n - 1] == SUMMONER for n in event.dice)
                assert all(c == SUMMONER or c in state.wild(seat) for c in event.coins)
                # ...and it mattered: officially a minion never moves by itself.
                assert official_game(house, match).check(state, event) is not None
                steps += 1
    assert steps > 0


def test_glyph_minion_steps_a_summoner_die_pays_not_a_minion_coin(house):
    data = position({"ann": {"a4": "K", "d4": "U", "d5": "M"}}, dice="U S S S S", hands={"ann": "F"})
    game, state = game_at(house, data, ["glyph-minion-steps"])
    state = to_action(game, state)
    assert why_not(game, state, "ann", "d5-e5 / D1") is None
    assert why_not(game, state, "ann", "d5-e5 / D2") == "D2 does not show U"
    assert why_not(game, state, "ann", "d5-d7 / D1") == "the minion moves exactly 1 spot"


def test_an_unknown_payment_type_is_refused_when_the_game_is_made():
    class MinionsPayThemselves:
        @rulehook
        def glyph_move_range(self, game, state, seat, piece, source):
            if piece == MINION:
                return 1

        @rulehook
        def glyph_move_cost(self, game, state, seat, piece, distance):
            if piece == MINION:
                return "x", distance  # paid in minion items: there are none

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("minions-pay", "glyph-chess", "", MinionsPayThemselves())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    with pytest.raises(PluginError, match="glyph_move_cost for the minion: 'M' is not a payment type"):
        registry.game(Header("glyph-chess", ("ann", "ben"), (registry.variant_entry("minions-pay", "glyph-chess"),)))


def test_glyph_no_scepter_swap_the_swap_never_takes_the_scepter(house):
    refused = 0
    for match, event in positions(house, "glyph-no-scepter-swap", 6):
        state = match.state
        if state.phase != "act":
            continue
        player = match.game.players[state.turn]
        legal = match.game.legal(state, player)
        for cast in legal:
            if isinstance(cast, Cast) and cast.spell == "swap":
                assert state.board[match.game.geo.spot(cast.spots[0])][1] != SCEPTER  # the rule held
        if isinstance(event, Cast) and event.spell == "swap":
            assert state.board[match.game.geo.spot(event.spots[0])][1] != SCEPTER
        official = [
            e for e in official_game(house, match).legal(state, player) if isinstance(e, Cast) and e.spell == "swap"
        ]
        taking = [e for e in official if state.board[match.game.geo.spot(e.spots[0])][1] == SCEPTER]
        for cast in taking:  # it mattered: officially these were legal, now they are refused
            assert match.game.check(state, cast) == "the swap may not take the scepter"
            refused += 1
    assert refused > 0


def test_glyph_payers_wild_sight_wild_coins_pay_in_sight_own_coins_do_not(house):
    wild_in_sight = 0
    for match, _event in positions(house, "glyph-wild-sight", 12, bot="greedy"):
        state = match.state
        if state.phase != "act":
            continue
        game = match.game
        seat = state.turn
        player = game.players[seat]
        official = official_game(house, match)
        legal = game.legal(state, player)
        plain = set(official.legal(state, player))
        for action in legal:
            source = game.geo.spot(action.source)
            if action.coins and in_sight(game.geo, state, source):
                kind = state.board[source][1]
                # The rule held: in sight, wild coins of another type only.
                assert all(c != kind and c in state.wild(seat) for c in action.coins)
                assert action not in plain  # it mattered: officially no coin pays in sight
                wild_in_sight += 1
        assert plain <= set(legal)  # everything the official rules allow is still allowed
    assert wild_in_sight > 0


def test_glyph_wild_sight_the_escape_asks_the_same_payers(house):
    # Ann's necromancer on g7 is in sight of Ben's seeress on g8; her
    # illusionist is dead, so her I coin is wild.
    pieces = {"ann": {"a4": "K", "g7": "N"}, "ben": {"m4": "K", "g8": "S"}}
    data = position(pieces, dice="F F S S S", hands={"ann": "N I"}, fates={"ann": {"I": "killed"}})
    official, state = game_at(house, data)
    game, _ = game_at(house, data, ["glyph-wild-sight"])
    spot = game.geo.spot("g7")
    assert in_sight(game.geo, state, spot)
    assert list(official.escape_coins(game=official, state=state, spot=spot)) == []
    assert list(game.escape_coins(game=game, state=state, spot=spot)) == ["I"]  # wild, not her own N coin


def test_glyph_escape_cost_a_seeress_coin_buys_the_escape(house):
    class SeeressEscape:
        @rulehook
        def glyph_escape_cost(self, game, state, spot):
            return "S"

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("seeress-escape", "glyph-chess", "", SeeressEscape())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    pieces = {"ann": {"a4": "K", "b2": "N"}, "ben": {"m4": "K", "c2": "F"}}
    data = position(pieces, dice="F F S S S", hands={"ann": "N S"})
    official, state = game_at(registry, data)
    game, _ = game_at(registry, data, ["seeress-escape"])
    spot = game.geo.spot("b2")
    assert not in_sight(game.geo, state, spot)
    assert list(official.escape_coins(game=official, state=state, spot=spot)) == ["N"]
    assert list(game.escape_coins(game=game, state=state, spot=spot)) == ["S"]


def test_glyph_more_spells_two_variants_each_add_a_spell(house):
    from tabletop_glyph_chess import FORCE_MAGE, SEERESS, Spell

    def check(game, state, seat, source, spots, target):
        return (None, 0) if not spots else ("no spots", 0)

    def options(ctx):
        yield (), "", 0

    def effect(game, work, seat, source, spots, target):
        pass

    class Rest:
        @rulehook
        def glyph_more_spells(self, players):
            return {"rest": Spell("rest", FORCE_MAGE, "die", check, effect, options, "rest c3 / D1")}

    class Pray:
        @rulehook
        def glyph_more_spells(self, players):
            return {"pray": Spell("pray", SEERESS, "die", check, effect, options, "pray c3 / D1")}

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("rest", "glyph-chess", "", Rest()), Variant("pray", "glyph-chess", "", Pray())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    pieces = {"ann": {"a4": "K", "g5": "F", "g3": "S"}, "ben": {"m4": "K"}}
    data = position(pieces, dice="F S E E E")
    game, state = game_at(registry, data, ["rest", "pray"])
    state = to_action(game, state)
    assert {"rest", "pray"} <= set(game.spells) and "swap" in game.spells
    cast = {e.spell for e in game.legal(state, "ann") if isinstance(e, Cast)}
    assert {"rest", "pray"} <= cast
    official, _ = game_at(registry, data)
    assert not {"rest", "pray"} & set(official.spells)
