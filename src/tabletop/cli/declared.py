"""The commands of a package of command modules, found from their source
without importing them: ``--help`` lists every command and its short help,
and running one imports its own module only.

A module of the package (or a sub-package, by its ``__init__.py``) is a
command when it says so at its top level: the function named after the
module, decorated with ``@click.command`` or ``@click.group``. The command
is named as the decorator names it (``@click.command("import")`` in
``import_.py``, the name being a Python word) or else as click names the
function. Any other module (shared options, shapes of JSON, the hot seat)
is a helper and no command.

The source is searched, and read token by token only where the command is
declared: parsing every module of ``tabletop.cli`` (or even tokenizing its
decorators) would make ``tabletop --help`` take a third longer.
"""

from __future__ import annotations

import ast
import functools
import inspect
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

#: A click decorator at the top level: a declaration, if the function it decorates is named after the module.
_DECORATOR = re.compile(rb"^@click\.(?:command|group)\(", re.M)
#: A line of a module's top level that is no decorator (nor the closing
#: bracket of one's arguments, a comment or a blank line).
_STATEMENT = re.compile(rb"^[^@)#\s]", re.M)
#: Tokens that do not end the line a docstring follows.
_BLANK = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.COMMENT}


class Declared(NamedTuple):
    """A command a module declares."""

    name: str
    #: The module (in the package) that holds it, and the function in it.
    module: str
    #: The first paragraph of its help, on one line, as ``--help`` shortens it.
    summary: str


@functools.cache
def find(folder: Path) -> dict[str, Declared]:
    """Every command the modules in ``folder`` (a package's) declare, by name."""
    found: dict[str, Declared] = {}
    for path in sorted(folder.iterdir()):
        stem = path.stem if path.suffix == ".py" else path.name
        if stem.startswith("_") or not stem.isidentifier():
            continue
        command = declared_in(folder, stem)
        if command is not None:
            found[command.name] = command
    return found


def look_up(folder: Path, name: str) -> Declared | None:
    """Command ``name`` of the package in ``folder``: in the module named
    after it, or after it with ``_`` added when its name is a Python word."""
    stem = name.replace("-", "_")
    for module in (stem, stem + "_"):
        command = declared_in(folder, module) if module.isidentifier() else None
        if command is not None and command.name == name:
            return command
    return None


def declared_in(folder: Path, module: str) -> Declared | None:
    """The command module ``module`` of ``folder`` declares, if it is one."""
    for path in (folder / f"{module}.py", folder / module / "__init__.py"):
        try:
            source = path.read_bytes()
        except OSError:
            continue
        return _declaration(source, module)
    return None


def _declaration(source: bytes, module: str) -> Declared | None:
    """The command ``source`` declares with its function ``module``, if it does."""
    function = re.search(rb"^def " + module.encode() + rb"\(", source, re.M)
    if function is None:
        return None
    decorators = [m.start() for m in _DECORATOR.finditer(source, 0, function.start())]
    # The click decorator must be one of this function's: nothing but
    # decorators (and their arguments) between them.
    if not decorators or _STATEMENT.search(source, decorators[-1] + 1, function.start()):
        return None
    try:
        tokens = _significant(source[decorators[-1] :])
        for _ in range(5):  # @ click . command (
            next(tokens)
        given = _named(tokens)
        tokens = _significant(source[function.start() :])
        any(t.type == tokenize.NEWLINE for t in tokens)  # the signature, to the colon that ends it
        doc = next((t for t in tokens if t.type not in _BLANK), None)
    except StopIteration:  # a module cut short
        return None
    text = ast.literal_eval(doc.string) if doc is not None and doc.type == tokenize.STRING else ""
    # As click derives a command's name from its function's.
    name = given or re.sub(r"_(command|cmd|group|grp)$", "", module).lower().replace("_", "-")
    return Declared(name, module, inspect.cleandoc(text).split("\n\n")[0].replace("\n", " "))


def _named(tokens: Iterator[tokenize.TokenInfo]) -> str | None:
    """The name the decorator's arguments give the command, if they do
    (its first argument, or ``name=``); ``tokens`` is left in them."""
    first = next(tokens)
    if first.type == tokenize.STRING:
        return ast.literal_eval(first.string)
    if first.string == "name" and next(tokens).string == "=":
        value = next(tokens)
        if value.type == tokenize.STRING:
            return ast.literal_eval(value.string)
    return None


def _significant(source: bytes) -> Iterator[tokenize.TokenInfo]:
    """The tokens of ``source``, read as they are needed (the rest of the
    module is never read); a module that cannot be read ends them early."""
    try:
        for token in tokenize.tokenize(io.BytesIO(source).readline):
            if token.type != tokenize.ENCODING:
                yield token
    except (tokenize.TokenError, SyntaxError):
        return
