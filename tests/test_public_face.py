"""The public face does not move while the inside does: every name tabletop
exports, every module path the docs gave plugin authors before the modules
were laid out in wings, and every path the docs give now, imports."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys

import pytest

import tabletop
from tabletop.base.moved import OLD_PATHS

from .conftest import ROOT

#: Every dotted path under ``tabletop`` that README.md and docs/ named before
#: the wings (frozen: plugins and scripts were written against these).
BEFORE_THE_WINGS = """
tabletop.Bot tabletop.Deal tabletop.Deal.fill tabletop.Event tabletop.Fast tabletop.Game tabletop.Header
tabletop.Hidden tabletop.IllegalEventError tabletop.Legend tabletop.MCTS tabletop.Match tabletop.Memo
tabletop.NotationError tabletop.Registry tabletop.Renderer tabletop.Replay tabletop.Rules tabletop.Subset
tabletop.TabletopError tabletop.Turn tabletop.TurnFast tabletop.TurnStep tabletop.Variant tabletop.answers
tabletop.api tabletop.api.rollouts tabletop.caches tabletop.chain tabletop.chance tabletop.cli tabletop.cli.pbem
tabletop.dice tabletop.engine tabletop.events tabletop.facets tabletop.folders tabletop.gathering_rule
tabletop.get_plugin_manager tabletop.header_rule tabletop.hookdocs tabletop.hookimpl tabletop.installed
tabletop.intervals tabletop.jsonline tabletop.limits tabletop.live tabletop.live.random_choice tabletop.logfile
tabletop.mcts tabletop.memo tabletop.move_rule tabletop.nodes tabletop.notation tabletop.numbering
tabletop.numbering.Numbering tabletop.open tabletop.openspiel tabletop.openspiel.OmniscientSearchWarning
tabletop.openspiel.register tabletop.options tabletop.options.Number tabletop.options.between
tabletop.origin.made_by tabletop.paired tabletop.paired.Paired tabletop.parts tabletop.parts.records
tabletop.payloads tabletop.pettingzoo tabletop.planes tabletop.planes.Planes tabletop.plugins tabletop.progress
tabletop.redaction tabletop.registering tabletop.registry tabletop.results tabletop.results.Results
tabletop.rollouts tabletop.rulehook tabletop.rules tabletop.rules.fast_form tabletop.runs tabletop.runs.Run
tabletop.runs.play tabletop.sampling.below tabletop.sampling.draws_uniformly tabletop.sampling.sampled_by
tabletop.secretfile tabletop.seen tabletop.seen.choice tabletop.seen.picture tabletop.seen.public tabletop.shapes
tabletop.shapes.seen tabletop.simulation tabletop.simulation.ClusterLost tabletop.simulation.Interrupted
tabletop.simulation.Out tabletop.simulation.Plan tabletop.simulation.run tabletop.simulation.stream
tabletop.simulation.stream_written tabletop.start tabletop.stats tabletop.stats.Summary tabletop.steps
tabletop.steps.decided_by tabletop.steps.decider tabletop.svg tabletop.svg.least tabletop.svg.spot
tabletop.targets tabletop.testing tabletop.testing.conform tabletop.testing.twins tabletop.totals
tabletop.totals.Totals tabletop.transcript.Transcript.notes tabletop.tuning tabletop.turn tabletop.turn.TurnFast
tabletop.twin tabletop.twin.twin tabletop.viewer.write_html tabletop.views
""".split()

#: Dotted words in the docs that are not Python paths: an entry-point group
#: a key of a results file's metadata and a mail's Message-ID.
NOT_PATHS = {"tabletop.games", "tabletop.run", "tabletop.GAME"}


def found(path: str) -> object:
    """What ``path`` names: the longest module it begins with, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            thing = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            thing = getattr(thing, name)
        return thing
    raise ModuleNotFoundError(path)


def named_in_docs() -> list[str]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    paths = set()
    for page in pages:
        paths.update(re.findall(r"\btabletop(?:\.[A-Za-z_]\w*)+", page.read_text(encoding="utf-8")))
    return sorted(paths - NOT_PATHS)


@pytest.mark.parametrize("name", tabletop.__all__)
def test_every_exported_name_imports(name):
    assert getattr(tabletop, name) is not None
    assert name in dir(tabletop)


@pytest.mark.parametrize("path", BEFORE_THE_WINGS)
def test_a_path_the_docs_gave_before_the_wings_still_imports(path):
    assert found(path) is not None


@pytest.mark.parametrize("path", named_in_docs())
def test_a_path_the_docs_give_imports(path):
    assert found(path) is not None


@pytest.mark.parametrize("old", sorted(OLD_PATHS))
def test_an_old_module_path_is_the_module_at_its_new_place(old):
    """One module under two names: a name set through one is seen through the other."""
    assert importlib.import_module(f"tabletop.{old}") is importlib.import_module(f"tabletop.{OLD_PATHS[old]}")


def test_old_paths_in_a_plugin_as_written_before_the_wings():
    """``from tabletop import live`` and ``from tabletop.shapes import Deal``,
    in a fresh interpreter, as a plugin written against the old docs does."""
    code = (
        "from tabletop import live, memo\n"
        "from tabletop.shapes import Deal\n"
        "import tabletop.openspiel\n"
        "from tabletop.numbering import Numbering\n"
        "import tabletop.model.shapes, tabletop.play.live\n"
        "assert Deal is tabletop.model.shapes.Deal and live is tabletop.play.live\n"
        "assert tabletop.openspiel.register is tabletop.ai.openspiel.register\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_an_unknown_path_is_still_unknown():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("tabletop.no_such_module")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("tabletop.live.no_such_module")
