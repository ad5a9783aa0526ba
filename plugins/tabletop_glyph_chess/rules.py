"""What happens on the board: sight, kills, incinerations, minions leaving,
eliminations, and the landings of an action with the necromancer's escape."""

from __future__ import annotations

from .hexes import HexBoard
from .pieces import GLYPHS, ILLUSIONIST, MINION, NECROMANCER, SCEPTER, SEERESS, SUMMONER
from .state import BURNT, KILLED, OVER, State, Step, add, evolve, put


def in_sight(geo: HexBoard, state: State, spot: int) -> bool:
    """Whether the piece on ``spot`` is in sight of an enemy seeress: the first
    piece in one of her six directions. (Looked at from the spot: she sees it
    exactly when she is the first piece in some direction from it.)"""
    board = state.board
    owner = board[spot][0]
    for ray in geo.rays[spot].values():
        for other in ray:
            piece = board[other]
            if piece is not None:
                if piece[1] == SEERESS and piece[0] != owner:
                    return True
                break
    return False


def pieces_of(state: State, seat: int, kind: str) -> list[int]:
    return [i for i, p in enumerate(state.board) if p is not None and p[0] == seat and p[1] == kind]


def without_minions(board: tuple, seat: int) -> tuple:
    """The board with none of ``seat``'s minions on it."""
    return tuple(None if p is not None and p[0] == seat and p[1] == MINION else p for p in board)


def minions_leave(state: State, seat: int) -> State:
    """The summoner left its spot: all its minions leave the board."""
    return evolve(state, board=without_minions(state.board, seat))


def relocate(state: State, source: int, target: int, **also: object) -> State:
    """Move the piece on ``source`` to the empty ``target`` (and change ``also``);
    a summoner that leaves its spot takes its minions off the board first (FAQ Q15)."""
    board = state.board
    piece = board[source]
    if piece[1] == SUMMONER:
        board = without_minions(board, piece[0])
    board = put(put(board, source, None), target, piece)
    return evolve(state, board=board, **also)


def strike(state: State, spot: int, burn: bool) -> State:
    """The piece on ``spot`` is killed (or incinerated) and leaves the board."""
    seat, kind = state.board[spot]
    state = evolve(state, board=put(state.board, spot, None))
    if kind == SCEPTER:
        return eliminate(state, seat)
    if kind == MINION:
        return state  # back to the spare area, to be summoned again
    if kind == ILLUSIONIST and pieces_of(state, seat, ILLUSIONIST):
        return state  # the other illusionist piece is still on the board (FAQ Q7)
    fates = state.fates[seat]
    fates = put(fates, GLYPHS.index(kind), BURNT if burn else KILLED)
    state = evolve(state, fates=put(state.fates, seat, fates))
    if kind == SUMMONER:
        state = minions_leave(state, seat)
    return state


def eliminate(state: State, seat: int) -> State:
    """A scepter fell: its player is out and all their pieces leave the board."""
    board = tuple(None if p is not None and p[0] == seat else p for p in state.board)
    state = evolve(state, board=board, eliminated=put(state.eliminated, seat, True))
    left = state.players_left()
    if len(left) == 1:
        state = evolve(state, phase=OVER, winner=left[0], steps=())
    return state


def escape_coins(geo: HexBoard, state: State, spot: int) -> list[str]:
    """The coins the owner of the necromancer on ``spot`` could pay to escape
    now: a necromancer coin or a wild coin, unless she is in an enemy
    seeress's sight (FAQ Q11)."""
    seat = state.board[spot][0]
    if in_sight(geo, state, spot):
        return []
    wild = state.wild(seat)
    return [g for g, n in zip(GLYPHS, state.hands[seat]) if n and (g == NECROMANCER or g in wild)]


def attacked_necromancer(state: State, step: Step) -> bool:
    target = state.board[step.target]
    mover = state.board[step.source]
    return target is not None and target[1] == NECROMANCER and mover is not None and target[0] != mover[0]


def land(state: State, step: Step, escape_with: str = "", rest: tuple[Step, ...] = ()) -> State:
    """One landing: an enemy on the target is struck, unless it is a
    necromancer whose owner pays ``escape_with`` to move it to the spot the
    attacker came from. ``rest`` are the landings left after this one."""
    mover = state.board[step.source]
    target = state.board[step.target]
    if target is not None and target[0] != mover[0]:
        if escape_with:
            seat = target[0]
            hands = put(state.hands, seat, add(state.hands[seat], escape_with, -1))
            used = put(state.used, seat, add(state.used[seat], escape_with, 1))
            # The attacker lands; the necromancer takes the spot it came from.
            state = relocate(state, step.source, step.target, hands=hands, used=used)
            return evolve(state, board=put(state.board, step.source, target), steps=rest)
        state = strike(state, step.target, step.burn)
    # (A summoner landing on its own minion: the minions leave as it moves.)
    return relocate(state, step.source, step.target, steps=rest)
