"""The rules of Glüx: setup, placing chips by counting squares, scoring rooms."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tabletop import Chance, Decide, Event, Forced, Game, Outcome, Over

from . import board as boards
from . import notation, render
from .chips import FACES, KINDS
from .events import EVENTS, Draw, Exclude, FirstPlayer, Place, Start
from .state import State, next_seat, put, take_from_bag
from . import hookspecs, official


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
        self.rays = self.board.rays(tuple(rules.glux_directions()))
        bag = rules.glux_bag(players=len(self.players))
        self.bag = tuple(bag.get(kind, 0) for kind in KINDS)
        owner = [-1] * len(self.board.rooms)
        for seat, square in enumerate(self.start_squares):
            owner[square] = seat
        #: For each square, the seat whose start square it is, or -1.
        self.start_owner = tuple(owner)
        self.room_squares = {
            room: tuple(i for i, r in enumerate(self.board.rooms) if r == room) for room in self.board.room_names
        }

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
        if self.targets(state, seat) or self.option_open(state, seat):
            return Decide((player,))
        # "Important": no counting placement and the start-square option used.
        return Forced(Exclude(player))

    def _setup_node(self, state: State):
        if not all(state.started):
            for seat, player in enumerate(self.players):
                if not state.started[seat] and state.hands[seat] is None and state.bag_size(seat):
                    return self._draw(state, seat)
            return Decide(tuple(p for i, p in enumerate(self.players) if not state.started[i]))
        for seat in range(len(self.players)):
            if state.hands[seat] is None and state.bag_size(seat):
                return self._draw(state, seat)
        return Chance(tuple(FirstPlayer(p) for p in self.players))

    def _draw(self, state: State, seat: int) -> Chance:
        player = self.players[seat]
        return Chance(tuple(Draw(player, kind) for kind in KINDS), state.bags[seat])

    def option_open(self, state: State, seat: int) -> bool:
        """Rule 7: once per game, onto the single chip on one's own start square."""
        return not state.option_used[seat] and len(state.stacks[self.start_squares[seat]]) == 1

    def targets(self, state: State, seat: int) -> set[int]:
        """Every square reachable by counting from one of the seat's top chips."""
        stacks = state.stacks
        start_owner = self.start_owner
        found = set()
        for origin in state.tops[seat]:
            count = stacks[origin][-1][1]
            for ray in self.rays[origin]:
                if len(ray) < count:
                    continue
                # Rule 3: every square between must be empty.
                if any(stacks[sq] for sq in ray[: count - 1]):
                    continue
                dest = ray[count - 1]
                # Rules 5 and 6: not onto two chips, not onto another's start square.
                if len(stacks[dest]) < 2 and start_owner[dest] in (-1, seat):
                    found.add(dest)
        return found

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
        if square not in self.targets(state, seat):
            return f"no chip of yours counts exactly to {decision.square} along a clear straight line"
        return None

    def apply(self, state: State, event: Event) -> State:
        if isinstance(event, Draw):
            seat = self.seats[event.player]
            changes = dict(bags=take_from_bag(state.bags, seat, event.chip), hands=put(state.hands, seat, event.chip))
            if state.drawing:
                state = attrs.evolve(state, drawing=False, **changes)
                return attrs.evolve(state, turn=next_seat(state, seat))
            return attrs.evolve(state, **changes)
        if isinstance(event, Place):
            return self._place(state, event)
        if isinstance(event, Start):
            seat = self.seats[event.player]
            square = self.start_squares[seat]
            return attrs.evolve(
                state,
                stacks=put(state.stacks, square, ((seat, event.face),)),
                tops=put(state.tops, seat, (square,)),
                hands=put(state.hands, seat, None),
                started=put(state.started, seat, True),
            )
        if isinstance(event, FirstPlayer):
            return attrs.evolve(state, began=True, turn=self.seats[event.starter])
        if isinstance(event, Exclude):
            seat = self.seats[event.player]
            state = attrs.evolve(state, excluded=put(state.excluded, seat, True))
            return attrs.evolve(state, turn=next_seat(state, seat))
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
        state = attrs.evolve(
            state,
            stacks=put(state.stacks, square, stack + ((seat, event.face),)),
            tops=tops,
            hands=put(state.hands, seat, None),
            option_used=put(state.option_used, seat, True) if event.start else state.option_used,
        )
        if state.bag_size(seat):
            return attrs.evolve(state, drawing=True)
        return attrs.evolve(state, turn=next_seat(state, seat))

    def legal(self, state: State, player: str) -> list[Event]:
        seat = self.seats[player]
        kind = state.hands[seat]
        if kind is None:
            return []
        faces = FACES[kind]
        if not state.began:
            return [] if state.started[seat] else [Start(player, f) for f in faces]
        if state.turn != seat or state.drawing:
            return []
        name = self.board.name_of
        found: list[Event] = [Place(player, name(sq), f) for sq in sorted(self.targets(state, seat)) for f in faces]
        if self.option_open(state, seat):
            start = name(self.start_squares[seat])
            found += [Place(player, start, f, start=True) for f in faces]
        return found

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
