"""The Glyph Chess board as an SVG picture, legible at email size.

The picture carries the whole position, as the text board does. Hexes as
printed (rows ``a`` at the bottom to ``m``), the centre tinted; every empty
spot shows its name in small print, and each row its letter and numbers at
both ends, so ``g7`` can be read off. A piece is its owner's shape (gold a
circle, silver a square, bronze a diamond) in its owner's colour, with its
letter. The last move or spell is drawn as arrows from the caster. Above the
board: the event number and whose turn it is (or the result); below it, the
five dice (the one just rolled framed) and each player's coins, bag, used and
wild coins and spare area, the player at turn marked with an arrow.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop import Event, Legend, Symbol
from tabletop.svg import HIGHLIGHT, SHAPES, document, latest, shape, whose_turn
from tabletop.svg import text as svg_text

from .events import Cast, Move, Roll
from .pieces import COLOURS, GLYPHS, MINION, NAMES, SCEPTER
from .render import _player_line

if TYPE_CHECKING:
    from .game import GlyphChess
    from .state import State

SIZE = 21  # a hex's radius in pixels
#: Owner colours, and the colour of a piece's letter on each.
OWNERS = ("#e0b12b", "#a3adb8", "#b06a32")
TEXT_ON = ("#222", "#111", "white")
MARGIN = 34
TOP = 34
LINE = 20
#: Spells whose spots are one path from the caster, in order (the others are each reached on their own).
PATHS = ("blaze", "march")


def svg(game: GlyphChess, state: State, viewer: str | None, history: Sequence[Event] | None = None) -> str:
    turn = whose_turn(game, state, viewer)
    geo = game.geo
    w = math.sqrt(3) * SIZE
    span = 2 * geo.radius + 1
    width = int(MARGIN * 2 + span * w)
    board_height = int(SIZE * 1.5 * (span - 1) + 2 * SIZE)
    legend_top = TOP + board_height + 22
    height = legend_top + LINE * (len(game.players) + 1) + 8
    cx0 = width / 2
    cy0 = TOP + board_height / 2

    def centre(spot: int) -> tuple[float, float]:
        q, r = geo.coords[spot]
        return cx0 + w * (q + r / 2), cy0 - 1.5 * SIZE * r

    number = f"event {len(history)}" if history is not None else "the board"
    out: list[str] = [
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{HIGHLIGHT}"/></marker></defs>',
        svg_text(MARGIN - 20, 20, f"{game.title} · {number} · {turn}", 14, "#222", bold=True, anchor="start"),
    ]
    for spot in range(geo.size):
        x, y = centre(spot)
        corners = " ".join(
            f"{x + SIZE * math.cos(math.radians(60 * k + 30)):.1f},{y + SIZE * math.sin(math.radians(60 * k + 30)):.1f}"
            for k in range(6)
        )
        if spot == geo.center:
            out.append(f'<polygon data-symbol="centre" points="{corners}" fill="{CENTRE}" stroke="#aaa"/>')
        else:
            out.append(f'<polygon points="{corners}" fill="#f4f4f4" stroke="#aaa"/>')
        piece = state.board[spot]
        if piece is None:
            out.append(svg_text(x, y + 3, geo.names[spot], 8, "#9a9a9a"))
            continue
        out.append(_piece(*piece, x, y))
    out += _edges(geo, centre, w)
    action = latest(history or (), (Move, Cast))
    if action is not None:
        out += _path(geo, centre, action)
    out += _legend(game, state, legend_top, history)
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


def _piece(seat: int, kind: str, x: float, y: float, r: float = SIZE * 0.66) -> str:
    # One function draws a piece on the board and in the legend; data-symbol
    # tells the viewer which pieces a picture shows.
    return (
        f'<g data-symbol="piece-{kind}">{shape(seat, x, y, r, OWNERS[seat], "#333", 1)}'
        f"{svg_text(x, y + r * 5 / 14, kind, round(r * 15 / 14), TEXT_ON[seat], bold=True)}</g>"
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
    return Legend(tuple(OWNERS[: len(game.players)]), pieces + marks, _turn, "draw")


def _turn(game: GlyphChess, state: State) -> str | None:
    return None if state.phase in ("over", "setup") else game.players[state.turn]


def _edges(geo, centre, w: float) -> list[str]:
    """Each row's letter at both ends, with the numbers of its first and last spots."""
    out = []
    rows: dict[int, list[int]] = {}
    for spot, (_, r) in enumerate(geo.coords):
        rows.setdefault(r, []).append(spot)
    for spots in rows.values():
        name_first, name_last = geo.names[spots[0]], geo.names[spots[-1]]
        x, y = centre(spots[0])
        out.append(svg_text(x - w * 0.8, y + 4, name_first, 11, "#555", anchor="end"))
        x, y = centre(spots[-1])
        out.append(svg_text(x + w * 0.8, y + 4, name_last, 11, "#555", anchor="start"))
    return out


def _path(geo, centre, action: Move | Cast) -> list[str]:
    """Arrows from the piece that acted to where it went or what it reached."""
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
        (x1, y1), (x2, y2) = centre(a), centre(b)
        length = math.hypot(x2 - x1, y2 - y1) or 1
        # Stop short of the hex's middle so the arrowhead does not hide the letter.
        trim = SIZE * 0.55 / length
        out.append(
            f'<line data-symbol="last-action" x1="{x1 + (x2 - x1) * trim:.1f}" y1="{y1 + (y2 - y1) * trim:.1f}" '
            f'x2="{x2 - (x2 - x1) * trim:.1f}" y2="{y2 - (y2 - y1) * trim:.1f}" stroke="{HIGHLIGHT}" '
            f'stroke-width="2.5" marker-end="url(#arrow)"/>'
        )
    for spot in ends - {None}:
        x, y = centre(spot)
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.86:.1f}" fill="none" stroke="{HIGHLIGHT}" stroke-width="2"/>'
        )
    return out


def _legend(game: GlyphChess, state: State, top: int, history: Sequence[Event] | None) -> list[str]:
    out = []
    rolled = history[-1].die if history and isinstance(history[-1], Roll) else None
    x = MARGIN
    out.append(svg_text(x, top, "dice:", 13, "#222", anchor="start"))
    x += 40
    for i, face in enumerate(state.dice):
        label = f"D{i + 1} {face or '-'}"
        if rolled == i + 1:
            out.append(
                f'<rect x="{x - 4}" y="{top - 14}" width="44" height="19" fill="none" stroke="{HIGHLIGHT}" stroke-width="2"/>'
            )
        out.append(svg_text(x, top, label, 13, "#222", bold=rolled == i + 1, anchor="start"))
        x += 54
    at_turn = state.turn if state.phase not in ("over", "setup") else None
    for seat, player in enumerate(game.players):
        y = top + LINE * (seat + 1) + 4
        if seat == at_turn:
            out.append(f'<path d="M{MARGIN - 22},{y - 11} l9,6 l-9,6 z" fill="{HIGHLIGHT}"/>')
        out.append(shape(seat, MARGIN + 6, y - 5, 7, OWNERS[seat], "#333", 1))
        line = _player_line(game, state, seat, player).removesuffix(" <")
        out.append(svg_text(MARGIN + 20, y, line, 12, "#222", anchor="start"))
    return out
