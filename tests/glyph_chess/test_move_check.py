"""A move is checked from the header-time tables while the official rules
of range, directions, passing, landing and cost are in force (as the
listing reads them): the same reason, or none, as when each hook is asked,
for every piece and every spot of the board, on many random positions."""

from __future__ import annotations

import random

import pytest

from tabletop import Header, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop_glyph_chess import actions
from tabletop_glyph_chess.events import Move

from .test_fast import _scrambled
from .test_tables import HOUSE_RULES, Asking


class AskingMoves(Asking):
    """Every hook a listing reads as a table asked, and the cost of a move."""

    @rulehook(wrapper=True)
    def glyph_move_cost(self, game, state, seat, piece, distance):
        return (yield)


class Plugin:
    @hookimpl
    def register_variants(self):
        return [Variant("asking-moves", "glyph-chess", "every rule of a move asked", AskingMoves())]


@pytest.fixture(scope="module")
def house() -> Registry:
    pm = get_plugin_manager(HOUSE_RULES, environment=False)
    pm.register(Plugin())
    return Registry(pm)


@pytest.mark.parametrize("variants", [(), ("glyph-long-scepter",), ("glyph-minion-steps",)])
def test_a_move_checked_from_tables_is_checked_as_when_every_hook_is_asked(house, variants):
    players = ("ann", "ben")
    tables = house.game(Header("glyph-chess", players, tuple(house.variant_entry(v, "glyph-chess") for v in variants)))
    entries = tuple(house.variant_entry(v, "glyph-chess") for v in (*variants, "asking-moves"))
    asking = house.game(Header("glyph-chess", players, entries))
    assert variants or (tables.reach_by_piece and tables.directions_by_spot and tables.move_costs_fixed)
    assert not (asking.reach_by_piece or asking.directions_by_spot or asking.landing_by_occupant)
    assert not (asking.passing_by_occupant or asking.move_costs_fixed)
    names = tables.geo.names
    reasons: set = set()
    for n in range(12):
        live = _scrambled(tables, random.Random(f"check-{variants}-{n}"), 2)
        for seat, player in enumerate(players):
            paid = {(e.source, e.target): (e.dice, e.coins) for e in actions.legal(tables, live, seat)}
            for source, piece in enumerate(live.board):
                if piece is None or piece[0] != seat:
                    continue
                for target in range(tables.geo.size):
                    dice, coins = paid.get((names[source], names[target]), ((1,), ()))
                    move = Move(player, names[source], names[target], dice, coins)
                    reason = actions.check(tables, live, seat, move)
                    assert reason == actions.check(asking, live, seat, move), move
                    reasons.add(reason if reason is None else reason.split()[-1])
    assert None in reasons and len(reasons) > 8  # legal moves, and many reasons why not
