"""A game registered by its ``about`` module alone: no plugin module of its own.

A game's ``about`` (see :mod:`tabletop.host.installed`) says what
``tabletop games`` lists, and, with three more constants, where the game
is, so that the core registers it:

- ``GAME``: ``"package.module:Class"``, the game's class (a
  :class:`tabletop.Game`), imported when the registry first gathers games;
- ``BOTS`` (optional): ``"package.module:NAME"``, a list of
  :class:`tabletop.Bot`, imported when a command first asks for a bot;
- ``PICTURES`` (optional): ``{"svg": "package.module"}``, a module with a
  function named for the format (``svg``) and ``legend``, imported when a
  picture is first drawn (:meth:`tabletop.Renderer.lazy`).

Installed, such a game is one entry point in the ``tabletop.games`` group
(``glux = "tabletop_glux.about"``). In a folder given to ``--plugins``, a
package beside the ``.py`` files whose ``about.py`` declares ``GAME`` is
found the same way (:func:`packages`), its folder put on the import path.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from ..base.errors import PluginError
from .extensions import Renderer
from .installed import EntryPoint

hookimpl = pluggy.HookimplMarker("tabletop")

#: The media type of each picture format a game may declare.
MEDIA_TYPES = {"svg": "image/svg+xml"}


def declares(about: ModuleType) -> bool:
    """Whether ``about`` says where its game is (``GAME``)."""
    return hasattr(about, "GAME")


class Declared:
    """The plugin the core makes of a game's ``about``: it registers the
    game, its bots and its pictures from the names the module gives."""

    def __init__(self, about: ModuleType) -> None:
        self.about = about
        # Whose plugin this is: the game's package, not the core (a record of
        # the code a game ran names the plugins' modules by it).
        self.__module__ = about.__name__
        self.where = getattr(about, "__file__", None) or about.__name__
        #: Where a message about what a hook registers points (tabletop.base.naming.code_of).
        self.tabletop_declared_at = {
            hook: f"{self.where}:{_line_of(self.where, constant)}"
            for hook, constant in (
                ("register_games", "GAME"),
                ("register_bots", "BOTS"),
                ("register_renderers", "PICTURES"),
            )
        }
        self.game = self._target("GAME")
        self.bots = self._target("BOTS") if hasattr(about, "BOTS") else None
        pictures = getattr(about, "PICTURES", {})
        if not isinstance(pictures, dict) or not all(isinstance(m, str) for m in pictures.values()):
            raise PluginError("PICTURES must map a format to a module's dotted name", where=self.where)
        for format in pictures:  # noqa: A001 - the word the renderers use
            if format not in MEDIA_TYPES:
                known = ", ".join(MEDIA_TYPES)
                raise PluginError(f"PICTURES names the format {format!r} (formats: {known})", where=self.where)
        self.pictures: dict[str, str] = dict(pictures)

    def _target(self, constant: str) -> str:
        value = getattr(self.about, constant)
        module, colon, attr = value.partition(":") if isinstance(value, str) else ("", "", "")
        if not (module and colon and attr):
            raise PluginError(f"{constant} must be 'package.module:Name', not {value!r}", where=self.where)
        return value  # type: ignore[no-any-return]

    def _load(self, target: str) -> Any:
        try:  # read as an entry point's value is (``module:attr``)
            return EntryPoint(target, target, "").load()
        except Exception as exc:  # a broken game names itself in one line
            raise PluginError(f"cannot load {target}: {type(exc).__name__}: {exc}", where=self.where) from None

    @hookimpl
    def register_games(self) -> list[Any]:
        return [self._load(self.game)]

    @hookimpl
    def register_bots(self) -> list[Any]:
        return list(self._load(self.bots)) if self.bots is not None else []

    @hookimpl
    def register_renderers(self) -> list[Renderer]:
        if not self.pictures:
            return []
        game = self._load(self.game).name  # the pictures are drawn when a game is: its class is imported then
        return [Renderer.lazy(game, format, MEDIA_TYPES[format], module) for format, module in self.pictures.items()]


def _line_of(file: str, constant: str) -> int:
    """The line of ``file`` that sets ``constant`` (1 when none is found)."""
    try:
        with open(file, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if line.startswith(f"{constant} ") or line.startswith(f"{constant}="):
                    return number
    except (OSError, UnicodeDecodeError):
        pass
    return 1


def packages(paths: Iterable[str | Path]) -> list[tuple[Path, str]]:
    """The game packages in the folders named: each a folder beside the
    ``.py`` files with an ``__init__.py`` and an ``about.py``, as (the
    folder it is in, its name), in the order found."""
    found = []
    for raw in paths:
        folder = Path(raw)
        if not folder.is_dir():
            continue
        for package in sorted(folder.iterdir()):
            if (package / "__init__.py").is_file() and (package / "about.py").is_file():
                found.append((folder, package.name))
    return found


def about_of(folder: Path, package: str) -> ModuleType:
    """The ``about`` module of ``package``, in ``folder`` (put on the import
    path first, so that the package imports as it would installed)."""
    place = str(folder.resolve())
    if place not in sys.path:
        sys.path.insert(0, place)
    where = str(folder / package / "about.py")
    try:
        module = importlib.import_module(f"{package}.about")
    except Exception as exc:
        raise PluginError(f"cannot load {package}.about: {type(exc).__name__}: {exc}", where=where) from None
    if not declares(module):
        raise PluginError(
            "a game's about.py in a plugin folder says where its game is: GAME = 'module:Class'", where=where
        )
    return module
