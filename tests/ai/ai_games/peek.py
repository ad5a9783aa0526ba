"""Peek: a tiny game with a secret in it, written as a careless author would.

Each player is dealt a secret card (1 to 3). Then, in seat order, each says
``raise`` or ``hold`` twice. The higher card wins (a tie: nobody), and the
score is the card plus the raises. Its ``view`` hides the others' cards,
but its ``render`` draws every card it is handed: an adapter that passed it
the state rather than the player's view would show the others' cards.
"""

from __future__ import annotations

import random
from typing import ClassVar

import attrs

from tabletop import CHANCE, Chance, Decide, Event, Game, Hidden, NotationError, Outcome, Over, hookimpl
from tabletop.model.numbering import Numbering

WORDS = ("raise", "hold")
ROUNDS = 2


@attrs.frozen
class Deal(Event):
    kind: ClassVar[str] = "deal"
    origin: ClassVar[str] = CHANCE
    player: str
    card: int


@attrs.frozen
class Say(Event):
    kind: ClassVar[str] = "say"
    player: str
    word: str


@attrs.frozen
class State:
    cards: tuple
    said: tuple[str, ...] = ()


class Peek(Game):
    name = "peek"
    title = "Peek"
    description = "a secret card each; the higher card wins (a test game)"
    min_players = 2
    max_players = 3
    events = (Deal, Say)

    def initial(self):
        return State((None,) * len(self.players))

    def next(self, state):
        for player, card in zip(self.players, state.cards):
            if card is None:
                return Chance(tuple(Deal(player, c) for c in (1, 2, 3)))
        if len(state.said) < ROUNDS * len(self.players):
            return Decide((self.players[len(state.said) % len(self.players)],))
        return Over()

    def check(self, state, event):
        return None if isinstance(event, Say) and event.word in WORDS else "say raise or hold"

    def apply(self, state, event):
        if isinstance(event, Deal):
            seat = self.players.index(event.player)
            return attrs.evolve(state, cards=(*state.cards[:seat], event.card, *state.cards[seat + 1 :]))
        return attrs.evolve(state, said=(*state.said, event.word))

    def legal(self, state, player):
        return [Say(player, word) for word in WORDS]

    def outcome(self, state):
        n = len(self.players)
        raises = [state.said[i::n].count("raise") for i in range(n)]
        cards = [c if isinstance(c, int) else 0 for c in state.cards]
        scores = {p: c + r for p, c, r in zip(self.players, cards, raises)}
        best = max(cards)
        winners = tuple(p for p, c in zip(self.players, cards) if c == best)
        return Outcome(scores, winners if len(winners) == 1 else ())

    def view(self, state, player):
        if player is None:
            return state
        cards = tuple(c if p == player or c is None else Hidden("card") for p, c in zip(self.players, state.cards))
        return attrs.evolve(state, cards=cards)

    def sees(self, event, player):
        return player is None or not isinstance(event, Deal) or event.player == player

    def determinize(self, view, player, rng):
        pick = rng if isinstance(rng, random.Random) else random.Random(rng)
        cards = tuple(pick.randint(1, 3) if isinstance(c, Hidden) else c for c in view.cards)
        return attrs.evolve(view, cards=cards)

    def format(self, event, viewer=None):
        if isinstance(event, Deal):
            return f"{event.player} is dealt {event.card if self.sees(event, viewer) else 'a card'}"
        return f"{event.player} says {event.word}"

    def notate(self, decision):
        return decision.word

    def parse(self, text, player, state):
        if text.strip() not in WORDS:
            raise NotationError(f"cannot read {text!r}: write raise or hold")
        return Say(player, text.strip())

    def render(self, state, viewer=None, color=False):
        # Careless on purpose: every card handed in is drawn.
        return "cards: " + ", ".join(f"{p} {c}" for p, c in zip(self.players, state.cards))

    def describe(self, state, viewer=None):
        return {f"card {p}": str(c) for p, c in zip(self.players, state.cards)}

    def asks(self, state, player):
        return "say raise or hold"


@hookimpl
def register_games():
    return [Peek]


@hookimpl
def register_numberings():
    return [Numbering("peek", lambda game: WORDS, lambda game, decision: (decision.word,), lambda game: 3)]
