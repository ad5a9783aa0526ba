"""The Glüx board as an SVG picture, legible at email size (about 600 px wide).

The picture carries the whole position, as the text board does: rooms tinted
by letter (the middle room framed with a dashed line), paths light; a chip is
its owner's shape (circle, square, diamond, hexagon: ownership does not rest on
colour alone) in its owner's colour with the face showing; a chip it covers
peeks out below it, in that owner's shape; start squares have a frame in their
owner's colour and shape. The last placement has a black frame. Above the
board: the event number and whose turn it is (or the result); below it, each
player's victory points, hand and bag as the text board words them, and every
room's pips by player. No text is smaller than reads on a phone once the
picture is scaled to its width (``tabletop.sight.svg.least``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop import Event, Legend, Symbol
from tabletop.sight.svg import (
    HIGHLIGHT,
    SHAPES,
    document,
    heading,
    latest,
    least,
    measure,
    shape,
    spot,
    whose_turn,
    wrap,
)
from tabletop.sight.svg import text as svg_text

from .board import PATH
from .events import Place, Start
from .render import MARKS, hand_and_bag

if TYPE_CHECKING:
    from .game import Glux
    from .state import State

CELL = 40
MARGIN = 28
#: Owner colours from a palette that colour-blind readers tell apart (Okabe and Ito).
OWNERS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7")
#: The face's colour on each owner's colour (dark on the light one).
ON_OWNER = ("white", "white", "white", "#111")
ROOMS = ("#f6e3c6", "#dbe9f6", "#e3f1d8", "#f4d9e8", "#fff2b3", "#e2dcf2", "#d8f0ee", "#f2e0d3", "#e8e8d0")


def svg(game: Glux, state: State, viewer: str | None, history: Sequence[Event] | None = None) -> str:
    turn = whose_turn(game, state, viewer)
    board = game.board
    players = game.players
    width = MARGIN * 2 + board.width * CELL
    small = least(width)
    placed = latest(history or (), (Place, Start))
    marked = None
    if placed is not None:
        marked = (
            board.square(placed.square) if isinstance(placed, Place) else game.start_squares[game.seats[placed.player]]
        )
    number = f"event {len(history)}" if history is not None else "the board"
    out, below = heading(f"{game.title} · {number}", turn, small, MARGIN, width)
    top = below + 12 + small  # and the column letters
    tints = {r: ROOMS[i % len(ROOMS)] for i, r in enumerate(board.room_names)}
    for square in range(board.width * board.height):
        x, y = _corner(board, square, top)
        room = board.rooms[square]
        fill = "#fafafa" if room == PATH else tints[room]
        named = spot(board.names[square], x + CELL / 2, y + CELL / 2)
        out.append(f'<rect {named} x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#bbb"/>')
        if room == board.middle:
            out.append(_middle(x, y, CELL))
        owner = game.start_owner[square]
        if owner >= 0:
            out.append(_start(owner, x, y, CELL))
        stack = state.stacks[square]
        if not stack:
            if room != PATH:
                out.append(svg_text(x + CELL / 2, y + CELL / 2 + small * 0.36, room, small, "#888"))
            continue
        cx, cy = x + CELL / 2, y + CELL / 2
        if len(stack) > 1:
            out.append(_covered(stack[-2][0], cx, cy))
        out.append(_chip(*stack[-1], cx, cy))
    if marked is not None:
        x, y = _corner(board, marked, top)
        out.append(_last(x, y, CELL))
    for col in range(board.width):
        out.append(svg_text(MARGIN + col * CELL + CELL / 2, top - 7, chr(ord("a") + col), small, "#555"))
    for row in range(board.height):
        y = top + (board.height - 1 - row) * CELL + CELL / 2 + small * 0.36
        out.append(svg_text(MARGIN / 2, y, str(row + 1), small, "#555"))
    lines, height = _legend(game, state, top + board.height * CELL + 12 + small, small, width)
    out += lines
    last = f" The last placement, {players[placed_seat(game, placed)]}'s, is framed in black." if placed else ""
    desc = (
        f"{game.title} board for {', '.join(players)}"
        + (f" as {viewer} sees it" if viewer else "")
        + ". Chips show their face; their owner's shape and colour: "
        + ", ".join(f"{p} {SHAPES[i]}" for i, p in enumerate(players))
        + f". The middle room {board.middle} is framed with a dashed line."
        + last
    )
    return document(width, height, out, title=f"{game.title}: {number}, {turn}", desc=desc)


# Each symbol drawn by one function, for the board and for the legend alike;
# ``data-symbol`` tells the viewer which symbols a picture shows.


def _middle(x: float, y: float, size: float) -> str:
    return (
        f'<rect data-symbol="middle-room" x="{x + 1}" y="{y + 1}" width="{size - 2}" height="{size - 2}" '
        f'fill="none" stroke="#666" stroke-dasharray="4 3"/>'
    )


def _start(owner: int, x: float, y: float, size: float) -> str:
    return (
        f'<g data-symbol="start-corner"><rect x="{x + 3}" y="{y + 3}" width="{size - 6}" height="{size - 6}" '
        f'fill="none" stroke="{OWNERS[owner]}" stroke-width="3"/>{shape(owner, x + 8, y + 8, 4, OWNERS[owner])}</g>'
    )


def _last(x: float, y: float, size: float) -> str:
    return (
        f'<rect data-symbol="last-placement" x="{x + 1}" y="{y + 1}" width="{size - 2}" height="{size - 2}" '
        f'fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>'
    )


def _chip(seat: int, face: int | str, cx: float, cy: float, r: float = 12) -> str:
    return (
        f'<g data-symbol="chip">{shape(seat, cx - 1, cy - 1, r, OWNERS[seat], "white", 1.5)}'
        f"{svg_text(cx - 1, cy + r * 5 / 12, str(face), round(r * 4 / 3), ON_OWNER[seat], bold=True)}</g>"
    )


def _covered(seat: int, cx: float, cy: float, r: float = 12) -> str:
    return f'<g data-symbol="covered">{shape(seat, cx + 5, cy + 5, r, OWNERS[seat], "white", 1.5)}</g>'


def legend(game: Glux) -> Legend:
    """The key to the pictures of ``game``: seat colours, the symbols, whose turn it is."""
    room = ROOMS[0]
    symbols = (
        Symbol("chip", _chip(0, 4, 12, 12, 9), "a chip: its owner's colour and shape, the face up"),
        Symbol(
            "covered",
            _covered(1, 9, 9, 8) + _chip(0, 2, 12, 12, 8),
            "a chip covered by another: it peeks out below, in its owner's shape",
        ),
        Symbol(
            "start-corner",
            _start(0, 0, 0, 24),
            "a start square: framed in its owner's colour, its shape in the corner",
        ),
        Symbol(
            "middle-room",
            f'<rect width="24" height="24" fill="{room}"/>' + _middle(0, 0, 24),
            "the middle room (dashed); the other rooms are tinted and lettered, paths light",
        ),
        Symbol("last-placement", _last(0, 0, 24), "the last placement or start chip"),
    )
    return Legend(tuple(OWNERS[: len(game.players)]), symbols, _turn, "draw")


def _turn(game: Glux, state: State) -> str | None:
    return None if state.turn is None else game.players[state.turn]


def placed_seat(game: Glux, event: Event) -> int:
    return game.seats[event.player]  # type: ignore[attr-defined]


def _corner(board, square: int, top: float) -> tuple[float, float]:
    row, col = divmod(square, board.width)
    return MARGIN + col * CELL, top + (board.height - 1 - row) * CELL


def _legend(game: Glux, state: State, top: float, size: int, width: int) -> tuple[list[str], int]:
    """Each player's line and the rooms' pips below the board; and the picture's height."""
    out = []
    line = size + 7
    outcome = game.outcome(state)
    y = top
    for seat, player in enumerate(game.players):
        out.append(shape(seat, MARGIN + 7, y - size * 0.36, 7, OWNERS[seat]))
        text = f"{MARKS[seat]} {player}: {outcome.scores[player]} VP; {hand_and_bag(game, state, seat)}"
        if state.excluded[seat]:
            text += "; excluded"
        elif state.turn == seat:
            text += "; draws" if state.drawing else "; to place"
        for part in wrap(text, size, width - MARGIN * 2 - 20):
            out.append(svg_text(MARGIN + 20, y, part, size, "#222", anchor="start"))
            y += line
    y += 4
    out.append(svg_text(MARGIN, y, "Rooms (pips on top chips):", size, "#222", bold=True, anchor="start"))
    pips = game.room_pips(state)
    # The rooms one after another, as many to a line as fit, each where the
    # one before it ends: a room's standing grows as players reach it.
    x, gap = MARGIN, size * 1.5
    y += line
    for room in game.board.room_names:
        standing = ", ".join(f"{p} {n}" for p, n in sorted(pips[room].items(), key=lambda kv: -kv[1])) or "-"
        middle = " (middle)" if room == game.board.middle else ""
        words = f"{room}{middle}: {standing}"
        wide = measure(words, size)
        if x > MARGIN and x + wide > width - MARGIN:
            x, y = MARGIN, y + line
        out.append(svg_text(x, y, words, size, "#222", anchor="start"))
        x += wide + gap
    return out, int(y + size)
