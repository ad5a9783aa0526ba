"""The hook reference, written from the hookspecs themselves.

A hookspec's signature and docstring are the one source of what a hook is:
a documentation page marks where a module's hooks go, and this module fills
the place in::

    <!-- hooks: tabletop_glux.hookspecs -->
    (generated: do not edit by hand)
    <!-- /hooks -->

Sections come from the module's ``# -- Title ---`` comment lines, in source
order; each hook gets its family (see :mod:`tabletop.host.rules`), its signature
and its docstring. A docstring's ``Example::`` paragraph becomes a Python
code block. ``python -m tabletop.host.hookdocs docs/hooks.md`` rewrites the
page; ``--check`` only says whether it is up to date (a test runs that).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

from .rules import family_of

MARK = re.compile(r"<!-- hooks: (?P<module>[\w.]+) -->\n(?P<body>.*?)<!-- /hooks -->", re.S)
MARK_NAMES = re.compile(r"<!-- hooks: ([\w.]+) -->")
SECTION = re.compile(r"^# -- (?P<title>.+?) -+\s*$")
NOTICE = "<!-- generated from the hookspecs' docstrings by `python -m tabletop.host.hookdocs docs/hooks.md` -->\n"


def reference(module_name: str) -> str:
    """The Markdown reference of every hookspec in ``module_name``."""
    module = importlib.import_module(module_name)
    source = inspect.getsource(module)
    sections = _sections(source)
    tree = ast.parse(source)
    out = [NOTICE]
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        function = getattr(module, node.name, None)
        if function is None or family_of(function) is None:
            continue
        title = sections.get(node.lineno)
        if title:
            out.append(f"\n### {title[0].upper()}{title[1:]}\n")
        out.append(_hook(node.name, function))
    return "".join(out)


def _sections(source: str) -> dict[int, str]:
    """The line of each hook's ``def`` that starts a new section, with its title."""
    found: dict[int, str] = {}
    title = None
    for lineno, line in enumerate(source.splitlines(), start=1):
        match = SECTION.match(line)
        if match:
            title = match["title"]
        elif title and (line.startswith("def ") or line.startswith("@")):
            # The decorator line comes first; ast gives the def's line.
            if line.startswith("@"):
                continue
            found[lineno] = title
            title = None
    return found


def _hook(name: str, function: Any) -> str:
    signature = inspect.signature(function)
    args = ", ".join(signature.parameters)
    returns = signature.return_annotation
    arrow = f" -> {returns}" if returns is not inspect.Signature.empty else ""
    family = family_of(function)
    body = _markdown(inspect.getdoc(function) or "")
    return f"\n### `{name}`\n\n*{family}*\n\n```\n{name}({args}){arrow}\n```\n\n{body}\n"


def _markdown(doc: str) -> str:
    """A docstring in Markdown: ``::`` blocks become Python code blocks and
    double back-quotes single ones."""
    out: list[str] = []
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.rstrip().endswith("::"):
            head = line.rstrip()[:-2].rstrip()
            if head:
                out.append(_inline(head) + ":")
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            code = textwrap.dedent("\n".join(block)).strip("\n")
            out += ["", "```python", code, "```", ""]
            continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out).strip()


def _inline(text: str) -> str:
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def render(page: str) -> str:
    """``page`` with every marked place filled in from its hookspecs module."""
    return MARK.sub(lambda m: f"<!-- hooks: {m['module']} -->\n{reference(m['module'])}<!-- /hooks -->", page)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [Path(a) for a in argv if a != "--check"]
    if not paths:
        print("usage: python -m tabletop.host.hookdocs [--check] PAGE.md ...", file=sys.stderr)
        return 2
    stale = []
    for path in paths:
        try:
            page = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{path}: cannot read it: {exc}", file=sys.stderr)
            return 2
        try:
            fresh = render(page)
        except (ImportError, SyntaxError, OSError) as exc:
            print(f"{path}: a module it names cannot be read: {exc}", file=sys.stderr)
            return 2
        if fresh != page:
            stale.append(path)
            if not check:
                path.write_text(fresh, encoding="utf-8")
    if check and stale:
        print(f"out of date: {', '.join(map(str, stale))} (run python -m tabletop.host.hookdocs)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
