"""Glüx for the engine: a short adapter over the rulebook's parts.

The rules live in modules named after the rulebook: ``setup.py``,
``turn.py``, ``placement.py`` (rules 1-6), ``start_option.py`` (rule 7),
``exclusion.py`` ("Important"), ``end.py`` and ``scoring.py``. This class
answers the engine's questions by asking them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop import Chance, Event, Game, Hidden, Outcome
from tabletop.model.shapes import seen

from . import (
    about,
    fast,
    hookspecs,
    memo,
    notation,
    official,
    placement,
    render,
    resignation,
    scoring,
    setup,
    steps,
    turn,
    turn_end,
)
from . import board as boards
from .events import EVENTS, Draw, Place, Start
from .refusal import refuse
from .state import State, evolve


class Glux(Game, about=about):
    # The title, description, players and options are written once, in
    # ``about``, which ``tabletop games`` reads without importing the game.
    name = "glux"
    events = EVENTS
    turn_ends = turn_end.turn_ends  # a turn is counted by its placement
    rule_specs = hookspecs
    official_rules = official

    @classmethod
    def normalize_options(cls, options: Mapping[str, str], players: Sequence[str]) -> dict[str, Any]:
        normalized = super().normalize_options(options, players)
        if "board" in normalized:
            normalized["board"] = boards.read_option(normalized["board"], len(players))
        return cls.check_options(normalized, players)

    @classmethod
    def check_options(cls, options: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        options = super().check_options(options, players)
        boards.check_option(options.get("board"), len(players))
        return options

    def __init__(self, players: Sequence[str], options: Mapping[str, Any], rules: Any) -> None:
        super().__init__(players, options, rules)
        n = len(self.players)
        self.seats = {p: i for i, p in enumerate(self.players)}
        self.board = boards.load(options.get("board"), n)
        #: Each square's index by name (``board.indices``).
        self.indices = self.board.indices
        # What the header fixes is asked of the rules once, here.
        self.start_squares = setup.start_squares(self.board, n, rules)
        #: How many chips a hand holds (``glux_hand_size``; officially one).
        self.hand_size = setup.check_hand_size(rules.glux_hand_size(players=n), rules)
        #: The kinds of chip in force and each bag at setup (``glux_chips``, ``glux_bag``).
        self.chips = setup.chips(rules, n)
        #: Each bag at setup, by kind (in the order of ``chips.kinds``).
        self.bag = self.chips.bag
        owner = [-1] * len(self.board.rooms)
        for seat, square in enumerate(self.start_squares):
            owner[square] = seat
        #: For each square, the seat whose start square it is, or -1.
        self.start_owner = tuple(owner)
        self.room_squares = self.board.room_squares
        self.turns = turn.Turns(self)
        self.placement = placement.Placement(self)
        rules = self.rules
        #: The end as asked, or None when read in its declared form (``forms.py``).
        self.over_asked = None if rules.form("glux_game_over") == "nobody's turn" else rules.glux_game_over
        # Hooks for decisions a variant adds outside the table of steps (the official rules add none).
        self._variant_events = steps.adds_decisions(rules)
        #: Whether a variant answers a rule of final scoring (its answers are then looked at).
        self.scored_by_variant = not all(map(rules.official, scoring.FINAL))
        #: Whether a variant answers the final score as a whole (``glux_final_scores``: asked only then).
        self.final_scored = not rules.official("glux_final_scores")
        #: Whether a variant adds decisions to the placements (``glux_decisions``).
        self.variant_decisions = not rules.official("glux_decisions")
        #: The turn the core runs (``tabletop.Turn``): the table of steps in
        #: force (``steps.py``) and what its steps answer and lead to.
        self.turn = steps.turn_of(memo.remembering(rules.glux_turn_steps(players=n), rules), rules)
        #: The table of steps in force, by name.
        self.steps = self.turn.table
        # Nodes asked for again and again, made once.
        self.draws = turn.draw_outcomes(self.players, self.chips.kinds)
        self.draws_by_bag = fast.draw_nodes(self.draws)
        self.decides = setup.decide_nodes(self.players)
        self.first_player_node = setup.first_player_node(self)

    # -- the engine's questions --------------------------------------------
    def initial(self) -> State:
        return setup.initial(self)

    def settle(self, work: Any) -> None:
        """Lead on from ``work``'s step through the steps that need no event now."""
        self.turn.settle(self, work)

    def outcome(self, state: State) -> Outcome:
        return scoring.outcome(self, state)

    def fast(self) -> fast.Fast | None:
        """The mutable fast path (``fast.py``); None when a variant adds
        decisions by the plain path's hooks (``fast.PLAIN_ONLY``)."""
        if self._variant_events:
            return None
        return fast.Fast(self)

    # -- for learning programs (the OpenSpiel and PettingZoo adapters) ----------
    def planes(self) -> Any:
        """The observation as named planes (``planes.py``)."""
        from .planes import planes

        return planes(self)

    def most_words(self) -> int | None:
        """The most decision words a game can take (``length.py``)."""
        from .length import most_words

        return most_words(self)

    # -- the rules' own questions, for the modules, bots and views ------------
    def draw_node(self, state: Any, seat: int) -> Chance:
        """The chance node of ``seat`` drawing from its bag (one per bag's contents,
        shared by every game of these players: a bag only shrinks)."""
        bag = tuple(state.bags[seat])
        node = self.draws_by_bag[seat].get(bag)
        if node is None:
            if not any(bag):
                raise self._empty_bag(seat)
            node = self.draws_by_bag[seat][bag] = Chance(self.draws[seat], bag)
        return node

    def _empty_bag(self, seat: int) -> Exception:
        """A variant led ``seat`` to draw from an empty bag (no official rule
        does): the rule that did, in one line."""
        rules, player = self.rules, self.players[seat]
        if not rules.official("glux_draw_after_placing"):
            return refuse(
                rules, "glux_draw_after_placing", f"answered True for {player}, whose bag is empty: no chip to draw"
            )
        return refuse(rules, "glux_turn_steps", f"led {player} to draw from an empty bag")

    def next_turn(self, state: State, after: int) -> int | None:
        """The seat that places next after ``after``, or None (see ``turn.py``)."""
        return self.turns.next(state, after)

    def game_over(self, state: Any) -> bool:
        """Whether the game has ended (``glux_game_over``)."""
        asked = self.over_asked
        if asked is None:
            return state.began and state.turn is None
        return bool(asked(game=self, state=state))

    def start_option(self, state: Any, seat: int) -> bool:
        """Rule 7 as the rules in force say (``glux_start_option``), before rules 4-6."""
        return self.placement.rule7(state, seat)

    def option_open(self, state: State, seat: int) -> bool:
        """Rule 7: whether ``seat`` may place on its start square without counting now."""
        return self.placement.option_open(state, seat)

    def targets(self, state: State, seat: int) -> set[int]:
        """Every square ``seat`` may place on by counting (rules 1-6; rule 4
        with at least one face of the chip in hand)."""
        placement = self.placement
        return {sq for sq in placement.reachable(state, seat) if placement.placeable(state, seat, (sq,))}

    def chip_placed(self, state: Any, event: Event) -> str | None:
        """The kind of chip ``event``, a placement or the start chip's face
        chosen, puts on the board from its player's hand in ``state`` (the
        state before it), or None for any other event: those events name
        the face shown, not the chip."""
        kind = type(event)
        if kind is Start:
            return state.hands[self.seats[event.player]]  # type: ignore[no-any-return]
        if kind is not Place:
            return None
        return self.chips.placed(state.hand(self.seats[event.player]), event.face)  # type: ignore[attr-defined]

    def can_count(self, state: State, seat: int) -> bool:
        """Whether ``seat`` has any counting placement (stops at the first)."""
        return self.placement.placeable(state, seat, self.placement.reachable(state, seat))

    def pips_in(self, state: State, room: str) -> dict[str, int]:
        """Pips on top chips in ``room``, by player (only players with pips there)."""
        return dict(self.rules.glux_room_pips(game=self, state=state, room=room))

    def room_pips(self, state: State) -> dict[str, dict[str, int]]:
        """Each room's pips by player."""
        return scoring.room_pips(self, state)

    def room_points(self, state: State) -> dict[str, dict[str, int]]:
        """Each room's victory points by player."""
        return scoring.room_points(self, state)

    def resign(self, state: State, player: str) -> State:
        return resignation.resign(self, state, player)

    # -- views and text --------------------------------------------------
    def view(self, state: State, player: str | None) -> State:
        if player is None:
            return state
        seat = self.seats[player]
        hands, bags = list(state.hands), list(state.bags)
        held = [list(h) for h in state.held]
        for other, hand in enumerate(state.hands):
            if other != seat and hand is not None and not isinstance(hand, Hidden):
                # Others know only bag and hand together: all chips less those placed.
                kept = (hand, *held[other]) if held else (hand,)
                bag = list(bags[other])
                for kind in kept:
                    if not isinstance(kind, Hidden):
                        bag[self.chips.index[kind]] += 1
                bags[other] = tuple(bag)
                hands[other] = Hidden("chip")
                if held:
                    held[other] = [Hidden("chip")] * len(held[other])
        return evolve(
            state,
            hands=tuple(hands),
            bags=tuple(bags),
            held=tuple(map(tuple, held)),
            memo=state.memo.seen_by(player),
        )

    def sees(self, event: Event, player: str | None) -> bool:
        # A draw goes into a hidden hand; only its owner knows the chip.
        if player is None or isinstance(event, Draw):
            return player is None or event.player == player
        # A variant's own decision says who may see it (a secret shape: its player alone).
        return seen(event, player)

    def determinize(self, view: State, player: str, rng: Any) -> State:
        from .determinize import determinize

        return determinize(self, view, player, rng)

    def format(self, event: Event, viewer: str | None = None) -> str:
        return notation.sentence(self, event, self.sees(event, viewer))

    def notate(self, decision: Event) -> str:
        return notation.notate(self, decision)

    def parse(self, text: str, player: str, state: State) -> Event:
        return notation.parse(self, text, player, state)

    def notate_outcome(self, outcome: Event) -> str | None:
        return notation.outcome(self, outcome)

    def render(self, state: State, viewer: str | None = None, color: bool = False) -> str:
        return render.board_text(self, state, viewer, color)

    def describe(self, state: State, viewer: str | None = None) -> dict[str, str]:
        return render.facets(self, state, viewer)
