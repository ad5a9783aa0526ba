"""How a search bot judges an unfinished Glyph Chess position
(:meth:`~tabletop.Game.evaluate`): each player's chances of winning.

Glyph Chess is a race with a trap in it. A scepter walks one spot a turn to
the centre, and stepping onto the centre wins only if it is still standing
when its owner's next turn begins: every other player gets one action to
strike it first. So what decides a game is rarely the pieces taken; it is
whose scepter can be struck, by whom, before whose turn. The judgement
therefore looks at what each player could strike with its next action
(:func:`reach`, counting the dice showing and the coins in hand) and reads
the position in turn order:

- the player to act who can strike an enemy scepter eliminates it;
- a scepter on the centre that the player to act cannot strike wins;
- a scepter next to a centre no enemy can strike will step onto it and win;
- otherwise the standing is the pieces on the board, the scepters' closeness
  to the centre, who can strike the centre, whose scepter is in reach, and
  the best piece the player to act can strike.

The standings become chances by a softmax. It reads the whole state: search
bots call it only on worlds drawn from their own view
(:meth:`~tabletop.Game.determinize`). The reach is approximate on purpose
(no variant's changed costs, no necromancer escapes, the elementalist's path
as a distance): it steers the search, the rules stay with the search's
legal moves.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

from .hexes import HexBoard
from .pieces import ELEMENTALIST, FORCE_MAGE, GLYPHS, MINION, SCEPTER, SUMMONER
from .state import SETUP, State

if TYPE_CHECKING:
    from .game import GlyphChess

#: What a piece on the board is worth, in scepter steps.
WORTH = {"S": 1.0, "I": 0.8, "E": 1.6, "F": 1.6, "N": 1.0, "U": 1.2, MINION: 0.3, SCEPTER: 0.0}
#: Weights of the standing (in the softmax's units).
PIECES = 0.25  # per unit of WORTH
STEP = 0.35  # per spot the scepter has come towards the centre
CENTRE = 0.6  # for being able to strike the centre
EXPOSED = 0.9  # for a scepter an enemy acting before its owner could strike
HANGING = 0.2  # per unit of WORTH of the best enemy piece the player to act can strike
#: The judgement when a position is as good as decided.
DECIDED = 4.0


@functools.lru_cache(maxsize=8)
def _distances(geo: HexBoard) -> tuple[tuple[int, ...], ...]:
    coords = geo.coords
    return tuple(tuple(max(abs(q - q2), abs(r - r2), abs(q - q2 + r - r2)) for q2, r2 in coords) for q, r in coords)


def reach(game: GlyphChess, state: State, seat: int) -> set[int]:
    """The spots ``seat`` could strike (land on or attack) with one action
    now, with the dice showing and the coins in its hand."""
    board = state.board
    geo = game.geo
    dice = [d for d in state.dice if d is not None]
    hand = state.hands[seat]
    wild = game.wild(state, seat)
    wild_coins = sum(hand[GLYPHS.index(w)] for w in wild)
    spots: set[int] = set()
    minions: list[int] = []
    summoner_items = 0
    for source, piece in enumerate(board):
        if piece is None or piece[0] != seat:
            continue
        kind = piece[1]
        if kind == SCEPTER:
            if dice:
                spots.update(geo.neighbours[source])
            continue
        if kind == MINION:
            minions.append(source)
            continue
        i = GLYPHS.index(kind)
        on_dice = dice.count(kind)
        coins = hand[i] + wild_coins - (hand[i] if kind in wild else 0)
        if coins and not game.may_use_coins(game=game, state=state, spot=source):
            coins = 0
        items = on_dice + coins
        if kind == SUMMONER:
            summoner_items = items
        if not items:
            continue
        through = kind == FORCE_MAGE
        for ray in geo.ray_lists[source]:
            for spot in ray[:items]:
                other = board[spot]
                if other is None or other[0] != seat:
                    spots.add(spot)
                if other is not None and not through:
                    break
        if on_dice and items > 1:
            # A master spell: its die and X = items - 1 more.
            if kind == FORCE_MAGE:
                for ray in geo.ray_lists[source]:
                    for spot in ray[: items - 1]:
                        if board[spot] is None:
                            spots.update(geo.neighbours[spot])
            elif kind == ELEMENTALIST:
                far = _distances(geo)[source]
                spots.update(s for s, d in enumerate(far) if 0 < d < items)
    if minions and summoner_items:
        for spot in minions:
            spots.update(geo.neighbours[spot])
    return spots


def evaluate(game: GlyphChess, state: State) -> dict[str, float] | None:
    """Each player's chances of winning from ``state`` (see the module)."""
    if state.phase == SETUP or state.winner is not None:
        return None
    board = state.board
    geo = game.geo
    n = len(game.players)
    alive = [s for s in range(n) if not state.eliminated[s]]
    scepters: dict[int, int] = {}
    worth = [0.0] * n
    for spot, piece in enumerate(board):
        if piece is not None:
            worth[piece[0]] += WORTH.get(piece[1], 1.0)
            if piece[1] == SCEPTER:
                scepters[piece[0]] = spot
    if any(s not in scepters for s in alive):
        return None  # a position the judgement does not know (a variant's)
    centre = geo.center
    distance = _distances(geo)[centre]
    reaches = {s: reach(game, state, s) for s in alive}
    mover = state.turn
    # Who acts before whom: the seats left in turn order, the mover first.
    order = [s for s in [(mover + k) % n for k in range(n)] if s in reaches]

    standing = {}
    for s in alive:
        steps = geo.radius - distance[scepters[s]]
        standing[s] = PIECES * worth[s] + STEP * steps + (CENTRE if centre in reaches[s] else 0.0)
    for position, s in enumerate(order):
        # The enemies acting between now and s's next action.
        before = order[:position] if position else order[1:]
        if any(scepters[s] in reaches[e] for e in before if e != s):
            standing[s] -= EXPOSED

    # The player to act takes the best piece it can strike, most likely.
    hanging = [WORTH.get(board[s][1], 1.0) for s in reaches[mover] if board[s] is not None and board[s][0] != mover]
    if hanging:
        standing[mover] += HANGING * max(hanging)
    doomed = {e for e in alive if e != mover and scepters[e] in reaches[mover]}
    if doomed:
        standing[mover] += DECIDED
        for e in doomed:
            standing[e] -= 2 * DECIDED
    else:
        for s in order[1:]:
            if scepters[s] == centre and not any(centre in reaches[e] for e in alive if e != s):
                standing[s] += DECIDED
        if distance[scepters[mover]] == 1 and not any(centre in reaches[e] for e in alive if e != mover):
            if board[centre] is None or board[centre][0] != mover:
                standing[mover] += DECIDED / 2
    top = max(standing.values())
    weights = {s: math.exp(v - top) for s, v in standing.items()}
    total = sum(weights.values())
    return {p: (weights[s] / total if s in weights else 0.0) for s, p in enumerate(game.players)}
