"""Small helpers for the SVG pictures games draw (``register_renderers``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from .nodes import Chance, Decide, Forced, Over

#: The frame drawn round what the latest event changed.
HIGHLIGHT = "#111111"


def text(x: float, y: float, content: str, size: int, fill: str, bold: bool = False, anchor: str = "middle") -> str:
    """A ``<text>`` element, its content escaped."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
        f'text-anchor="{anchor}"{weight}>{escape(content)}</text>'
    )


#: The marks that tell owners apart without colour, by seat.
SHAPES = ("circle", "square", "diamond", "hexagon")


def shape(seat: int, cx: float, cy: float, r: float, fill: str, stroke: str = "none", width: float = 0) -> str:
    """The seat's mark: a circle, a square, a diamond or a hexagon of radius
    ``r``, so that ownership never rests on colour alone."""
    paint = f'fill="{fill}" stroke="{stroke}"' + (f' stroke-width="{width}"' if width else "")
    kind = SHAPES[seat % len(SHAPES)]
    if kind == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {paint}/>'
    if kind == "square":
        s = r * 0.9
        return f'<rect x="{cx - s:.1f}" y="{cy - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" rx="2" {paint}/>'
    corners = 4 if kind == "diamond" else 6
    points = " ".join(
        f"{cx + r * 1.1 * math.sin(2 * math.pi * k / corners):.1f},{cy - r * 1.1 * math.cos(2 * math.pi * k / corners):.1f}"
        for k in range(corners)
    )
    return f'<polygon points="{points}" {paint}/>'


def document(width: int, height: int, body: list[str], title: str = "", desc: str = "") -> str:
    """A whole SVG document on a white ground, with ``<title>`` and ``<desc>``
    (what a screen reader says, and what a mail reader shows as its name)."""
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" role="img">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(desc)}</desc>",
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    return "\n".join([*head, *body, "</svg>"]) + "\n"


def whose_turn(game: Any, state: Any, viewer: str | None) -> str:
    """Who acts next, or the result, in a few words (for a picture's title).

    What is asked of a player is shown only to that player (and to an
    all-seeing viewer): it may name a hidden chip.
    """
    node = game.next(state)
    if isinstance(node, Over):
        return "game over, " + game.outcome(state).verdict()
    if isinstance(node, Decide):
        return "; ".join(f"{p} to {game.asks(state, p) if viewer in (None, p) else 'decide'}" for p in node.players)
    if isinstance(node, Chance):
        # Whose draw it is, when every possible outcome is one player's.
        whose = {getattr(o, "player", None) for o in node.outcomes}
        if len(whose) == 1 and None not in whose:
            return f"a chance outcome for {whose.pop()} is due"
        return "a chance outcome is due"
    assert isinstance(node, Forced)
    return "the rules decide next"


def latest(history: Sequence[Any], kinds: tuple[type, ...]) -> Any:
    """The most recent event of one of ``kinds`` in ``history``, or None."""
    for event in reversed(history):
        if isinstance(event, kinds):
            return event
    return None
