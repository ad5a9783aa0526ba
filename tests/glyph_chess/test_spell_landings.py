"""Every path asks the landing hooks: a move, each step of a blaze, each
marching minion and the blast's landing, whether the landing rule is changed
move by move (``glyph_may_land``) or as a header-time table
(``glyph_landing``)."""

from __future__ import annotations

import pytest

from tabletop import Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop_glyph_chess import Cast, Move

from .helpers import game_at, position, to_action


class SanctuaryByMove:
    @rulehook
    def glyph_may_land(self, game, state, seat, piece, spot):
        if spot == game.geo.center and piece != "K":
            return False


class UntouchableSeeress:
    @rulehook(wrapper=True)
    def glyph_landing(self, players):
        official = yield
        return lambda seat, piece, there: (
            official(seat, piece, there) and not (there is not None and there[1] == "S" and there[0] != seat)
        )


class NoPassingMinions:
    @rulehook(wrapper=True)
    def glyph_passing(self, players):
        official = yield
        return lambda seat, piece, there: official(seat, piece, there) and not (there is not None and there[1] == "E")


class Plugin:
    @hookimpl
    def register_variants(self):
        return [
            Variant("sanctuary-by-move", "glyph-chess", "", SanctuaryByMove()),
            Variant("untouchable-seeress", "glyph-chess", "", UntouchableSeeress()),
            Variant("no-passing-elementalists", "glyph-chess", "", NoPassingMinions()),
        ]


@pytest.fixture(scope="module")
def registry() -> Registry:
    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    return Registry(pm)


# Ann's elementalist on g6 (next to the centre g7), force mage on g5 (the
# centre two spots away, past the elementalist), a minion on g8 that marches
# west onto g7; dice and coins to pay for all of it.
PIECES = {"ann": {"a4": "K", "g6": "E", "g5": "F", "f4": "U", "g8": "M"}, "ben": {"m4": "K", "l4": "S"}}
DATA = position(PIECES, dice="E F U U F", hands={"ann": "E F U"})


def onto_centre(game, state, decisions):
    """The decisions that put one of ann's pieces on the centre."""
    centre = game.geo.names[game.geo.center]
    found = []
    for d in decisions:
        if isinstance(d, Move) and d.target == centre:
            found.append(d)
        elif isinstance(d, Cast) and d.spell in ("blaze", "blast") and centre in d.spots:
            found.append(d)
        elif isinstance(d, Cast) and d.spell == "march":
            steps = [game.geo.names[game.geo.step(game.geo.spot(s), d.target) or 0] for s in d.spots]
            if centre in steps:
                found.append(d)
    return found


def test_glyph_may_land_holds_for_moves_blaze_march_and_blast(registry):
    official, state = game_at(registry, DATA)
    state = to_action(official, state)
    reaching = onto_centre(official, state, official.legal(state, "ann"))
    kinds = {type(d).__name__ + getattr(d, "spell", "") for d in reaching}
    assert kinds == {"Move", "Castblaze", "Castblast", "Castmarch"}
    game, _ = game_at(registry, DATA, ["sanctuary-by-move"])
    assert onto_centre(game, state, game.legal(state, "ann")) == []
    for decision in reaching:
        assert game.check(state, decision) is not None, decision  # the check asks the same hook
    fast = game.fast()
    assert list(fast.legal(fast.thaw(state), "ann")) == list(game.legal(state, "ann"))


def test_glyph_landing_table_holds_for_moves_blaze_and_march(registry):
    # Ben's seeress on the centre: officially ann may land on it by a move,
    # a blaze step or a marching minion; under the table rule by none.
    data = position({**PIECES, "ben": {"m4": "K", "g7": "S"}}, dice="E E U F F", hands={"ann": "E F U"})
    official, state = game_at(registry, data)
    state = to_action(official, state)
    reaching = onto_centre(official, state, official.legal(state, "ann"))
    assert {type(d).__name__ + getattr(d, "spell", "") for d in reaching} == {"Move", "Castblaze", "Castmarch"}
    game, _ = game_at(registry, data, ["untouchable-seeress"])
    assert onto_centre(game, state, game.legal(state, "ann")) == []
    for decision in reaching:
        assert game.check(state, decision) is not None, decision
    fast = game.fast()
    assert list(fast.legal(fast.thaw(state), "ann")) == list(game.legal(state, "ann"))


def test_glyph_passing_holds_for_the_blast(registry):
    official, state = game_at(registry, DATA)
    state = to_action(official, state)
    blasts = [
        d for d in official.legal(state, "ann") if isinstance(d, Cast) and d.spell == "blast" and d.spots == ("g7",)
    ]
    assert blasts
    game, _ = game_at(registry, DATA, ["no-passing-elementalists"])
    assert [
        d for d in game.legal(state, "ann") if isinstance(d, Cast) and d.spell == "blast" and d.spots == ("g7",)
    ] == []
    assert game.check(state, blasts[0]) == "g6 is in the way"
