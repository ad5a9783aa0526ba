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

Every rule is the one generator's (``placement.Placement``, ``turn.Turns``),
asked with the live state, which has the same fields as ``State``: whatever
a variant changes, or wraps, the fast path asks the rules in force. The
reach is kept while rules 1-3 are read in their declared line form
(``forms.py``). Only a variant that adds decisions or memory leaves the game
without a fast path (``Glux.fast()`` is None); the engine then folds on the
plain path.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletop import Chance, Decide, Event, Forced, Over

from . import setup
from .chips import FACES
from .events import Place, Start
from .state import State, Work, freeze, thaw

if TYPE_CHECKING:
    from .game import Glux

#: Rule hooks for decisions and memory a variant adds: when a variant
#: implements one, Glüx has no fast path (see the module's docstring).
PLAIN_ONLY = ("glux_memo", "glux_check", "glux_apply", "glux_decisions")

#: For the players of a game, each seat's draw nodes by the bag's contents.
_DRAW_NODES: dict[tuple[str, ...], tuple[dict[tuple[int, ...], Chance], ...]] = {}
#: For the players of a game and its board (boards are made once and compared
#: by identity), each seat's placements made so far (see ``Placements.made``).
_PLACES: dict[tuple[tuple[str, ...], Any], tuple[dict[int, Place], ...]] = {}


#: The fast path's state: the mutable state both paths apply effects to.
Live = Work


class Fast:
    """The fast path of one Glüx game (made by ``Glux.fast()``)."""

    def __init__(self, game: Glux) -> None:
        self.game = game
        self.players = game.players
        self.seats = game.seats
        self.names = game.board.names
        self.indices = game.board.indices
        self.start_squares = game.start_squares
        placement = game.placement
        self.placement = placement
        self.turns = game.turns
        self.rules = game.rules
        self.over_asked = game.over_asked
        #: Reach is kept incrementally while rules 1-3 are read as lines.
        self.incremental = placement.lines
        self.cover = placement.cover
        self.height = placement.height
        self.paths = placement.paths
        self.crossings = crossings(game.board, placement.directions)
        #: ``paths`` with the squares between as a mask of bits (see ``Live.filled``).
        self.counts = masked_paths(game.board, placement.directions)
        self.draws = game.draws
        # A bag's contents only shrink during a game, so the draw nodes are
        # shared by every game of these players (the chance tables). A seat's
        # draws are its player's (``turn.draw_outcomes``), so the players are
        # the key: cheaper to hash than the draws.
        if len(_DRAW_NODES) > 256:
            _DRAW_NODES.clear()
        self.draw_nodes = _DRAW_NODES.get(self.players)
        if self.draw_nodes is None:
            self.draw_nodes = _DRAW_NODES[self.players] = tuple({} for _ in self.players)
        #: For each seat, whether it may land on each square under rule 6.
        self.landable = placement.landable
        # A placement is the same event in every game of these players on this
        # board, so one made for a bot is kept for the next game's (a random
        # bot looks at one placement a turn, and making it is a fair part of
        # a self-played turn).
        if len(_PLACES) > 32:
            _PLACES.clear()
        self.made = _PLACES.get((self.players, game.board))
        if self.made is None:
            self.made = _PLACES[self.players, game.board] = tuple({} for _ in self.players)
        self.decides = game.decides
        self.over = Over()
        from .game import EFFECTS

        self.effects = EFFECTS

    # -- between the two paths ---------------------------------------------
    def thaw(self, state: State) -> Live:
        """A mutable copy of ``state``; each seat's reach is counted when first needed."""
        return thaw(state)

    def count_reach(self, live: Live) -> list[dict[int, int]]:
        """Each seat's reach, counted afresh; kept up to date from then on.
        Only squares the seat may land on count (rules 5 and 6), so the reach's
        squares are the seat's placements by counting."""
        stacks = live.stacks
        height = self.height
        live.reach = []
        for seat, tops in enumerate(live.tops):
            landable = self.landable[seat]
            reach: dict[int, int] = {}
            for origin in tops:
                for between, dest in self.paths[origin][stacks[origin][-1][1]]:
                    if landable[dest] and len(stacks[dest]) < height and not any(stacks[sq] for sq in between):
                        reach[dest] = reach.get(dest, 0) + 1
            live.reach.append(reach)
        live.filled = sum(1 << square for square, stack in enumerate(stacks) if stack)
        live.index = self
        return live.reach

    def freeze(self, live: Live) -> State:
        """The immutable state equal to ``live``."""
        return freeze(live)

    # -- the engine's questions ------------------------------------------------
    def next(self, live: Live):
        if not live.began:
            return self._setup(live)
        seat = live.turn
        if seat is None or (self.over_asked is not None and self.over_asked(game=self.game, state=live)):
            return self.over
        if live.drawing:
            bag = tuple(live.bags[seat])
            node = self.draw_nodes[seat].get(bag)
            return node if node is not None else self.draw_node(live, seat)
        placement = self.placement
        reach = live.reach
        if reach is not None and reach[seat] and self.cover is None:
            return self.decides[seat]
        if placement.placeable(
            live,
            seat,
            reach[seat] if reach is not None else placement.reachable(live, seat),  # type: ignore[arg-type]
        ) or placement.option_open(live, seat):
            return self.decides[seat]
        # "Important": no counting placement and the start-square option used.
        return Forced(self.rules.glux_stuck(game=self.game, state=live, seat=seat))

    def check(self, live: Live, decision: Event) -> str | None:
        if type(decision) is Place:
            if not live.began:
                return "the game is still being set up: choose the face of your start chip"
            seat = self.seats[decision.player]
            kind = live.hands[seat]
            if kind is None or decision.face not in FACES[kind]:
                return setup.face_error(kind, decision.face)
            square = self.indices.get(decision.square)
            if square is None:
                return f"{decision.square} is not a square of this board"
            reach = live.reach
            if reach is not None and not decision.start and reach[seat].get(square):
                if self.cover is None or not live.stacks[square]:
                    return None  # counted to, may land, has room; rule 4 has nothing to ask
            return self.placement.error(live, seat, square, decision.face, decision.start)  # type: ignore[arg-type]
        if type(decision) is Start:
            return setup.check_start(self.game, live, decision)  # type: ignore[arg-type]
        return f"{decision.kind} is not a decision"

    def apply(self, live: Live, event: Event) -> None:
        try:
            effect = self.effects[type(event)]
        except KeyError:
            raise TypeError(f"not a Glüx event: {event!r}") from None
        effect(self.game, live, event)

    def legal(self, live: Live, player: str) -> Sequence[Event]:
        seat = self.seats[player]
        if not live.began:
            kind = live.hands[seat]
            if kind is None or live.started[seat]:
                return []
            return [Start(player, face) for face in FACES[kind]]
        kind = live.hands[seat]
        if kind is None or live.turn != seat or live.drawing:
            return []
        if self.incremental:
            reach = live.reach if live.reach is not None else self.count_reach(live)
            squares = sorted(reach[seat])
        else:
            squares = sorted(set(self.placement.reachable(live, seat)))  # type: ignore[arg-type]
        return self.placement.listing(live, seat, player, squares, self.names, self.made[seat])

    def draw_node(self, live: Live, seat: int) -> Chance:
        bag = tuple(live.bags[seat])
        node = self.draw_nodes[seat].get(bag)
        if node is None:
            node = self.draw_nodes[seat][bag] = Chance(self.draws[seat], bag)
        return node

    def _setup(self, live: Live):
        seats = range(len(self.players))
        if not all(live.started):
            for seat in seats:
                if not live.started[seat] and live.hands[seat] is None and any(live.bags[seat]):
                    return self.draw_node(live, seat)
            return Decide(tuple(p for i, p in enumerate(self.players) if not live.started[i]))
        for seat in seats:
            if live.hands[seat] is None and any(live.bags[seat]):
                return self.draw_node(live, seat)
        return self.game.first_player_node

    # -- keeping the reach as chips are placed (``placement.put_chip``) ---------
    def placed(self, live: Live, square: int, seat: int, face: int, old: tuple) -> None:
        """A chip of ``seat`` went on ``square`` (which held ``old``) showing
        ``face``: the counts it ends and the counts it makes."""
        reaches = live.reach
        stacks = live.stacks
        filled = live.filled
        if old:
            # The covered chip counts no more (rule 4).
            covered, was = old[-1]
            reach = reaches[covered]  # type: ignore[index]
            for between, dest in self.counts[square][was]:
                if not filled & between:
                    left = reach.get(dest)
                    if left is not None:  # else the seat may not land there, or it is full
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
        height = self.height
        if len(stacks[square]) >= height:
            # Full for good (rule 5; stacks only grow): nobody counts to it.
            for reach in reaches:  # type: ignore[union-attr]
                reach.pop(square, None)
        # The new chip counts from here.
        reach = reaches[seat]  # type: ignore[index]
        landable = self.landable[seat]
        for between, dest in self.counts[square][face]:
            if not filled & between and landable[dest] and len(stacks[dest]) < height:
                reach[dest] = reach.get(dest, 0) + 1


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
