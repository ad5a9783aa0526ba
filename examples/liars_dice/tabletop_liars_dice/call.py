"""The call: when a player calls liar, every cup is lifted. If at least as
many dice show the face bid as the bid says (wild dice counting as that
face), the bidder wins and the caller loses; else the caller wins and the
bidder loses. One call ends the game, as in OpenSpiel's ``liars_dice``:
the winner scores 1, the loser -1, anyone else 0."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop import Outcome, rulehook

if TYPE_CHECKING:
    from .game import LiarsDice


@rulehook
def liars_dice_wild(game: LiarsDice) -> int:
    return game.sides


def showing(game: LiarsDice, state: Any, face: int) -> int:
    """How many dice at the table count as ``face``."""
    return sum(die == face or die == game.wild for dice in state.dice for die in dice)


def outcome(game: LiarsDice, state: Any) -> Outcome:
    if state.caller is None:
        return Outcome(dict.fromkeys(game.players, 0), ())
    bid = state.bid
    shown = showing(game, state, bid.face)
    true = shown >= bid.count
    winner, loser = (bid.player, state.caller) if true else (state.caller, bid.player)
    scores = {player: 1 if player == winner else -1 if player == loser else 0 for player in game.players}
    note = f"{shown} {'die counts' if shown == 1 else 'dice count'} as {bid.face}: {game.notate(bid)} was {'true' if true else 'a lie'}"
    return Outcome(scores, (winner,), note)
