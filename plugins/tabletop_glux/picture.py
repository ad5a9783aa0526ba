"""The Glüx board as an SVG picture, legible at email size (about 600 px wide).

Rooms are tinted by letter, paths light; a chip is a disc in its owner's
colour with the face showing; a ring round it means it covers another chip;
start squares have a frame in their owner's colour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import Hidden, Renderer
from tabletop.svg import document
from tabletop.svg import text as svg_text

from .board import PATH

if TYPE_CHECKING:
    from .game import Glux
    from .state import State

CELL = 40
MARGIN = 28
OWNERS = ("#d62728", "#1f77b4", "#2ca02c", "#e5a00d")
ROOMS = ("#f6e3c6", "#dbe9f6", "#e3f1d8", "#f4d9e8", "#fff2b3", "#e2dcf2", "#d8f0ee", "#f2e0d3", "#e8e8d0")


def svg(game: Glux, state: State, viewer: str | None) -> str:
    state = game.view(state, viewer)
    board = game.board
    width = MARGIN * 2 + board.width * CELL
    legend_top = MARGIN + board.height * CELL + 16
    height = legend_top + 24 * (len(game.players) + 1)
    out: list[str] = []
    rooms = {r: ROOMS[i % len(ROOMS)] for i, r in enumerate(board.room_names)}
    for square in range(board.width * board.height):
        row, col = divmod(square, board.width)
        x, y = MARGIN + col * CELL, MARGIN + (board.height - 1 - row) * CELL
        room = board.rooms[square]
        fill = "#fafafa" if room == PATH else rooms[room]
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#bbb"/>')
        if room != PATH and not state.stacks[square]:
            out.append(svg_text(x + CELL / 2, y + CELL / 2 + 5, room, 13, "#999"))
        owner = game.start_owner[square]
        if owner >= 0:
            out.append(
                f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
                f'stroke="{OWNERS[owner]}" stroke-width="3"/>'
            )
        stack = state.stacks[square]
        if stack:
            seat, face = stack[-1]
            cx, cy = x + CELL / 2, y + CELL / 2
            if len(stack) > 1:
                below = stack[-2][0]
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="17" fill="none" stroke="{OWNERS[below]}" stroke-width="3"/>'
                )
            out.append(f'<circle cx="{cx}" cy="{cy}" r="13" fill="{OWNERS[seat]}"/>')
            out.append(svg_text(cx, cy + 6, str(face), 17, "white", bold=True))
    for col in range(board.width):
        out.append(svg_text(MARGIN + col * CELL + CELL / 2, MARGIN - 8, chr(ord("a") + col), 12, "#555"))
    for row in range(board.height):
        out.append(
            svg_text(MARGIN / 2, MARGIN + (board.height - 1 - row) * CELL + CELL / 2 + 4, str(row + 1), 12, "#555")
        )
    outcome = game.outcome(state)
    for i, player in enumerate(game.players):
        y = legend_top + 24 * i
        hand = state.hands[i]
        held = "hidden" if isinstance(hand, Hidden) else (hand or "-")
        out.append(f'<circle cx="{MARGIN + 8}" cy="{y + 8}" r="8" fill="{OWNERS[i]}"/>')
        line = f"{player}: {outcome.scores[player]} VP, hand {held}, {sum(state.bags[i])} in bag"
        if state.excluded[i]:
            line += ", excluded"
        out.append(svg_text(MARGIN + 24, y + 13, line, 14, "#222", anchor="start"))
    return document(width, height, out)


RENDERERS = [Renderer("glux", "svg", "image/svg+xml", svg)]
