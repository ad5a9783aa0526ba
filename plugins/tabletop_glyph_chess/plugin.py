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


def svg(game, state, viewer, history=None):
    """The board as an SVG picture (:mod:`.picture`, imported when a picture is drawn)."""
    from .picture import svg

    return svg(game, state, viewer, history)


def legend(game):
    """The key to the pictures (:mod:`.picture`, imported when the viewer asks)."""
    from .picture import legend

    return legend(game)


@hookimpl
def register_renderers():
    return [Renderer("glyph-chess", "svg", "image/svg+xml", svg, legend)]
