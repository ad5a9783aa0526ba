"""Pile: a tiny game that exercises every part of the core, for the tests only.

Each player secretly draws a card (1-3). Everyone then picks a number at the
same time, in any order; the highest pick starts (ties: the earlier seat). In
turn, a player takes 1 to ``pile_max_take`` stones, or once plays their card
to take that many; a player who played their card has their next turn skipped
(a rules event). Whoever takes the last stone wins; scores are stones taken.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop import (
    CHANCE,
    RULES,
    Chance,
    Decide,
    Event,
    Forced,
    Game,
    Hidden,
    NotationError,
    Outcome,
    Over,
    UsageError,
    Variant,
    hookimpl,
    rulehook,
    rulespec,
)


@attrs.frozen
class Deal(Event):
    kind: ClassVar[str] = "deal"
    origin: ClassVar[str] = CHANCE
    player: str
    card: int


@attrs.frozen
class Pick(Event):
    kind: ClassVar[str] = "pick"
    player: str
    number: int


@attrs.frozen
class Take(Event):
    kind: ClassVar[str] = "take"
    player: str
    stones: int
    card: bool = False


@attrs.frozen
class Skip(Event):
    kind: ClassVar[str] = "skip"
    origin: ClassVar[str] = RULES
    player: str


@attrs.frozen
class State:
    pile: int
    cards: tuple[int | None, ...]
    picks: tuple[int | None, ...]
    taken: tuple[int, ...]
    used: tuple[bool, ...]
    turn: int | None = None
    skip_next: tuple[bool, ...] = ()
    last: int | None = None


class PileSpecs:
    @rulespec(firstresult=True)
    def pile_max_take(self, players: int) -> int | None:
        """How many stones a player may take without their card."""


class OfficialPile:
    @rulehook
    def pile_max_take(self, players: int) -> int:
        return 2


class PileFast:
    """A fast path in form only (a dict of the state's fields), for testing how
    the engine uses one: it counts the events it applies."""

    applied = 0

    def __init__(self, game):
        self.game = game

    def thaw(self, state):
        return attrs.asdict(state, recurse=False)

    def freeze(self, live):
        return State(**live)

    def next(self, live):
        return self.game.next(self.freeze(live))

    def check(self, live, decision):
        return self.game.check(self.freeze(live), decision)

    def legal(self, live, player):
        return self.game.legal(self.freeze(live), player)

    def apply(self, live, event):
        PileFast.applied += 1
        live.update(attrs.asdict(self.game.apply(self.freeze(live), event), recurse=False))


class Pile(Game):
    name = "pile"
    title = "Pile"
    description = "take stones from a pile; the last stone wins (a test game)"
    min_players = 2
    max_players = 3
    options = {"stones": "how many stones the pile starts with (default 10)"}
    events = (Deal, Pick, Take, Skip)
    rule_specs = PileSpecs
    official_rules = OfficialPile()

    @classmethod
    def normalize_options(cls, options, players):
        options = super().normalize_options(options, players)
        if "stones" in options:
            try:
                options["stones"] = int(options["stones"])
            except ValueError:
                raise UsageError(f"option 'stones': not a number: {options['stones']!r}") from None
        return options

    def __init__(self, players, options, rules):
        super().__init__(players, options, rules)
        self.max_take = rules.pile_max_take(players=len(players))

    def initial(self):
        n = len(self.players)
        return State(
            self.option_values.get("stones", 10),
            (None,) * n,
            (None,) * n,
            (0,) * n,
            (False,) * n,
            skip_next=(False,) * n,
        )

    def seat(self, player):
        return self.players.index(player)

    def fast(self):
        return PileFast(self)

    def next(self, state):
        for i, card in enumerate(state.cards):
            if card is None:
                p = self.players[i]
                return Chance(tuple(Deal(p, c) for c in (1, 2, 3)))
        if state.turn is None:
            return Decide(tuple(p for p, pick in zip(self.players, state.picks) if pick is None))
        if state.pile == 0:
            return Over()
        if state.skip_next[state.turn]:
            return Forced(Skip(self.players[state.turn]))
        return Decide((self.players[state.turn],))

    def check(self, state, event):
        i = self.seat(event.player)
        if isinstance(event, Pick):
            return None if 1 <= event.number <= 3 else "pick a number from 1 to 3"
        if event.card:
            if state.used[i]:
                return "the card was played already"
            if event.stones != state.cards[i]:
                return f"the card says {state.cards[i]}"
        elif not isinstance(event, Take):
            return f"{event.kind} is not a decision of this game"
        elif not 1 <= event.stones <= self.max_take:
            return f"take 1 to {self.max_take} stones"
        if event.stones > state.pile:
            return f"only {state.pile} stones are left"
        return None

    def apply(self, state, event):
        n = len(self.players)
        i = self.seat(event.player)
        if isinstance(event, Deal):
            return attrs.evolve(state, cards=_put(state.cards, i, event.card))
        if isinstance(event, Pick):
            picks = _put(state.picks, i, event.number)
            turn = None
            if None not in picks:
                turn = max(range(n), key=lambda s: (picks[s], -s))
            return attrs.evolve(state, picks=picks, turn=turn)
        if isinstance(event, Skip):
            return attrs.evolve(state, skip_next=_put(state.skip_next, i, False), turn=(i + 1) % n)
        return attrs.evolve(
            state,
            pile=state.pile - event.stones,
            taken=_put(state.taken, i, state.taken[i] + event.stones),
            used=_put(state.used, i, state.used[i] or event.card),
            skip_next=_put(state.skip_next, i, event.card),
            turn=(i + 1) % n,
            last=i,
        )

    def legal(self, state, player):
        i = self.seat(player)
        if isinstance(self.next(state), Decide) and state.turn is None:
            return [Pick(player, k) for k in (1, 2, 3)]
        found = [Take(player, k) for k in range(1, self.max_take + 1) if k <= state.pile]
        if not state.used[i] and state.cards[i] <= state.pile:
            found.append(Take(player, state.cards[i], card=True))
        return found

    def outcome(self, state):
        scores = dict(zip(self.players, state.taken))
        winners = (self.players[state.last],) if state.pile == 0 and state.last is not None else ()
        return Outcome(scores, winners)

    def figures(self, state):
        # Optional: numbers about a game that simulate --results records.
        return {"cards_played": sum(state.used)}

    def view(self, state, player):
        # Others' cards are hidden; render and describe are handed this view, never the state.
        if player is None:
            return state
        cards = tuple(c if p == player or c is None else Hidden("card") for p, c in zip(self.players, state.cards))
        return attrs.evolve(state, cards=cards)

    def determinize(self, view, player, rng):
        cards = tuple(rng.choice((1, 2, 3)) if isinstance(c, Hidden) else c for c in view.cards)
        return attrs.evolve(view, cards=cards)

    def sees(self, event, player):
        return player is None or not isinstance(event, Deal) or event.player == player

    def format(self, event, viewer=None):
        if isinstance(event, Deal):
            card = event.card if self.sees(event, viewer) else "a card"
            return f"{event.player} is dealt {card}"
        if isinstance(event, Pick):
            return f"{event.player} picks {event.number}"
        if isinstance(event, Skip):
            return f"{event.player} skips"
        return f"{event.player} takes {'card ' if event.card else ''}{event.stones}"

    def notate(self, decision):
        if isinstance(decision, Pick):
            return f"pick {decision.number}"
        return "card" if decision.card else str(decision.stones)

    def parse(self, text, player, state):
        word = text.strip()
        try:
            if word.startswith("pick "):
                return Pick(player, int(word[5:]))
            if word.startswith("card"):
                return Take(player, state.cards[self.seat(player)], card=True)
            return Take(player, int(word))
        except ValueError:
            raise NotationError(f"cannot read {text!r}: write 'pick N', 'card' or a number") from None

    def render(self, state, viewer=None, color=False):
        cards = ", ".join(f"{p}: {c}" for p, c in zip(self.players, state.cards))
        return f"pile: {state.pile} stones\ncards: {cards}"

    def describe(self, state, viewer=None):
        facets = {"pile": str(state.pile)}
        for p, c in zip(self.players, state.cards):
            facets[f"card {p}"] = str(c)
        return facets

    def asks(self, state, player):
        return "pick a number" if state.turn is None else "take stones"


def _put(values, i, value):
    return values[:i] + (value,) + values[i + 1 :]


class Greedy:
    @rulehook
    def pile_max_take(self, players):
        return 3


@hookimpl
def register_games():
    return [Pile]


@attrs.frozen
class TakeUpTo:
    most: int = 4
    card_counts: bool = True

    @rulehook
    def pile_max_take(self, players):
        return self.most


@attrs.frozen
class Shout(Event):
    """A variant's own kind of decision (the test game never allows it)."""

    kind: ClassVar[str] = "shout"
    player: str
    word: str


@hookimpl
def register_variants():
    return [
        Variant("pile-take-three", "pile", "take up to 3 stones", Greedy()),
        Variant("pile-take", "pile", "take up to MOST stones", TakeUpTo),
        Variant("pile-shout", "pile", "players may shout", Greedy(), events=(Shout,)),
    ]
