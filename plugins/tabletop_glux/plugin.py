"""Glüx registers itself through tabletop's hooks, like any plugin."""

from __future__ import annotations

from tabletop import hookimpl

from .bots import BOTS
from .game import Glux
from .picture import RENDERERS


@hookimpl
def register_games():
    return [Glux]


@hookimpl
def register_bots():
    return BOTS


@hookimpl
def register_renderers():
    return RENDERERS
