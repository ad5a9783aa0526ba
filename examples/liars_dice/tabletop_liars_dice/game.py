"""Liar's Dice for the engine: a short adapter from tabletop's game contract
(``tabletop.Game``) to the rules, which live in modules named after them:
``roll.py``, ``bidding.py``, ``call.py``, run as a table of steps
(``steps.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop import Decide, Event, Game, Hidden, Outcome, Turn, UsageError

from . import about, call, hookspecs, notation, official, render, roll
from .events import EVENTS, Bid, Liar, Roll
from .state import OVER, State, Work

#: Each option's bounds (``--option dice=2``): small enough that a game is quick to set up.
BOUNDS = {"dice": (1, roll.MOST_DICE), "sides": (2, 9)}
HIDDEN_DIE = Hidden("die")


class LiarsDice(Game):
    name = "liars-dice"
    title = about.TITLE
    description = about.DESCRIPTION
    min_players, max_players = about.PLAYERS
    options = dict(about.OPTIONS)
    events = EVENTS
    rule_specs = hookspecs
    official_rules = official

    # -- the header ----------------------------------------------------------------
    @classmethod
    def normalize_options(cls, options: Mapping[str, str], players: Sequence[str]) -> dict[str, Any]:
        normalized = super().normalize_options(options, players)
        for key, value in normalized.items():
            text = str(value)
            if not (text.isascii() and text.isdigit() and len(text) <= 2):
                raise UsageError(f"option '{key}': {text!r} is not a number")
            normalized[key] = int(text)
        return cls.check_options(normalized, players)

    @classmethod
    def check_options(cls, options: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        options = super().check_options(options, players)
        for key, value in options.items():
            low, high = BOUNDS[key]
            if type(value) is not int or not low <= value <= high:
                raise UsageError(f"option '{key}': {value!r} is not a number from {low} to {high}")
        return options

    def __init__(self, players: Sequence[str], options: Mapping[str, Any], rules: Any) -> None:
        super().__init__(players, options, rules)
        self.seats = {player: seat for seat, player in enumerate(self.players)}
        self.sides: int = options.get("sides", 6)
        # What the header fixes is asked of the rules once, here, and checked:
        # a house rule's answer the game cannot play is one clear error.
        self.dice = tuple(rules.liars_dice_dice(game=self, seat=seat) for seat in range(len(self.players)))
        if not all(0 <= n <= roll.MOST_DICE for n in self.dice) or not any(self.dice):
            raise rules.refuse(
                "liars_dice_dice", f"gave {list(self.dice)} (0 to {roll.MOST_DICE} a seat, one at least)"
            )
        self.total = sum(self.dice)
        self.wild = rules.liars_dice_wild(game=self)
        if not 0 <= self.wild <= self.sides:
            raise rules.refuse("liars_dice_wild", f"gave {self.wild} (a face from 1 to {self.sides}, or 0)")
        bids = [tuple(bid) for bid in rules.liars_dice_bids(game=self)]
        if len(set(bids)) != len(bids) or not all(
            len(bid) == 2 and 1 <= bid[0] <= self.total and 1 <= bid[1] <= self.sides for bid in bids
        ):
            raise rules.refuse(
                "liars_dice_bids", f"gave a bid twice or one not of {self.total} dice of {self.sides} faces"
            )
        #: Each bid's place in the order of bids: a bid must come later than the last.
        self.rank = {bid: i for i, bid in enumerate(bids)}
        # Events and nodes asked for again and again, made once.
        self.offers = tuple(tuple(Bid(player, count, face) for count, face in bids) for player in self.players)
        self.calls = tuple(Liar(player) for player in self.players)
        self.decides = tuple(Decide((player,)) for player in self.players)
        self.rolls = roll.rolls(self)
        #: The turn the core runs: the table of steps in force (``steps.py``)
        #: on the state's mutable twin. It answers the engine's questions
        #: (next, check, apply, legal, asks) and makes the fast path.
        self.turn = Turn(rules.liars_dice_turn_steps(players=len(self.players)), work=Work)
        #: The core decision shapes a variant's step may take (they write and read themselves).
        self.shapes = self.turn.shapes

    # -- the rules: the core's turn answers next, check, apply, legal and asks -------
    def initial(self) -> State:
        return State(((),) * len(self.players))

    def outcome(self, state: State) -> Outcome:
        return call.outcome(self, state)

    # -- what a player may know ---------------------------------------------------
    def view(self, state: State, player: str | None) -> State:
        """Others' dice are hidden under their cups until liar is called,
        when every cup is lifted; how many dice each has is known."""
        if player is None or state.phase == OVER:
            return state
        mine = self.seats[player]
        dice = tuple(d if seat == mine else (HIDDEN_DIE,) * len(d) for seat, d in enumerate(state.dice))
        return State(dice, state.phase, state.turn, state.bid, state.caller)

    def sees(self, event: Event, player: str | None) -> bool:
        return player is None or type(event) is not Roll or event.player == player  # type: ignore[attr-defined]

    def determinize(self, view: State, player: str, rng: Any) -> State:
        """A full state ``player`` cannot tell from ``view``: each hidden die rolled anew."""
        sides = self.sides
        dice = tuple(
            tuple(sorted(rng.randint(1, sides) if isinstance(die, Hidden) else die for die in d)) for d in view.dice
        )
        return State(dice, view.phase, view.turn, view.bid, view.caller)

    # -- text --------------------------------------------------------------------
    def format(self, event: Event, viewer: str | None = None) -> str:
        return notation.sentence(self, event, self.sees(event, viewer))

    def notate(self, decision: Event) -> str:
        return notation.notate(self, decision)

    def parse(self, text: str, player: str, state: State) -> Event:
        return notation.parse(self, text, player, state)

    def notate_outcome(self, outcome: Event) -> str | None:
        return notation.outcome(self, outcome)

    def render(self, state: State, viewer: str | None = None, color: bool = False) -> str:
        return render.board_text(self, state, color)

    def describe(self, state: State, viewer: str | None = None) -> dict[str, str]:
        return render.facets(self, state)
