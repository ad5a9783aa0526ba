"""Placing a light chip by counting: rules 1 to 6 of the rulebook.

"Starting from one of their own chips on the board (the starting chip), the
player counts as many squares in a straight line as the number of pips on
that chip. The last square reached this way is where they place their new
chip." Each rule below is written once, as the official implementation of
its rule hook. :class:`Placement` is the one generator built from them,
compiled once per game and used by the plain fold, the fast path, the
listing and the checking alike:

- header-time rules (the directions, rule 2; the stack height, rule 5; the
  squares each seat may land on, rule 6) are asked once per game and kept
  as tables;
- per-move predicates (rules 1, 3 and 4) are asked where they can matter:
  rule 3 only for the squares between a starting chip and its destination,
  rule 4 only for a destination holding a chip and having room for one more,
  once for each face of the chip in hand (once for both when no rule in
  force takes the face, ``Rules.takes``). An official predicate that
  declares its table form (``forms.py``) is read from the state instead.

The forward form (:meth:`Placement.reachable`) lists every square a player
can count to; the backward form (:meth:`Placement.reaches`) checks one given
square, looking back from it, since in each direction only the first chip
that may not be passed can count to it.

Rule 7 and "Important" are in ``start_option.py`` and ``exclusion.py``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tabletop import rulehook
from tabletop.base.caches import Bound
from tabletop.play.sampling import below, drawn

from .board import ORTHOGONAL
from .events import Exclude, Place
from .exclusion import exclude
from .forms import reads
from .refusal import refuse, shown
from .state import Work, hand_of

if TYPE_CHECKING:
    from .game import Glux


# -- the rules, one predicate each -------------------------------------------


@rulehook
@reads("own top chip")
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
@reads("top face")
def glux_distance(game: Any, state: Any, square: int) -> int:
    # Rule 2: as many squares as the pips on the starting chip (its top face).
    return state.stacks[square][-1][1]


@rulehook
@reads("empty square")
def glux_may_pass(game: Any, state: Any, seat: int, square: int) -> bool:
    # Rule 3: a chip of anyone between start and destination blocks the way.
    return not state.stacks[square]


@rulehook
@reads("always")
def glux_may_cover(game: Any, state: Any, seat: int, square: int) -> bool:
    # Rule 4: onto a single chip of any player, the player's own included,
    # whatever the face placed (so the face and the chip are not taken).
    return True


@rulehook
def glux_stack_height(players: int) -> int:
    # Rule 5: never onto two chips lying on top of each other.
    return 2


@rulehook
def glux_may_land(game: Any, seat: int, square: int) -> bool:
    # Rule 6: never on another player's start marker.
    return game.start_owner[square] in (-1, seat)


def counted_directions(rules: Any, board: Any) -> tuple[tuple[int, int], ...]:
    """Rule 2's directions (``glux_directions``): none, a step of (0, 0) or
    off the board from every square, or one given twice, is refused in one
    line naming the variant (a count would go nowhere, or twice the same way)."""
    directions = tuple(rules.glux_directions())
    if not directions or not all(_step(d, board) for d in directions) or len(set(directions)) != len(directions):
        raise refuse(
            rules,
            "glux_directions",
            f"gave {shown(directions)}: one or more directions (column step, row step) are needed, "
            f"each once, none (0, 0), each less than {board.width} columns and {board.height} rows",
        )
    return directions


def _step(direction: Any, board: Any) -> bool:
    """Whether ``direction`` is a step (column, row) that leads from some square to another."""
    if type(direction) is not tuple or len(direction) != 2 or direction == (0, 0):
        return False
    dc, dr = direction
    return type(dc) is int and type(dr) is int and abs(dc) < board.width and abs(dr) < board.height


_NUMBERS = {1: "one chip", 2: "two chips", 3: "three chips", 4: "four chips"}


class Placement:
    """Rules 1-6 compiled for one game: the tables its header fixes and the
    predicates in force. ``state`` may be a ``State`` or the fast path's
    mutable copy (the same fields)."""

    def __init__(self, game: Glux) -> None:
        rules = game.rules
        self.game = game
        board = game.board
        players = len(game.players)
        # Rule 2: the directions are fixed for the game; asked once.
        self.directions = counted_directions(rules, board)
        self.rays = board.rays(self.directions)
        #: For each square and count 0-6, each count on the board: (squares between, destination).
        self.paths = board.paths(self.directions)
        self.back_rays = board.rays(tuple((-dc, -dr) for dc, dr in self.directions))
        # Looking back from a square under rules 1-3 read as lines, a chip
        # farther than the highest face in force cannot count to it, so the
        # look stops there: each square's rays back that far, each square on
        # them with its distance.
        farthest = max((face for faces in game.chips.faces.values() for face in faces), default=0)
        self.back_counts = back_counts(board, self.directions, farthest)
        # Rule 5.
        self.height = int(rules.glux_stack_height(players=players))
        if self.height < 1:
            raise refuse(rules, "glux_stack_height", f"gave {shown(self.height)}: a square holds 1 chip or more")
        # Rule 6: for each seat and square, whether the seat may land there.
        self.landable = landable_table(rules.glux_may_land, game, board, game.start_owner, players)
        for seat, squares in enumerate(self.landable):
            if not any(squares):
                raise refuse(
                    rules,
                    "glux_may_land",
                    f"answered False for {game.players[seat]} (seat {seat}) on every square: they could never place",
                )
        #: The squares' names, by index (the board's).
        self.names = board.names
        #: The kinds of chip in force (``chips.Chips``), and each kind's faces.
        self.chips = game.chips
        self.kind_faces = game.chips.faces
        self.start_owner = game.start_owner
        self.start_squares = game.start_squares
        self.counts_from = rules.glux_counts_from
        self.distance = rules.glux_distance
        self.may_pass = rules.glux_may_pass
        #: Whether rules 1-3 are read as lines over the top chips (their
        #: declared forms); else each predicate is asked.
        self.lines = (
            rules.form("glux_counts_from") == "own top chip"
            and rules.form("glux_distance") == "top face"
            and rules.form("glux_may_pass") == "empty square"
        )
        #: Rule 4 as asked, or None when every chip may be covered.
        self.cover = None if rules.form("glux_may_cover") == "always" else rules.glux_may_cover
        #: Whether rule 4 is asked once for each face: only when a rule in force
        #: takes the face; else its answer is the same for both, asked once per square.
        self.by_face = rules.takes("glux_may_cover", "face")
        #: Rule 7 as asked, or None when read in its declared form.
        self.option_asked = (
            None
            if rules.form("glux_start_option") == "unused, one chip on the start square"
            else rules.glux_start_option
        )
        #: Whether rules 4-6 have nothing to refuse on a start square holding one chip.
        self.option_plain = (
            self.height > 1
            and self.cover is None
            and all(self.landable[s][sq] for s, sq in enumerate(self.start_squares))
        )
        #: Whether the start-square option is open exactly when rule 7 in its
        #: form says so (rules 4-6 having nothing to refuse there).
        self.option_read = self.option_plain and self.option_asked is None

    # -- rules 4, 5 and 6: the destination ------------------------------------
    def refused_by(self, state: Any, seat: int, square: int, face: int, chip: str | None) -> int | None:
        """The rule (5, 6 or 4) that forbids placing ``face`` of ``chip`` on ``square``, or None."""
        stack = state.stacks[square]
        if len(stack) >= self.height:
            return 5
        if not self.landable[seat][square]:
            return 6
        cover = self.cover
        if (
            stack
            and cover is not None
            and not cover(game=self.game, state=state, seat=seat, square=square, face=face, chip=chip)
        ):
            return 4
        return None

    def faces(self, state: Any, seat: int, square: int, faces: tuple[int, ...], chip: str) -> tuple[int, ...]:
        """Rule 4: which of ``faces`` may go onto ``square`` (all of them on an empty square)."""
        cover = self.cover
        if cover is None or not state.stacks[square]:
            return faces
        game = self.game
        if not self.by_face:  # the same answer for every face: asked with the lowest
            return faces if cover(game=game, state=state, seat=seat, square=square, face=faces[0], chip=chip) else ()
        if len(faces) == 2:
            # A chip of two faces (every official one), asked without a
            # generator: this runs for every covered square of every listing.
            low, high = faces
            low_ok = cover(game=game, state=state, seat=seat, square=square, face=low, chip=chip)
            high_ok = cover(game=game, state=state, seat=seat, square=square, face=high, chip=chip)
            return (faces if high_ok else (low,)) if low_ok else ((high,) if high_ok else ())
        return tuple(
            face for face in faces if cover(game=game, state=state, seat=seat, square=square, face=face, chip=chip)
        )

    def allowed(self, state: Any, seat: int, square: int) -> tuple[int, ...]:
        """Rule 4: the faces of the chips in ``seat``'s hand that may go onto
        ``square`` (one chip's, or, for a hand of several, each kind's in turn)."""
        held = state.held
        chip = state.hands[seat]
        if not held or not held[seat]:
            return self.faces(state, seat, square, self.kind_faces[chip], chip)
        found: tuple[int, ...] = ()
        for kind, faces in self.chips.hand_faces(hand_of(state, seat)):
            found += self.faces(state, seat, square, faces, kind)
        return found

    # -- rules 1, 2 and 3: the count ---------------------------------------------
    def reachable(self, state: Any, seat: int) -> Iterator[int]:
        """Forward: each square ``seat`` counts to under rules 1-3 and may land
        on under rules 5 and 6 (repeats possible; rule 4 is asked per face)."""
        stacks = state.stacks
        height = self.height
        landable = self.landable[seat]
        if self.lines:
            paths = self.paths
            for origin in state.tops[seat]:
                for between, dest in paths[origin][stacks[origin][-1][1]]:
                    if landable[dest] and len(stacks[dest]) < height:
                        for sq in between:
                            if stacks[sq]:
                                break
                        else:
                            yield dest
            return
        game = self.game
        counts_from, distance, may_pass = self.counts_from, self.distance, self.may_pass
        for origin, stack in enumerate(stacks):
            if not stack or not counts_from(game=game, state=state, seat=seat, square=origin):
                continue
            n = distance(game=game, state=state, square=origin)
            if n < 1:
                continue
            for ray in self.rays[origin]:
                if len(ray) >= n:
                    dest = ray[n - 1]
                    if (
                        landable[dest]
                        and len(stacks[dest]) < height
                        and all(may_pass(game=game, state=state, seat=seat, square=sq) for sq in ray[: n - 1])
                    ):
                        yield dest

    def reaches(self, state: Any, seat: int, square: int) -> bool:
        """Backward: whether ``seat`` counts exactly to ``square`` under rules 1-3.
        In each direction only the first square that may not be passed can be
        a starting chip beyond which nothing counts."""
        stacks = state.stacks
        if self.lines:
            for ray in self.back_counts[square]:
                for distance, sq in ray:
                    stack = stacks[sq]
                    if stack:
                        owner, face = stack[-1]
                        if owner == seat and face == distance:
                            return True
                        break
            return False
        game = self.game
        for ray in self.back_rays[square]:
            for distance, sq in enumerate(ray, start=1):
                if (
                    stacks[sq]
                    and self.counts_from(game=game, state=state, seat=seat, square=sq)
                    and self.distance(game=game, state=state, square=sq) == distance
                ):
                    return True
                if not self.may_pass(game=game, state=state, seat=seat, square=sq):
                    break
        return False

    # -- whole placements: a square and a face ----------------------------------------
    def placeable(self, state: Any, seat: int, squares: Iterable[int]) -> bool:
        """Whether any of ``squares`` (each passing rules 1-3, 5 and 6) takes a face of the chip in hand."""
        if self.cover is None:
            for _ in squares:
                return True
            return False
        # An empty square takes either face (rule 4 has nothing to ask there).
        stacks = state.stacks
        covering = []
        for square in squares:
            if not stacks[square]:
                return True
            covering.append(square)
        return any(self.allowed(state, seat, square) for square in covering)

    def rule7(self, state: Any, seat: int) -> bool:
        """Rule 7 as the rules in force say (``glux_start_option``), before rules 4-6."""
        asked = self.option_asked
        if asked is None:
            return not state.option_used[seat] and len(state.stacks[self.start_squares[seat]]) == 1
        return bool(asked(game=self.game, state=state, seat=seat))

    def option_open(self, state: Any, seat: int, cover: bool = True) -> bool:
        """Rule 7 with rules 4-6 (rule 4 only when ``cover``): whether ``seat``
        may place on its start square without counting now."""
        start = self.start_squares[seat]
        if self.option_asked is None:
            # Rule 7 read in its form: the start square holds exactly one chip.
            if state.option_used[seat] or len(state.stacks[start]) != 1:
                return False
            if self.option_plain:
                return True
        elif not self.option_asked(game=self.game, state=state, seat=seat):
            return False
        if len(state.stacks[start]) >= self.height or not self.landable[seat][start]:
            return False
        return not cover or self.cover is None or bool(self.allowed(state, seat, start))

    def offer(self, state: Any, seat: int, squares: list[int]) -> tuple[tuple[int, ...], bool]:
        """What the placements of ``seat`` are made of, besides ``squares``
        (sorted, counted to): the faces they may show (the chip's in hand, or
        each kind's in a hand of several) and whether the start-square option
        is open (rules 7, 5 and 6; rule 4 is asked with the other squares),
        whose square then ends ``squares``."""
        held = state.held
        if not held or not held[seat]:
            faces = self.kind_faces[state.hands[seat]]
        else:
            faces = tuple(face for _, faces in self.chips.hand_faces(hand_of(state, seat)) for face in faces)
        start = self.start_squares[seat]
        if self.option_read:
            # ``option_open`` when rules 4-6 have nothing to refuse there, without
            # a call: this runs on every turn of self-play.
            option = not state.option_used[seat] and len(state.stacks[start]) == 1
        else:
            option = self.option_open(state, seat, cover=False)
        if option:
            squares.append(start)
        return faces, option

    def listing(
        self,
        state: Any,
        seat: int,
        player: str,
        squares: list[int],
        made: list[Place | None] | None = None,
    ) -> Sequence[Place]:
        """The placements of ``seat``: each of ``squares`` (sorted, counted to),
        then the start square when the option is open, with each face rule 4
        allows there."""
        faces, option = self.offer(state, seat, squares)
        return self._listed(state, seat, Placements(player, squares, self.names, option, faces, made))

    def _listed(self, state: Any, seat: int, placements: Placements) -> Sequence[Place]:
        """``placements`` with rule 4 in force: itself while every chip may
        be covered, else its :class:`Covered` listing."""
        if self.cover is None:
            return placements
        # Rule 4 is asked of a covered square only where it can matter:
        # when the listing is counted, or a placement there drawn.
        stacks = state.stacks
        covered = {square for square in placements.squares if stacks[square]}
        if not covered:
            return placements
        return Covered(placements, covered, lambda square: self.allowed(state, seat, square))

    def drawn(
        self, state: Any, seat: int, player: str, squares: list[int], made: list[Place | None], rng: Any
    ) -> Place | None:
        """The placement the core's random bot draws with ``rng`` from
        ``listing(state, seat, player, squares, made)``, or None when it is
        empty: the listing's own draw (``Placements.sample``; under a house
        rule on rule 4, ``Covered.sample``, which asks rule 4 only of the
        squares drawn), as the bot would take it."""
        listing = self.listing(state, seat, player, squares, made)
        return listing.sample(rng) if listing else None  # type: ignore[attr-defined]

    def error(self, state: Any, seat: int, square: int, face: int, start: bool) -> str | None:
        """Why ``seat`` may not place ``face`` on ``square`` (by counting, or
        by the start-square option when ``start``), or None."""
        if not start:
            # The common case first: a legal placement by counting (rules 5, 6
            # and, on an empty square, 4 have nothing to refuse).
            stack = state.stacks[square]
            if (
                len(stack) < self.height
                and self.landable[seat][square]
                and (self.cover is None or not stack)
                and self.reaches(state, seat, square)
            ):
                return None
        names = self.game.board.names
        if start:
            own = self.start_squares[seat]
            if square != own:
                return f"the start-square option places on {names[own]}, not {names[square]}"
            if not self.rule7(state, seat):
                if state.option_used[seat]:
                    return "the start-square option was used already"
                if len(state.stacks[square]) != 1:
                    return "the start-square option needs exactly one chip on the start square"
                return "the start-square option is not open now"
        rule = self.refused_by(state, seat, square, face, self.chips.placed(hand_of(state, seat), face))
        if rule == 5:
            return f"{names[square]} holds {_NUMBERS.get(self.height, f'{self.height} chips')} already"
        if rule == 6:
            owner = self.start_owner[square]
            if owner >= 0:
                return f"{names[square]} is {self.game.players[owner]}'s start square"
            return f"no chip may be placed on {names[square]}"
        if rule == 4:
            return f"the chip on {names[square]} may not be covered with a {face}"
        if not start and not self.reaches(state, seat, square):
            return f"no chip of yours counts exactly to {names[square]} along a clear straight line"
        return None


#: Rule 6's table, by the rule in force and the game's board, start squares
#: and number of players (all that a header-time rule may read).
_LANDABLE: dict[tuple[Any, ...], tuple[tuple[bool, ...], ...]] = {}
#: A process meets a few boards and rules; more only from a variant that
#: makes its rule afresh for each game, whose tables are not asked for again.
LANDABLE_KEPT = Bound(64)


def landable_table(may_land: Any, game: Any, board: Any, start_owner: tuple[int, ...], players: int) -> tuple:
    """For each seat and square, ``glux_may_land``'s answer: asked once per header."""
    key = (may_land, board, start_owner, players)
    table = _LANDABLE.get(key)
    if table is None:
        table = LANDABLE_KEPT.keep(
            _LANDABLE,
            key,
            tuple(
                tuple(bool(may_land(game=game, seat=seat, square=square)) for square in range(len(start_owner)))
                for seat in range(players)
            ),
        )
    return table


@functools.lru_cache(maxsize=32)
def back_counts(board: Any, directions: tuple[tuple[int, int], ...], farthest: int) -> tuple:
    """For each square, in each of ``directions`` reversed, the squares up to
    ``farthest`` away, nearest first, each with its distance: (distance,
    square). Made once per board, directions and highest face."""
    rays = board.rays(tuple((-dc, -dr) for dc, dr in directions))
    return tuple(tuple(tuple(enumerate(ray[:farthest], start=1)) for ray in lines) for lines in rays)


def put_chip(work: Work, square: int, seat: int, face: int) -> None:
    """A chip of ``seat`` goes on top of ``square`` (covering what is there:
    rule 4, only the top chip counts from now on)."""
    stacks = work.stacks
    old = stacks[square]
    stacks[square] = old + ((seat, face),)
    if old:
        work.tops[old[-1][0]].remove(square)
    work.tops[seat].append(square)
    index = work.index
    if index is not None:
        index.placed(work, square, seat, face, old)  # type: ignore[attr-defined]


def place(game: Glux, work: Work, event: Place) -> None:
    """The effect of a placement: the chip goes on the square; then the
    player draws (2nd phase), or the turn passes. (The placement step's
    other event, an exclusion, is ``exclusion.exclude``'s.)"""
    if type(event) is not Place:
        if type(event) is Exclude:
            return exclude(game, work, event)
        raise TypeError(f"not a placement or an exclusion: {event!r}")
    seat = game.seats[event.player]
    put_chip(work, game.indices[event.square], seat, event.face)
    if work.held is None:
        work.hands[seat] = None
    else:  # a hand of several chips: the one showing the face leaves it
        work.take(seat, game.chips.placed(work.hand(seat), event.face))  # type: ignore[arg-type]
    if event.start:
        work.option_used[seat] = True
    turns = game.turns
    work.turn = seat
    work.drawing = True
    # The 2nd phase: read in its declared form ("bag not empty"), or asked.
    if not (any(work.bags[seat]) if turns.bag else turns.draw_after_placing(game=game, state=work, seat=seat)):
        work.drawing = False
        work.turn = turns.next(work, seat)


def kept(
    placements: Placements, squares: list[int], allowed: dict[int, tuple[int, ...]], faces: tuple[int, ...]
) -> list[Place]:
    """The placements whose face ``allowed`` keeps on their square (every one
    of ``faces`` on a square it does not name)."""
    width = len(faces)
    return [p for i, p in enumerate(placements) if p.face in allowed.get(squares[i // width], faces)]


class Covered(Sequence[Place]):
    """The legal placements of one turn under a house rule's rule 4: those
    of ``placements`` whose face ``allowed(square)`` keeps on a covered
    square (rule 4 asked once per covered square, as ``Placement.allowed``
    asks it), every face on the others.

    Rule 4 is asked when the listing is counted or read, or, for a uniform
    choice (:meth:`sample`), only of the squares drawn: the random bot then
    asks the house rule about once a turn instead of for every covered
    square. On the fast path the listing is read before the state changes
    (as the engine and the bots read it)."""

    __slots__ = ("placements", "covered", "ask", "asked", "_kept")

    _kept: Sequence[Place] | None

    def __init__(self, placements: Placements, covered: set[int], ask: Any) -> None:
        self.placements = placements
        self.covered = covered
        self.ask = ask
        #: Rule 4's answer for each covered square asked so far.
        self.asked: dict[int, tuple[int, ...]] = {}
        self._kept = None

    def allowed(self, square: int) -> tuple[int, ...]:
        found = self.asked.get(square)
        if found is None:
            found = self.asked[square] = self.ask(square)
        return found

    def listed(self) -> Sequence[Place]:
        """The placements, in the order of ``placements``, rule 4 asked of
        every covered square (``placements`` itself when it refuses none)."""
        if self._kept is None:
            placements = self.placements
            squares, faces, allowed = placements.squares, placements.faces, self.allowed
            width = len(faces)
            refused = {}
            for square in squares:
                if square in self.covered:
                    found = allowed(square)
                    if len(found) != width:
                        refused[square] = found
            self._kept = kept(placements, squares, refused, faces) if refused else placements
        return self._kept

    def __bool__(self) -> bool:
        # A square nobody covers takes every face: no need to ask rule 4.
        covered = self.covered
        if any(square not in covered for square in self.placements.squares):
            return True
        return bool(self.listed())

    def slot(self, index: int) -> Place | None:
        """The placement ``placements[index]`` when rule 4 allows it, else None."""
        placements = self.placements
        width = placements.width
        square = placements.squares[index // width]
        if square in self.covered and placements.faces[index % width] not in self.allowed(square):
            return None
        return placements[index]

    def sample(self, rng: Any) -> Place:
        """One of the placements, each as likely as any other
        (``tabletop.play.sampling.drawn``: a placement drawn until rule 4 allows it)."""
        return drawn(rng, len(self.placements), self.slot, self)

    def __len__(self) -> int:
        return len(self.listed())

    def __getitem__(self, index):  # type: ignore[override]
        return self.listed()[index]

    def __iter__(self) -> Iterator[Place]:
        return iter(self.listed())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self.listed() == list(other)

    __hash__ = None  # type: ignore[assignment]


class Placements(Sequence[Place]):
    """The legal placements of one turn: every (square, face) pair, in order
    (the faces of the chip in hand, or of each kind in a hand of several).

    Events are made only when looked at: a random bot looks at one of some
    fifty, and self-play speed depends on it. With ``made`` (the fast path's),
    an event made once for the player is kept there and given again when the
    same placement is looked at (events are immutable)."""

    __slots__ = ("player", "squares", "names", "option", "faces", "width", "made")

    def __init__(
        self,
        player: str,
        squares: list[int],
        names: tuple[str, ...],
        option: bool,
        faces: tuple[int, ...],
        made: list[Place | None] | None = None,
    ) -> None:
        #: The squares counted to (indices, sorted), then, when ``option``, the
        #: start square (the start-square option: placed there without counting).
        self.player = player
        self.squares = squares
        self.names = names
        self.option = option
        self.faces = faces
        self.width = len(faces)
        #: The events already made for ``player`` on this board, by square,
        #: face and start option (at ``square << 4 | face << 1 | start``:
        #: faces are 1 to 6; None where none is made yet), or None to make
        #: each one afresh. (A list, not a dict: the same look-up, and a
        #: list of the board's size stays in the processor's caches better
        #: than a dict of some thousands of keys.)
        self.made = made

    def __len__(self) -> int:
        return self.width * len(self.squares)

    def __getitem__(self, index):  # type: ignore[override]
        if type(index) is not int:
            if isinstance(index, slice):
                return self._slice(index)
            index = operator.index(index)
        if index < 0:
            index += self.width * len(self.squares)
            if index < 0:
                raise IndexError("placement index out of range")
        return self.at(index)

    def sample(self, rng: Any) -> Place:
        """One of the placements, each as likely as any other: the one the
        core's random bot draws from any listing (``tabletop.play.sampling.below``
        of its length, from ``rng``), without the bot asking its length and
        an item (a self-played turn is spared the calls)."""
        n = self.width * len(self.squares)
        if not n:
            raise ValueError("no legal decision to choose from")
        return self.at(below(rng, n))

    def at(self, index: int) -> Place:
        """The placement at ``index`` (from 0; IndexError past the end)."""
        return placed_at(self.player, self.squares, self.names, self.option, self.faces, self.made, index)

    def _slice(self, index: slice) -> list[Place]:
        # Apart from ``__getitem__``, whose ``self`` a comprehension there
        # would make a cell on every call.
        return [self[i] for i in range(*index.indices(len(self)))]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


def placed_at(
    player: str,
    squares: list[int],
    names: tuple[str, ...],
    option: bool,
    faces: tuple[int, ...],
    made: list[Place | None] | None,
    index: int,
) -> Place:
    """The placement at ``index`` (from 0; IndexError past the end) of the
    listing of ``player``'s placements: each of ``squares`` in turn (the last
    the start square when ``option``), with each of ``faces``. With ``made``
    (the fast path's), an event made once for the player is kept there and
    given again (see ``Placements``)."""
    if len(faces) == 2:  # one chip in hand: two faces
        j = index >> 1
        face = faces[index & 1]
    else:
        j, k = divmod(index, len(faces))
        face = faces[k]
    square = squares[j]  # IndexError past the end, as a list would
    start = option and j == len(squares) - 1
    if made is None:
        return Place(player, names[square], face, start)
    key = (square << 4) | (face << 1) | start
    event = made[key]
    if event is None:
        event = made[key] = Place(player, names[square], face, start)
    return event
