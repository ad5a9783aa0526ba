"""What a spell is: who casts it, what it costs, how it is checked, what it
does, the options it offers, how it is written, and what a bot should know."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from ..game import GlyphChess

#: ``check(game, state, seat, source, spots, target) -> (problem or None, X)``
Check = Callable[[Any, Any, int, int, Sequence[int], str], tuple[str | None, int]]
#: ``effect(game, work, seat, source, spots, target) -> None``: changes the Work.
Effect = Callable[[Any, Any, int, int, Sequence[int], str], None]
#: ``options(game, state, seat, source, budget) -> [(spots, target, X), ...]``
Options = Callable[[Any, Any, int, int, int], Iterable[tuple[tuple[int, ...], str, int]]]
#: ``victims(game, state, seat, source, spots, target) -> spots attacked``
Victims = Callable[[Any, Any, int, int, Sequence[int], str], Iterable[int]]


def _no_victims(game, state, seat, source, spots, target) -> Iterable[int]:
    return ()


@attrs.frozen
class Spell:
    """One spell of a piece.

    ``cost`` is a cost kind (see :mod:`~tabletop_glyph_chess.payment`); X is
    what ``check`` and ``options`` give with each target. ``argument`` is the
    word written after the caster's spot, if any: ``"player"``, ``"piece"``
    (a letter) or ``"direction"``; the spots follow. ``notation`` is an
    example as a player writes it. ``victims`` tells a bot which spots the
    spell attacks (enemy pieces there are taken).
    """

    name: str
    caster: str
    cost: str
    check: Check
    effect: Effect
    options: Options
    notation: str
    argument: str = ""
    victims: Victims = _no_victims


def adjacent_empty(game: GlyphChess, state: Any, source: int, spot: int) -> str | None:
    """Why ``spot`` is not an empty spot next to ``source``, or None."""
    if spot not in game.geo.neighbours[source]:
        return f"{game.geo.names[spot]} is not next to {game.geo.names[source]}"
    if state.board[spot] is not None:
        return f"{game.geo.names[spot]} is not empty"
    return None


def empty_next(game: GlyphChess, state: Any, source: int) -> list[int]:
    """The empty spots next to ``source``."""
    board = state.board
    return [s for s in game.geo.neighbours[source] if board[s] is None]


def pieces_of(state: Any, seat: int, kind: str) -> list[int]:
    """The spots of ``seat``'s pieces of ``kind``."""
    piece = (seat, kind)
    board = state.board
    if piece not in board:
        return []
    return [i for i, p in enumerate(board) if p == piece]
