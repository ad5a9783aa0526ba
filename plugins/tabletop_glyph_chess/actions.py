"""The action step: one move or one spell, checked, listed and carried out."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations
from typing import TYPE_CHECKING

from tabletop import Event

from . import payment
from .events import Cast, Move
from .hexes import DIRECTIONS
from .pieces import (
    ELEMENTALIST,
    FORCE_MAGE,
    GLYPHS,
    ILLUSIONIST,
    MINION,
    MINIONS,
    NAMES,
    NECROMANCER,
    SCEPTER,
    SEERESS,
    SUMMONER,
)
from .rules import attacked_necromancer, escape_coins, in_sight, land, minions_leave, pieces_of, relocate, strike
from .state import ALIVE, ESCAPE, GLIMPSE, KILLED, OVER, ROLLING, State, Step, add, evolve, put

if TYPE_CHECKING:
    from .game import GlyphChess

#: Which piece casts each spell.
CASTER = {
    "swap": ILLUSIONIST,
    "replica": ILLUSIONIST,
    "foresee": SEERESS,
    "blaze": ELEMENTALIST,
    "blast": FORCE_MAGE,
    "revive": NECROMANCER,
    "march": SUMMONER,
    "summon": SUMMONER,
}
#: ``tabletop moves`` lists elementalist paths up to this many steps; longer ones are legal too.
LISTED_BLAZE = 3


def line(game: GlyphChess, source: int, target: int) -> tuple[str, int] | None:
    """The direction and distance from ``source`` to ``target`` on a straight line."""
    for name, ray in game.geo.rays[source].items():
        if target in ray:
            return name, ray.index(target) + 1
    return None


def _clear(state: State, seat: int, spot: int, summoner: bool) -> bool:
    """Whether ``spot`` counts as empty for a mover; a moving summoner's own
    minions leave as it leaves, so they are not in its way (FAQ Q15)."""
    piece = state.board[spot]
    return piece is None or (summoner and piece[0] == seat and piece[1] == MINION)


# -- checking -----------------------------------------------------------------
def check(game: GlyphChess, state: State, seat: int, event: Event) -> str | None:
    geo = game.geo
    source = geo.spot(event.source)
    if source is None:
        return f"{event.source} is not a spot of this board"
    piece = state.board[source]
    if piece is None or piece[0] != seat:
        return f"no piece of yours on {event.source}"
    may_coin = not in_sight(geo, state, source)
    if isinstance(event, Move):
        return _check_move(game, state, seat, event, source, piece[1], may_coin)
    spell = event.spell
    if spell not in CASTER:
        return f"unknown spell '{spell}' (spells: {', '.join(CASTER)})"
    if piece[1] != CASTER[spell]:
        return f"{spell} is cast by the {NAMES[CASTER[spell]]}, not the {NAMES[piece[1]]} on {event.source}"
    spots = []
    for name in event.spots:
        spot = geo.spot(name)
        if spot is None:
            return f"{name} is not a spot of this board"
        spots.append(spot)
    problem, amount = _SPELLS[spell](game, state, seat, source, spots, event.target)
    if problem:
        return problem
    cost = game.costs[spell]
    return payment.error(state, seat, CASTER[spell], cost, amount, event.dice, event.coins, may_coin)


def _check_move(game, state, seat, event, source, kind, may_coin) -> str | None:
    if kind == MINION:
        return "minions move only by the summoner's spell (march)"
    target = game.geo.spot(event.target)
    if target is None:
        return f"{event.target} is not a spot of this board"
    found = line(game, source, target)
    if found is None:
        return f"{event.target} is not in a straight line from {event.source}"
    direction, distance = found
    if kind == SCEPTER:
        if distance != 1:
            return "the scepter moves exactly 1 spot"
        cost = "any-die"
    else:
        cost = "x"
    summoner = kind == SUMMONER
    if kind != FORCE_MAGE:  # the force mage passes through any pieces
        for spot in game.geo.rays[source][direction][: distance - 1]:
            if not _clear(state, seat, spot, summoner):
                return f"{game.geo.names[spot]} is in the way"
    landing = state.board[target]
    if landing is not None and landing[0] == seat and not _clear(state, seat, target, summoner):
        return f"{event.target} holds a piece of yours"
    return payment.error(state, seat, kind, cost, distance, event.dice, event.coins, may_coin)


def _adjacent_empty(game, state, source, spot) -> str | None:
    if spot not in game.geo.neighbours[source]:
        return f"{game.geo.names[spot]} is not next to {game.geo.names[source]}"
    if state.board[spot] is not None:
        return f"{game.geo.names[spot]} is not empty"
    return None


def _swap(game, state, seat, source, spots, target):
    if len(spots) != 1:
        return "swap names one friendly piece", 0
    friend = state.board[spots[0]]
    if friend is None or friend[0] != seat or spots[0] == source:
        return f"{game.geo.names[spots[0]]} holds no other piece of yours", 0
    return None, 1


def _replica(game, state, seat, source, spots, target):
    if len(spots) != 1:
        return "replica names one empty spot next to the illusionist", 0
    if len(pieces_of(state, seat, ILLUSIONIST)) != 1:
        return "the replica is on the board already", 0
    return _adjacent_empty(game, state, source, spots[0]), 0


def _foresee(game, state, seat, source, spots, target):
    if spots:
        return "foresee names a player, not spots", 0
    other = game.seats.get(target)
    if other is None or other == seat or state.eliminated[other]:
        return f"'{target}' is not another player in the game", 0
    return None, 0


def _blaze(game, state, seat, source, spots, target):
    if not spots:
        return "blaze needs a path of at least 1 step (X > 0)", 0
    seen = {source}
    here = source
    for spot in spots:
        name = game.geo.names[spot]
        if spot not in game.geo.neighbours[here]:
            return f"{name} is not next to {game.geo.names[here]}: the elementalist moves 1 spot at a time", 0
        if spot in seen:
            return f"the path passes {name} twice", 0
        piece = state.board[spot]
        if piece is not None and piece[0] == seat:
            return f"{name} holds a piece of yours", 0
        seen.add(spot)
        here = spot
    return None, len(spots)


def _blast(game, state, seat, source, spots, target):
    if len(spots) != 1:
        return "blast names the empty spot the force mage moves to", 0
    found = line(game, source, spots[0])
    if found is None:
        return f"{game.geo.names[spots[0]]} is not in a straight line from {game.geo.names[source]}", 0
    if state.board[spots[0]] is not None:
        return f"{game.geo.names[spots[0]]} is not empty", 0
    return None, found[1]


def _revive(game, state, seat, source, spots, target):
    if target not in GLYPHS or target == ILLUSIONIST:
        return "revive names a glyph piece to bring back (not the illusionist): S, E, F, N or U", 0
    if state.fates[seat][GLYPHS.index(target)] != KILLED:
        burnt = state.fates[seat][GLYPHS.index(target)] != ALIVE
        return f"your {NAMES[target]} is {'incinerated: gone for good' if burnt else 'not dead'}", 0
    if len(spots) != 1:
        return "revive names one empty spot next to the necromancer", 0
    return _adjacent_empty(game, state, source, spots[0]), 0


def _march(game, state, seat, source, spots, target):
    if target not in DIRECTIONS:
        return f"march needs a direction ({', '.join(DIRECTIONS)})", 0
    if not spots:
        return "march moves at least 1 minion (X > 0)", 0
    if len(set(spots)) != len(spots):
        return "a minion is named twice", 0
    board = list(state.board)
    for spot in spots:
        piece = board[spot]
        name = game.geo.names[spot]
        if piece is None or piece != (seat, MINION):
            return f"{name} holds no minion of yours", 0
        to = game.geo.step(spot, target)
        if to is None:
            return f"the minion on {name} would leave the board", 0
        if board[to] is not None and board[to][0] == seat:
            return f"the minion on {name} is blocked by your piece on {game.geo.names[to]}", 0
        board[spot], board[to] = None, piece
    return None, len(spots)


def _summon(game, state, seat, source, spots, target):
    if not 1 <= len(spots) <= 3 or len(set(spots)) != len(spots):
        return "summon names 1 to 3 empty spots next to the summoner", 0
    spare = MINIONS - len(pieces_of(state, seat, MINION))
    if len(spots) > spare:
        return f"only {spare} minion{'s' if spare != 1 else ''} in the spare area", 0
    for spot in spots:
        if problem := _adjacent_empty(game, state, source, spot):
            return problem, 0
    return None, 0


_SPELLS = {
    "swap": _swap,
    "replica": _replica,
    "foresee": _foresee,
    "blaze": _blaze,
    "blast": _blast,
    "revive": _revive,
    "march": _march,
    "summon": _summon,
}


# -- carrying out -------------------------------------------------------------
def perform(game: GlyphChess, state: State, seat: int, event: Event) -> State:
    """Pay for a checked action and carry it out as far as it goes: to the end,
    or to a decision someone must make on the way (an escape, a discard)."""
    hand, used = state.hands[seat], state.used[seat]
    for coin in event.coins:
        hand, used = add(hand, coin, -1), add(used, coin, 1)
    paid = {
        "hands": put(state.hands, seat, hand) if event.coins else state.hands,
        "used": put(state.used, seat, used) if event.coins else state.used,
        "spent": state.spent + tuple(n - 1 for n in event.dice),
    }
    geo = game.geo
    source = geo.spot(event.source)
    if isinstance(event, Move):
        target = geo.spot(event.target)
        burn = state.board[source][1] == ELEMENTALIST
        return run(game, evolve(state, steps=(Step(source, target, burn),), **paid))
    state = evolve(state, **paid)
    spots = [geo.spot(s) for s in event.spots]
    spell = event.spell
    if spell == "swap":
        mine, theirs = state.board[source], state.board[spots[0]]
        board = put(put(state.board, source, theirs), spots[0], mine)
        state = evolve(state, board=board)
        if SUMMONER in (mine[1], theirs[1]):
            state = minions_leave(state, seat)  # the summoner left its spot
    elif spell == "replica":
        state = evolve(state, board=put(state.board, spots[0], (seat, ILLUSIONIST)))
    elif spell == "foresee":
        return evolve(state, phase=GLIMPSE, target=game.seats[event.target])
    elif spell == "blaze":
        path = (source, *spots)
        return run(game, evolve(state, steps=tuple(Step(a, b, True) for a, b in zip(path, path[1:]))))
    elif spell == "blast":
        # It lands on an empty spot, so no necromancer can escape (FAQ Q9).
        state = relocate(state, source, spots[0])
        for spot in geo.neighbours[spots[0]]:
            piece = state.board[spot]
            if piece is not None and piece[0] != seat and state.phase != OVER:
                state = strike(state, spot, burn=False)
    elif spell == "revive":
        fates = put(state.fates[seat], GLYPHS.index(event.target), ALIVE)
        state = evolve(
            state, fates=put(state.fates, seat, fates), board=put(state.board, spots[0], (seat, event.target))
        )
    elif spell == "march":
        steps = tuple(Step(s, geo.step(s, event.target)) for s in spots)
        return run(game, evolve(state, steps=steps))
    elif spell == "summon":
        board = state.board
        for spot in spots:
            board = put(board, spot, (seat, MINION))
        state = evolve(state, board=board)
    return finish(state)


def run(game: GlyphChess, state: State) -> State:
    """Carry out the landings left, stopping where a necromancer's owner may
    pay to escape (each landing on it is a separate attack: FAQ Q16)."""
    while state.steps and state.phase != OVER:
        step = state.steps[0]
        if state.board[step.source] is None:
            state = evolve(state, steps=state.steps[1:])
            continue
        if attacked_necromancer(state, step) and escape_coins(game.geo, state, step.target):
            return evolve(state, phase=ESCAPE)
        state = land(state, step, rest=state.steps[1:])
    return finish(state)


def answer_escape(game: GlyphChess, state: State, coin: str) -> State:
    return run(game, land(state, state.steps[0], escape_with=coin, rest=state.steps[1:]))


def finish(state: State) -> State:
    """The action is over: the reset step re-rolls the dice spent."""
    if state.phase == OVER:
        return evolve(state, steps=())
    return evolve(state, phase=ROLLING, rolling=tuple(sorted(state.spent)), steps=(), then="turn")


# -- listing --------------------------------------------------------------------
def legal(game: GlyphChess, state: State, seat: int) -> Iterator[Event]:
    """Every action of ``seat`` now (elementalist paths listed up to
    ``LISTED_BLAZE`` steps)."""
    player = game.players[seat]
    names = game.geo.names
    for source, piece in enumerate(state.board):
        if piece is None or piece[0] != seat:
            continue
        kind = piece[1]
        may_coin = not in_sight(game.geo, state, source)
        if kind == SCEPTER:
            for target in game.geo.neighbours[source]:
                landing = state.board[target]
                if landing is None or landing[0] != seat:
                    for dice, coins in payment.options(state, seat, kind, "any-die", 1, may_coin):
                        yield Move(player, names[source], names[target], dice, coins)
            continue
        if kind == MINION:
            continue
        budget = _budget(state, seat, kind, may_coin)
        yield from _moves(game, state, seat, source, kind, budget, may_coin)
        yield from _casts(game, state, seat, source, kind, budget, may_coin)


def _budget(state: State, seat: int, glyph: str, may_coin: bool) -> int:
    """How many items of ``glyph`` the seat could spend at most."""
    dice = sum(1 for i, f in enumerate(state.dice) if f == glyph and i not in state.spent)
    if not may_coin:
        return dice
    wild = state.wild(seat)
    return dice + sum(n for g, n in zip(GLYPHS, state.hands[seat]) if g == glyph or g in wild)


def _moves(game, state, seat, source, kind, budget, may_coin) -> Iterator[Event]:
    player, names = game.players[seat], game.geo.names
    summoner = kind == SUMMONER
    for ray in game.geo.rays[source].values():
        for distance, target in enumerate(ray[:budget], start=1):
            clear = _clear(state, seat, target, summoner)
            landing = state.board[target]
            if clear or landing[0] != seat:
                for dice, coins in payment.options(state, seat, kind, "x", distance, may_coin):
                    yield Move(player, names[source], names[target], dice, coins)
            if not clear and kind != FORCE_MAGE:
                break


def _casts(game, state, seat, source, kind, budget, may_coin) -> Iterator[Event]:
    player, geo = game.players[seat], game.geo
    names = geo.names
    costs = game.costs
    empty_next = [s for s in geo.neighbours[source] if state.board[s] is None]

    def cast(spell, spots=(), target="", amount=0):
        for dice, coins in payment.options(state, seat, kind, costs[spell], amount, may_coin):
            yield Cast(player, spell, names[source], tuple(names[s] for s in spots), target, dice, coins)

    if kind == ILLUSIONIST:
        for spot, piece in enumerate(state.board):
            if piece is not None and piece[0] == seat and spot != source:
                yield from cast("swap", (spot,), amount=1)
        if len(pieces_of(state, seat, ILLUSIONIST)) == 1:
            for spot in empty_next:
                yield from cast("replica", (spot,))
    elif kind == SEERESS:
        for other, name in enumerate(game.players):
            if other != seat and not state.eliminated[other]:
                yield from cast("foresee", target=name)
    elif kind == ELEMENTALIST:
        for path in _paths(game, state, seat, source, min(budget - 1, LISTED_BLAZE)):
            yield from cast("blaze", path, amount=len(path))
    elif kind == FORCE_MAGE:
        for ray in geo.rays[source].values():
            for distance, target in enumerate(ray[: budget - 1], start=1):
                if state.board[target] is None:
                    yield from cast("blast", (target,), amount=distance)
    elif kind == NECROMANCER:
        for glyph, fate in zip(GLYPHS, state.fates[seat]):
            if fate == KILLED and glyph != ILLUSIONIST:
                for spot in empty_next:
                    yield from cast("revive", (spot,), target=glyph)
    elif kind == SUMMONER:
        minions = pieces_of(state, seat, MINION)
        for direction in DIRECTIONS:
            for count in range(1, min(len(minions), budget) + 1):
                for order in permutations(minions, count):
                    if _march(game, state, seat, source, list(order), direction)[0] is None:
                        yield from cast("march", order, direction, amount=count)
        spare = MINIONS - len(minions)
        for count in range(1, min(spare, 3) + 1):
            for spots in combinations(empty_next, count):
                yield from cast("summon", spots)


def _paths(game, state, seat, source, longest) -> Iterator[tuple[int, ...]]:
    neighbours = game.geo.neighbours

    def grow(path, seen):
        if path:
            yield tuple(path)
        if len(path) == longest:
            return
        here = path[-1] if path else source
        for spot in neighbours[here]:
            piece = state.board[spot]
            if spot not in seen and (piece is None or piece[0] != seat):
                seen.add(spot)
                path.append(spot)
                yield from grow(path, seen)
                path.pop()
                seen.discard(spot)

    if longest >= 1:
        yield from grow([], {source})


def can_act(game: GlyphChess, state: State, seat: int) -> bool:
    # Nearly always the scepter can step (any unspent die, a spot not its own
    # side's); only when it cannot is every action looked for.
    board = state.board
    if len(state.spent) < len(state.dice) and (seat, SCEPTER) in board:
        for target in game.geo.neighbours[board.index((seat, SCEPTER))]:
            landing = board[target]
            if landing is None or landing[0] != seat:
                return True
    return next(legal(game, state, seat), None) is not None


def escape_options(game: GlyphChess, state: State) -> list[str]:
    return escape_coins(game.geo, state, state.steps[0].target)
