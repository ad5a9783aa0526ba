"""A module's private names stay its own: no module imports another's
``_name`` or reads or writes another module's ``obj._name``.

A name is the module's own when the same file defines it (a function or
class ``_name``, or ``self._name`` / ``cls._name`` assigned in one of its
classes): ``other._name`` in a ``__eq__`` of that class is its own business.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import ROOT

FOLDERS = ("src", "plugins", "variants", "examples")

#: The standard library's own private names that it documents for use, or
#: that no public name replaces: each with its reason.
STANDARD = {
    "os._exit": "leaving a forked worker without running its parent's handlers",
    "sys._getframe": "documented; the caller's module, as the standard library's own code reads it",
    "imap._new_tag": "imaplib has no public way to send a command it does not know (IDLE) with a tag of its series",
    "box._toc": "mailbox.Maildir's table of contents, refreshed by no public method",
}


def _own(tree: ast.Module) -> set[str]:
    """The private names a module defines: its functions and classes, and
    the attributes its classes set on ``self`` or ``cls``."""
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            own.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)  # a slotted or attrs class's declared field
        elif isinstance(node, ast.Assign):
            own.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return {name for name in own if name.startswith("_")}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def reached(path: Path) -> list[str]:
    """Where ``path`` reaches another module's private names."""
    tree = ast.parse(path.read_text(), str(path))
    own = _own(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            found += [f"{node.lineno}: from {node.module} import {a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            value = node.value
            if isinstance(value, ast.Name) and value.id in ("self", "cls"):
                continue
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
                continue
            text = ast.unparse(node)
            if text not in STANDARD:
                found.append(f"{node.lineno}: {text}")
    return found


def _modules() -> list[Path]:
    return sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py"))


def test_no_module_reaches_another_modules_private_names():
    found = {str(path.relative_to(ROOT)): where for path in _modules() if (where := reached(path))}
    assert not found, found


@pytest.mark.parametrize(
    "source",
    [
        "from .render import _player_line\n",
        "def f(game):\n    return game._draw_nodes[0]\n",
        "def f(report):\n    report._cache = {}\n",
    ],
)
def test_the_scan_finds_a_private_name_reached(tmp_path, source):
    path = tmp_path / "m.py"
    path.write_text(source)
    assert reached(path)


def test_the_scan_lets_a_class_read_its_own_private_fields_of_another_instance(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        "class A:\n    def __init__(self):\n        self._x = 1\n"
        "    def __eq__(self, other):\n        return self._x == other._x\n"
    )
    assert reached(path) == []
