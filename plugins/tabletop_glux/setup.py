"""Setup: the bags, the start squares, the start chip, the hand chip and the start player.

Rulebook, "Setup" 2-4: each player takes 24 chips into a bag and a start
square (RULINGS: in seat order); draws a chip, chooses a face and places it
on the start square; draws one more chip into the hidden hand; then a start
player is drawn at random. Draws and the start player are chance outcomes.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabletop import Chance, Decide, rulehook
from tabletop.base.errors import describe, quote

from . import chips as chip_kinds
from .chips import Chips
from .events import FirstPlayer, Start
from .placement import put_chip
from .refusal import players_problem
from .refusal import refuse as _refuse
from .state import State, Work, hand_size

#: The most chips a hand may hold (``glux_hand_size``).
MAX_HAND = 6
#: The most chips of one kind a bag may hold (``glux_bag``): a bag a group
#: could fill, and a game that ends in bounded time.
MAX_OF_A_KIND = 99

if TYPE_CHECKING:
    from tabletop.model.nodes import Node

    from .game import Glux


@rulehook
def glux_bag(players: int, chips: Mapping[str, tuple[int, ...]]) -> Mapping[str, int]:
    # 24 chips per player: 8 of each kind (1/6, 2/5 and 3/4).
    return {kind: 8 for kind in chips}


@rulehook
def glux_start_squares(board: Any, players: int) -> Sequence[str]:
    # The board file lists them per number of players, in seat order (RULINGS).
    return [board.name_of(square) for square in board.starts_for(players)]


@rulehook
def glux_hand_size(players: int) -> int:
    # Setup 3: "one more chip into the hidden hand": a hand of one chip.
    return 1


@rulehook
def glux_who_may_start(players: tuple[str, ...]) -> tuple[str, ...]:
    # "Randomly determine a start player": anyone.
    return players


def start_squares(board: Any, players: int, rules: Any) -> tuple[int, ...]:
    """The start squares in force, by index; a variant naming squares that are
    off the board, shared or too few is refused in one line naming it."""
    names = tuple(rules.glux_start_squares(board=board, players=players))
    squares = tuple(board.indices.get(name) for name in names)
    if len(squares) != players or None in squares or len(set(squares)) != players:
        raise _refuse(
            rules,
            "glux_start_squares",
            f"gave {', '.join(map(str, names)) or 'nothing'}: "
            f"{players} different squares of board '{board.name}' are needed",
        )
    return squares  # type: ignore[return-value]


def chips(rules: Any, players: int) -> Chips:
    """The chips in force (``glux_chips``) and each bag at setup
    (``glux_bag``, told the kinds), compiled into the table the game reads.
    Kinds badly named or with faces a chip cannot show, a bag with a kind
    not in force, a count that is not a whole number from 0 to
    ``MAX_OF_A_KIND``, or an empty bag are refused, never dropped: one line
    naming the variant."""
    faces = rules.glux_chips(players=players)
    wrong = chip_kinds.problem(faces)
    if wrong:
        raise _refuse(rules, "glux_chips", wrong)
    kinds = tuple(faces)
    counted = rules.glux_bag(players=players, chips=faces)
    unknown = [kind for kind in counted if kind not in faces]
    if unknown:
        raise _refuse(
            rules,
            "glux_bag",
            f"gave chips of the kind {quote(unknown[0])}, which Glüx does not have (kinds: {', '.join(kinds)})",
        )
    for kind, count in counted.items():
        if type(count) is not int or not 0 <= count <= MAX_OF_A_KIND:
            raise _refuse(
                rules, "glux_bag", f"gave {describe(count)} chips of {kind}: a bag holds 0 to {MAX_OF_A_KIND} of a kind"
            )
    bag = tuple(counted.get(kind, 0) for kind in kinds)
    if not any(bag):
        raise _refuse(rules, "glux_bag", "gave an empty bag: each player needs a chip to start")
    return Chips(faces, bag)


def initial(game: Glux) -> State:
    """Empty board, full bags, nothing in hand."""
    n = len(game.players)
    return State(
        stacks=((),) * len(game.board.rooms),
        tops=((),) * n,
        bags=(game.bag,) * n,
        hands=(None,) * n,
        started=(False,) * n,
        option_used=(False,) * n,
        excluded=(False,) * n,
    )


def node(game: Glux, state: State) -> Node:
    """What setup asks for next: start chips drawn in seat order, their faces
    chosen (by everyone still to choose, in any order), hand chips drawn, then
    the start player."""
    seats = range(len(game.players))
    if not all(state.started):
        for seat in seats:
            if not state.started[seat] and state.hands[seat] is None and state.bag_size(seat):
                return game.draw_node(state, seat)
        return choosing(game.players, tuple(state.started))
    size = game.hand_size
    for seat in seats:
        if hand_size(state, seat) < size and state.bag_size(seat):
            return game.draw_node(state, seat)
    return game.first_player_node


def check_start(game: Glux, state: State, decision: Start) -> str | None:
    """Why choosing this face of the start chip is illegal, or None."""
    seat = game.seats[decision.player]
    if state.began or state.started[seat]:
        return "the start chip is placed already"
    return face_error(game.chips, state.hands[seat], decision.face)


def face_error(chips: Chips, kind: str | None, face: int) -> str | None:
    """Why ``face`` cannot be shown by the chip ``kind`` in hand, or None."""
    if kind is None:
        return "you hold no chip"
    if face not in chips.faces[kind]:
        return f"your chip is {kind}; face {face} is not on it"
    return None


def hand_face_error(chips: Chips, hand: tuple[str, ...], face: int) -> str | None:
    """Why no chip of ``hand`` (a hand of one chip or more) can show ``face``, or None."""
    if len(hand) <= 1:
        return face_error(chips, hand[0] if hand else None, face)
    if any(face in chips.faces[kind] for kind in hand):
        return None
    return f"your chips are {' and '.join(hand)}; face {face} is on none of them"


def check_hand_size(size: Any, rules: Any = None) -> int:
    """``glux_hand_size``'s answer, or one line saying why it cannot be
    (naming the variant that gave it, given the ``rules`` in force)."""
    if type(size) is not int or not 1 <= size <= MAX_HAND:
        raise _refuse(rules, "glux_hand_size", f"gave {size!r}: a hand holds 1 to {MAX_HAND} chips")
    return size


def start(game: Glux, work: Work, event: Start) -> None:
    """The effect of choosing the start chip's face: it goes on the start square."""
    seat = game.seats[event.player]
    put_chip(work, game.start_squares[seat], seat, event.face)
    work.hands[seat] = None
    work.started[seat] = True


def first_player(game: Glux, work: Work, event: FirstPlayer) -> None:
    """The effect of drawing the start player: play begins with them."""
    work.began = True
    work.turn = game.seats[event.starter]


def legal_starts(game: Glux, state: State, seat: int, player: str) -> list[Start]:
    kind = state.hands[seat]
    if kind is None or state.started[seat]:
        return []
    return list(starts(player, game.chips.faces[kind]))


@functools.lru_cache(maxsize=256)
def starts(player: str, faces: tuple[int, ...]) -> tuple[Start, ...]:
    """``player``'s start chip showing each of ``faces`` (made once per player
    and chip: every game of a run sets up alike)."""
    return tuple(Start(player, face) for face in faces)


@functools.lru_cache(maxsize=256)
def choosing(players: tuple[str, ...], started: tuple[bool, ...]) -> Decide:
    """The decision of the ``players`` who have not ``started`` (chosen the
    face of their start chip), in any order (made once per players and
    choices made)."""
    return Decide(tuple(p for p, done in zip(players, started) if not done))


def first_player_node(game: Glux) -> Chance:
    """The chance node of the start player (made once per game); players
    who are not in the game, none, or one twice are refused in one line."""
    players = tuple(game.rules.glux_who_may_start(players=game.players))
    wrong = players_problem(players, game.players, f"the players ({', '.join(game.players)})")
    if wrong:
        raise _refuse(game.rules, "glux_who_may_start", wrong)
    return _first_player_node(players)


@functools.lru_cache(maxsize=256)
def _first_player_node(players: tuple[str, ...]) -> Chance:
    return Chance(tuple(FirstPlayer(p) for p in players))


@functools.lru_cache(maxsize=256)
def decide_nodes(players: tuple[str, ...]) -> tuple[Decide, ...]:
    """Each seat's decision node (made once per set of players)."""
    return tuple(Decide((p,)) for p in players)
