"""Final scoring: each room by majority of pips, then victory and its tiebreak.

"Each room is evaluated separately. On each room, the players count the
total of their pips in that room": only top chips count (rule 4), and only
players with pips there are ranked (RULINGS). 1st position 4 VP, 2nd
position 2 VP; several tied for first all get 4 and nobody is second; several
tied for second all get 2; in a 2-player game first place only (rulebooks
001-003). Most VP wins; a tie goes to the tied player with the most pips in
the middle room; if still tied, the victory is shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletop import Outcome, rulehook
from tabletop.base.errors import quote

from .refusal import players_problem, refuse
from .state import State

#: The rules of final scoring: while a variant answers any, its answers are looked at.
FINAL = ("glux_room_pips", "glux_score_room", "glux_winners", "glux_tiebreak")

if TYPE_CHECKING:
    from .game import Glux


@rulehook
def glux_room_pips(game: Any, state: Any, room: str) -> Mapping[str, int]:
    # Only the chip on top of each square counts.
    stacks = state.stacks
    players = game.players
    pips: dict[str, int] = {}
    for square in game.room_squares[room]:
        stack = stacks[square]
        if stack:
            seat, face = stack[-1]
            pips[players[seat]] = pips.get(players[seat], 0) + face
    return pips


def rank_room(pips: Mapping[str, int], second_place: bool, first: int = 4, second: int = 2) -> dict[str, int]:
    """The majority in one room: ``first`` VP (4) for the highest sum; if
    several tie for it, ``first`` each and no second place; otherwise
    ``second`` VP (2) for everyone at the next highest sum, if
    ``second_place``. Every player in ``pips`` gets an entry (0 if unplaced)."""
    points = {player: 0 for player in pips}
    ranked = sorted({p for p in pips.values() if p > 0}, reverse=True)
    if not ranked:
        return points
    leaders = [player for player, p in pips.items() if p == ranked[0]]
    for player in leaders:
        points[player] = first
    if len(leaders) == 1 and second_place and len(ranked) > 1:
        for player, p in pips.items():
            if p == ranked[1]:
                points[player] = second
    return points


@rulehook
def glux_score_room(game: Any, state: Any, room: str, pips: Mapping[str, int], players: int) -> Mapping[str, int]:
    # "In a game with two players, victory points are awarded for the first position only."
    return rank_room(pips, second_place=players > 2)


@rulehook
def glux_final_scores(game: Any, state: Any, scores: Mapping[str, int]) -> Mapping[str, int]:
    # The rooms' victory points, summed, are the final score.
    return scores


@rulehook
def glux_winners(points: Mapping[str, int], middle: Mapping[str, int]) -> tuple[str, ...]:
    # "The player with the most victory points is the winner."
    best = max(points.values())
    return tuple(p for p, vp in points.items() if vp == best)


@rulehook
def glux_tiebreak(tied: tuple[str, ...], points: Mapping[str, int], middle: Mapping[str, int]) -> tuple[str, ...]:
    # The most pips in the middle room; if still tied, the victory is shared.
    most = max(middle.get(p, 0) for p in tied)
    return tuple(p for p in tied if middle.get(p, 0) == most)


def room_pips(game: Glux, state: State) -> dict[str, dict[str, int]]:
    """Each room's pips by player."""
    pips_in = game.rules.glux_room_pips
    pips = {room: dict(pips_in(game=game, state=state, room=room)) for room in game.room_squares}
    if game.scored_by_variant:
        _by_players(game, "glux_room_pips", pips)
    return pips


def room_points(game: Glux, state: State, pips: dict[str, dict[str, int]] | None = None) -> dict[str, dict[str, int]]:
    """Each room's victory points by player (from ``pips``, each room's pips, when given)."""
    n = len(game.players)
    score = game.rules.glux_score_room
    if pips is None:
        pips = room_pips(game, state)
    points = {room: dict(score(game=game, state=state, room=room, pips=p, players=n)) for room, p in pips.items()}
    if game.scored_by_variant:
        _by_players(game, "glux_score_room", points)
    return points


def _by_players(game: Glux, hook: str, rooms: dict[str, dict[str, int]]) -> None:
    """A variant's answer for each room must name only players of the game."""
    for room, answer in rooms.items():
        for player in answer:
            if player not in game.seats:
                raise refuse(
                    game.rules,
                    hook,
                    f"gave {quote(player)} in room {room}: only the players ({', '.join(game.players)}) score",
                )


def final_scores(game: Glux, state: State, points: dict[str, int]) -> dict[str, int]:
    """A variant's final score as a whole (``glux_final_scores``, asked
    only while a variant implements it): a score for every player of the
    game and nobody else, else one line naming the variant."""
    scores = dict(game.rules.glux_final_scores(game=game, state=state, scores=dict(points)))
    if set(scores) != set(game.players):
        raise refuse(
            game.rules,
            "glux_final_scores",
            f"gave scores for {', '.join(map(quote, scores)) or 'nobody'}: "
            f"one for each player ({', '.join(game.players)}) and nobody else",
        )
    return {player: scores[player] for player in game.players}


def outcome(game: Glux, state: State) -> Outcome:
    """Victory points, winners, and a note when a tie was broken or shared."""
    rules = game.rules
    points = {p: 0 for p in game.players}
    pips = room_pips(game, state)
    for room_points_ in room_points(game, state, pips).values():
        for player, vp in room_points_.items():
            points[player] += vp
    if game.final_scored:
        points = final_scores(game, state, points)
    middle = pips.get(game.board.middle, {})
    winners = tuple(rules.glux_winners(game=game, state=state, points=points, middle=middle))
    checked = game.scored_by_variant
    if checked and (wrong := players_problem(winners, game.players, f"the players ({', '.join(game.players)})")):
        raise refuse(rules, "glux_winners", wrong)
    note = ""
    if len(winners) > 1:
        tied = winners
        winners = tuple(rules.glux_tiebreak(game=game, state=state, tied=tied, points=points, middle=middle))
        if checked and (wrong := players_problem(winners, tied, f"the tied ({', '.join(tied)})")):
            raise refuse(rules, "glux_tiebreak", wrong)
        note = "tie on VP, decided by the middle room" if len(winners) == 1 else "tie on VP and middle room"
    return Outcome(points, winners, note)
