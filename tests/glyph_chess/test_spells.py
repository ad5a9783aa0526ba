"""Every spell of the rule book, at the costs RULINGS gives."""

from __future__ import annotations

import random

from tabletop import Decide, Forced
from tabletop_glyph_chess.events import Discard, Escape, Glimpse
from tabletop_glyph_chess.spells import blaze
from tabletop_glyph_chess.state import BURNT, DISCARD, ESCAPE, GLIMPSE, KILLED

from .helpers import act, game_at, position, spot, to_action, why_not

F, ILL, N, S, E, U = 3, 1, 4, 0, 2, 5  # indices of the glyph types


def at(registry, pieces, dice="S S S S S", hands=None, players=("ann", "ben"), **kw):
    hands = {"ann": "S S I E E", "ben": "S S I I E", "cat": "S S I I E"} | (hands or {})
    game, state = game_at(registry, position(pieces, dice=dice, hands=hands, players=players, **kw))
    return game, to_action(game, state)


# -- Seeress -------------------------------------------------------------------
def test_seeress_sight_no_coins_for_enemy_pieces_in_sight(registry):
    # ben's seeress on g7 sees west along row g: the first piece is ann's E on g4.
    game, state = at(
        registry,
        {"ann": {"g4": "E", "g2": "N"}, "ben": {"g7": "S"}},
        dice="E S S S S",
        hands={"ann": "E E N F F"},
        fates={"ann": {"F": "killed"}},
    )
    assert why_not(game, state, "ann", "g4-g3 / E") == "in sight of an enemy seeress: no coins may be used"
    assert why_not(game, state, "ann", "g4-g3 / F") == "in sight of an enemy seeress: no coins may be used"  # wild too
    assert why_not(game, state, "ann", "g4-g3 / D1") is None  # dice are fine
    assert why_not(game, state, "ann", "g2-g1 / N") is None  # g2 is behind g4: out of sight


def test_seeress_master_look_at_a_players_coins_and_discard_up_to_two(registry):
    game, state = at(registry, {"ann": {"g3": "S"}}, hands={"ben": "S N N U E"})
    state = act(game, state, "ann", "foresee g3 ben / D1")
    assert state.phase == GLIMPSE
    node = game.next(state)
    assert node == Forced(Glimpse("ann", "ben", ("S", "E", "N", "N", "U")))
    state = game.apply(state, node.event)
    assert state.phase == DISCARD and game.next(state) == Decide(("ann",))
    assert Discard("ann", ("N", "N")) in game.legal(state, "ann")
    assert why_not(game, state, "ann", "discard N N U") == "at most 2 coins"
    assert why_not(game, state, "ann", "discard F") == "ben holds 0 F coins"
    state = act(game, state, "ann", "discard N N")
    assert state.hands[1] == (1, 0, 1, 0, 0, 1) and state.used[1] == (0, 0, 0, 0, 2, 0)


def test_seeress_master_costs_a_die_no_coin(registry):
    game, state = at(registry, {"ann": {"g3": "S"}}, dice="E E E E E", hands={"ann": "S S I E E"})
    assert why_not(game, state, "ann", "foresee g3 ben / S") == "this spell costs exactly 1 die showing S"
    assert why_not(game, state, "ann", "foresee g3 ann / D1") == "'ann' is not another player in the game"


# -- Illusionist ---------------------------------------------------------------
def test_illusionist_swap_with_any_friendly_piece(registry):
    game, state = at(registry, {"ann": {"g3": "I"}}, hands={"ann": "I S S E E"})
    state = act(game, state, "ann", "swap g3 a4 / I")  # with her scepter, at home on a4
    assert spot(game, state, "g3") == ("ann", "K") and spot(game, state, "a4") == ("ann", "I")


def test_illusionist_swap_not_with_an_enemy(registry):
    game, state = at(registry, {"ann": {"g3": "I"}, "ben": {"g9": "E"}}, hands={"ann": "I S S E E"})
    assert why_not(game, state, "ann", "swap g3 g9 / I") == "g9 holds no other piece of yours"


def test_illusionist_replica_on_an_adjacent_empty_spot(registry):
    game, state = at(registry, {"ann": {"g3": "I"}}, dice="I S S S S", hands={"ann": "I S S E E"})
    assert why_not(game, state, "ann", "replica g3 g4 / I") == "this spell costs exactly 1 die showing I"
    assert why_not(game, state, "ann", "replica g3 g6 / D1") == "g6 is not next to g3"
    state = act(game, state, "ann", "replica g3 g4 / D1")
    assert spot(game, state, "g4") == ("ann", "I")


def test_illusionist_replica_only_while_it_is_in_the_spare_area(registry):
    game, state = at(registry, {"ann": {"g3": "I", "g9": "I"}}, dice="I S S S S")
    assert why_not(game, state, "ann", "replica g3 g4 / D1") == "the replica is on the board already"


def test_illusionist_dead_only_when_both_pieces_are_gone_and_never_revived(registry):
    game, state = at(
        registry,
        {"ann": {"g3": "I", "g9": "I", "f3": "N"}, "ben": {"g5": "E", "g10": "F"}},
        dice="E F S S S",
        turn="ben",
        hands={"ben": "E F S S I"},
    )
    state = act(game, state, "ben", "g5-g3 / D1 E")  # takes one illusionist: the other stays
    assert spot(game, state, "g3") == ("ben", "E") and spot(game, state, "g9") == ("ann", "I")
    assert state.fates[0][ILL] == "alive" and "I" not in state.wild(0)


def test_illusionist_both_pieces_gone_makes_it_dead(registry):
    game, state = at(
        registry,
        {"ann": {"g9": "I", "f4": "N"}, "ben": {"g10": "E"}},
        dice="E S S S S",
        turn="ben",
        hands={"ben": "E S S I I"},
    )
    state = act(game, state, "ben", "g10-g9 / D1")  # the last illusionist piece
    assert state.fates[0][ILL] == BURNT and "I" in state.wild(0)
    state = to_action(game, state)
    assert why_not(game, state, "ann", "revive f4 I f5 / D1").startswith("revive names a glyph piece")


# -- Elementalist ----------------------------------------------------------------
def test_elementalist_incinerates_instead_of_killing(registry):
    game, state = at(registry, {"ann": {"g3": "E"}, "ben": {"g5": "F"}})
    state = act(game, state, "ann", "g3-g5 / E E")
    assert state.fates[1][F] == BURNT


def test_elementalist_master_steps_one_at_a_time_turning_incinerating(registry):
    game, state = at(registry, {"ann": {"g3": "E"}, "ben": {"g4": "U", "h4": "F"}}, dice="E S S S S")
    assert (
        why_not(game, state, "ann", "blaze g3 g4 h4 / E E") == "this spell needs a die showing E (no coin replaces it)"
    )
    assert why_not(game, state, "ann", "blaze g3 g4 g3 / D1 E E") == "the path passes g3 twice"
    assert (
        why_not(game, state, "ann", "blaze g3 g5 / D1 E")
        == "g5 is not next to g3: the elementalist moves 1 spot at a time"
    )
    state = act(game, state, "ann", "blaze g3 g4 h4 / D1 E E")
    assert spot(game, state, "h4") == ("ann", "E") and spot(game, state, "g4") is None
    assert state.fates[1][U] == BURNT and state.fates[1][F] == BURNT


def test_elementalist_master_not_onto_a_friendly_piece(registry):
    game, state = at(registry, {"ann": {"g3": "E", "g4": "N"}}, dice="E S S S S")
    assert why_not(game, state, "ann", "blaze g3 g4 / D1 E") == "g4 holds a piece of yours"


# -- Force Mage ------------------------------------------------------------------
def test_force_mage_master_moves_to_an_empty_spot_and_kills_all_adjacent_enemies(registry):
    pieces = {"ann": {"g3": "F", "g4": "E", "h5": "S"}, "ben": {"g5": "M", "g7": "N", "h6": "I", "g2": "U"}}
    game, state = at(registry, pieces, dice="F F S S S", hands={"ann": "F F S S E"})
    assert why_not(game, state, "ann", "blast g3 g5 / D1 F F") == "g5 is not empty"
    state = act(game, state, "ann", "blast g3 g6 / D1 D2 F F")
    assert spot(game, state, "g6") == ("ann", "F")
    assert spot(game, state, "g7") is None and spot(game, state, "h6") is None
    assert spot(game, state, "h5") == ("ann", "S")  # friends are spared
    assert state.fates[1][N] == KILLED  # killed, not incinerated, and no escape (FAQ Q9)
    assert spot(game, state, "g5") is None  # its summoner died: the passed-through minion left too


# -- Necromancer -------------------------------------------------------------------
def test_necromancer_escape_is_its_owners_decision_during_the_attackers_turn(registry):
    game, state = at(registry, {"ann": {"g3": "F"}, "ben": {"g5": "N"}}, hands={"ann": "F F S S E", "ben": "N S S I E"})
    state = act(game, state, "ann", "g3-g5 / F F")
    assert state.phase == ESCAPE and game.next(state) == Decide(("ben",))
    assert game.legal(state, "ben") == [Escape("ben", "N"), Escape("ben", "")]
    assert why_not(game, state, "ben", "escape S") == "you cannot escape with an S coin (you may use: N)"
    state = act(game, state, "ben", "escape N")
    assert spot(game, state, "g3") == ("ben", "N") and spot(game, state, "g5") == ("ann", "F")
    assert state.used[1][N] == 1 and state.fates[1][N] == "alive"


def test_necromancer_stays_and_is_killed(registry):
    game, state = at(registry, {"ann": {"g3": "F"}, "ben": {"g5": "N"}}, hands={"ann": "F F S S E", "ben": "N S S I E"})
    state = act(game, state, "ann", "g3-g5 / F F")
    state = act(game, state, "ben", "stay")
    assert spot(game, state, "g5") == ("ann", "F") and state.fates[1][N] == KILLED


def test_necromancer_without_a_coin_cannot_escape(registry):
    game, state = at(registry, {"ann": {"g3": "F"}, "ben": {"g5": "N"}}, hands={"ann": "F F S S E", "ben": "S S I I E"})
    state = act(game, state, "ann", "g3-g5 / F F")
    assert state.phase != ESCAPE and state.fates[1][N] == KILLED


def test_necromancer_escape_with_a_wild_coin(registry):
    game, state = at(
        registry,
        {"ann": {"g3": "F"}, "ben": {"g5": "N"}},
        hands={"ann": "F F S S E", "ben": "U S S I E"},
        fates={"ben": {"U": "killed"}},
    )
    state = act(game, state, "ann", "g3-g5 / F F")
    assert game.legal(state, "ben")[0] == Escape("ben", "U")


def test_necromancer_revives_a_killed_glyph_piece_on_an_adjacent_empty_spot(registry):
    game, state = at(
        registry,
        {"ann": {"g3": "N", "g5": "E"}},
        dice="N S S S S",
        hands={"ann": "F F S S E"},
        fates={"ann": {"F": "killed"}},
    )
    assert why_not(game, state, "ann", "g5-g6 / F") is None  # F coins are wild while F is dead
    state = act(game, state, "ann", "revive g3 F g4 / D1")
    assert spot(game, state, "g4") == ("ann", "F") and state.fates[0][F] == "alive"
    state = to_action(game, act(game, to_action(game, state), "ben", "m4-l4 / D2"))
    assert why_not(game, state, "ann", "g5-g6 / F") == "an F coin pays only for F (it is not wild)"


def test_necromancer_cannot_revive_an_incinerated_piece(registry):
    game, state = at(registry, {"ann": {"g3": "N"}}, dice="N S S S S", fates={"ann": {"F": "burnt"}})
    assert why_not(game, state, "ann", "revive g3 F g4 / D1") == "your force mage is incinerated: gone for good"


def test_necromancer_revives_onto_exactly_one_spot(registry):
    # A log may name no spot or two: each is refused with the rule's words.
    from tabletop_glyph_chess.spells import revive

    game, state = at(registry, {"ann": {"g3": "N"}}, dice="N S S S S", fates={"ann": {"F": "killed"}})
    source, g4, g2 = (game.geo.spot(name) for name in ("g3", "g4", "g2"))
    for spots in ([], [g4, g2]):
        problem, _ = revive.check(game, state, 0, source, spots, "F")
        assert problem == "revive names one empty spot next to the necromancer", spots
    assert revive.check(game, state, 0, source, [g4], "F") == (None, 0)


# -- Summoner and minions ------------------------------------------------------------
def test_summoner_marches_only_minions_of_its_own(registry):
    pieces = {"ann": {"g3": "U", "g5": "M", "g2": "E"}, "ben": {"g6": "M"}}
    game, state = at(registry, pieces, hands={"ann": "U U S S E"})
    assert why_not(game, state, "ann", "march g3 e g6 / U") == "g6 holds no minion of yours"
    assert why_not(game, state, "ann", "march g3 e g2 / U") == "g2 holds no minion of yours"
    assert why_not(game, state, "ann", "march g3 e g4 / U") == "g4 holds no minion of yours"
    assert why_not(game, state, "ann", "march g3 e g5 / U") is None


def test_summoner_moves_x_minions_1_spot_the_same_way_in_the_order_chosen(registry):
    pieces = {"ann": {"g3": "U", "g5": "M", "g6": "M"}, "ben": {"g7": "E"}}
    game, state = at(registry, pieces, hands={"ann": "U U S S E"})
    assert why_not(game, state, "ann", "march g3 e g5 g6 / U U") == "the minion on g5 is blocked by your piece on g6"
    state = act(game, state, "ann", "march g3 e g6 g5 / U U")
    assert spot(game, state, "g7") == ("ann", "M") and spot(game, state, "g6") == ("ann", "M")
    assert state.fates[1][E] == KILLED  # minions kill by landing


def test_summoner_summons_up_to_3_minions_next_to_it(registry):
    game, state = at(registry, {"ann": {"g3": "U"}}, dice="U S S S S")
    assert why_not(game, state, "ann", "summon g3 g5 / D1") == "g5 is not next to g3"
    assert (
        why_not(game, state, "ann", "summon g3 g4 g2 h3 f3 / D1")
        == "summon names 1 to 3 empty spots next to the summoner"
    )
    state = act(game, state, "ann", "summon g3 g4 g2 h3 / D1")
    assert [spot(game, state, s) for s in ("g4", "g2", "h3")] == [("ann", "M")] * 3


def test_minions_leave_when_the_summoner_leaves_its_spot(registry):
    game, state = at(registry, {"ann": {"g3": "U", "g4": "M", "f3": "M"}}, hands={"ann": "U U S S E"})
    state = act(game, state, "ann", "g3-h3 / U")
    assert spot(game, state, "g4") is None and spot(game, state, "f3") is None


def test_minions_leave_when_the_summoner_is_swapped(registry):
    game, state = at(registry, {"ann": {"g3": "U", "g4": "M", "g9": "I"}}, hands={"ann": "I U S S E"})
    state = act(game, state, "ann", "swap g9 g3 / I")
    assert spot(game, state, "g9") == ("ann", "U") and spot(game, state, "g4") is None


def test_minions_leave_when_the_summoner_is_killed(registry):
    game, state = at(registry, {"ann": {"g3": "F"}, "ben": {"g5": "U", "g6": "M"}}, hands={"ann": "F F S S E"})
    state = act(game, state, "ann", "g3-g5 / F F")
    assert spot(game, state, "g6") is None and state.fates[1][U] == KILLED


# -- coins of dead pieces ------------------------------------------------------------
def test_wild_coins_for_dead_pieces_types(registry):
    game, state = at(registry, {"ann": {"g3": "E"}}, hands={"ann": "U U S"}, fates={"ann": {"U": "burnt"}})
    assert state.wild(0) == {"U"}
    assert why_not(game, state, "ann", "g3-g5 / U U") is None


def test_blaze_longer_paths_are_legal_counted_and_sampled_by_bots(registry):
    # Five dice showing E and two E coins: paths of up to 6 steps.
    pieces = {"ann": {"g3": "E"}, "ben": {"g4": "F", "g5": "N", "g6": "U", "g7": "I", "f5": "S"}}
    game, state = game_at(registry, position(pieces, dice="E E E E E", hands={"ann": "E E"}))
    state = to_action(game, state, draws="S")
    listed = [e for e in game.legal(state, "ann") if getattr(e, "spell", "") == "blaze"]
    assert max(len(e.spots) for e in listed) == 3
    assert why_not(game, state, "ann", "blaze g3 g4 g5 g6 g7 / D1 D2 D3 D4 D5") is None  # 4 steps: legal too
    more = game.asks(state, "ann")
    assert "also legal, not listed:" in more and "blaze paths of 4+ steps" in more
    count = int(more.split("not listed: ")[1].split()[0].replace(",", ""))
    assert count == blaze.unlisted(game, state, 0, game.geo.spot("g3"), blaze.COUNTED) > 100
    # The greedy bot weighs sampled longer paths: taking four pieces beats any listed path.
    choice = registry.bot("greedy", "glyph-chess").choose(game, state, "ann", listed, random.Random(3))
    assert choice.spell == "blaze" and len(choice.spots) >= 4 and game.check(state, choice) is None
