"""Setting up: each player's edge, the order of their pieces along it
(shuffled glyph cards, or the advanced setup's secret arrangement), who
starts, the coins each player owns and draws before the first turn, how many
dice are shared; then the starting player rolls all the dice (five in the
rule book)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop import rulehook

from .hexes import SEATING
from .pieces import COINS_PER_TYPE, DICE, GLYPHS, MOST_DICE, SCEPTER
from .state import ALIVE, DRAW, ROLLING, State, Work

if TYPE_CHECKING:
    from .game import GlyphChess


@rulehook
def glyph_secret_setup(players: int) -> bool:
    # Standard setup: the glyph cards are shuffled.
    return False


@rulehook
def glyph_start_edges(game: GlyphChess, players: int) -> tuple[tuple[int, ...], ...]:
    # 2 players opposite; 3 at every other edge (see hexes.SEATING).
    return tuple(game.geo.edge(sixths) for sixths in SEATING[players])


@rulehook
def glyph_first_player(players: int) -> int:
    # The first player named in the header is gold, the starting player.
    return 0


@rulehook
def glyph_starting_coins(players: int, seat: int, first: int) -> int:
    # 2 players: the other draws 1 coin; 3 players: silver 1, bronze 2.
    return (seat - first) % players


@rulehook
def glyph_coins(players: int) -> tuple[int, ...]:
    return (COINS_PER_TYPE,) * len(GLYPHS)


@rulehook
def glyph_dice(players: int) -> int:
    return DICE


def dice(game: GlyphChess) -> int:
    """How many dice the game shares (``glyph_dice``), refused outside 1 to 9."""
    count = game.rules.glyph_dice(players=len(game.players))
    if not 1 <= count <= MOST_DICE:
        raise game.rules.refuse("glyph_dice", f"gave {count} dice (a game shares 1 to {MOST_DICE})")
    return count


#: The most coins of one type a player's bag may hold (``glyph_coins``).
MOST_COINS = 99


def check(game: GlyphChess) -> None:
    """Refuse, as the game is made, a setup a variant's answers make
    unplayable: edges that are not 7 spots of the board for each seat, none
    shared; a first player who is not a seat; bags that are not a count of
    0 to 99 for each glyph type; starting coins the bag cannot give; a
    negative hand limit. Only the hooks a variant implements are looked at
    (the official answers are known good)."""
    r, n = game.rules, len(game.players)
    if not r.official("glyph_start_edges"):
        _check_edges(game)
    if not 0 <= game.first < n:
        raise r.refuse("glyph_first_player", f"gave {game.first!r}: the seats are 0 to {n - 1}")
    if not (r.official("glyph_coins") and r.official("glyph_starting_coins")):
        _check_coins(game)
    if game.hand_limit < 0:
        raise r.refuse("glyph_hand_limit", f"gave {game.hand_limit!r}: a hand limit is 0 or more coins")


def _check_edges(game: GlyphChess) -> None:
    r, n, size = game.rules, len(game.players), game.geo.size
    edges = game.edges
    if len(edges) != n:
        raise r.refuse("glyph_start_edges", f"gave {len(edges)} edge(s) for {n} players (one edge for each seat)")
    seen: set[int] = set()
    for seat, edge in enumerate(edges):
        if len(edge) != len(GLYPHS) + 1:
            raise r.refuse(
                "glyph_start_edges", f"gave {len(edge)} spots for seat {seat} (an edge is {len(GLYPHS) + 1} spots)"
            )
        for spot in edge:
            if not 0 <= spot < size:
                raise r.refuse("glyph_start_edges", f"gave spot {spot!r}: the board's spots are 0 to {size - 1}")
            if spot in seen:
                raise r.refuse("glyph_start_edges", f"gave spot {spot} ({game.geo.names[spot]}) twice")
            seen.add(spot)


def _check_coins(game: GlyphChess) -> None:
    r, n = game.rules, len(game.players)
    bag = tuple(r.glyph_coins(players=n))
    if len(bag) != len(GLYPHS) or not all(0 <= count <= MOST_COINS for count in bag):
        raise r.refuse(
            "glyph_coins", f"gave {bag!r}: a bag holds 0 to {MOST_COINS} coins of each of {len(GLYPHS)} types"
        )
    for seat in range(n):
        owed = r.glyph_starting_coins(players=n, seat=seat, first=game.first)
        if not 0 <= owed <= sum(bag):
            # Blame the rule a variant changed: the official starting coins
            # are more than a variant's bag holds.
            if r.official("glyph_starting_coins"):
                raise r.refuse("glyph_coins", f"gave a bag of {sum(bag)} coins: seat {seat} draws {owed} to start")
            raise r.refuse(
                "glyph_starting_coins", f"gave {owed!r} for seat {seat}: 0 to the {sum(bag)} coins of the bag"
            )


def initial(game: GlyphChess) -> State:
    """The state before the first event: empty edges, full bags."""
    n = len(game.players)
    zero = (0,) * len(GLYPHS)
    bag = tuple(game.rules.glyph_coins(players=n))
    first = game.first
    owed = tuple(game.rules.glyph_starting_coins(players=n, seat=s, first=first) for s in range(n))
    return State(
        board=(None,) * game.geo.size,
        fates=((ALIVE,) * len(GLYPHS),) * n,
        hands=(zero,) * n,
        bags=(bag,) * n,
        used=(zero,) * n,
        dice=(None,) * game.dice,
        eliminated=(False,) * n,
        turn=first,
        placed=(False,) * n,
        owed=owed,
    )


def place(game: GlyphChess, work: Work, seat: int, order: Sequence[str], shuffled: bool) -> None:
    """Put ``seat``'s pieces on its edge in ``order``: with shuffled cards the
    scepter stands in the middle of the edge, the cards' order beside it."""
    if shuffled:
        order = (*order[:3], SCEPTER, *order[3:])
    for spot, kind in zip(game.edges[seat], order):
        work.board[spot] = (seat, kind)
    work.placed[seat] = True
    if all(work.placed):
        # The starting player rolls all the dice, then the others draw their first coins.
        work.phase, work.rolling, work.then = ROLLING, list(range(game.dice)), DRAW
