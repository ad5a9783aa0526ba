"""Victory: a player whose scepter is on the centre as their turn begins
wins (:mod:`~tabletop_glyph_chess.scepter`); a player whose scepter falls is
eliminated, and the last one remaining wins.

Glyph Chess has no points: the score is 1 for the winner and 0 for the
others (not the pieces left, which said nothing about the result), and the
outcome's note says what decided the game (``glyph_outcome``, the whole
result).

The game ends only when won (``glyph_game_over``): a variant may end it
otherwise (a turn limit), and is then asked whenever the game comes to wait
for an event (:func:`ending`); ``glyph_outcome`` says who won such a game
(officially nobody: a game over with no winner scores 0 for everyone).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from tabletop import Outcome, TurnStep, rulehook

from .state import OVER, State, Work

if TYPE_CHECKING:
    from .game import GlyphChess


@rulehook
def glyph_outcome(game: GlyphChess, state: State | Work) -> Outcome:
    players = game.players
    scores = {p: 0 for p in players}
    if state.winner is None:
        return Outcome(scores, ())
    winner = players[state.winner]
    scores[winner] = 1
    # What decided the game, as the rule book words its two ways to win.
    note = "last player standing" if state.eliminated.count(False) == 1 else "scepter on the centre"
    return Outcome(scores, (winner,), note)


@rulehook
def glyph_game_over(game: GlyphChess, state: State | Work) -> bool:
    # Only a win ends the game: a scepter on the centre, the last player standing.
    return state.phase == OVER


def ending(table: Mapping[str, TurnStep], rules: Any) -> Mapping[str, TurnStep]:
    """The table of steps with ``glyph_game_over`` asked whenever the game
    comes to wait for an event, on the Work both paths change: after an
    event's effect and the steps that need no event, in the step that
    waits (every step but ``over`` is led on from: where its own
    ``follows`` waits, the game may end). True: the game goes to ``over``.
    The table itself while the official rule alone is in force (the game
    ends only when won, and each win goes to ``over`` itself)."""
    if rules.official("glyph_game_over"):
        return table
    over = rules.glyph_game_over

    def ended(follows: Callable[[Any, Any], str | None]) -> Callable[[Any, Any], str | None]:
        @functools.wraps(follows)  # a step leading nowhere is named where its own follows is
        def lead(game: Any, work: Any) -> str | None:
            after = follows(game, work)
            if after is None and work.phase != OVER and over(game=game, state=work):
                return OVER
            return after

        return lead

    return {
        name: step if name == OVER else attrs.evolve(step, follows=ended(step.follows)) for name, step in table.items()
    }
