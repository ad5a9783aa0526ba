"""The necromancer's master spell, revive: for 1 die showing Necromancer,
bring back a killed (not incinerated) friendly glyph piece, not the
illusionist, onto an adjacent empty spot; its coins stop being wild (FAQ Q6).
Minions are not revived (FAQ Q8). The necromancer's passive is
:mod:`~tabletop_glyph_chess.escape`."""

from __future__ import annotations

from ..pieces import GLYPHS, ILLUSIONIST, NAMES, NECROMANCER
from ..state import ALIVE, KILLED
from .base import Spell, adjacent_empty


def check(game, state, seat, source, spots, target):
    if target not in GLYPHS or target == ILLUSIONIST:
        return "revive names a glyph piece to bring back (not the illusionist): S, E, F, N or U", 0
    fate = state.fates[seat][GLYPHS.index(target)]
    if fate != KILLED:
        burnt = fate != ALIVE
        return f"your {NAMES[target]} is {'incinerated: gone for good' if burnt else 'not dead'}", 0
    if len(spots) != 1:
        return "revive names one empty spot next to the necromancer", 0
    return adjacent_empty(game, state, source, spots[0]), 0


def effect(game, work, seat, source, spots, target):
    work.fates[seat][GLYPHS.index(target)] = ALIVE
    work.board[spots[0]] = (seat, target)


def options(ctx):
    fates = ctx.state.fates[ctx.seat]
    if KILLED in fates:
        empty = ctx.empty_next(ctx.source)
        for glyph, fate in zip(GLYPHS, fates):
            if fate == KILLED and glyph != ILLUSIONIST:
                for spot in empty:
                    yield (spot,), glyph, 0


REVIVE = Spell("revive", NECROMANCER, "die", check, effect, options, "revive c3 F d4 / D5", argument="piece")
