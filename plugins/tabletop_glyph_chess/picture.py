"""The Glyph Chess board as an SVG picture, legible at email size and on a phone.

The picture carries the whole position, as the text board does. Hexes as
printed (rows ``a`` at the bottom to ``m``), the centre tinted; every empty
spot shows its name in small print, and each row its letter and numbers at
both ends, so ``g7`` can be read off. A piece is its owner's shape (gold a
circle, silver a square, bronze a diamond) in its owner's colour, with its
letter. The last move or spell is drawn as arrows from the caster, from rim
to rim (a step to the next spot bows out to one side, clear of both
pieces). Above the board: the event number and whose turn it is (or the
result); below it, the five dice (the one just rolled framed) and each
player's coins, bag, used and wild coins and spare area, the player at turn
marked with an arrow. No text is smaller than reads on a phone once the
picture is scaled to its width (``tabletop.sight.svg.least``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop import Event, Legend, Symbol
from tabletop.sight.svg import (
    HIGHLIGHT,
    SHAPES,
    arrow,
    arrowhead,
    document,
    heading,
    latest,
    least,
    measure,
    shape,
    whose_turn,
    wrap,
)
from tabletop.sight.svg import spot as named_spot
from tabletop.sight.svg import text as svg_text

from .events import Cast, Move, Roll
from .pieces import COLOURS, GLYPHS, MINION, NAMES, SCEPTER
from .render import player_line

if TYPE_CHECKING:
    from .game import GlyphChess
    from .state import State

SIZE = 21  # a hex's radius in pixels
#: Owner colours, and the colour of a piece's letter on each.
OWNERS = ("#e0b12b", "#a3adb8", "#b06a32")
TEXT_ON = ("#222", "#111", "white")
MARGIN = 34
#: Spells whose spots are one path from the caster, in order (the others are each reached on their own).
PATHS = ("blaze", "march")


def svg(game: GlyphChess, state: State, viewer: str | None, history: Sequence[Event] | None = None) -> str:
    turn = whose_turn(game, state, viewer)
    geo = game.geo
    w = math.sqrt(3) * SIZE
    span = 2 * geo.radius + 1
    width = int(MARGIN * 2 + span * w)
    small = least(width)  # the spots' names: the smallest print, still legible on a phone
    board_height = int(SIZE * 1.5 * (span - 1) + 2 * SIZE)
    cx0 = width / 2

    def centre(spot: int) -> tuple[float, float]:
        q, r = geo.coords[spot]
        return cx0 + w * (q + r / 2), cy0 - 1.5 * SIZE * r

    number = f"event {len(history)}" if history is not None else "the board"
    out: list[str] = [f"<defs>{arrowhead()}</defs>"]
    lines, top = heading(f"{game.title} · {number}", turn, small, MARGIN - 20, width)
    out += lines
    top += 10
    cy0 = top + board_height / 2
    for spot in range(geo.size):
        x, y = centre(spot)
        corners = " ".join(
            f"{x + SIZE * math.cos(math.radians(60 * k + 30)):.1f},{y + SIZE * math.sin(math.radians(60 * k + 30)):.1f}"
            for k in range(6)
        )
        name = named_spot(geo.names[spot], x, y)
        if spot == geo.center:
            out.append(f'<polygon data-symbol="centre" {name} points="{corners}" fill="{CENTRE}" stroke="#aaa"/>')
        else:
            out.append(f'<polygon {name} points="{corners}" fill="#f4f4f4" stroke="#aaa"/>')
        piece = state.board[spot]
        if piece is None:
            out.append(svg_text(x, y + small * 0.36, geo.names[spot], small, "#a6a6a6"))
            continue
        out.append(_piece(*piece, x, y, small=small))
    out += _edges(geo, centre, w, small)
    action = latest(history or (), (Move, Cast))
    if action is not None:
        out += _path(geo, state.board, centre, action)
    legend_top = top + board_height + 12 + small
    lines, height = _legend(game, state, legend_top, history, small, width)
    out += lines
    desc = (
        f"{game.title} board for {', '.join(game.players)}"
        + (f" as {viewer} sees it" if viewer else "")
        + ". Pieces show their letter in their owner's shape and colour: "
        + ", ".join(f"{COLOURS[i]} {p} {SHAPES[i]}" for i, p in enumerate(game.players))
        + ". Empty spots show their names."
        + (f" Arrows show the last action, {action.player}'s." if action is not None else "")
    )
    return document(width, height, out, title=f"{game.title}: {number}, {turn}", desc=desc)


CENTRE = "#fff3c4"


#: A piece's radius on the board.
PIECE = SIZE * 0.66


def _piece(seat: int, kind: str, x: float, y: float, r: float = PIECE, small: int = 0) -> str:
    # One function draws a piece on the board and in the legend; data-symbol
    # tells the viewer which pieces a picture shows.
    size = max(round(r * 15 / 14), small)
    return (
        f'<g data-symbol="piece-{kind}">{shape(seat, x, y, r, OWNERS[seat], "#333", 1)}'
        f"{svg_text(x, y + size / 3, kind, size, TEXT_ON[seat], bold=True)}</g>"
    )


def legend(game: GlyphChess) -> Legend:
    """The key to the pictures of ``game``: seat colours, the pieces and marks, whose turn it is."""
    pieces = tuple(
        Symbol(f"piece-{kind}", _piece(0, kind, 12, 12, 11), f"{kind}: {NAMES[kind]}")
        for kind in (SCEPTER, *GLYPHS, MINION)
    )
    marks = (
        Symbol(
            "centre", f'<polygon points="12,1 22,7 22,17 12,23 2,17 2,7" fill="{CENTRE}" stroke="#aaa"/>', "the centre"
        ),
        Symbol(
            "last-action",
            f'<line x1="3" y1="21" x2="17" y2="7" stroke="{HIGHLIGHT}" stroke-width="2.5"/>'
            f'<path d="M22,2 L13,5 L19,11 z" fill="{HIGHLIGHT}"/>',
            "the last move or spell, from the piece that acted",
        ),
    )
    return Legend(tuple(OWNERS[: len(game.players)]), pieces + marks, _turn, "draw", points=False)


def _turn(game: GlyphChess, state: State) -> str | None:
    return None if state.phase in ("over", "setup") else game.players[state.turn]


def _edges(geo, centre, w: float, size: int) -> list[str]:
    """Each row's letter at both ends, with the numbers of its first and last spots."""
    out = []
    rows: dict[int, list[int]] = {}
    for spot, (_, r) in enumerate(geo.coords):
        rows.setdefault(r, []).append(spot)
    for spots in rows.values():
        name_first, name_last = geo.names[spots[0]], geo.names[spots[-1]]
        x, y = centre(spots[0])
        out.append(svg_text(x - w * 0.58, y + size * 0.36, name_first, size, "#555", anchor="end"))
        x, y = centre(spots[-1])
        out.append(svg_text(x + w * 0.58, y + size * 0.36, name_last, size, "#555", anchor="start"))
    return out


def _path(geo, board, centre, action: Move | Cast) -> list[str]:
    """Arrows from the piece that acted to where it went or what it reached,
    each from the ring round one end to the ring round the other."""
    source = geo.spot(action.source)
    if isinstance(action, Move):
        legs = [(action.source, action.target)]
    elif action.spell in PATHS:
        stops = [action.source, *action.spots]
        legs = list(zip(stops, stops[1:]))
    else:
        legs = [(action.source, spot) for spot in action.spots]
    out = []
    ends = {source}
    for start, end in legs:
        a, b = geo.spot(start), geo.spot(end)
        if a is None or b is None:
            continue
        ends.add(b)
        out.append(
            arrow(
                centre(a), centre(b), RING, attributes='data-symbol="last-action"', side=_side(geo, board, centre, a, b)
            )
        )
    for spot in ends - {None}:
        x, y = centre(spot)
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RING:.1f}" fill="none" stroke="{HIGHLIGHT}" stroke-width="2"/>'
        )
    return out


def _side(geo, board, centre, a: int, b: int) -> int:
    """The side a step's arrow bows out to: the one whose spot next to both
    ends is empty (or off the board), so it crosses no piece (1: the left)."""
    (x1, y1), (x2, y2) = centre(a), centre(b)
    for spot in set(geo.neighbours[a]) & set(geo.neighbours[b]):
        x, y = centre(spot)
        left = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) < 0  # y grows downwards
        if board[spot] is not None:
            return -1 if left else 1
    return 1


#: The ring round each end of the last action: just outside a piece.
RING = SIZE * 0.86


def _legend(
    game: GlyphChess, state: State, top: int, history: Sequence[Event] | None, size: int, width: int
) -> tuple[list[str], int]:
    """The dice and each player's line below the board; and the picture's height."""
    out = []
    line = size + 7
    rolled = history[-1].die if history and isinstance(history[-1], Roll) else None
    x = MARGIN
    out.append(svg_text(x, top, "dice:", size, "#222", anchor="start"))
    x += measure("dice: ", size)
    step = measure("D5 M", size) + size
    for i, face in enumerate(state.dice):
        label = f"D{i + 1} {face or '-'}"
        if rolled == i + 1:
            out.append(
                f'<rect x="{x - 4:.1f}" y="{top - size - 1:.1f}" width="{step - size / 2:.1f}" height="{size + 6}" '
                f'fill="none" stroke="{HIGHLIGHT}" stroke-width="2"/>'
            )
        out.append(svg_text(x, top, label, size, "#222", bold=rolled == i + 1, anchor="start"))
        x += step
    at_turn = state.turn if state.phase not in ("over", "setup") else None
    y = top + 4
    for seat, player in enumerate(game.players):
        y += line
        if seat == at_turn:
            out.append(f'<path d="M{MARGIN - 22},{y - size + 1} l9,6 l-9,6 z" fill="{HIGHLIGHT}"/>')
        out.append(shape(seat, MARGIN + 6, y - size * 0.36, 7, OWNERS[seat], "#333", 1))
        text = player_line(game, state, seat, player).removesuffix(" <")
        for i, part in enumerate(wrap(text, size, width - MARGIN - 20 - 8)):
            if i:
                y += line - 2
            out.append(svg_text(MARGIN + 20, y, part, size, "#222", anchor="start"))
    return out, int(y + size)
