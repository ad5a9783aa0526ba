"""Glüx registers itself through tabletop's hooks, like any plugin."""

from __future__ import annotations

from tabletop import Renderer, hookimpl

from .game import Glux


@hookimpl
def register_games():
    return [Glux]


@hookimpl
def register_bots():
    # Imported when a command first asks for a bot (the registry gathers them then).
    from .bots import BOTS

    return BOTS


@hookimpl
def register_renderers():
    # The picture module is imported when a picture is first drawn.
    return [Renderer.lazy("glux", "svg", "image/svg+xml", "tabletop_glux.picture")]
