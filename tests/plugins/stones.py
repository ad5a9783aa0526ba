"""Stones: a tiny game that writes only its rules, for the tests of the
core's defaults (notation, log lines, facets, options, action numbers,
turns): it declares its event classes, options and state, and nothing else.

Each player is dealt a secret card (1 to 3). In turn, a player takes 1 to
``most`` stones from the pile, or once a game takes as many as their card
says. Whoever takes the last stone wins; scores are stones taken.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop import CHANCE, Chance, Decide, Event, Game, Hidden, Outcome, Over, hookimpl
from tabletop.model.options import Number

CARDS = (1, 2, 3)


@attrs.frozen
class Deal(Event):
    kind: ClassVar[str] = "deal"
    origin: ClassVar[str] = CHANCE
    unseen: ClassVar[str] = "{player} is dealt a card"
    player: str
    card: int


@attrs.frozen
class Take(Event):
    """``count`` stones from the pile; ``played``: as many as the player's card says, once a game."""

    kind: ClassVar[str] = "take"
    player: str
    count: int
    played: bool = False


@attrs.frozen
class State:
    pile: int
    cards: tuple[int | Hidden | None, ...]
    used: tuple[bool, ...]
    taken: tuple[int, ...]
    turn: int = 0
    last: str | None = None


class Stones(Game):
    name = "stones"
    title = "Stones"
    description = "take stones; the last one wins (a test game of the core's defaults)"
    min_players, max_players = 2, 3
    options = {
        "stones": Number("stones in the pile", 5, 30, default=12),
        "most": Number("the most stones a player takes without the card", 1, 4, default=2),
    }
    events = (Deal, Take)

    def __init__(self, players, options, rules):
        super().__init__(players, options, rules)
        self.most = self.option("most")

    def initial(self):
        n = len(self.players)
        return State(self.option("stones"), (None,) * n, (False,) * n, (0,) * n)

    def next(self, state):
        for player, card in zip(self.players, state.cards):
            if card is None:
                return Chance(tuple(Deal(player, c) for c in CARDS))
        return Over() if state.pile == 0 else Decide((self.players[state.turn],))

    def check(self, state, decision):
        return None if decision in self.legal(state, decision.player) else "not a legal take"

    def legal(self, state, player):
        seat = self.players.index(player)
        if seat != state.turn or state.pile == 0 or None in state.cards:
            return []
        found = [Take(player, k) for k in range(1, self.most + 1) if k <= state.pile]
        card = state.cards[seat]
        if not state.used[seat] and isinstance(card, int) and card <= state.pile:
            found.append(Take(player, card, played=True))
        return found

    def apply(self, state, event):
        seat = self.players.index(event.player)
        if type(event) is Deal:
            return attrs.evolve(state, cards=_put(state.cards, seat, event.card))
        return attrs.evolve(
            state,
            pile=state.pile - event.count,
            used=_put(state.used, seat, state.used[seat] or event.played),
            taken=_put(state.taken, seat, state.taken[seat] + event.count),
            turn=(seat + 1) % len(self.players),
            last=event.player,
        )

    def outcome(self, state):
        winners = (state.last,) if state.pile == 0 and state.last else ()
        return Outcome(dict(zip(self.players, state.taken)), winners)

    def view(self, state, player):
        # Others' cards are hidden once dealt; the core's facets and board show what is left.
        shown = [c if c is None or player in (None, p) else Hidden("card") for p, c in zip(self.players, state.cards)]
        return attrs.evolve(state, cards=tuple(shown))

    def sees(self, event, player):
        return player is None or type(event) is not Deal or event.player == player

    def determinize(self, view, player, rng):
        return attrs.evolve(view, cards=tuple(rng.choice(CARDS) if isinstance(c, Hidden) else c for c in view.cards))

    def turn_ends(self, event):
        return type(event) is Take

    def values(self, event, field):
        # For the action numbers: a bool's two values go without saying.
        if field == "count":
            return range(1, max(self.most, *CARDS) + 1)
        return CARDS if event is Deal else None


def _put(values, i, value):
    return values[:i] + (value,) + values[i + 1 :]


@hookimpl
def register_games():
    return [Stones]
