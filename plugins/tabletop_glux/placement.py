"""Placing a light chip by counting: rules 1 to 6 of the rulebook.

"Starting from one of their own chips on the board (the starting chip), the
player counts as many squares in a straight line as the number of pips on
that chip. The last square reached this way is where they place their new
chip." Each rule below is one predicate, the official implementation of its
rule hook. Both forms of placement are built from the same predicates:

- the forward form, :meth:`Placement.targets`, lists every square a player
  can count to (for ``moves`` and the bots);
- the backward form, :meth:`Placement.error`, checks one given square (for
  a logged decision): it looks back from the square, since in each direction
  only the first chip that may not be passed can count to it.

Rule 7 and "Important" are in ``start_option.py`` and ``exclusion.py``.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tabletop import rulehook

from .board import ORTHOGONAL
from .events import Place
from .state import State, next_seat, put

if TYPE_CHECKING:
    from .game import Glux


# -- the rules, one predicate each -------------------------------------------


@rulehook
def glux_counts_from(game: Any, state: Any, seat: int, square: int) -> bool:
    # Rule 1: from any of one's own chips on the board; a covered chip counts
    # for nothing (rule 4), so only one's own top chips.
    stack = state.stacks[square]
    return bool(stack) and stack[-1][0] == seat


@rulehook
def glux_directions() -> tuple[tuple[int, int], ...]:
    # Rule 2: "in a straight horizontal or vertical line, never diagonally".
    return ORTHOGONAL


@rulehook
def glux_distance(game: Any, state: Any, square: int) -> int:
    # Rule 2: as many squares as the pips on the starting chip (its top face).
    return state.stacks[square][-1][1]


@rulehook
def glux_may_pass(game: Any, state: Any, seat: int, square: int) -> bool:
    # Rule 3: a chip of anyone between start and destination blocks the way.
    return not state.stacks[square]


@rulehook
def glux_may_cover(game: Any, state: Any, seat: int, square: int) -> bool:
    # Rule 4: onto a single chip of any player, the player's own included.
    return True


@rulehook
def glux_stack_height(players: int) -> int:
    # Rule 5: never onto two chips lying on top of each other.
    return 2


@rulehook
def glux_may_land(game: Any, state: Any, seat: int, square: int) -> bool:
    # Rule 6: never on another player's start marker.
    return game.start_owner[square] in (-1, seat)


#: The rule hooks of counting; when no variant changes any of them, the
#: official predicates run inlined (see ``Placement``).
COUNTING_HOOKS = ("glux_counts_from", "glux_distance", "glux_may_pass", "glux_may_cover", "glux_may_land")

_NUMBERS = {1: "one chip", 2: "two chips", 3: "three chips", 4: "four chips"}


class Placement:
    """Rules 1-6 for one game: the directions and stack height its header
    fixes, and the predicates in force (a variant's, or the official ones)."""

    def __init__(self, game: Glux) -> None:
        rules = game.rules
        self.game = game
        board = game.board
        # Rule 2: the directions are fixed for the game; asked once.
        self.directions = tuple(rules.glux_directions())
        self.rays = board.rays(self.directions)
        #: For each square and count 0-6, each count on the board: (squares between, destination).
        self.paths = board.paths(self.directions)
        self.back_rays = board.rays(tuple((-dc, -dr) for dc, dr in self.directions))
        # Rule 5.
        self.height = int(rules.glux_stack_height(players=len(game.players)))
        self.start_owner = game.start_owner
        #: Whether every counting rule is official (then ``tops`` lists exactly
        #: the squares a seat counts from, and the inlined forms below apply).
        self.official = not any(map(rules.overridden, COUNTING_HOOKS))
        self.counts_from = rules.glux_counts_from
        self.distance = rules.glux_distance
        self.may_pass = rules.glux_may_pass
        self.may_cover = rules.glux_may_cover
        self.may_land = rules.glux_may_land
        if self.official:
            # The forward form asked on every turn: the inlined one, without a detour.
            self.targets = self._official_targets  # type: ignore[method-assign]

    # -- rules 4, 5 and 6: the destination ------------------------------------
    def refused_by(self, state: State, seat: int, square: int) -> int | None:
        """The rule (5, 6 or 4) that forbids placing on ``square``, or None."""
        stack = state.stacks[square]
        if len(stack) >= self.height:
            return 5
        game = self.game
        if not self.may_land(game=game, state=state, seat=seat, square=square):
            return 6
        if stack and not self.may_cover(game=game, state=state, seat=seat, square=square):
            return 4
        return None

    # -- rules 1, 2 and 3: the count ---------------------------------------------
    def origins(self, state: State, seat: int) -> Iterator[int]:
        """Rule 1: the squares ``seat`` may count from."""
        if self.official:
            yield from state.tops[seat]
            return
        game = self.game
        for square, stack in enumerate(state.stacks):
            if stack and self.counts_from(game=game, state=state, seat=seat, square=square):
                yield square

    def _clear(self, state: State, seat: int, between: tuple[int, ...]) -> bool:
        """Rule 3: every square on the way may be passed."""
        game = self.game
        may_pass = self.may_pass
        return all(may_pass(game=game, state=state, seat=seat, square=sq) for sq in between)

    def counted(self, state: State, seat: int) -> Iterator[int]:
        """Forward: each square ``seat`` counts to under rules 1-3 (repeats possible)."""
        game = self.game
        for origin in self.origins(state, seat):
            n = self.distance(game=game, state=state, square=origin)
            if n < 1:
                continue
            for ray in self.rays[origin]:
                if len(ray) >= n and self._clear(state, seat, ray[: n - 1]):
                    yield ray[n - 1]

    def reaches(self, state: State, seat: int, square: int) -> bool:
        """Backward: whether ``seat`` counts exactly to ``square`` under rules 1-3.
        In each direction only the first square that may not be passed can be
        a starting chip beyond which nothing counts."""
        game = self.game
        for ray in self.back_rays[square]:
            for distance, sq in enumerate(ray, start=1):
                if (
                    state.stacks[sq]
                    and self.counts_from(game=game, state=state, seat=seat, square=sq)
                    and self.distance(game=game, state=state, square=sq) == distance
                ):
                    return True
                if not self.may_pass(game=game, state=state, seat=seat, square=sq):
                    break
        return False

    # -- both forms ----------------------------------------------------------------
    def targets(self, state: State, seat: int) -> Iterator[int]:
        """Forward form: every square ``seat`` may place on by counting (repeats possible)."""
        return (sq for sq in self.counted(state, seat) if self.refused_by(state, seat, sq) is None)

    def error(self, state: State, seat: int, square: int) -> str | None:
        """Backward form: why ``seat`` may not place on ``square`` by counting, or None."""
        rule = self.refused_by(state, seat, square)
        name = self.game.board.name_of(square)
        if rule == 5:
            return f"{name} holds {_NUMBERS.get(self.height, f'{self.height} chips')} already"
        if rule == 6:
            owner = self.start_owner[square]
            if owner >= 0:
                return f"{name} is {self.game.players[owner]}'s start square"
            return f"no chip may be placed on {name}"
        if rule == 4:
            return f"the chip on {name} may not be covered"
        reaches = self._official_reaches if self.official else self.reaches
        if not reaches(state, seat, square):
            return f"no chip of yours counts exactly to {name} along a clear straight line"
        return None

    # The official rules 1-6 inlined: the same predicates as above, fused into
    # one loop each way, for official games (the plain path's hot loop).
    def _official_targets(self, state: State, seat: int) -> Iterator[int]:
        stacks = state.stacks
        start_owner = self.start_owner
        height = self.height
        paths = self.paths
        for origin in state.tops[seat]:
            for between, dest in paths[origin][stacks[origin][-1][1]]:
                if len(stacks[dest]) < height and start_owner[dest] in (-1, seat):
                    for sq in between:
                        if stacks[sq]:
                            break
                    else:
                        yield dest

    def _official_reaches(self, state: State, seat: int, square: int) -> bool:
        stacks = state.stacks
        for ray in self.back_rays[square]:
            for distance, sq in enumerate(ray, start=1):
                stack = stacks[sq]
                if stack:
                    owner, face = stack[-1]
                    if owner == seat and face == distance:
                        return True
                    break
        return False


def apply_place(game: Glux, state: State, event: Place) -> State:
    """The chip goes on top of the square (covering what is there: rule 4,
    only the top chip counts from now on); then the player draws, or the turn
    passes."""
    seat = game.seats[event.player]
    square = game.board.indices[event.square]
    stack = state.stacks[square]
    tops = state.tops
    if stack:
        covered = stack[-1][0]
        tops = put(tops, covered, tuple(s for s in tops[covered] if s != square))
    tops = put(tops, seat, tops[seat] + (square,))
    hands = put(state.hands, seat, None)
    option_used = put(state.option_used, seat, True) if event.start else state.option_used
    stacks = put(state.stacks, square, stack + ((seat, event.face),))

    def after(turn: int | None, drawing: bool) -> State:
        return State(
            stacks,
            tops,
            state.bags,
            hands,
            state.started,
            option_used,
            state.excluded,
            state.began,
            turn,
            drawing,
            state.memo,
        )

    if game.hooked_turns:
        placed = after(seat, True)
        if game.rules.glux_draw_after_placing(game=game, state=placed, seat=seat):
            return placed
        return after(game.next_turn(placed, seat), False)
    # With chips left in the bag the player draws next; else the turn passes.
    drawing = state.bag_size(seat) > 0
    return after(seat if drawing else next_seat(hands, state.excluded, seat), drawing)


class Placements(Sequence[Place]):
    """The legal placements of one turn: every (square, face) pair, in order.

    Events are made only when looked at: a random bot looks at one of some
    fifty, and self-play speed depends on it. With ``made`` (the fast path's),
    an event made once for the player is kept there and given again when the
    same placement is looked at (events are immutable)."""

    __slots__ = ("player", "squares", "names", "option", "faces", "made")

    def __init__(
        self,
        player: str,
        squares: list[int],
        names: tuple[str, ...],
        option: bool,
        faces: tuple[int, int],
        made: dict[int, Place] | None = None,
    ) -> None:
        #: The squares counted to (indices, sorted), then, when ``option``, the
        #: start square (the start-square option: placed there without counting).
        self.player = player
        self.squares = squares
        self.names = names
        self.option = option
        self.faces = faces
        #: The events already made for ``player`` on this board, by square,
        #: face and start option (``square << 4 | face << 1 | start``: faces
        #: are 1 to 6), or None to make each one afresh.
        self.made = made

    def __len__(self) -> int:
        return 2 * len(self.squares)

    def __getitem__(self, index):  # type: ignore[override]
        if type(index) is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(len(self)))]
            index = operator.index(index)
        squares = self.squares
        if index < 0:
            index += 2 * len(squares)
            if index < 0:
                raise IndexError("placement index out of range")
        j = index >> 1
        square = squares[j]  # IndexError past the end, as a list would
        face = self.faces[index & 1]
        start = self.option and j == len(squares) - 1
        made = self.made
        if made is None:
            return Place(self.player, self.names[square], face, start)
        key = (square << 4) | (face << 1) | start
        event = made.get(key)
        if event is None:
            event = made[key] = Place(self.player, self.names[square], face, start)
        return event

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]
