"""The module paths of tabletop before its modules were laid out in wings,
kept working for plugins and scripts written against them.

``import tabletop.live`` and ``from tabletop.shapes import Deal`` give the
module at its new place (``tabletop.play.live``, ``tabletop.model.shapes``):
the same module object under both names, so a name set on one is seen
through the other. Nothing is imported until an old path is asked for.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from types import ModuleType

#: Each old module name under ``tabletop.``, and where it lives now.
OLD_PATHS = {
    # base
    "errors": "base.errors",
    "lazy": "base.lazy",
    "caches": "base.caches",
    "limits": "base.limits",
    "progress": "base.progress",
    # log
    "header": "log.header",
    "jsonline": "log.jsonline",
    "files": "log.files",
    "appending": "log.appending",
    "secretfile": "log.secretfile",
    "logfile": "log.logfile",
    "folders": "log.folders",
    "chain": "log.chain",
    # model
    "events": "model.events",
    "payloads": "model.payloads",
    "nodes": "model.nodes",
    "memo": "model.memo",
    "dice": "model.dice",
    "twin": "model.twin",
    "steps": "model.steps",
    "shapes": "model.shapes",
    "notation": "model.notation",
    "facets": "model.facets",
    "options": "model.options",
    "game": "model.game",
    "numbering": "model.numbering",
    # host
    "rules": "host.rules",
    "answers": "host.answers",
    "extensions": "host.extensions",
    "registering": "host.registering",
    "registry": "host.registry",
    "plugins": "host.plugins",
    "installed": "host.installed",
    "hookspecs": "host.hookspecs",
    "hookdocs": "host.hookdocs",
    # sight
    "seen": "sight.seen",
    "views": "sight.views",
    "viewdata": "sight.viewdata",
    "planes": "sight.planes",
    "pictures": "sight.pictures",
    "svg": "sight.svg",
    # play
    "standing": "play.standing",
    "chance": "play.chance",
    "sampling": "play.sampling",
    "turn": "play.turn",
    "engine": "play.engine",
    "live": "play.live",
    "table": "play.table",
    "rollouts": "play.rollouts",
    "mcts": "play.mcts",
    "snapshot": "play.snapshot",
    "builtin": "play.builtin",
    # many
    "simulation": "many.simulation",
    "runs": "many.runs",
    "parts": "many.parts",
    "results": "many.results",
    "totals": "many.totals",
    "stats": "many.stats",
    "paired": "many.paired",
    "targets": "many.targets",
    "tuning": "many.tuning",
    "tournament": "many.tournament",
    "balance": "many.balance",
    "plotting": "many.plotting",
    "intervals": "many.intervals",
    "origin": "many.origin",
    # review
    "study": "review.study",
    "analysis": "review.analysis",
    "transcript": "review.transcript",
    "redaction": "review.redaction",
    "diffing": "review.diffing",
    # ai
    "openspiel": "ai.openspiel",
    "pettingzoo": "ai.pettingzoo",
    "returns": "ai.returns",
}


class _Alias:
    """Finds ``tabletop.OLD`` (and modules under it) and loads it as the module
    at its new path: a finder and loader as the import system calls them
    (``importlib.abc``'s bases would import ``importlib.resources`` into
    every command's start-up)."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = self.new_name(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, origin=new)

    def new_name(self, fullname: str) -> str | None:
        head, _, rest = fullname.partition(".")
        if head != self.package or not rest:
            return None
        first, _, tail = rest.partition(".")
        moved = OLD_PATHS.get(first)
        if moved is None:
            return None
        return f"{self.package}.{moved}" + (f".{tail}" if tail else "")

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(str(spec.origin))

    def exec_module(self, module: ModuleType) -> None:
        """The module ran at its new path already."""


def install(package: str) -> None:
    """Let ``package``'s old module paths be imported (once per process)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias(package))
