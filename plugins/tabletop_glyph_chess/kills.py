"""What a landing does on the board: kills and incinerations, minions leaving
with their summoner, and eliminations (the rule book's "Kill", the
Elementalist's and Illusionist's notes, the Minions' passive, "Victory").

Everything here changes a :class:`~tabletop_glyph_chess.state.Work` in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import rulehook

from . import escape
from .pieces import GLYPHS, ILLUSIONIST, MINION, SCEPTER, SUMMONER
from .state import BURNT, KILLED, Step, Work

if TYPE_CHECKING:
    from .game import GlyphChess


def minions_leave(work: Work, seat: int) -> None:
    """The summoner left its spot: all its minions leave the board (FAQ Q15)."""
    board = work.board
    minion = (seat, MINION)
    if minion in board:
        for spot, piece in enumerate(board):
            if piece == minion:
                board[spot] = None


def relocate(work: Work, source: int, target: int) -> None:
    """Move the piece on ``source`` to ``target`` (whatever was there is
    gone); a summoner that leaves its spot takes its minions off the board first."""
    board = work.board
    piece = board[source]
    if piece[1] == SUMMONER:
        minions_leave(work, piece[0])
    board[source] = None
    board[target] = piece


def strike(game: GlyphChess, work: Work, spot: int, burn: bool) -> None:
    """The piece on ``spot`` is killed (or incinerated) and leaves the board."""
    game.rules.glyph_strike(game=game, state=work, spot=spot, burn=burn)


@rulehook
def glyph_strike(game: GlyphChess, state: Work, spot: int, burn: bool) -> bool:
    board = state.board
    seat, kind = board[spot]
    board[spot] = None
    if kind == SCEPTER:
        eliminate(game, state, seat)
    elif kind == MINION:
        pass  # back to the spare area, to be summoned again
    elif kind == ILLUSIONIST and (seat, ILLUSIONIST) in board:
        pass  # the other illusionist piece is still on the board (FAQ Q7)
    else:
        state.fates[seat][GLYPHS.index(kind)] = BURNT if burn else KILLED
        if kind == SUMMONER:
            minions_leave(state, seat)
    return True


def eliminate(game: GlyphChess, work: Work, seat: int) -> None:
    """``seat``'s scepter fell (see :mod:`~tabletop_glyph_chess.scepter`)."""
    game.rules.glyph_eliminate(game=game, state=work, seat=seat)


def land(game: GlyphChess, work: Work, step: Step, escape_with: str = "") -> None:
    """One landing: an enemy on the target is struck, unless it is a
    necromancer whose owner pays ``escape_with`` to move it to the spot the
    attacker came from (the necromancer's passive spell)."""
    board = work.board
    mover = board[step.source]
    target = board[step.target]
    if target is not None and target[0] != mover[0]:
        if escape_with:
            escape.pay(work, target[0], escape_with)
            # The attacker lands; the necromancer takes the spot it came from.
            relocate(work, step.source, step.target)
            board[step.source] = target
            return
        strike(game, work, step.target, step.burn)
    # (A summoner landing on its own minion: the minions leave as it moves.)
    relocate(work, step.source, step.target)
