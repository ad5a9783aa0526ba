"""Finding plugins and building the registry of games, variants and bots.

Plugins come from three places, in this order: the ``tabletop`` entry-point
group of installed distributions (the built-in games are found this way too),
the ``TABLETOP_PLUGINS`` environment variable (paths joined with ``os.pathsep``)
and ``--plugins PATH`` on the command line. A path is a ``.py`` file or a folder
whose ``.py`` files are each loaded, and whose game packages (a package with an
``about.py`` that says where its game is) are each registered
(:mod:`tabletop.host.abouts`).
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

import pluggy

from ..base.errors import PluginError
from ..base.naming import where
from . import abouts, hookspecs, installed

ENTRY_POINT_GROUP = installed.PLUGIN_GROUP
ENV_VAR = "TABLETOP_PLUGINS"

hookimpl = pluggy.HookimplMarker("tabletop")


def get_plugin_manager(
    paths: Sequence[str | os.PathLike[str]] = (),
    *,
    entry_points: bool = True,
    environment: bool = True,
    game: str | None = None,
    listing: bool = False,
) -> pluggy.PluginManager:
    """A fresh plugin manager with every plugin loaded and checked. With
    ``game``, the installed plugins that serve only other games (as their
    ``about`` says: see :mod:`tabletop.host.installed`) are left out. With
    ``listing``, only those installed plugins that may register a game no
    ``about`` tells of (the plugin files named are loaded all the same)."""
    pm = pluggy.PluginManager("tabletop")
    pm.add_hookspecs(hookspecs)
    if entry_points:
        for ep in installed.unlisted() if listing else installed.plugins_for(game):
            if pm.has_plugin(ep.name):
                continue
            try:
                plugin = ep.load()
            except Exception as exc:  # a broken third-party package must not crash us
                raise PluginError(f"cannot load plugin '{ep.name}' ({ep.value}): {_reason(exc)}") from None
            pm.register(plugin, name=ep.name)
        # A game that its about alone declares (no plugin module of its own).
        for ep in () if listing else installed.abouts_for(game):
            if pm.has_plugin(ep.name):
                continue
            try:
                about = ep.load()
            except Exception as exc:
                raise PluginError(f"cannot load game '{ep.name}' ({ep.value}): {_reason(exc)}") from None
            if abouts.declares(about):
                pm.register(abouts.Declared(about), name=ep.name)
    all_paths: list[str | os.PathLike[str]] = []
    if environment:
        all_paths += [p for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p]
    all_paths += list(paths)
    for module in load_paths(all_paths):
        if not pm.is_registered(module):
            try:
                pm.register(module, name=module.__name__)
            except pluggy.PluginValidationError as exc:
                raise _validation_error(module, exc) from None
    for folder, package in abouts.packages(all_paths):
        about = abouts.about_of(folder, package)
        if not pm.is_registered(about):
            pm.register(abouts.Declared(about), name=f"{package}.about")
    _check_pending(pm)
    return pm


def _hook_names() -> list[str]:
    return sorted(name for name in vars(hookspecs) if name.startswith("register_"))


def _validation_error(module: ModuleType, exc: pluggy.PluginValidationError) -> PluginError:
    # pluggy's message is several lines with a repr; say which hook and argument.
    for name in _hook_names():
        function = getattr(module, name, None)
        if function is None or not hasattr(function, "tabletop_impl"):
            continue
        wanted = inspect.signature(getattr(hookspecs, name)).parameters
        for arg in inspect.signature(function).parameters:
            if arg not in wanted:
                return PluginError(
                    f"hook '{name}' has no argument '{arg}' (it passes: {', '.join(wanted) or 'nothing'})",
                    where=_where(function),
                )
    return PluginError(f"plugin {getattr(module, '__file__', module.__name__)}: {str(exc).splitlines()[0]}")


def _check_pending(pm: pluggy.PluginManager) -> None:
    """An implementation of a hook tabletop does not have: name it, where it is,
    and the hooks that do exist."""
    for name, caller in vars(pm.hook).items():
        if not isinstance(caller, pluggy.HookCaller) or caller.spec is not None:
            continue
        for impl in caller.get_hookimpls():
            if impl.optionalhook:
                continue
            raise PluginError(
                f"'{name}' is not a tabletop hook (hooks: {', '.join(_hook_names())}; "
                "rule hooks are implemented with @rulehook in a variant)",
                where=_where(impl.function),
            )


def _where(function: object) -> str | None:
    # Only for a message: the rule book (and attrs with it) is imported when one is due.

    return where(function)


def load_paths(paths: Iterable[str | os.PathLike[str]]) -> list[ModuleType]:
    """Import each ``.py`` file named, or found directly in a folder named."""
    return [load_file(f) for f in plugin_files(paths)]


def plugin_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The ``.py`` files named, or found directly in a folder named (not
    those starting with ``_``), in the order they are loaded."""
    found = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += sorted(p for p in path.glob("*.py") if not p.name.startswith("_"))
        elif path.is_file():
            found.append(path)
        else:
            raise PluginError(f"{raw}: no such plugin file or folder")
    return found


def load_file(path: Path) -> ModuleType:
    """Import one plugin file under a name of its own, once per process."""
    resolved = path.resolve()
    name = "tabletop_plugin_" + "".join(c if c.isalnum() else "_" for c in str(resolved))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise PluginError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        line = _line_in(exc, resolved)
        where = f"{path}:{line}" if line else str(path)
        raise PluginError(f"cannot load plugin: {_reason(exc)}", where=where) from None
    return module


def _reason(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg}"
    return f"{type(exc).__name__}: {exc}"


def _line_in(exc: BaseException, path: Path) -> int | None:
    if isinstance(exc, SyntaxError) and exc.filename and Path(exc.filename).resolve() == path:
        return exc.lineno
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


# -- an error from a house rule's own code ----------------------------------------------
def at_fault(exc: BaseException, variants: Iterable[object] = ()) -> PluginError | None:
    """The one line for ``exc``, an error no part of tabletop turned into
    one, when it was raised in the code of a plugin file loaded by path (a
    house rule): code the game calls that is not a rule hook (a step of
    the turn, a spell's function, a check a variant's decision brings).
    It names the variant defined in that file (among ``variants``, the
    :class:`~tabletop.Variant` objects known), the file and line the error
    came from and what was raised. None when no house rule's code is on its
    way: an error of tabletop's own, to be seen whole."""
    if not isinstance(exc, Exception):
        return None
    files = {
        getattr(module, "__file__", None)
        for name, module in list(sys.modules.items())
        if name.startswith("tabletop_plugin_")
    }
    found = None
    tb = exc.__traceback__
    while tb is not None:  # the deepest line of a house rule's file: where it went wrong
        if tb.tb_frame.f_code.co_filename in files:
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    named = [getattr(v, "name", "?") for v in variants if _file_of(getattr(v, "rules", None)) == found[0]]
    # A file that defines no variant is a plugin of another kind (a bot, a renderer, a command).
    kind = "plugin" if not named else "house rule"
    who = f"variant '{named[0]}'" if len(named) == 1 else f"{kind} {Path(found[0]).name}"
    problem = f"{type(exc).__name__}: {exc}".rstrip(": ")
    return PluginError(f"{who}: its code raised {problem}", where=f"{found[0]}:{found[1]}")


def _file_of(rules: object) -> str | None:
    """The file a variant's rules (a module, a class or an instance) come from."""
    if rules is None:
        return None
    holder = rules if isinstance(rules, (type, ModuleType)) else type(rules)
    try:
        return inspect.getfile(holder)
    except (TypeError, OSError):
        return None
