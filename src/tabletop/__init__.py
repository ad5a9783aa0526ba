"""tabletop: turn-based board games as event-sourced logs.

Plugins import what they need from here and never from pluggy::

    from tabletop import Game, Variant, hookimpl, rulehook, rulespec

Scripts start from :func:`open` (a recorded game) and :func:`start` (a new
one); see docs/api.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import moved
from .base.lazy import names

#: Where each name of the package lives. Imported on first use, so that a
#: command that needs none of them (``tabletop --help``) starts at once.
_WHERE = {
    "Moment": "api",
    "Record": "api",
    "Table": "api",
    "open": "api",
    "start": "api",
    "Match": "play.engine",
    "Replay": "play.engine",
    "CheckFailed": "base.errors",
    "IllegalEventError": "base.errors",
    "LogFormatError": "base.errors",
    "NotationError": "base.errors",
    "PluginError": "base.errors",
    "TabletopError": "base.errors",
    "UsageError": "base.errors",
    "CHANCE": "model.events",
    "DECISION": "model.events",
    "Event": "model.events",
    "RULES": "model.events",
    "Reveal": "model.events",
    "Bot": "host.extensions",
    "Renderer": "host.extensions",
    "Legend": "host.extensions",
    "Symbol": "host.extensions",
    "Variant": "host.extensions",
    "Fast": "model.game",
    "Game": "model.game",
    "Hidden": "model.game",
    "Header": "log.header",
    "Randomness": "log.header",
    "MCTS": "play.mcts",
    "Memo": "model.memo",
    "Chance": "model.nodes",
    "Decide": "model.nodes",
    "Forced": "model.nodes",
    "Outcome": "model.nodes",
    "Over": "model.nodes",
    "get_plugin_manager": "host.plugins",
    "hookimpl": "host.plugins",
    "Registry": "host.registry",
    "Parameter": "host.rules",
    "Rules": "host.rules",
    "rulehook": "host.rules",
    "rulespec": "host.rules",
    "gathering_rule": "host.rules",
    "header_rule": "host.rules",
    "move_rule": "host.rules",
    "Bare": "model.shapes",
    "Deal": "model.shapes",
    "Lot": "model.shapes",
    "One": "model.shapes",
    "Order": "model.shapes",
    "Shown": "model.shapes",
    "Subset": "model.shapes",
    "YesNo": "model.shapes",
    "Turn": "play.turn",
    "TurnFast": "play.turn",
    "TurnStep": "model.steps",
}

if TYPE_CHECKING:
    from .api import Moment, Record, Table, open, start
    from .base.errors import (
        CheckFailed,
        IllegalEventError,
        LogFormatError,
        NotationError,
        PluginError,
        TabletopError,
        UsageError,
    )
    from .host.extensions import Bot, Legend, Renderer, Symbol, Variant
    from .host.plugins import get_plugin_manager, hookimpl
    from .host.registry import Registry
    from .host.rules import Parameter, Rules, gathering_rule, header_rule, move_rule, rulehook, rulespec
    from .log.header import Header, Randomness
    from .model.events import CHANCE, DECISION, RULES, Event, Reveal
    from .model.game import Fast, Game, Hidden
    from .model.memo import Memo
    from .model.nodes import Chance, Decide, Forced, Outcome, Over
    from .model.shapes import Bare, Deal, Lot, One, Order, Shown, Subset, YesNo
    from .model.steps import TurnStep
    from .play.engine import Match, Replay
    from .play.mcts import MCTS
    from .play.turn import Turn, TurnFast


__getattr__, __dir__ = names(__name__, _WHERE)
moved.install(__name__)


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
    "Bare",
    "Deal",
    "Lot",
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
    "Shown",
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
