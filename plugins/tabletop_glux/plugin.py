"""Glüx registers itself through tabletop's hooks, like any plugin."""

from __future__ import annotations

from tabletop import hookimpl

from .bots import BOTS
from .picture import RENDERERS
from .game import Glux


@hookimpl
def register_games():
    return [Glux]


@hookimpl
def register_bots():
    return BOTS


@hookimpl
def register_renderers():
    return RENDERERS
