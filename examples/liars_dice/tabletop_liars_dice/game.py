"""Liar's Dice for the engine: a short adapter from tabletop's game contract
(``tabletop.Game``) to the rules, which live in modules named after them:
``roll.py``, ``bidding.py``, ``call.py``, run as a table of steps
(``steps.py``). What it does not write (notation, log lines, facets,
options' checks, action numbers) the core works out from ``about.py``,
``events.py`` and the state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop import Decide, Event, Game, Hidden, Outcome, Turn

from . import about, call, hookspecs, official, render, roll
from .events import EVENTS, Bid, Liar, Roll
from .state import OVER, State, Work

HIDDEN_DIE = Hidden("die")


class LiarsDice(Game, about=about):
    name = "liars-dice"
    events = EVENTS
    rule_specs = hookspecs
    official_rules = official

    def __init__(self, players: Sequence[str], options: Mapping[str, Any], rules: Any) -> None:
        super().__init__(players, options, rules)
        self.seats = {player: seat for seat, player in enumerate(self.players)}
        self.sides: int = self.option("sides")
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

    # -- text: notation, log lines and facets are the core's, from events.py ---------
    def render(self, state: State, viewer: str | None = None, color: bool = False) -> str:
        return render.board_text(self, state, color)

    def every(self, event: type[Event]) -> Sequence[Event]:
        """The action numbers' words (OpenSpiel, PettingZoo): the bids in the
        order of the rules in force, then liar, so that action ``k + 1`` is
        OpenSpiel's ``liars_dice`` action ``k``; a chance node, a die's faces."""
        return {Bid: self.offers[0], Roll: self.rolls[0].outcomes}.get(event) or super().every(event)
