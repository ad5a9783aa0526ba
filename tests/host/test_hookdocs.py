"""The hook reference is generated from the hookspecs: every hook appears with
its family, signature and docstring, and a stale page is noticed."""

from __future__ import annotations

import sys
import textwrap

import pytest

from tabletop.host import hookdocs
from tabletop.host.rules import GATHERING, HEADER, MOVE, family_of

SPECS = '''
"""Hooks of a test game."""
from tabletop.host.rules import gathering_rule, header_rule, move_rule, rulespec

# -- setup ------------------------------------------------------------


@header_rule
def toy_size(players: int) -> int | None:
    """How big the board is.

    Example::

        @rulehook
        def toy_size(self, players):
            return 9
    """


# -- play ---------------------------------------------------------------


@move_rule
def toy_may_move(game, state, seat: int) -> bool | None:
    """Whether ``seat`` may move now (see :class:`~toy.State`)."""


@gathering_rule
def toy_extras(game, state) -> list | None:
    """Extra decisions, from every variant."""


@rulespec
def toy_plain(game):
    """Declared the old way: a gathering hook."""
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    (tmp_path / "toy_specs.py").write_text(textwrap.dedent(SPECS))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "toy_specs"
    sys.modules.pop("toy_specs", None)


def test_each_hook_is_written_with_its_family_signature_and_docstring_under_its_section(toy):
    text = hookdocs.reference(toy)
    order = [text.index(s) for s in ("### Setup", "`toy_size`", "### Play", "`toy_may_move`", "`toy_extras`")]
    assert order == sorted(order)
    assert f"*{HEADER}*" in text and f"*{MOVE}*" in text and text.count(f"*{GATHERING}*") == 2
    assert "toy_size(players) -> int | None" in text
    assert "```python\n@rulehook\ndef toy_size(self, players):\n    return 9\n```" in text
    assert "`seat` may move now (see `toy.State`)" in text


def test_a_stale_page_is_found_and_rewritten(toy, tmp_path):
    page = tmp_path / "hooks.md"
    page.write_text(f"# Hooks\n\n<!-- hooks: {toy} -->\nold text\n<!-- /hooks -->\n\nMore prose.\n")
    assert hookdocs.main(["--check", str(page)]) == 1
    assert "old text" in page.read_text()
    assert hookdocs.main([str(page)]) == 0
    fresh = page.read_text()
    assert "old text" not in fresh and "`toy_extras`" in fresh and fresh.endswith("More prose.\n")
    assert hookdocs.main(["--check", str(page)]) == 0


def test_families_are_told_apart(toy):
    import importlib

    module = importlib.import_module(toy)
    assert [family_of(getattr(module, n)) for n in ("toy_size", "toy_may_move", "toy_extras", "toy_plain")] == [
        HEADER,
        MOVE,
        GATHERING,
        GATHERING,
    ]
    assert family_of(test_families_are_told_apart) is None


def test_the_hook_reference_is_the_hookspecs_of_every_installed_game(registry):
    from ..conftest import ROOT

    page = ROOT / "docs" / "hooks.md"
    marked = set(hookdocs.MARK_NAMES.findall(page.read_text()))
    games = {cls.rule_specs.__name__ for name, cls in registry.games.items() if name != "pile"}
    assert games <= marked, "a game's hooks have no generated place in docs/hooks.md"
    assert hookdocs.main(["--check", str(page)]) == 0, "docs/hooks.md is stale: run python -m tabletop.host.hookdocs"


def test_a_missing_page_or_module_is_one_line_and_exit_2(tmp_path, capsys):
    assert hookdocs.main([str(tmp_path / "none.md")]) == 2
    page = tmp_path / "hooks.md"
    page.write_text("<!-- hooks: no_such_module.hookspecs -->\n<!-- /hooks -->\n")
    assert hookdocs.main([str(page)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "none.md: cannot read it" in err and "no_such_module" in err
    assert page.read_text() == "<!-- hooks: no_such_module.hookspecs -->\n<!-- /hooks -->\n"
