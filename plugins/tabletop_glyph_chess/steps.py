"""The steps of a turn (and of setup) as a table: for each phase, the node it
offers, the events it accepts and what they do, and what follows when it
needs no event. The rule hook ``glyph_turn_steps`` gives the table in force.

==========  ===========================================  ==============================
phase       offers                                       follows
==========  ===========================================  ==============================
setup       shuffles (or sealed arrangements)            rolling, once all are placed
rolling     a roll of the next die to roll               the next turn's awakening (or
                                                         the step ``glyph_turn_end``
                                                         names), or what the rolls
                                                         were for
awaken      re-roll or skip (when a die shows a dead     (the centre wins) draw
            piece's type)
draw        a coin from the bag                          act (nothing to draw: at once);
                                                         coins owed (setup's, a turn
                                                         end's): awaken
act         a move or a spell (none possible: a pass)    rolling (the reset step),
                                                         escape or glimpse on the way
escape      the attacked necromancer's owner decides     the rest of the action
glimpse     the seeress's look (a rules event)           discard
discard     the caster picks up to 2 coins               rolling (the reset step)
over        nothing                                      -
==========  ===========================================  ==============================
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any

from tabletop import Decide, Event, Forced, Hidden, Over, TurnStep, rulehook
from tabletop.model.steps import decided_by

from . import actions, awakening, escape, position, setup
from .events import Arrange, Cast, Discard, Draw, Escape, Glimpse, Move, Pass, Reroll, Roll, Shuffle
from .pieces import GLYPHS
from .spells import blaze
from .state import (
    ACT,
    AWAKEN,
    DISCARD,
    DRAW,
    ESCAPE,
    GLIMPSE,
    OVER,
    ROLLING,
    SETUP,
    State,
    coins_list,
)

if TYPE_CHECKING:
    from .game import GlyphChess

NOT_NOW = "it is not the action step"


def arranged(game: GlyphChess, state: State, decision: Event) -> str | None:
    """Asked before every step's check: the pieces are arranged once, at setup."""
    if type(decision) is Arrange and state.phase != SETUP:
        return "the pieces are on the board already"
    return None


# -- setup -------------------------------------------------------------------------
def _setup_node(game, state):
    waiting = [i for i, done in enumerate(state.placed) if not done]
    if game.secret_setup:
        return Decide(tuple(game.players[i] for i in waiting), sealed=True)
    return game.shuffles[waiting[0]]


def _setup_apply(game, work, event):
    setup.place(game, work, game.seats[event.player], event.order, type(event) is Shuffle)


def _setup_check(game, state, decision):
    if type(decision) is Arrange:
        return position.arrangement_error(decision.order)
    return NOT_NOW


def _setup_asks(game, player):
    # A player arranging by mail cannot see the board: name the spots.
    edge = " ".join(game.geo.names[spot] for spot in game.edges[game.seats[player]])
    return f"arrange the pieces on your edge ({edge}, left to right as you sit)"


SETUP_STEP = TurnStep(
    SETUP,
    _setup_node,
    (Shuffle, Arrange),
    _setup_apply,
    check=_setup_check,
    legal=lambda game, state, player: [Arrange(player, order) for order in position.arrangements()],
    asks=lambda game, state, player: _setup_asks(game, player),
)


# -- rolling (setup's first roll, a re-roll, the reset step) -----------------------------
def _roll(game, work, event):
    work.dice[event.die - 1] = event.face
    del work.rolling[0]


def _after_rolls(game, work):
    if work.rolling:
        return None
    then, work.then = work.then, ""
    if then != "turn":
        return then
    n = len(game.players)
    ended = turn = work.turn
    for _ in range(n):  # the next player still in the game
        turn = (turn + 1) % n
        if not work.eliminated[turn]:
            break
    work.turn, work.spent = turn, []
    if game.turn_end is not None:  # a variant's rule at the end of a turn: the step it leads to
        return game.turn_end(game=game, state=work, seat=ended) or AWAKEN
    return AWAKEN


ROLLING_STEP = TurnStep(ROLLING, lambda game, state: game.rolls[state.rolling[0]], (Roll,), _roll, _after_rolls)


# -- awakening ---------------------------------------------------------------------
def _reroll(game, work, event):
    if event.accept:
        work.phase, work.rolling, work.then = ROLLING, list(game.rerollable(work, work.turn)), DRAW
    else:
        work.phase = DRAW


def _awaken_follows(game, work):
    if game.centre_wins(game=game, state=work, seat=work.turn):
        # A scepter on the centre at the start of its owner's turn wins.
        work.winner = work.turn
        return OVER
    if game.rerollable(work, work.turn):
        return None
    return DRAW


def _awaken_check(game, state, decision):
    return None if type(decision) is Reroll else "the awakening step comes first: re-roll or skip"


AWAKEN_STEP = TurnStep(
    AWAKEN,
    lambda game, state: game.decides[state.turn],
    (Reroll,),
    _reroll,
    _awaken_follows,
    _awaken_check,
    lambda game, state, player: [Reroll(player, True), Reroll(player, False)],
    lambda game, state, player: "re-roll the dice showing your dead pieces' types, or skip",
)


# -- drawing -----------------------------------------------------------------------
def _draw_node(game, state):
    seat = awakening.drawer(state)
    counts = state.bags[seat]
    if not any(counts):
        counts = state.used[seat]
        if not any(counts):  # only a variant's glyph_draws asks for a draw from nothing
            raise game.rules.refuse("glyph_draws", f"said {game.players[seat]} draws with no coin in the bag or used")
    return game.draw_node(seat, tuple(counts))


def _draw(game, work, event):
    seat = game.seats[event.player]
    awakening.draw(work, seat, event.glyph)
    work.phase = ACT
    if any(work.owed):  # coins owed before the player at turn awakens (setup's, a turn end's)
        work.owed[seat] -= 1
        work.phase = DRAW if any(work.owed) else AWAKEN


def _draw_follows(game, work):
    if any(work.owed) or game.rules.glyph_draws(game=game, state=work, seat=work.turn):
        return None
    return ACT


DRAW_STEP = TurnStep(DRAW, _draw_node, (Draw,), _draw, _draw_follows)


# -- the action --------------------------------------------------------------------
def _actor(game, state):
    # Whenever an action is legal, it is the player at turn's to take.
    return game.players[state.turn]


def _act_check(game, state, decision):
    if type(decision) is not Move and type(decision) is not Cast:
        return "the action step: move a piece or cast a spell"
    return actions.check(game, state, game.seats[decision.player], decision)


@decided_by(_actor, _act_check)
def _act_node(game, state):
    # The player at turn decides, or passes when no action is possible.
    if actions.can_act(game, state, state.turn):
        return game.decides[state.turn]
    return Forced(Pass(game.players[state.turn]))


def _act(game, work, event):
    if type(event) is Pass:
        actions.finish(work)
    else:
        actions.perform(game, work, game.seats[event.player], event)


def _act_asks(game, state):
    said = []
    seat = state.turn
    for spell in game.spells.values():
        if spell.unlisted is not None:
            more = 0
            for source, piece in enumerate(state.board):
                if piece == (seat, spell.caster) and more < blaze.COUNTED:
                    more += spell.unlisted(game, state, seat, source, blaze.COUNTED - more)
            if more:
                count = f"{more:,}" if more < blaze.COUNTED else f"{blaze.COUNTED:,} or more"
                said.append(
                    f"{count} {spell.name} casts"
                    if spell.name != "blaze"
                    else f"{count} blaze paths of {blaze.LISTED + 1}+ steps"
                )
    if not said:
        return "move a piece or cast a spell"
    return f"move a piece or cast a spell; also legal, not listed: {'; '.join(said)}"


ACT_STEP = TurnStep(
    ACT,
    _act_node,
    (Move, Cast, Pass),
    _act,
    check=_act_check,
    legal=lambda game, state, player: actions.legal(game, state, game.seats[player]),
    asks=lambda game, state, player: _act_asks(game, state),
)


# -- the necromancer's escape --------------------------------------------------------
def _escape_check(game, state, decision):
    if type(decision) is not Escape:
        return "your necromancer is attacked: escape or stay"
    return escape.error(game, state, decision.coin)


ESCAPE_STEP = TurnStep(
    ESCAPE,
    lambda game, state: game.decides[state.board[state.steps[0].target][0]],
    (Escape,),
    lambda game, work, event: actions.answer_escape(game, work, event.coin),
    check=_escape_check,
    legal=lambda game, state, player: [Escape(player, c) for c in escape.options(game, state)] + [Escape(player, "")],
    asks=lambda game, state, player: "decide whether your necromancer escapes",
)


# -- the seeress's look and discard ---------------------------------------------------
def _glimpse_node(game, state):
    target = state.target
    hand = state.hands[target]
    # Asked of a view (a picture asks whose turn it is), the glimpsed coins are as hidden as the hand.
    coins = () if isinstance(hand, Hidden) else coins_list(hand)
    return Forced(Glimpse(game.players[state.turn], game.players[target], coins))


def _glimpse(game, work, event):
    work.phase = DISCARD


def _discard(game, work, event):
    seat = work.target
    hand, used = work.hands[seat], work.used[seat]
    for coin in event.coins:
        i = GLYPHS.index(coin)
        hand[i] -= 1
        used[i] += 1
    work.target = None
    actions.finish(work)


def _discard_check(game, state, decision):
    if type(decision) is not Discard:
        return "the seeress picks the coins to discard first"
    hand = coins_list(state.hands[state.target])
    if len(decision.coins) > 2:
        return "at most 2 coins"
    for coin in set(decision.coins):
        if decision.coins.count(coin) > hand.count(coin):
            held = hand.count(coin)
            return f"{game.players[state.target]} holds {held} {coin} coin{'' if held == 1 else 's'}"
    return None


def _discard_legal(game, state, player):
    hand = coins_list(state.hands[state.target])
    picks = sorted({c for n in range(3) for c in combinations(hand, n)})
    return [Discard(player, coins) for coins in picks]


GLIMPSE_STEP = TurnStep(GLIMPSE, _glimpse_node, (Glimpse,), _glimpse)
DISCARD_STEP = TurnStep(
    DISCARD,
    lambda game, state: game.decides[state.turn],
    (Discard,),
    _discard,
    check=_discard_check,
    legal=_discard_legal,
    asks=lambda game, state, player: (
        f"pick up to 2 of {game.players[state.target] if state.target is not None else ''}'s coins to discard"
    ),
)
OVER_STEP = TurnStep(OVER, lambda game, state: Over())

#: The official table of steps, by phase.
STEPS: dict[str, TurnStep] = {
    s.name: s
    for s in (
        SETUP_STEP,
        ROLLING_STEP,
        AWAKEN_STEP,
        DRAW_STEP,
        ACT_STEP,
        ESCAPE_STEP,
        GLIMPSE_STEP,
        DISCARD_STEP,
        OVER_STEP,
    )
}


@rulehook
def glyph_turn_steps(players: int) -> Mapping[str, TurnStep]:
    return STEPS


def check(game: Any, table: Mapping[str, TurnStep]) -> None:
    """Refuse, as the game is made, a table of steps the game cannot run:
    one without a phase the game's own steps lead to (every phase of
    :data:`STEPS`), or a step listed under a name not its own."""
    missing = [phase for phase in STEPS if phase not in table]
    if missing:
        raise game.rules.refuse(
            "glyph_turn_steps", f"gave a table without {', '.join(missing)} (the game's steps lead to every phase)"
        )
    for phase, step in table.items():
        if step.name != phase:
            raise game.rules.refuse("glyph_turn_steps", f"gave the step {step.name!r} as {phase!r}")
