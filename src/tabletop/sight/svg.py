"""Small helpers for the SVG pictures games draw (``register_renderers``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from ..model.nodes import Chance, Decide, Forced, Over

#: The frame drawn round what the latest event changed.
HIGHLIGHT = "#111111"

#: The narrowest a picture is shown: the viewer on a phone 390 CSS pixels
#: wide, less the page's margins and the board's frame.
NARROWEST = 372
#: The smallest text, in CSS pixels, that still reads on a phone.
SMALLEST = 9


def least(width: float) -> int:
    """The smallest font size for a picture ``width`` units wide: text of
    that size still reads at :data:`SMALLEST` pixels once the picture is
    scaled down to a phone's width (:data:`NARROWEST`)."""
    return math.ceil(SMALLEST * width / NARROWEST - 1e-9)


#: Rough widths of Helvetica's characters, in ems (wide capitals, narrow
#: punctuation), enough to keep lines of text apart without a font at hand.
_NARROW = set(" .,:;'!|()[]/-ijlrtf1")
_WIDE = set("MWmw@%")


def measure(content: str, size: float) -> float:
    """About how wide ``content`` is at ``size`` (erring wide)."""
    ems = sum(0.34 if c in _NARROW else 0.9 if c in _WIDE else 0.72 if c.isupper() else 0.58 for c in content)
    return ems * size


def wrap(content: str, size: float, width: float, breaks: str = "; ") -> list[str]:
    """``content`` as lines no wider than ``width`` at ``size``, broken
    after ``breaks`` where it can, else after a space (a word longer than
    the line stays whole)."""
    lines: list[str] = []
    rest = content
    while measure(rest, size) > width:
        cut = _cut(rest, size, width, breaks) or _cut(rest, size, width, " ")
        if cut is None:
            break
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    return [*lines, rest]


def _cut(content: str, size: float, width: float, sep: str) -> int | None:
    best = None
    at = content.find(sep)
    while at > 0 and measure(content[: at + len(sep.rstrip())], size) <= width:
        best = at + len(sep)
        at = content.find(sep, at + 1)
    return best


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


def spot(name: str, x: float, y: float) -> str:
    """The attributes that name a square or spot of the board on the element
    that draws it: ``data-spot`` (its name, as the game's notation writes it)
    and its centre (``data-x``, ``data-y``). A study's highlights and arrows
    are drawn over the picture from these alone, so a picture marks every
    spot its notation can name, each once."""
    return f'data-spot="{escape(name, quote=True)}" data-x="{x:.1f}" data-y="{y:.1f}"'


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


def heading(title: str, turn: str, size: int, x: float, width: float) -> tuple[list[str], float]:
    """A picture's heading: ``title`` in bold, then whose turn it is (or the
    result) below it, wrapped to the picture's ``width``. Returns the text
    elements and how far down the heading reaches past its two lines (0
    unless whose turn it is takes more than one)."""
    step = size + 5
    out = [text(x, size + 6, title, size + 1, "#222", bold=True, anchor="start")]
    lines = wrap(turn, size, width - 2 * x)
    for i, line in enumerate(lines):
        out.append(text(x, size + 6 + step * (i + 1), line, size, "#333", anchor="start"))
    return out, size + 6 + step * len(lines)


#: How far an arrowhead reaches back from its tip, in units of the arrow's width.
HEAD = 6


def arrowhead(ident: str = "arrow", fill: str = HIGHLIGHT) -> str:
    """The ``<marker>`` that ends every :func:`arrow` (once per picture, in ``<defs>``)."""
    return (
        f'<marker id="{ident}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="{HEAD}" markerHeight="{HEAD}" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{fill}"/></marker>'
    )


def arrow(
    start: tuple[float, float],
    end: tuple[float, float],
    clear: float,
    width: float = 2.5,
    attributes: str = "",
    side: int = 1,
    ident: str = "arrow",
) -> str:
    """An arrow from ``start`` to ``end`` that stays ``clear`` away from both
    (from the rim of what stands there, not across it). Where the straight
    way between the rims is too short for the head and a little shaft (a
    step to the next square), the arrow bows out to one side instead (``side``
    1: the left of the way, -1: the right), so that it is never hidden under
    the pieces it joins. A white edge keeps it legible over anything."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    extra = f" {attributes}" if attributes else ""
    if length - 2 * clear >= (HEAD + 3) * width:
        shape = f"M{x1 + ux * clear:.1f},{y1 + uy * clear:.1f} L{x2 - ux * clear:.1f},{y2 - uy * clear:.1f}"
    else:
        # An arch: up from the top of the near rim, over, and down onto the
        # top of the far one, the head pointing at what it reaches.
        nx, ny = uy * side, -ux * side
        reach = clear + HEAD * width * 1.7
        shape = (
            f"M{x1 + clear * nx:.1f},{y1 + clear * ny:.1f} C{x1 + reach * nx:.1f},{y1 + reach * ny:.1f} "
            f"{x2 + reach * nx:.1f},{y2 + reach * ny:.1f} {x2 + clear * nx:.1f},{y2 + clear * ny:.1f}"
        )
    return (
        f'<g{extra}><path d="{shape}" fill="none" stroke="white" stroke-width="{width + 3}" stroke-linecap="round"/>'
        f'<path d="{shape}" fill="none" stroke="{HIGHLIGHT}" stroke-width="{width}" marker-end="url(#{ident})"/></g>'
    )


def latest(history: Sequence[Any], kinds: tuple[type, ...]) -> Any:
    """The most recent event of one of ``kinds`` in ``history``, or None."""
    for event in reversed(history):
        if isinstance(event, kinds):
            return event
    return None
