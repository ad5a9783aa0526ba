"""Glyph Chess registers itself through tabletop's hooks, like any plugin."""

from __future__ import annotations

from tabletop import Renderer, hookimpl

from .game import GlyphChess


@hookimpl
def register_games():
    return [GlyphChess]


@hookimpl
def register_bots():
    # Imported when a command first asks for a bot (the registry gathers them then).
    from .bots import BOTS

    return BOTS


@hookimpl
def register_renderers():
    # The picture module is imported when a picture is first drawn.
    return [Renderer.lazy("glyph-chess", "svg", "image/svg+xml", "tabletop_glyph_chess.picture")]
