"""The rules of Glüx: setup, placing chips by counting squares, scoring rooms."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from tabletop import Chance, Decide, Event, Forced, Game, Outcome, Over

from . import board as boards
from . import hookspecs, notation, official, render
from .chips import FACES, KINDS
from .events import EVENTS, Draw, Exclude, FirstPlayer, Place, Start
from .state import State, evolve, next_seat, put, take_from_bag


class Glux(Game):
    name = "glux"
    title = "Glüx"
    description = "place light chips by counting squares; rooms are scored by majority"
    min_players = 2
    max_players = 4
    options = {"board": "a built-in board (two-players, three-four-players) or a board file"}
    events = EVENTS
    rule_specs = hookspecs
    official_rules = official

    @classmethod
    def normalize_options(cls, options: Mapping[str, str], players: Sequence[str]) -> dict[str, Any]:
        normalized = super().normalize_options(options, players)
        if "board" in normalized:
            normalized["board"] = boards.read_option(normalized["board"])
            boards.load(normalized["board"], len(players)).starts_for(len(players))
        return normalized

    def __init__(self, players: Sequence[str], options: Mapping[str, Any], rules: Any) -> None:
        super().__init__(players, options, rules)
        self.seats = {p: i for i, p in enumerate(self.players)}
        self.board = boards.load(options.get("board"), len(self.players))
        self.start_squares = self.board.starts_for(len(self.players))
        # What the header fixes is computed once: the rule hooks are asked here,
        # not on every move.
        directions = tuple(rules.glux_directions())
        #: For each square and count, each way to count: (squares between, destination).
        self.paths = self.board.paths(directions)
        self.back_rays = self.board.rays(tuple((-dc, -dr) for dc, dr in directions))
        bag = rules.glux_bag(players=len(self.players))
        self.bag = tuple(bag.get(kind, 0) for kind in KINDS)
        owner = [-1] * len(self.board.rooms)
        for seat, square in enumerate(self.start_squares):
            owner[square] = seat
        #: For each square, the seat whose start square it is, or -1.
        self.start_owner = tuple(owner)
        # Nodes asked for again and again, made once.
        self._draws = tuple(tuple(Draw(p, kind) for kind in KINDS) for p in self.players)
        self._decides = tuple(Decide((p,)) for p in self.players)
        self.room_squares = self.board.room_squares

    # -- state -----------------------------------------------------------
    def initial(self) -> State:
        n = len(self.players)
        return State(
            stacks=((),) * len(self.board.rooms),
            tops=((),) * n,
            bags=(self.bag,) * n,
            hands=(None,) * n,
            started=(False,) * n,
            option_used=(False,) * n,
            excluded=(False,) * n,
        )

    def next(self, state: State):
        if not state.began:
            return self._setup_node(state)
        seat = state.turn
        if seat is None:
            return Over()
        player = self.players[seat]
        if state.drawing:
            return self._draw(state, seat)
        if self.option_open(state, seat) or self.can_count(state, seat):
            return self._decides[seat]
        # "Important": no counting placement and the start-square option used.
        return Forced(Exclude(player))

    def _setup_node(self, state: State):
        if not all(state.started):
            for seat in range(len(self.players)):
                if not state.started[seat] and state.hands[seat] is None and state.bag_size(seat):
                    return self._draw(state, seat)
            return Decide(tuple(p for i, p in enumerate(self.players) if not state.started[i]))
        for seat in range(len(self.players)):
            if state.hands[seat] is None and state.bag_size(seat):
                return self._draw(state, seat)
        return Chance(tuple(FirstPlayer(p) for p in self.players))

    def _draw(self, state: State, seat: int) -> Chance:
        return Chance(self._draws[seat], state.bags[seat])

    def option_open(self, state: State, seat: int) -> bool:
        """Rule 7: once per game, onto the single chip on one's own start square."""
        return not state.option_used[seat] and len(state.stacks[self.start_squares[seat]]) == 1

    def targets(self, state: State, seat: int) -> set[int]:
        """Every square reachable by counting from one of the seat's top chips."""
        return set(self._targets(state, seat))

    def can_count(self, state: State, seat: int) -> bool:
        """Whether the seat has any counting placement (stops at the first)."""
        return next(self._targets(state, seat), None) is not None

    def _targets(self, state: State, seat: int) -> Iterator[int]:
        stacks = state.stacks
        start_owner = self.start_owner
        paths = self.paths
        for origin in state.tops[seat]:
            for between, dest in paths[origin][stacks[origin][-1][1]]:
                # Rules 5 and 6: not onto two chips, not onto another's start square.
                if len(stacks[dest]) < 2 and start_owner[dest] in (-1, seat):
                    # Rule 3: every square between must be empty.
                    for sq in between:
                        if stacks[sq]:
                            break
                    else:
                        yield dest

    def reaches(self, state: State, seat: int, dest: int) -> bool:
        """Whether a top chip of the seat counts exactly to ``dest``. Looks back
        from ``dest``: in each direction only the first chip met can count to it."""
        stacks = state.stacks
        for ray in self.back_rays[dest]:
            for distance, sq in enumerate(ray, start=1):
                stack = stacks[sq]
                if stack:
                    owner, face = stack[-1]
                    if owner == seat and face == distance:
                        return True
                    break
        return False

    def check(self, state: State, decision: Event) -> str | None:
        seat = self.seats[decision.player]
        if isinstance(decision, Start):
            if state.began or state.started[seat]:
                return "the start chip is placed already"
            return _face_error(state.hands[seat], decision.face)
        if not isinstance(decision, Place):
            return f"{decision.kind} is not a decision"
        if not state.began:
            return "the game is still being set up: choose the face of your start chip"
        if error := _face_error(state.hands[seat], decision.face):
            return error
        square = self.board.square(decision.square)
        if square is None:
            return f"{decision.square} is not a square of this board"
        if decision.start:
            if square != self.start_squares[seat]:
                return f"the start-square option places on {self.board.name_of(self.start_squares[seat])}, not {decision.square}"
            if state.option_used[seat]:
                return "the start-square option was used already"
            if len(state.stacks[square]) != 1:
                return "the start-square option needs exactly one chip on the start square"
            return None
        if len(state.stacks[square]) >= 2:
            return f"{decision.square} holds two chips already"
        owner = self.start_owner[square]
        if owner not in (-1, seat):
            return f"{decision.square} is {self.players[owner]}'s start square"
        if not self.reaches(state, seat, square):
            return f"no chip of yours counts exactly to {decision.square} along a clear straight line"
        return None

    def apply(self, state: State, event: Event) -> State:
        if isinstance(event, Draw):
            seat = self.seats[event.player]
            bags = take_from_bag(state.bags, seat, event.chip)
            hands = put(state.hands, seat, event.chip)
            if state.drawing:
                # The draw ends the turn. (Written out in full rather than with
                # evolve(): this and _place() run for nearly every event.)
                return State(
                    state.stacks,
                    state.tops,
                    bags,
                    hands,
                    state.started,
                    state.option_used,
                    state.excluded,
                    state.began,
                    next_seat(hands, state.excluded, seat),
                    False,
                )
            return evolve(state, bags=bags, hands=hands)
        if isinstance(event, Place):
            return self._place(state, event)
        if isinstance(event, Start):
            seat = self.seats[event.player]
            square = self.start_squares[seat]
            return evolve(
                state,
                stacks=put(state.stacks, square, ((seat, event.face),)),
                tops=put(state.tops, seat, (square,)),
                hands=put(state.hands, seat, None),
                started=put(state.started, seat, True),
            )
        if isinstance(event, FirstPlayer):
            return evolve(state, began=True, turn=self.seats[event.starter])
        if isinstance(event, Exclude):
            seat = self.seats[event.player]
            excluded = put(state.excluded, seat, True)
            return evolve(state, excluded=excluded, turn=next_seat(state.hands, excluded, seat))
        raise TypeError(f"not a Glüx event: {event!r}")

    def _place(self, state: State, event: Place) -> State:
        seat = self.seats[event.player]
        square = self.board.square(event.square)
        stack = state.stacks[square]
        tops = state.tops
        if stack:
            covered = stack[-1][0]
            tops = put(tops, covered, tuple(s for s in tops[covered] if s != square))
        tops = put(tops, seat, tops[seat] + (square,))
        hands = put(state.hands, seat, None)
        # With chips left in the bag the player draws next; else the turn passes.
        drawing = state.bag_size(seat) > 0
        return State(
            put(state.stacks, square, stack + ((seat, event.face),)),
            tops,
            state.bags,
            hands,
            state.started,
            put(state.option_used, seat, True) if event.start else state.option_used,
            state.excluded,
            state.began,
            seat if drawing else next_seat(hands, state.excluded, seat),
            drawing,
        )

    def legal(self, state: State, player: str) -> Sequence[Event]:
        seat = self.seats[player]
        kind = state.hands[seat]
        if kind is None:
            return []
        faces = FACES[kind]
        if not state.began:
            return [] if state.started[seat] else [Start(player, f) for f in faces]
        if state.turn != seat or state.drawing:
            return []
        names = self.board.names
        found = [(names[sq], False) for sq in sorted(self.targets(state, seat))]
        if self.option_open(state, seat):
            found.append((names[self.start_squares[seat]], True))
        return Placements(player, tuple(found), faces)

    # -- scoring ---------------------------------------------------------
    def pips_in(self, state: State, room: str) -> dict[str, int]:
        """Pips on top chips in ``room``, by player (only players with pips there)."""
        stacks = state.stacks
        pips: dict[str, int] = {}
        for sq in self.room_squares[room]:
            if stacks[sq]:
                seat, face = stacks[sq][-1]
                player = self.players[seat]
                pips[player] = pips.get(player, 0) + face
        return pips

    def room_pips(self, state: State) -> dict[str, dict[str, int]]:
        """Each room's pips by player."""
        return {room: self.pips_in(state, room) for room in self.room_squares}

    def room_points(self, state: State) -> dict[str, dict[str, int]]:
        n = len(self.players)
        return {
            room: dict(self.rules.glux_score_room(room=room, pips=pips, players=n))
            for room, pips in self.room_pips(state).items()
        }

    def outcome(self, state: State) -> Outcome:
        points = {p: 0 for p in self.players}
        for room_points in self.room_points(state).values():
            for player, vp in room_points.items():
                points[player] += vp
        middle = self.room_pips(state).get(self.board.middle, {})
        winners = tuple(self.rules.glux_winners(points=points, middle=middle))
        top = max(points.values())
        note = ""
        if len([p for p in points.values() if p == top]) > 1:
            note = "tie on VP, decided by the middle room" if len(winners) == 1 else "tie on VP and middle room"
        return Outcome(points, winners, note)

    # -- views and text --------------------------------------------------
    def view(self, state: State, player: str | None) -> State:
        if player is None:
            return state
        seat = self.seats[player]
        hands, bags = list(state.hands), list(state.bags)
        for other, hand in enumerate(state.hands):
            if other != seat and hand is not None and hand != "?":
                # Others know only bag and hand together: all chips less those placed.
                i = KINDS.index(hand)
                bags[other] = put(bags[other], i, bags[other][i] + 1)
                hands[other] = "?"
        return attrs.evolve(state, hands=tuple(hands), bags=tuple(bags))

    def sees(self, event: Event, player: str | None) -> bool:
        # A draw goes into a hidden hand; only its owner knows the chip.
        return player is None or not isinstance(event, Draw) or event.player == player

    def format(self, event: Event, viewer: str | None = None) -> str:
        return notation.sentence(self, event, self.sees(event, viewer))

    def notate(self, decision: Event) -> str:
        return notation.notate(self, decision)

    def parse(self, text: str, player: str, state: State) -> Event:
        return notation.parse(self, text, player, state)

    def notate_outcome(self, outcome: Event) -> str | None:
        return notation.outcome(self, outcome)

    def render(self, state: State, viewer: str | None = None, color: bool = False) -> str:
        return render.board_text(self, self.view(state, viewer), viewer, color)

    def describe(self, state: State, viewer: str | None = None) -> dict[str, str]:
        return render.facets(self, self.view(state, viewer), viewer)

    def asks(self, state: State, player: str) -> str:
        seat = self.seats[player]
        kind = state.hands[seat]
        if not state.began:
            return f"choose the face of the start chip ({kind})"
        return f"place the {kind} chip"


def _face_error(kind: str | None, face: int) -> str | None:
    if kind is None:
        return "you hold no chip"
    if face not in FACES[kind]:
        return f"your chip is {kind}; face {face} is not on it"
    return None


class Placements(Sequence[Place]):
    """The legal placements of one turn: every (square, face) pair, in order.

    Events are made only when looked at: a random bot looks at one of some
    fifty, and self-play speed depends on it."""

    __slots__ = ("player", "squares", "faces")

    def __init__(self, player: str, squares: tuple[tuple[str, bool], ...], faces: tuple[int, int]) -> None:
        self.player = player
        self.squares = squares
        self.faces = faces

    def __len__(self) -> int:
        return 2 * len(self.squares)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        square, start = self.squares[index // 2]  # IndexError past the end, as a list would
        return Place(self.player, square, self.faces[index % 2], start)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]
