"""Small helpers for the SVG pictures games draw (``register_renderers``)."""

from __future__ import annotations

from html import escape


def text(x: float, y: float, content: str, size: int, fill: str, bold: bool = False, anchor: str = "middle") -> str:
    """A ``<text>`` element, its content escaped."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
        f'text-anchor="{anchor}"{weight}>{escape(content)}</text>'
    )


def document(width: int, height: int, body: list[str]) -> str:
    """A whole SVG document on a white ground."""
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    return "\n".join([*head, *body, "</svg>"]) + "\n"
