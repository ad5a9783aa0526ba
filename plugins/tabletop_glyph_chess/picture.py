"""The Glyph Chess board as an SVG picture, legible at email size.

Hexes as printed (rows ``a`` at the bottom to ``m``), the centre tinted; a
piece is a disc in its owner's colour with its letter; under the board, the
five dice and each player's coins (a count for the others), used coins and
spare area.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tabletop import Hidden, Renderer
from tabletop.svg import document
from tabletop.svg import text as svg_text

from .pieces import COLOURS
from .render import _spare
from .state import coins_list

if TYPE_CHECKING:
    from .game import GlyphChess
    from .state import State

SIZE = 21  # a hex's radius in pixels
OWNERS = ("#c9a227", "#8e99a6", "#b06a32")
TEXT_ON = ("#222", "#111", "white")
MARGIN = 30


def svg(game: GlyphChess, state: State, viewer: str | None) -> str:
    state = game.view(state, viewer)
    geo = game.geo
    w = math.sqrt(3) * SIZE
    span = 2 * geo.radius + 1
    width = int(MARGIN * 2 + span * w)
    board_height = int(SIZE * 1.5 * (span - 1) + 2 * SIZE)
    legend_top = MARGIN + board_height + 14
    height = legend_top + 30 + 22 * len(game.players)
    out: list[str] = []
    cx0 = width / 2
    cy0 = MARGIN + board_height / 2
    for spot, (q, r) in enumerate(geo.coords):
        x = cx0 + w * (q + r / 2)
        y = cy0 - 1.5 * SIZE * r
        corners = " ".join(
            f"{x + SIZE * math.cos(math.radians(60 * k + 30)):.1f},{y + SIZE * math.sin(math.radians(60 * k + 30)):.1f}"
            for k in range(6)
        )
        fill = "#fff3c4" if spot == geo.center else "#f4f4f4"
        out.append(f'<polygon points="{corners}" fill="{fill}" stroke="#aaa"/>')
        piece = state.board[spot]
        if piece is not None:
            seat, kind = piece
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.68:.1f}" fill="{OWNERS[seat]}" stroke="#333"/>')
            out.append(svg_text(x, y + 5, kind, 15, TEXT_ON[seat], bold=True))
    for r in range(-geo.radius, geo.radius + 1):
        qmin = max(-geo.radius, -geo.radius - r)
        x = cx0 + w * (qmin + r / 2) - w * 0.85
        y = cy0 - 1.5 * SIZE * r
        out.append(svg_text(x, y + 4, chr(ord("a") + r + geo.radius), 12, "#666"))
    dice = "  |  ".join(f"D{i + 1} {face or '-'}" for i, face in enumerate(state.dice))
    out.append(svg_text(MARGIN, legend_top + 10, f"dice: {dice}", 14, "#222", anchor="start"))
    for seat, player in enumerate(game.players):
        y = legend_top + 34 + 22 * seat
        out.append(f'<circle cx="{MARGIN + 7}" cy="{y - 5}" r="7" fill="{OWNERS[seat]}" stroke="#333"/>')
        if state.eliminated[seat]:
            line = f"{COLOURS[seat]} {player}: eliminated"
        else:
            hand = state.hands[seat]
            coins = (
                f"{hand.count} coins" if isinstance(hand, Hidden) else "coins " + (" ".join(coins_list(hand)) or "none")
            )
            used = " ".join(coins_list(state.used[seat])) or "none"
            line = f"{COLOURS[seat]} {player}: {coins}; used {used}; spare {_spare(state, seat) or 'none'}"
        out.append(svg_text(MARGIN + 20, y, line, 13, "#222", anchor="start"))
    return document(width, height, out)


RENDERERS = [Renderer("glyph-chess", "svg", "image/svg+xml", svg)]
