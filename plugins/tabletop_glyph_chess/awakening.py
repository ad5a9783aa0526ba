"""The awakening step: re-roll the dice showing one's dead pieces' types (all
of them or none), then, holding fewer coins than the hand limit, draw one; an
empty bag is first refilled with all the coins of the used area (with both
empty there is nothing to draw)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import rulehook

from .pieces import GLYPHS, HAND_LIMIT
from .state import ALIVE, State, Work

if TYPE_CHECKING:
    from .game import GlyphChess


@rulehook
def glyph_rerollable(game: GlyphChess, state: State | Work, seat: int) -> tuple[int, ...]:
    fates = state.fates[seat]
    if fates.count(ALIVE) == len(fates):  # nobody dead: the usual case, answered at once
        return ()
    dead = {g for g, fate in zip(GLYPHS, fates, strict=True) if fate != ALIVE}
    return tuple(i for i, face in enumerate(state.dice) if face in dead)


@rulehook
def glyph_hand_limit(players: int) -> int:
    return HAND_LIMIT


@rulehook
def glyph_draws(game: GlyphChess, state: State | Work, seat: int) -> bool:
    return sum(state.hands[seat]) < game.hand_limit and (any(state.bags[seat]) or any(state.used[seat]))


def drawer(state: State | Work) -> int:
    """Who draws: in setup, the first player still owed a coin; else the player at turn."""
    for seat, count in enumerate(state.owed):
        if count:
            return seat
    return state.turn


def draw(work: Work, seat: int, glyph: str) -> None:
    """``seat`` draws a ``glyph`` coin (from a bag refilled first if empty)."""
    if not any(work.bags[seat]):  # an empty bag is refilled from the used area first
        work.bags[seat], work.used[seat] = work.used[seat], [0] * len(GLYPHS)
    i = GLYPHS.index(glyph)
    work.bags[seat][i] -= 1
    work.hands[seat][i] += 1
