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
from .memo import Memo
from .nodes import Chance, Decide, Forced, Outcome, Over
from .plugins import get_plugin_manager, hookimpl
from .registry import Registry
from .rules import Parameter, Rules, gathering_rule, header_rule, move_rule, rulehook, rulespec
from .shapes import One, Order, Subset, YesNo
from .steps import Steps, TurnStep

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
    "Memo",
    "Moment",
    "NotationError",
    "One",
    "Order",
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
    "Steps",
    "Subset",
    "Table",
    "TabletopError",
    "TurnStep",
    "UsageError",
    "Variant",
    "YesNo",
    "gathering_rule",
    "get_plugin_manager",
    "header_rule",
    "hookimpl",
    "move_rule",
    "open",
    "rulehook",
    "rulespec",
    "start",
]
