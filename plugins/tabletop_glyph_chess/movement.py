"""Moving a piece (the action step's "A"): X spots in one straight direction
for X items of its type; no landing on a friendly piece; no passing through
pieces, but the force mage passes through any, and a summoner's own minions
are never in its way (they leave as it leaves, FAQ Q15). Minions move only by
the summoner's ``march``. The scepter's own range and cost are in
:mod:`~tabletop_glyph_chess.scepter`.

Each rule is a hook (``glyph_move_range``, ``glyph_move_cost``,
``glyph_move_directions``, ``glyph_may_pass``, ``glyph_may_land``); the
official ones are here. Passing and landing are header-time rules by what
stands on the spot (``glyph_passing``, ``glyph_landing``: compiled into a
table per game, which the listing reads), and the per-move hooks
``glyph_may_pass`` and ``glyph_may_land`` answer from that table unless a
variant changes them (then they are asked spot by spot).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tabletop import rulehook
from tabletop.base.caches import Bound
from tabletop.host.rules import fast_form

from . import payment, scepter
from .context import LANDS, PASSES
from .events import Move
from .hexes import HexBoard
from .pieces import ELEMENTALIST, FORCE_MAGE, MINION, NAMES, SCEPTER, SUMMONER
from .state import State, Step, Work

if TYPE_CHECKING:
    from .context import Context
    from .game import GlyphChess


# -- the official rules ----------------------------------------------------------
# The fast forms the official per-move rules declare (``tabletop.host.rules.fast_form``):
# while one alone is in force, a listing reads the game's header-time table
# instead of asking it move by move or spot by spot.
#: ``glyph_move_range``: :func:`reach` of the piece, wherever it stands.
RANGE_BY_PIECE = "the range by piece"
#: ``glyph_move_cost``: the move costs by piece and distance (``glyph_move_costs``).
COST_BY_DISTANCE = "the cost by piece and distance"
#: ``glyph_move_directions``: the board's lines from the spot.
THE_BOARDS_LINES = "the board's lines"
#: ``glyph_may_pass`` and ``glyph_may_land``: the header-time rule by what
#: stands on the spot (``glyph_passing``, ``glyph_landing``).
BY_OCCUPANT = "by what stands on the spot"


def reach(geo: HexBoard, piece: str) -> int:
    """The official range of ``piece``, wherever it stands: the scepter's
    own; none for a minion; else as far as the items paid reach."""
    if piece == SCEPTER:
        return scepter.RANGE
    if piece == MINION:
        return 0  # minions move only by the summoner's spell
    return geo.size


@rulehook
@fast_form(RANGE_BY_PIECE)
def glyph_move_range(game: GlyphChess, state: State | Work, seat: int, piece: str, source: int) -> int:
    # The header-time table's answer (by piece).
    return reach(game.geo, piece)


def costs(piece: str, distance: int) -> tuple[str, int]:
    """The official cost of a move: the scepter one die of any face a spot,
    a glyph piece X items of its type for X spots."""
    if piece == SCEPTER:
        return scepter.COST, distance
    return "x", distance


@rulehook
def glyph_move_costs(players: int):
    return costs


@rulehook
@fast_form(COST_BY_DISTANCE)
def glyph_move_cost(
    game: GlyphChess, state: State | Work, seat: int, piece: str, distance: int
) -> tuple[str, int] | tuple[str, int, str]:
    # The header-time table's answer.
    return game.move_costs(piece, distance)


@rulehook
@fast_form(THE_BOARDS_LINES)
def glyph_move_directions(
    game: GlyphChess, state: State | Work, seat: int, piece: str, source: int
) -> Mapping[str, Sequence[int]]:
    return game.geo.rays[source]


def passes(seat: int, piece: str, there: tuple[int, str] | None) -> bool:
    """The official passing rule, by what stands on the spot: an empty spot;
    the force mage passes any piece; a summoner its own minions."""
    return there is None or piece == FORCE_MAGE or (piece == SUMMONER and there == (seat, MINION))


def lands(seat: int, piece: str, there: tuple[int, str] | None) -> bool:
    """The official landing rule, by what stands on the spot: not on a
    friendly piece, but a summoner may land on its own minion (which leaves)."""
    return there is None or there[0] != seat or (piece == SUMMONER and there[1] == MINION)


@rulehook
def glyph_passing(players: int):
    return passes


@rulehook
def glyph_landing(players: int):
    return lands


@rulehook
@fast_form(BY_OCCUPANT)
def glyph_may_pass(game: GlyphChess, state: State | Work, seat: int, piece: str, spot: int) -> bool:
    # The header-time rule, for the piece on the spot.
    return game.passing_table(seat, piece)[state.board[spot]]


@rulehook
@fast_form(BY_OCCUPANT)
def glyph_may_land(game: GlyphChess, state: State | Work, seat: int, piece: str, spot: int) -> bool:
    return game.landing_table(seat, piece)[state.board[spot]]


# -- a variant's answers -------------------------------------------------------------
def move_range(game: GlyphChess, state: State | Work, seat: int, piece: str, source: int) -> int:
    """What a variant's ``glyph_move_range`` says, refused (one line naming
    the variant) when negative: asked only where a variant changes it."""
    most = game.rules.glyph_move_range(game=game, state=state, seat=seat, piece=piece, source=source)
    if most < 0:
        raise game.rules.refuse(
            "glyph_move_range",
            f"gave {most} for the {NAMES.get(piece, piece)}: a range is 0 (it does not move) or more",
        )
    return most


def directions(
    game: GlyphChess, state: State | Work, seat: int, piece: str, source: int
) -> Mapping[str, Sequence[int]]:
    """What a variant's ``glyph_move_directions`` says, refused (one line
    naming the variant) when a line holds a spot off the board, the piece's
    own spot or a spot twice: asked only where a variant changes it."""
    rays = game.rules.glyph_move_directions(game=game, state=state, seat=seat, piece=piece, source=source)
    size = game.geo.size
    for name, ray in rays.items():
        for i, spot in enumerate(ray):
            if not 0 <= spot < size or spot == source or spot in ray[:i]:
                why = "off the board" if not 0 <= spot < size else "the piece's own" if spot == source else "twice"
                raise game.rules.refuse(
                    "glyph_move_directions",
                    f"gave a line {name!r} from {game.geo.names[source]} holding {spot!r}: {why}",
                )
    return rays


# -- checking, listing, carrying out -----------------------------------------------
def line(game: GlyphChess, state: State | Work, seat: int, piece: str, source: int, target: int):
    """The direction, distance and line from ``source`` to ``target`` along the
    directions ``piece`` may move in, or None."""
    for name, ray in directions(game, state, seat, piece, source).items():
        if target in ray:
            return name, ray.index(target) + 1, ray
    return None


def check(game: GlyphChess, state: State | Work, seat: int, event: Move, source: int, kind: str):
    """Why ``event``, a move of ``seat``'s ``kind`` from ``source``, is not
    legal, or None. Range, directions, passing, landing and the cost are the
    game's header-time tables while the official rules alone are in force
    (as the listing reads them), else the hooks'."""
    r = game.rules
    if game.reach_by_piece:
        most = game.reaches.get(kind)
        if most is None:
            most = game.reaches[kind] = reach(game.geo, kind)
    else:
        most = move_range(game, state, seat, kind, source)
    if not most:
        if kind == MINION:
            return "minions move only by the summoner's spell (march)"
        return f"the {NAMES.get(kind, kind)} does not move"
    target = game.geo.spot(event.target)
    if target is None:
        return f"{event.target} is not a spot of this board"
    if game.directions_by_spot:
        found = game.geo.lines_to[source].get(target)
    else:
        found = line(game, state, seat, kind, source, target)
    if found is None:
        return f"{event.target} is not in a straight line from {event.source}"
    _, distance, ray = found
    if distance > most:
        if most == 1:
            return f"the {NAMES.get(kind, kind)} moves exactly 1 spot"
        return f"the {NAMES.get(kind, kind)} moves at most {most} spots"
    board = state.board
    if game.passing_by_occupant:
        passes = game.passing_table(seat, kind)
        blocked = next((spot for spot in ray[: distance - 1] if not passes[board[spot]]), None)
    else:
        may_pass = r.glyph_may_pass
        blocked = next(
            (s for s in ray[: distance - 1] if not may_pass(game=game, state=state, seat=seat, piece=kind, spot=s)),
            None,
        )
    if blocked is not None:
        return f"{game.geo.names[blocked]} is in the way"
    if game.landing_by_occupant:
        lands = game.landing_table(seat, kind)[board[target]]
    else:
        lands = r.glyph_may_land(game=game, state=state, seat=seat, piece=kind, spot=target)
    if not lands:
        return f"{event.target} holds a piece of yours"
    if game.move_costs_fixed:
        cost = game.move_costs(kind, distance)
    else:
        cost = payment.move_cost(game, state, seat, kind, distance)
    return payment.check(game, state, seat, source, *cost, dice=event.dice, coins=event.coins, piece=kind)


def listing(ctx: Context, out: list, first: bool = False) -> None:
    """Every move of the piece the listing ``ctx`` is turned to, appended to
    ``out``: (Move, (player, from, to), ways to pay); only the first one
    found when ``first``."""
    found = lines(ctx)
    if found is not None:
        keys, stops = ctx.stops(ctx.kind)
        priced(found[0][0], *walk(found[1], keys, stops), out, first)


def priced(by_distance: Sequence, distances: list[int], moves: list[tuple], out: list, first: bool = False) -> None:
    """The moves :func:`walk` found that can be paid for (``by_distance``),
    appended to ``out``; only the first when ``first``."""
    append = out.append
    for distance, fields in zip(distances, moves):
        ways = by_distance[distance]
        if ways:
            append((Move, fields, ways))
            if first:
                return


def lines(ctx: Context) -> tuple[tuple[Sequence, list[int], list[int]], Sequence] | None:
    """What the moves of the piece the listing ``ctx`` is turned to are
    looked for along: (the ways to pay for each distance and how many they
    are, as :meth:`~tabletop_glyph_chess.context.Context.move_counts`; its
    lines, cut where a move could not be paid), or None when it cannot move.
    Range and directions are the header-time tables (:func:`reach`, the
    board's rays) while no variant changes ``glyph_move_range`` or
    ``glyph_move_directions``, else those hooks'."""
    game, kind = ctx.game, ctx.kind
    if game.reach_by_piece:
        most = game.reaches.get(kind)
        if most is None:
            most = game.reaches[kind] = reach(game.geo, kind)
    else:
        most = move_range(game, ctx.state, ctx.seat, kind, ctx.source)
    if not most:
        return None
    counted = ctx.move_counts(most)
    most = len(counted[0]) - 1  # no farther than it can pay
    if not most:
        return None
    source = ctx.source
    if game.directions_by_spot:
        cut = ctx.lines[source] or named_lines(game.geo, ctx.player, source)
        return counted, cut[most] if most < len(cut) else cut[-1]
    rays = directions(game, ctx.state, ctx.seat, kind, source)
    return counted, [line[:most] for line in _named(ctx.names, ctx.player, source, rays.values())]


def walk(lines: Sequence, keys: Sequence, stops: Mapping, first: bool = False) -> tuple[list[int], list[tuple]]:
    """A piece's lines (as :func:`lines` gives them) walked out from its
    spot, ``keys`` and ``stops`` as
    :meth:`~tabletop_glyph_chess.context.Context.stops` give them: the
    distances of the spots it may land on, and the fields of each move
    there, line by line (only the first spot found when ``first``). A
    line's walk ends past the first spot it may not pass."""
    distances: list[int] = []
    moves: list[tuple] = []
    far, move = distances.append, moves.append
    for line in lines:
        for distance, target, fields in line:
            way = stops[keys[target]]
            if way & LANDS:
                far(distance)
                move(fields)
                if first:
                    return distances, moves
            if not way & PASSES:
                break
    return distances, moves


#: (board radius, player) -> for each spot, its lines with each move's
#: fields made once (see :func:`named_lines`).
LINES: dict = {}
#: A run meets a few boards and players' names (a tournament's, a few
#: dozen); each entry holds a board's lines, some thousands of tuples.
LINES_KEPT = Bound(256)


def named_lines(geo: HexBoard, player: str, source: int) -> tuple:
    """The board's six lines from ``source`` (the official directions), each
    spot as (distance, spot, the fields of ``player``'s move there), cut to
    their first ``m`` spots at ``[m]`` (a move goes no farther than it can
    pay), up to the longest: made once per board, player and spot, for every
    game."""
    table = lines_of(geo, player)
    cut = table[source]
    if cut is None:
        lines = _named(geo.names, player, source, geo.ray_lists[source])
        longest = max(map(len, lines))
        cut = table[source] = tuple(tuple([line[:m] for line in lines]) for m in range(longest + 1))
    return cut


def lines_of(geo: HexBoard, player: str) -> list:
    """Spot -> its :func:`named_lines` once made (None before), for
    ``player`` on the board ``geo``: shared by every game on it."""
    table = LINES.get((geo.radius, player))
    if table is None:
        table = LINES_KEPT.keep(LINES, (geo.radius, player), [None] * geo.size)
    return table


def _named(names: Sequence[str], player: str, source: int, rays) -> tuple:
    here = names[source]
    return tuple(
        tuple([(distance, spot, (player, here, names[spot])) for distance, spot in enumerate(ray, start=1)])
        for ray in rays
    )


def perform(game: GlyphChess, work: Work, source: int, target: int) -> None:
    """Start a checked move: one landing, which may attack (the elementalist incinerates)."""
    work.steps = [Step(source, target, work.board[source][1] == ELEMENTALIST)]
