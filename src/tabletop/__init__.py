"""tabletop: turn-based board games as event-sourced logs.

Plugins import what they need from here and never from pluggy::

    from tabletop import Game, Variant, hookimpl, rulehook, rulespec

Scripts start from :func:`open` (a recorded game) and :func:`start` (a new
one); see docs/api.md.
"""

from .api import Moment, Record, Table, open, start
from .engine import Match, Replay
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
from .game import Fast, Game, Hidden
from .header import Header, Randomness
from .mcts import MCTS
from .nodes import Chance, Decide, Forced, Outcome, Over
from .plugins import get_plugin_manager, hookimpl
from .registry import Registry
from .rules import Parameter, Rules, rulehook, rulespec

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
    "Fast",
    "Forced",
    "Game",
    "Header",
    "Hidden",
    "IllegalEventError",
    "LogFormatError",
    "MCTS",
    "Match",
    "Moment",
    "NotationError",
    "Outcome",
    "Over",
    "Parameter",
    "PluginError",
    "Randomness",
    "Registry",
    "Renderer",
    "Record",
    "Replay",
    "Reveal",
    "Rules",
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
