"""tabletop: turn-based board games as event-sourced logs.

Plugins import what they need from here and never from pluggy::

    from tabletop import Game, Variant, hookimpl, rulehook, rulespec

Scripts start from :func:`open` (a recorded game) and :func:`start` (a new
one); see docs/api.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import names

#: Where each name of the package lives. Imported on first use, so that a
#: command that needs none of them (``tabletop --help``) starts at once.
_WHERE = {
    "Moment": "api",
    "Record": "api",
    "Table": "api",
    "open": "api",
    "start": "api",
    "Match": "engine",
    "Replay": "engine",
    "CheckFailed": "errors",
    "IllegalEventError": "errors",
    "LogFormatError": "errors",
    "NotationError": "errors",
    "PluginError": "errors",
    "TabletopError": "errors",
    "UsageError": "errors",
    "CHANCE": "events",
    "DECISION": "events",
    "Event": "events",
    "RULES": "events",
    "Reveal": "events",
    "Bot": "extensions",
    "Renderer": "extensions",
    "Legend": "extensions",
    "Symbol": "extensions",
    "Variant": "extensions",
    "Fast": "game",
    "Game": "game",
    "Hidden": "game",
    "Header": "header",
    "Randomness": "header",
    "MCTS": "mcts",
    "Memo": "memo",
    "Chance": "nodes",
    "Decide": "nodes",
    "Forced": "nodes",
    "Outcome": "nodes",
    "Over": "nodes",
    "get_plugin_manager": "plugins",
    "hookimpl": "plugins",
    "Registry": "registry",
    "Parameter": "rules",
    "Rules": "rules",
    "rulehook": "rules",
    "rulespec": "rules",
    "gathering_rule": "rules",
    "header_rule": "rules",
    "move_rule": "rules",
    "Deal": "shapes",
    "One": "shapes",
    "Order": "shapes",
    "Subset": "shapes",
    "YesNo": "shapes",
    "Turn": "turn",
    "TurnFast": "turn",
    "TurnStep": "steps",
}

if TYPE_CHECKING:
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
    from .extensions import Bot, Legend, Renderer, Symbol, Variant
    from .game import Fast, Game, Hidden
    from .header import Header, Randomness
    from .mcts import MCTS
    from .memo import Memo
    from .nodes import Chance, Decide, Forced, Outcome, Over
    from .plugins import get_plugin_manager, hookimpl
    from .registry import Registry
    from .rules import Parameter, Rules, gathering_rule, header_rule, move_rule, rulehook, rulespec
    from .shapes import Deal, One, Order, Subset, YesNo
    from .steps import TurnStep
    from .turn import Turn, TurnFast


__getattr__, __dir__ = names(__name__, _WHERE)


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
    "Deal",
    "One",
    "Order",
    "Outcome",
    "Over",
    "Parameter",
    "PluginError",
    "Randomness",
    "Registry",
    "Legend",
    "Renderer",
    "Symbol",
    "Record",
    "Replay",
    "Reveal",
    "Rules",
    "Subset",
    "Table",
    "TabletopError",
    "Turn",
    "TurnFast",
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
