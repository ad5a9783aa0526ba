"""Leduc poker: a small hidden-information game for the conformance kit's tests.

Six cards, two each of ``J``, ``Q`` and ``K``. Each of two players puts one
chip in the pot and is dealt a card only they see. A round of betting
follows (a raise is 2 chips; at most two raises), then a board card is
dealt face up, then a second round (a raise is 4 chips). A player facing a
raise may fold, call it or raise again; a player who folds loses what they
put in. When the second round is called, the cards are shown: a card that
pairs the board wins, else the higher card; equal cards split the pot.
Its payoffs are the chips won or lost, from -13 to 13 (OpenSpiel's
``leduc_poker`` pays the same), not the win/loss share of the default.

Written from the guide (docs/writing-a-game.md): events with templates (the
core writes the notation and log lines), a frozen state, ``view``,
``sees`` and ``determinize``. ``leduc_leaks.py`` beside it holds three
copies that each leak a card in a way the conformance kit must find.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

import attrs

from tabletop import CHANCE, Chance, Decide, Event, Game, Hidden, Outcome, Over, hookimpl

RANKS = ("J", "Q", "K")
#: How many cards of each rank the deck holds.
COPIES = 2
#: The chips a raise adds, in the first round and in the second.
RAISE = (2, 4)
#: The most raises in one round.
MOST_RAISES = 2
#: The most chips a player can lose: the ante and every raise called.
MOST_CHIPS = 1 + MOST_RAISES * sum(RAISE)


@attrs.frozen
class Deal(Event):
    """A card dealt to ``player``: only they see it."""

    kind: ClassVar[str] = "deal"
    origin: ClassVar[str] = CHANCE
    sentence: ClassVar[str] = "{player} is dealt {card}"
    unseen: ClassVar[str] = "{player} is dealt a card"
    player: str
    card: str


@attrs.frozen
class Board(Event):
    """The board card, dealt face up before the second round."""

    kind: ClassVar[str] = "board"
    origin: ClassVar[str] = CHANCE
    sentence: ClassVar[str] = "the board card is {card}"
    card: str


@attrs.frozen
class Fold(Event):
    kind: ClassVar[str] = "fold"
    ends_turn: ClassVar[bool] = True
    player: str


@attrs.frozen
class Call(Event):
    """Match the other's chips (a check when there is nothing to match)."""

    kind: ClassVar[str] = "call"
    ends_turn: ClassVar[bool] = True
    player: str


@attrs.frozen
class Raise(Event):
    kind: ClassVar[str] = "raise"
    ends_turn: ClassVar[bool] = True
    player: str


@attrs.frozen
class State:
    #: Each seat's card (None before the deal; ``Hidden("card")`` in a view).
    cards: tuple[str | Hidden | None, ...] = (None, None)
    #: The board card, once dealt.
    board: str | None = None
    #: 0 for the first round of betting, 1 for the second.
    round: int = 0
    #: The chips each seat has put in the pot.
    pot: tuple[int, ...] = (1, 1)
    #: The seat to act.
    turn: int = 0
    #: Raises so far this round.
    raises: int = 0
    #: Decisions so far this round.
    acted: int = 0
    #: Who folded, if anyone.
    folded: str | None = None
    #: Whether the second round was called (the cards are shown).
    shown: bool = False


class Leduc(Game):
    name = "leduc"
    title = "Leduc poker"
    description = "a card each, a board card, two rounds of betting (a test game)"
    min_players = 2
    max_players = 2
    events = (Deal, Board, Fold, Call, Raise)

    def initial(self) -> State:
        return State()

    def seat(self, player: str) -> int:
        return self.players.index(player)

    # -- the rules ---------------------------------------------------------
    def deck(self, state: State) -> Counter:
        """The cards not yet dealt (as ranks, with how many of each)."""
        left = Counter({rank: COPIES for rank in RANKS})
        left.subtract(c for c in (*state.cards, state.board) if isinstance(c, str))
        return left

    def next(self, state: State):
        if state.folded is not None or state.shown:
            return Over()
        left = self.deck(state)
        for player, card in zip(self.players, state.cards):
            if card is None:
                return Chance(tuple(Deal(player, r) for r in RANKS), tuple(left[r] for r in RANKS))
        if state.round == 1 and state.board is None:
            return Chance(tuple(Board(r) for r in RANKS), tuple(left[r] for r in RANKS))
        return Decide((self.players[state.turn],))

    def legal(self, state: State, player: str) -> list[Event]:
        if not isinstance(self.next(state), Decide) or self.players[state.turn] != player:
            return []
        found: list[Event] = []
        if state.pot[state.turn] < max(state.pot):
            found.append(Fold(player))
        found.append(Call(player))
        if state.raises < MOST_RAISES:
            found.append(Raise(player))
        return found

    def check(self, state: State, decision: Event) -> str | None:
        if decision in self.legal(state, decision.player):  # type: ignore[attr-defined]
            return None
        if isinstance(decision, Fold):
            return "there is no raise to fold to"
        if isinstance(decision, Raise):
            return f"at most {MOST_RAISES} raises a round"
        return f"{decision.kind} is not a decision of Leduc poker"

    def apply(self, state: State, event: Event) -> State:
        if isinstance(event, Deal):
            seat = self.seat(event.player)
            return attrs.evolve(state, cards=_put(state.cards, seat, event.card))
        if isinstance(event, Board):
            return attrs.evolve(state, board=event.card)
        seat = self.seat(event.player)  # type: ignore[attr-defined]
        if isinstance(event, Fold):
            return attrs.evolve(state, folded=event.player)
        acted = state.acted + 1
        if isinstance(event, Raise):
            pot = _put(state.pot, seat, max(state.pot) + RAISE[state.round])
            return attrs.evolve(state, pot=pot, raises=state.raises + 1, acted=acted, turn=1 - seat)
        pot = _put(state.pot, seat, max(state.pot))
        if acted < 2:  # a check: the other acts
            return attrs.evolve(state, pot=pot, acted=acted, turn=1 - seat)
        if state.round == 0:
            return attrs.evolve(state, pot=pot, round=1, raises=0, acted=0, turn=0)
        return attrs.evolve(state, pot=pot, shown=True)

    def outcome(self, state: State) -> Outcome:
        a, b = self.players
        if state.folded is not None:
            loser = self.seat(state.folded)
            winner = self.players[1 - loser]
            lost = state.pot[loser]
            return Outcome({winner: lost, state.folded: -lost}, (winner,), f"{state.folded} folded")
        if not state.shown:
            return Outcome({a: 0, b: 0}, ())
        strength = [_strength(card, state.board) for card in state.cards]
        if strength[0] == strength[1]:
            return Outcome({a: 0, b: 0}, (a, b), "a split pot")
        winner = 0 if strength[0] > strength[1] else 1
        won = state.pot[1 - winner]
        return Outcome(
            {self.players[winner]: won, self.players[1 - winner]: -won},
            (self.players[winner],),
            f"{self.players[winner]} shows the better card",
        )

    # -- payoffs: the chips won or lost --------------------------------------
    def payoffs(self, state: State) -> dict[str, int]:
        return dict(self.outcome(state).scores)

    def payoff_bounds(self) -> tuple[float, float]:
        return -MOST_CHIPS, MOST_CHIPS

    def values(self, event, field):
        """The ranks a card may be (numbering the chance outcomes, for OpenSpiel)."""
        return RANKS if field == "card" else None

    # -- what a player may know --------------------------------------------
    def view(self, state: State, player: str | None) -> State:
        """The other's card is hidden until the cards are shown (never, for a fold)."""
        if player is None or state.shown:
            return state
        mine = self.seat(player)
        cards = tuple(c if s == mine or c is None else Hidden("card") for s, c in enumerate(state.cards))
        return attrs.evolve(state, cards=cards)

    def sees(self, event: Event, player: str | None) -> bool:
        return player is None or not isinstance(event, Deal) or event.player == player

    def determinize(self, view: State, player: str, rng) -> State:
        left = self.deck(view)
        cards = []
        for card in view.cards:
            if isinstance(card, Hidden):
                card = rng.choice(sorted(left.elements()))
                left[card] -= 1
            cards.append(card)
        return attrs.evolve(view, cards=tuple(cards))

    def asks(self, state: State, player: str) -> str:
        return "fold, call or raise" if state.pot[state.turn] < max(state.pot) else "call (check) or raise"


def _put(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1 :]


def _strength(card, board) -> tuple[int, int]:
    return (card == board, RANKS.index(card))


@hookimpl
def register_games():
    return [Leduc]
