"""The turn of Glyph Chess: setup, awakening, action, reset; victory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, permutations
from typing import Any

from tabletop import Chance, Decide, Event, Forced, Game, Outcome, Over

from . import actions, hookspecs, notation, official, position, render
from .events import EVENTS, Arrange, Cast, Discard, Draw, Escape, Glimpse, Move, Pass, Reroll, Roll, Shuffle
from .hexes import SEATING, board
from .pieces import COINS_PER_TYPE, DICE, GLYPHS, SCEPTER
from .state import (
    ACT,
    ALIVE,
    AWAKEN,
    DISCARD,
    DRAW,
    ESCAPE,
    GLIMPSE,
    OVER,
    ROLLING,
    SETUP,
    State,
    add,
    coins_list,
    evolve,
    put,
)


class GlyphChess(Game):
    name = "glyph-chess"
    title = "Glyph Chess"
    description = "wizards on a hex board; spells paid in coins and shared dice; reach the centre"
    min_players = 2
    max_players = 3
    options = {
        "radius": "spots from the centre to an edge (default 6: 7 spots an edge)",
        "position": "a JSON file with a position to start from (pieces, dice, coins)",
    }
    events = EVENTS
    rule_specs = hookspecs
    official_rules = official

    @classmethod
    def normalize_options(cls, options: Mapping[str, str], players: Sequence[str]) -> dict[str, Any]:
        normalized = super().normalize_options(options, players)
        if "radius" in normalized:
            normalized["radius"] = position.read_radius(normalized["radius"])
        if "position" in normalized:
            normalized["position"] = position.read_file(normalized["position"])
            position.build(board(normalized.get("radius", 6)), players, normalized["position"])
        return normalized

    def __init__(self, players: Sequence[str], options: Mapping[str, Any], rules: Any) -> None:
        super().__init__(players, options, rules)
        self.seats = {p: i for i, p in enumerate(self.players)}
        self.geo = board(position.radius_of(options))
        n = len(self.players)
        self.edges = tuple(self.geo.edge(sixths) for sixths in SEATING[n])
        self.costs = dict(rules.glyph_costs())
        self.secret_setup = bool(rules.glyph_secret_setup(players=n))
        self.hand_limit = rules.glyph_hand_limit(players=n)
        self._shuffles = tuple(tuple(Shuffle(p, order) for order in permutations(GLYPHS)) for p in self.players)
        # Nodes asked for again and again, made once.
        self._rolls = tuple(Chance(tuple(Roll(d + 1, f) for f in GLYPHS)) for d in range(DICE))
        self._decides = tuple(Decide((p,)) for p in self.players)
        self._draws = tuple(tuple(Draw(p, g) for g in GLYPHS) for p in self.players)

    # -- state -----------------------------------------------------------
    def initial(self) -> State:
        n = len(self.players)
        start = self.option_values.get("position")
        if start is not None:
            return self.settle(position.build(self.geo, self.players, start))
        zero = (0,) * len(GLYPHS)
        return State(
            board=(None,) * self.geo.size,
            fates=((ALIVE,) * len(GLYPHS),) * n,
            hands=(zero,) * n,
            bags=((COINS_PER_TYPE,) * len(GLYPHS),) * n,
            used=(zero,) * n,
            dice=(None,) * DICE,
            eliminated=(False,) * n,
            placed=(False,) * n,
            # 2 players: silver draws 1 coin; 3 players: silver 1, bronze 2.
            owed=tuple(range(n)),
        )

    def next(self, state: State):
        phase = state.phase
        if phase == OVER:
            return Over()
        player = self.players[state.turn]
        if phase == SETUP:
            waiting = [i for i, done in enumerate(state.placed) if not done]
            if self.secret_setup:
                return Decide(tuple(self.players[i] for i in waiting), sealed=True)
            return Chance(self._shuffles[waiting[0]])
        if phase == ROLLING:
            return self._rolls[state.rolling[0]]
        if phase == DRAW:
            seat = self._drawer(state.owed, state.turn)
            counts = state.bags[seat] if any(state.bags[seat]) else state.used[seat]
            return Chance(self._draws[seat], counts)
        if phase == ACT:
            if actions.can_act(self, state, state.turn):
                return self._decides[state.turn]
            return Forced(Pass(player))
        if phase == ESCAPE:
            return self._decides[state.board[state.steps[0].target][0]]
        if phase == GLIMPSE:
            return Forced(Glimpse(player, self.players[state.target], coins_list(state.hands[state.target])))
        return self._decides[state.turn]  # AWAKEN (re-roll or skip) and DISCARD

    @staticmethod
    def _drawer(owed: tuple[int, ...], turn: int) -> int:
        """Who draws: in setup, the first player still owed a coin; else the player at turn."""
        if any(owed):
            return next(seat for seat, count in enumerate(owed) if count)
        return turn

    def rerollable(self, state: State, seat: int | None = None, dice: tuple | None = None) -> tuple[int, ...]:
        """Dice showing the type of one of the player's dead pieces."""
        fates = state.fates[state.turn if seat is None else seat]
        if fates.count(ALIVE) == len(fates):  # nobody dead: the usual case, answered at once
            return ()
        dead = {g for g, fate in zip(GLYPHS, fates, strict=True) if fate != ALIVE}
        dice = state.dice if dice is None else dice
        return tuple(i for i, face in enumerate(dice) if face in dead)

    def settle(self, state: State, **changes: Any) -> State:
        """Apply ``changes`` and pass over the steps of a turn that need no
        event, to the next one that does, building the new state once (replay
        runs this for every event)."""
        get = changes.get
        phase, turn, spent, then = get("phase", state.phase), get("turn", state.turn), state.spent, state.then
        rolling, owed = get("rolling", state.rolling), get("owed", state.owed)
        hands, bags, used = get("hands", state.hands), get("bags", state.bags), get("used", state.used)
        winner = state.winner
        while True:
            if phase == ROLLING and not rolling:
                if get("then", then) == "turn":
                    n = len(self.players)
                    for _ in range(n):
                        turn = (turn + 1) % n
                        if not state.eliminated[turn]:
                            break
                    phase, spent = AWAKEN, ()
                else:
                    phase = get("then", then)
                then = ""
                changes.pop("then", None)
            elif phase == AWAKEN:
                if state.board[self.geo.center] == (turn, SCEPTER):
                    # A scepter on the centre at the start of its owner's turn wins.
                    phase, winner = OVER, turn
                    break
                if self.rerollable(state, turn, get("dice")):
                    break
                phase = DRAW
            elif phase == DRAW:
                seat = self._drawer(owed, turn)
                setup = any(owed)
                if not setup and (sum(hands[seat]) >= self.hand_limit or not any(bags[seat] + used[seat])):
                    phase = ACT
                    continue
                break
            else:
                break
        if not changes and (phase, turn, spent, then, winner) == (
            state.phase,
            state.turn,
            state.spent,
            state.then,
            state.winner,
        ):
            return state
        changes.update(phase=phase, turn=turn, spent=spent, winner=winner)
        if "then" not in changes:
            changes["then"] = then
        return evolve(state, **changes)

    # -- checking ----------------------------------------------------------
    def check(self, state: State, decision: Event) -> str | None:
        seat = self.seats[decision.player]
        phase = state.phase
        if isinstance(decision, Arrange):
            if phase != SETUP:
                return "the pieces are on the board already"
            return position.arrangement_error(decision.order)
        if phase == AWAKEN:
            if not isinstance(decision, Reroll):
                return "the awakening step comes first: re-roll or skip"
            return None
        if phase == ESCAPE:
            if not isinstance(decision, Escape):
                return "your necromancer is attacked: escape or stay"
            options = actions.escape_options(self, state)
            if decision.coin and decision.coin not in options:
                return f"you cannot escape with a {decision.coin} coin (you may use: {', '.join(options) or 'none'})"
            return None
        if phase == DISCARD:
            if not isinstance(decision, Discard):
                return "the seeress picks the coins to discard first"
            hand = coins_list(state.hands[state.target])
            if len(decision.coins) > 2:
                return "at most 2 coins"
            for coin in set(decision.coins):
                if decision.coins.count(coin) > hand.count(coin):
                    return f"{self.players[state.target]} holds {hand.count(coin)} {coin} coin(s)"
            return None
        if phase != ACT:
            return "it is not the action step"
        if not isinstance(decision, (Move, Cast)):
            return "the action step: move a piece or cast a spell"
        return actions.check(self, state, seat, decision)

    # -- applying ----------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        if isinstance(event, Roll):
            dice = put(state.dice, event.die - 1, event.face)
            if len(state.rolling) > 1:  # more dice to roll: nothing else can change
                return evolve(state, dice=dice, rolling=state.rolling[1:])
            return self.settle(state, dice=dice, rolling=())
        if isinstance(event, Draw):
            return self.settle(state, **self._draw(state, self.seats[event.player], event.glyph))
        if isinstance(event, (Move, Cast)):
            state = actions.perform(self, state, self.seats[event.player], event)
        elif isinstance(event, Escape):
            state = actions.answer_escape(self, state, event.coin)
        elif isinstance(event, Reroll):
            if event.accept:
                return self.settle(state, phase=ROLLING, rolling=self.rerollable(state), then=DRAW)
            return self.settle(state, phase=DRAW)
        elif isinstance(event, Pass):
            state = actions.finish(state)
        elif isinstance(event, Glimpse):
            return self.settle(state, phase=DISCARD)
        elif isinstance(event, Discard):
            seat = state.target
            hand, used = state.hands[seat], state.used[seat]
            for coin in event.coins:
                hand, used = add(hand, coin, -1), add(used, coin, 1)
            state = actions.finish(
                evolve(state, hands=put(state.hands, seat, hand), used=put(state.used, seat, used), target=None)
            )
        elif isinstance(event, (Shuffle, Arrange)):
            state = self._place(state, event)
        else:
            raise TypeError(f"not a Glyph Chess event: {event!r}")
        return self.settle(state)

    def _draw(self, state: State, seat: int, glyph: str) -> dict[str, Any]:
        """What a coin drawn changes."""
        bag, used = state.bags[seat], state.used[seat]
        if not any(bag):  # an empty bag is refilled from the used area first
            bag, used = used, (0,) * len(GLYPHS)
        changes: dict[str, Any] = {
            "bags": put(state.bags, seat, add(bag, glyph, -1)),
            "used": put(state.used, seat, used),
            "hands": put(state.hands, seat, add(state.hands[seat], glyph, 1)),
            "phase": ACT,
        }
        if any(state.owed):
            owed = put(state.owed, seat, state.owed[seat] - 1)
            changes.update(owed=owed, phase=DRAW if any(owed) else AWAKEN)
        return changes

    def _place(self, state: State, event: Shuffle | Arrange) -> State:
        seat = self.seats[event.player]
        order = event.order
        if isinstance(event, Shuffle):
            # The scepter stands in the middle of the edge, the cards' order beside it.
            order = (*order[:3], SCEPTER, *order[3:])
        board_ = state.board
        for spot, kind in zip(self.edges[seat], order):
            board_ = put(board_, spot, (seat, kind))
        placed = put(state.placed, seat, True)
        state = evolve(state, board=board_, placed=placed)
        if all(placed):
            # Gold rolls all the dice, then the others draw their first coins.
            return evolve(state, phase=ROLLING, rolling=tuple(range(DICE)), then=DRAW)
        return state

    # -- listing -----------------------------------------------------------
    def legal(self, state: State, player: str) -> Sequence[Event]:
        seat = self.seats[player]
        phase = state.phase
        node = self.next(state)
        if not isinstance(node, Decide) or player not in node.players:
            return []
        if phase == SETUP:
            return [Arrange(player, order) for order in position.arrangements()]
        if phase == AWAKEN:
            return [Reroll(player, True), Reroll(player, False)]
        if phase == ESCAPE:
            return [Escape(player, coin) for coin in actions.escape_options(self, state)] + [Escape(player, "")]
        if phase == DISCARD:
            hand = coins_list(state.hands[state.target])
            picks = sorted({c for n in range(3) for c in combinations(hand, n)})
            return [Discard(player, coins) for coins in picks]
        return list(actions.legal(self, state, seat))

    # -- the end -----------------------------------------------------------
    def outcome(self, state: State) -> Outcome:
        # Glyph Chess has no points: the score is the pieces a player has on the board.
        scores = {p: 0 for p in self.players}
        for piece in state.board:
            if piece is not None:
                scores[self.players[piece[0]]] += 1
        winners = (self.players[state.winner],) if state.winner is not None else ()
        note = ""
        if state.winner is not None:
            note = "last player standing" if sum(not e for e in state.eliminated) == 1 else "scepter on the centre"
        return Outcome(scores, winners, note)

    # -- views and text ------------------------------------------------------
    def view(self, state: State, player: str | None) -> State:
        """Others' coins show as a count only: their hand is ``(n,)``; their bag
        and hand together are public (all coins less the used ones)."""
        if player is None:
            return state
        seat = self.seats[player]
        hands = tuple(h if i == seat else (sum(h),) for i, h in enumerate(state.hands))
        bags = tuple(
            b if i == seat else tuple(x + y for x, y in zip(b, state.hands[i])) for i, b in enumerate(state.bags)
        )
        return evolve(state, hands=hands, bags=bags)

    def sees(self, event: Event, player: str | None) -> bool:
        if player is None:
            return True
        if isinstance(event, Draw):
            return event.player == player
        if isinstance(event, Glimpse):
            return player in (event.player, event.target)
        return True

    def format(self, event: Event, viewer: str | None = None) -> str:
        return notation.sentence(self, event, self.sees(event, viewer))

    def notate(self, decision: Event) -> str:
        return notation.notate(self, decision)

    def parse(self, text: str, player: str, state: State) -> Event:
        return notation.parse(self, text, player, state)

    def notate_outcome(self, outcome: Event) -> str | None:
        return notation.outcome(self, outcome)

    def render(self, state: State, viewer: str | None = None, color: bool = False) -> str:
        return render.board_text(self, self.view(state, viewer), color)

    def describe(self, state: State, viewer: str | None = None) -> dict[str, str]:
        return render.facets(self, self.view(state, viewer))

    def asks(self, state: State, player: str) -> str:
        return {
            SETUP: "arrange the pieces on your edge",
            AWAKEN: "re-roll the dice showing your dead pieces' types, or skip",
            ACT: "move a piece or cast a spell",
            ESCAPE: "decide whether your necromancer escapes",
            DISCARD: f"pick up to 2 of {self.players[state.target] if state.target is not None else ''}'s coins to discard",
        }.get(state.phase, "decide")
