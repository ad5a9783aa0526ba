"""Glyph Chess's observation as named planes, for networks (see ``tabletop.sight.planes``).

The hex board is laid on a square grid by its axial coordinates, as a hex
network reads it: ``[r + R, q + R]`` for the spot (q, r) of a board of radius
R, so row 0 is gold's edge (row ``a``), and the cells off the hexagon are 0
in every plane (``spots`` marks the board). Planes per seat count seats from
the player observing (0), in seat order. Everything is read from the
player's view: another player's coins in hand are a count there, and their
bag is shown with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop import Hidden, PluginError
from tabletop.sight.planes import Plane, Planes, seat_order

from .pieces import GLYPHS, MINION, SCEPTER
from .state import ACT, AWAKEN, DISCARD, DRAW, ESCAPE, GLIMPSE, KILLED, OVER, ROLLING, SETUP

if TYPE_CHECKING:
    from .game import GlyphChess

#: The kinds of piece, in plane order: the scepter, the six glyph pieces, the minions.
KINDS = (SCEPTER, *GLYPHS, MINION)
PHASES = (SETUP, AWAKEN, ROLLING, DRAW, ACT, ESCAPE, GLIMPSE, DISCARD, OVER)


def planes(game: GlyphChess) -> Planes:
    geo = game.geo
    n, radius = len(game.players), geo.radius
    side = 2 * radius + 1
    coins = sum(game.rules.glyph_coins(players=n))
    g = len(GLYPHS)
    declared = (
        Plane(
            "pieces",
            (len(KINDS), n, side, side),
            1,
            "1 where seat k has a piece of kind i (scepter, seeress, "
            "illusionist, elementalist, force mage, necromancer, summoner, minion)",
        ),
        Plane("spots", (side, side), 1, "1 on the board's spots"),
        Plane("coins", (g,), coins, "the observing player's coins in hand, by glyph type (S I E F N U)"),
        Plane("in hand", (n,), coins, "how many coins seat k holds"),
        Plane("bag", (n, g), coins, "seat k's bag by glyph type; for another seat, bag and hand together"),
        Plane("used", (n, g), coins, "seat k's used area by glyph type"),
        Plane("fates", (n, g, 2), 1, "seat k's glyph piece of type j is killed (0) or incinerated (1)"),
        Plane("eliminated", (n,), 1, "seat k is out of the game"),
        Plane("dice", (game.dice, g), 1, "die i shows glyph type j"),
        Plane("rolling", (game.dice,), 1, "die i is being rolled"),
        Plane("spent", (game.dice,), 1, "die i was spent this turn"),
        Plane("phase", (len(PHASES),), 1, "the step of the turn: " + ", ".join(PHASES)),
        Plane("turn", (n,), 1, "the seat whose turn it is"),
        Plane("target", (n,), 1, "the seat the seeress looks at, while her spell is resolved"),
        Plane("glimpsed", (g,), coins, "the coins of the seat the seeress looks at, while her caster may see them"),
        Plane("landing", (2, side, side), 1, "the next landing of the action being resolved: from (0), onto (1)"),
        Plane("incinerates", (1,), 1, "that landing incinerates"),
        Plane("placed", (n,), 1, "setup: seat k's pieces are on the board"),
        Plane("owed", (n,), coins, "setup: coins seat k has still to draw"),
        Plane("winner", (n,), 1, "the seat that won"),
    )
    cells = [(r + radius, q + radius) for q, r in geo.coords]
    board = np.zeros((side, side), np.float32)
    for cell in cells:
        board[cell] = 1
    seats = {p: seat_order(game.players, p) for p in game.players}
    kind_of = {kind: i for i, kind in enumerate(KINDS)}
    glyph_of = {glyph: i for i, glyph in enumerate(GLYPHS)}
    phase_of = {phase: i for i, phase in enumerate(PHASES)}

    def fill(view: Any, viewer: str, out: Any) -> None:
        order = seats[viewer]
        pieces = out["pieces"]
        for spot, piece in enumerate(view.board):
            if piece is not None:
                seat, letter = piece
                kind = kind_of.get(letter)
                if kind is None:
                    raise PluginError(f"glyph-chess planes: no plane for a piece {letter!r}")
                row, column = cells[spot]
                pieces[kind, order[seat], row, column] = 1
        out["spots"][...] = board
        me = game.seats[viewer]
        out["coins"][:] = view.hands[me]
        for seat in range(n):
            k = order[seat]
            hand = view.hands[seat]
            out["in hand"][k] = hand.count if isinstance(hand, Hidden) else sum(hand)
            out["bag"][k] = view.bags[seat]
            out["used"][k] = view.used[seat]
            for j, fate in enumerate(view.fates[seat]):
                if fate != "alive":
                    out["fates"][k, j, int(fate != KILLED)] = 1  # an index, not a mask
            out["eliminated"][k] = view.eliminated[seat]
        for i, face in enumerate(view.dice):
            if face is not None:
                out["dice"][i, glyph_of[face]] = 1
        for i in view.rolling:
            out["rolling"][i] = 1
        for i in view.spent:
            out["spent"][i] = 1
        phase = phase_of.get(view.phase)
        if phase is not None:
            out["phase"][phase] = 1
        if view.phase != OVER:
            out["turn"][order[view.turn]] = 1
        if view.target is not None:
            out["target"][order[view.target]] = 1
            shown = view.hands[view.target]
            if view.target != me and not isinstance(shown, Hidden):
                out["glimpsed"][:] = shown
        if view.steps:
            step = view.steps[0]
            out["landing"][(0, *cells[step.source])] = 1
            out["landing"][(1, *cells[step.target])] = 1
            out["incinerates"][0] = step.burn
        for seat, flag in enumerate(view.placed):
            out["placed"][order[seat]] = flag
        for seat, owed in enumerate(view.owed):
            out["owed"][order[seat]] = owed
        if view.phase == OVER:  # the result as the rules in force give it (``glyph_outcome``)
            for winner in game.outcome(view).winners:
                out["winner"][order[game.seats[winner]]] = 1

    return Planes(declared, fill)
