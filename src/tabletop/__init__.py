"""tabletop: turn-based board games as event-sourced logs.

Plugins import what they need from here and never from pluggy::

    from tabletop import Game, Variant, hookimpl, rulehook, rulespec

Scripts start from :func:`open` (a recorded game) and :func:`start` (a new
one); see docs/api.md.
"""

from .api import Moment, Record, Table, open, start
from .errors import (
    CheckFailed,
    IllegalEventError,
    LogFormatError,
    NotationError,
    PluginError,
    TabletopError,
    UsageError,
)
from .events import CHANCE, DECISION, RULES, Event, Reveal
from .extensions import Bot, Renderer, Variant
from .game import Game
from .mcts import MCTS
from .nodes import Chance, Decide, Forced, Outcome, Over
from .plugins import get_plugin_manager, hookimpl
from .registry import Registry, rulehook, rulespec

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "DECISION",
    "RULES",
    "Bot",
    "Chance",
    "CheckFailed",
    "Decide",
    "Event",
    "Forced",
    "Game",
    "MCTS",
    "Moment",
    "IllegalEventError",
    "LogFormatError",
    "NotationError",
    "Outcome",
    "Over",
    "PluginError",
    "Registry",
    "Renderer",
    "Record",
    "Reveal",
    "Table",
    "TabletopError",
    "UsageError",
    "Variant",
    "get_plugin_manager",
    "hookimpl",
    "open",
    "rulehook",
    "rulespec",
    "start",
]
