"""The shape of the code, held: src/tabletop is laid out in wings, each of
which may import only the wings below it, and no module imports itself
round a circle, in tabletop or in either game.

Every import counts, at the top of a module or inside a function (an import
inside a function still runs up the floors the moment it runs). Those under
``if TYPE_CHECKING:`` never run, so they close no circle; but they may not
run up the wings either: a wing's types name nothing above it. Each wing's
``__init__`` says in words what it may import; the test holds the words to
the order below too, so the docstring cannot drift from the rule.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from .conftest import ROOT

SRC = ROOT / "src"

#: The wings of tabletop, bottom first: each may import those before it.
#: ``api`` and ``testing`` are modules at the top of the package, under the
#: names users import; the package's ``__init__`` and ``__main__`` stand above all.
LAYERS = (
    "base",
    "log",
    "model",
    "host",
    "sight",
    "play",
    "api",
    "testing",
    "many",
    "review",
    "ai",
    "viewer",
    "referee",
    "turnpage",
    "cli",
)

GAMES = ("tabletop_glux", "tabletop_glyph_chess")


def modules(package: Path) -> dict[str, Path]:
    """Every module under ``package`` by its dotted name."""
    base = package.parent
    found = {}
    for path in sorted(package.rglob("*.py")):
        name = ".".join(path.relative_to(base).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(name: str, path: Path, known: dict[str, Path], typing: bool = False) -> set[str]:
    """The modules of ``known`` that ``name`` imports, anywhere but under
    TYPE_CHECKING (and there too with ``typing``: a name a wing's types
    take from a wing above is a dependency up the wings all the same)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def target(module: str) -> None:
        while module and module not in known:
            module = module.rpartition(".")[0]
        if module and module != name:
            found.add(module)

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking(child) and not typing:
                for other in child.orelse:
                    visit(ast.Module(body=[other], type_ignores=[]))
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    target(alias.name)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - (child.level - 1)])
                    module = f"{base}.{child.module}" if child.module else base
                else:
                    module = child.module or ""
                for alias in child.names:  # ``from . import live`` imports the module live
                    target(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def graph(package: Path, typing: bool = False) -> dict[str, set[str]]:
    known = modules(package)
    return {name: imports(name, path, known, typing) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in edges.get(v, ()):
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return found


def wing_of(name: str) -> str | None:
    """The wing a module of tabletop stands in (None: the package itself)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else None


def test_no_import_runs_up_the_wings():
    edges = graph(SRC / "tabletop", typing=True)
    wings = {wing_of(name) for name in edges} - {None}
    assert wings == set(LAYERS), f"wings not in LAYERS: {sorted(wings ^ set(LAYERS))}"
    up = [
        f"{name} ({wing_of(name)}) imports {other} ({wing_of(other)})"
        for name, targets in edges.items()
        for other in targets
        if wing_of(name) is not None
        and wing_of(other) is not None
        and LAYERS.index(wing_of(other)) > LAYERS.index(wing_of(name))
    ]
    assert not up, "imports up the wings:\n" + "\n".join(sorted(up))


@pytest.mark.parametrize(
    "package", [SRC / "tabletop", *(ROOT / "plugins" / game for game in GAMES)], ids=lambda p: p.name
)
def test_no_import_circle(package):
    found = circles(graph(package))
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(group) for group in found)


@pytest.mark.parametrize("wing", [w for w in LAYERS if (SRC / "tabletop" / w).is_dir()])
def test_each_wing_says_what_it_holds_and_may_import(wing):
    """A wing's docstring opens with what it holds and ends with the wings it
    may import, in the order of LAYERS: the words and the rule are one."""
    doc = ast.get_docstring(ast.parse((SRC / "tabletop" / wing / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 20, f"tabletop.{wing} does not say what it holds"
    said = re.search(r"May import: ([^.]*)\.\s*$", doc)
    assert said, f"tabletop.{wing}'s docstring does not end with 'May import: ...'"
    below = LAYERS[: LAYERS.index(wing)]
    named = [w.strip().strip("`").removeprefix("tabletop.") for w in said.group(1).split(",") if w.strip()]
    assert named == list(below) or (not below and named == ["nothing of tabletop"]), (
        f"tabletop.{wing} says it may import {named}, the layers say {list(below)}"
    )
