"""Liar's Dice registers itself through tabletop's hooks, like any plugin."""

from __future__ import annotations

from tabletop import hookimpl

from .game import LiarsDice


@hookimpl
def register_games():
    return [LiarsDice]


@hookimpl
def register_bots():
    from .bots import BOTS

    return BOTS
