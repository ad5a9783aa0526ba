"""Glüx's fast path: the same rules on a mutable state, for folding a whole
log and for self-play (the engine's ``Game.fast()`` contract).

Three things make it fast, none of which changes a rule:

- the state is changed in place (``Live``), so an event costs no copy of the
  board;
- once a whole list of placements is asked for (self-play), each seat's
  *reach* is kept up to date as chips are placed: for every square, how many
  of the seat's top chips count to it along a clear line (rules 1-3).
  Placing a chip changes only the lines through its square, so listing a
  turn's placements is a look-up, not a recount. Meanwhile the squares
  holding a chip are kept as the bits of one integer: a line is clear when
  it shares no bit with them, and the first chip behind a square is the
  nearest set bit. A replay, which only checks the square it is given
  (looking back from it), never pays for any of it;
- chance nodes (a seat's draw, for each bag's contents) are made once per
  set of players and looked up, and so are the placement events a bot looks
  at (``Placements.made``).

Every rule is the one generator's (``placement.Placement``, ``turn.Turns``)
and every step the table's (``steps.py``), asked with the live state, which
has the same fields as ``State``: whatever a variant changes, wraps or adds
to the table of steps, the fast path asks the rules in force. The reach is
kept while rules 1-3 are read in their declared line form (``forms.py``).
What variants remember (``glux_memo``) is asked before each step's effect,
on the state both paths change (``memo.remembering``). Only a variant
implementing the plain path's decision hooks (``PLAIN_ONLY``) leaves the
game without a fast path (``Glux.fast()`` is None); the engine then folds
on the plain path.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from tabletop import Chance, TurnFast
from tabletop.base.caches import Bound

from .events import Draw, Place
from .state import State, Work

if TYPE_CHECKING:
    from .game import Glux

#: Rule hooks for decisions a variant adds by hooks rather than by a step of
#: its own, answering on the immutable state: when a variant implements one,
#: every step takes the variant's events by them (``steps.with_variant_decisions``,
#: through ``TurnStep.adding``) and Glüx has no fast path (see the module's
#: docstring).
PLAIN_ONLY = ("glux_check", "glux_apply", "glux_decisions")

#: For the possible draws of a game (its players and kinds of chip), each
#: seat's draw nodes by the bag's contents (``draw_nodes``).
_DRAW_NODES: dict[tuple[tuple[Draw, ...], ...], tuple[dict[tuple[int, ...], Chance], ...]] = {}
#: A run meets few sets of players (a tournament, its seatings: 24 for four
#: names), each some hundreds of nodes a seat (one per bag's contents met).
DRAW_NODES_KEPT = Bound(256)
#: For the players of a game and its board (boards are made once and compared
#: by identity), each seat's placements made so far (see ``Placements.made``).
_PLACES: dict[tuple[tuple[str, ...], Any], tuple[list[Place | None], ...]] = {}
#: Fewer than the draw nodes: each holds a placement event for every square
#: and face a seat played to, some thousands of events.
PLACES_KEPT = Bound(32)


#: The fast path's state: the mutable state both paths apply effects to.
Live = Work


def made_events(board: Any) -> list[Place | None]:
    """Room for a seat's placement events on ``board``, none made yet (see ``Placements.made``)."""
    return [None] * (len(board.rooms) << 4)


def draw_nodes(draws: tuple[tuple[Draw, ...], ...]) -> tuple[dict[tuple[int, ...], Chance], ...]:
    """Each seat's draw nodes by the bag's contents, shared by every game
    with these possible draws (``turn.draw_outcomes``: each seat's player
    and the kinds of chip in force, which are the key; a bag's contents only
    shrink during a game)."""
    nodes = _DRAW_NODES.get(draws)
    if nodes is None:
        nodes = DRAW_NODES_KEPT.keep(_DRAW_NODES, draws, tuple({} for _ in draws))
    return nodes


class Fast(TurnFast):
    """The fast path of one Glüx game (made by ``Glux.fast()``): the core's
    turn on the game's table of steps (``steps.py``), asked with the live
    state, which also keeps each seat's reach."""

    def __init__(self, game: Glux) -> None:
        placement = game.placement
        self.placement = placement
        #: Reach is kept incrementally while rules 1-3 are read as lines.
        self.incremental = placement.lines
        self.height = placement.height
        # ``crossings``, ``counts`` and ``lands`` are made when the reach is
        # first counted (``count_reach``): a command on a log that has no chip
        # placed (``moves``, a first ``play``) is spared making them. (Plain
        # attributes, not cached properties: those reach into the instance's
        # ``__dict__``, after which every attribute of the instance is read
        # the slow way, twice the time of one read in ``placed``.)
        self.crossings: tuple = ()
        self.counts: tuple = ()
        self.lands: tuple = ()
        #: For each seat, whether it may land on each square under rule 6.
        self.landable = placement.landable
        # A placement is the same event in every game of these players on this
        # board, so one made for a bot is kept for the next game's (a random
        # bot looks at one placement a turn, and making it is a fair part of
        # a self-played turn).
        players = game.players
        self.made = _PLACES.get((players, game.board))
        if self.made is None:
            self.made = PLACES_KEPT.keep(
                _PLACES, (players, game.board), tuple(made_events(game.board) for _ in players)
            )
        super().__init__(game, game.turn)

    # -- between the two paths ---------------------------------------------
    def thaw(self, state: State) -> Live:
        """A mutable copy of ``state``; each seat's reach is counted when first needed."""
        live = super().thaw(state)
        live.fast = self
        return live

    def count_reach(self, live: Live) -> list[dict[int, int]]:
        """Each seat's reach, counted afresh; kept up to date from then on.
        Only squares the seat may land on count (rules 5 and 6), so the reach's
        squares are the seat's placements by counting."""
        if not self.counts:
            #: :func:`crossings` of this game's board, and ``paths`` with the
            #: squares between as a mask of bits (see ``Live.filled``).
            board, directions = self.game.board, self.placement.directions
            self.crossings = crossings(board, directions)
            self.counts = masked_paths(board, directions)
            #: For each seat, ``counts`` to the squares it may land on (rule 6).
            self.lands = landings(board, directions, self.landable)
        stacks = live.stacks
        height = self.height
        # Every square holding a chip is some seat's top: only those are
        # looked at, for the squares filled and those full (rule 5).
        filled = 0
        room = [True] * len(stacks)
        for tops in live.tops:
            for square in tops:
                filled |= 1 << square
                if len(stacks[square]) >= height:
                    room[square] = False
        live.filled = filled
        live.room = room
        live.reach = []
        for seat, tops in enumerate(live.tops):
            lands = self.lands[seat]
            reach: dict[int, int] = {}
            for origin in tops:
                for between, dest in lands[origin][stacks[origin][-1][1]]:
                    if room[dest] and not filled & between:
                        reach[dest] = reach.get(dest, 0) + 1
            live.reach.append(reach)
        live.index = self
        return live.reach

    # -- keeping the reach as chips are placed (``placement.put_chip``) ---------
    def placed(self, live: Live, square: int, seat: int, face: int, old: tuple) -> None:
        """A chip of ``seat`` went on ``square`` (which held ``old``) showing
        ``face``: the counts it ends and the counts it makes. (Only the
        squares a seat may land on are counted to, ``lands``; a square with
        no room left is dropped from every reach, so a count to it is in none.)"""
        reaches = live.reach
        stacks = live.stacks
        filled = live.filled
        room = live.room
        if old:
            # The covered chip counts no more (rule 4): to each square it
            # counted to, that it may land on and that has room.
            covered, was = old[-1]
            reach = reaches[covered]  # type: ignore[index]
            for between, dest in self.lands[covered][square][was]:
                if room[dest] and not filled & between:
                    left = reach[dest]
                    if left > 1:
                        reach[dest] = left - 1
                    else:
                        del reach[dest]
        else:
            # The square now blocks every count that passed over it (rule 3):
            # in each direction only the first chip met can count over it,
            # the nearest set bit of the squares behind (other squares than
            # this one, so their stacks are as before).
            for behind, below, table in self.crossings[square]:
                chips = filled & behind
                if chips:
                    sq = chips.bit_length() - 1 if below else (chips & -chips).bit_length() - 1
                    owner, count = stacks[sq][-1]
                    path = table[sq][count]
                    if path is not None:
                        beyond, dest = path
                        if not filled & beyond:  # those before the square are empty: sq is the first chip
                            reach = reaches[owner]  # type: ignore[index]
                            left = reach.get(dest)
                            if left is not None:
                                if left > 1:
                                    reach[dest] = left - 1
                                else:
                                    del reach[dest]
            live.filled = filled = filled | (1 << square)
        if len(stacks[square]) >= self.height:
            # Full for good (rule 5; stacks only grow): nobody counts to it.
            room[square] = False
            for reach in reaches:  # type: ignore[union-attr]
                if square in reach:
                    del reach[square]
        # The new chip counts from here, to the squares the seat may land on
        # (rule 6) that have room (rule 5). (Room is read from a list: a mask
        # of full squares, tried before, made fewer instructions but took more
        # time, an operation on a board-wide mask making a new integer each time.)
        reach = reaches[seat]  # type: ignore[index]
        for between, dest in self.lands[seat][square][face]:
            if room[dest] and not filled & between:
                if dest in reach:
                    reach[dest] += 1
                else:
                    reach[dest] = 1


@functools.lru_cache(maxsize=32)
def crossings(board: Any, directions: tuple[tuple[int, int], ...]) -> tuple:
    """For each square, in each direction: the squares behind it (up to 5, as
    a mask of bits), whether their numbers are below the square's, and for
    each of them the count of each length (0-6) from there that passes over
    the square: (the squares between the square and the destination, as a
    mask of bits; destination), or None. Only those squares need looking at
    when a chip lands on the empty square: the squares between the first chip
    behind and the square are empty. Made once per board."""
    rays = board.rays(directions)
    back = board.rays(tuple((-dc, -dr) for dc, dr in directions))
    found = []
    for square in range(len(rays)):
        lines = []
        for k, line in enumerate(back[square]):
            # A chip counts at most 6 squares, so only the 5 squares behind
            # can hold one that counts over this square.
            line = line[:5]
            table = {}
            for distance, sq in enumerate(line, start=1):
                ray = rays[sq][k]
                table[sq] = tuple(
                    (bits(ray[distance : n - 1]), ray[n - 1]) if distance < n <= len(ray) else None for n in range(7)
                )
            if line:  # nothing behind the square: nothing counts over it this way
                # Along a line the squares' numbers rise or fall: the nearest
                # chip behind is the highest set bit below the square, or the
                # lowest above it.
                lines.append((bits(line), line[0] < square, table))
        found.append(tuple(lines))
    return tuple(found)


def bits(squares: Any) -> int:
    """The squares as a mask of bits (bit ``square`` for each)."""
    return sum(1 << square for square in squares)


@functools.lru_cache(maxsize=32)
def masked_paths(board: Any, directions: tuple[tuple[int, int], ...]) -> tuple:
    """``board.paths``, with the squares between as a mask of bits: for each
    square and count 0-6, (mask of the squares between, destination)."""
    return tuple(
        tuple(tuple((bits(between), dest) for between, dest in counts) for counts in square)
        for square in board.paths(directions)
    )


@functools.lru_cache(maxsize=32)
def landings(board: Any, directions: tuple[tuple[int, int], ...], landable: tuple[tuple[bool, ...], ...]) -> tuple:
    """For each seat, :func:`masked_paths` to the squares ``landable`` (rule
    6's table, ``Placement.landable``) says the seat may land on."""
    counts = masked_paths(board, directions)
    return tuple(
        tuple(tuple(tuple(path for path in paths if may[path[1]]) for paths in square) for square in counts)
        for may in landable
    )
