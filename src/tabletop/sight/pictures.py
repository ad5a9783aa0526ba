"""Pictures in other formats than the ones games draw: PNG from SVG, for the
mail readers that show no SVG attachment inline."""

from __future__ import annotations

from ..base.errors import UsageError

#: Pixels per SVG unit in a PNG: sharp on a high-density screen, small in a mail.
PNG_SCALE = 2.0


def png(svg: str, scale: float = PNG_SCALE) -> bytes:
    """``svg`` as a PNG image (needs the ``png`` extra: cairosvg and the cairo library)."""
    try:
        import cairosvg
    except (ImportError, OSError):  # OSError: the package is there, the cairo library is not
        raise UsageError(
            "PNG pictures need the png extra: pip install 'tabletop[png]' (and the cairo library)"
        ) from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
