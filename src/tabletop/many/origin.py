"""What made a run's games: tabletop's version, the code the games were
played with, and each rule set's variants with every parameter.

A results file (or a logs folder's ``run.json``) records this beside what
was asked for (game, seats, bots, variants, seed), so that a rerun adds
games only where the same code would have played them. A plugin is told by
its content, not its name or version: a house-rule file edited between two
runs (a room worth 4 points, then 40) plays other games under the same
name.

tabletop itself (the engine, its bots) counts by its version. The other
code of a run is every plugin its games depend on: the package or file that
registers the game, each variant and each bot used. An installed package
counts by all its files (a game's rules span many modules and data files);
a house-rule file by its text.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from types import ModuleType
from typing import Any

from ..base.errors import UsageError
from ..host import rules as rulebook
from ..host.registry import Registry

#: The metadata keys that say what made the games (the others say what was asked).
MAKER_KEYS = ("tabletop", "rules", "code")
#: Where a run continued by other code (``--continue-anyway``) lists its later makers.
CONTINUED = "continued"


def tabletop_version() -> str:
    try:
        return version("tabletop")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown"


def made_by(registry: Registry, game: str, arms: Sequence[Sequence[str]], bots: Iterable[str]) -> dict[str, Any]:
    """The maker of games of ``game`` under each rule set of ``arms`` (its
    variants as given) played by ``bots`` (``NAME`` or ``NAME:key=value``)."""
    modules: list[str] = [registry.game_class(game).__module__]
    full = []
    for variants in arms:
        entries = []
        for entry in variants:
            name, raw = rulebook.split_entry(entry)
            variant = registry.variant(name, game)
            modules.append(_module_of(variant.rules))
            declared = registry.parameters[variant.name]
            values = rulebook.read_values(name, declared, raw)
            every = {p.name: values.get(p.name, p.default) for p in declared}
            entries.append(rulebook.entry(name, every, declared))
        full.append(entries)
    for spec in bots:
        bot = registry.bot(spec.partition(":")[0], game)
        modules.append(_module_of(bot.choose))
    # Only the plugins' code: tabletop's own counts by its version (above), a
    # library a bot calls is not recorded.
    ours = {_module_of(plugin).partition(".")[0] for _, plugin in registry.pm.list_name_plugin()} - {"tabletop"}
    kept = [m for m in modules if m.partition(".")[0] in ours]
    return {"tabletop": tabletop_version(), "rules": full, "code": code_of(kept)}


def _module_of(thing: object) -> str:
    if isinstance(thing, ModuleType):
        return thing.__name__
    name = getattr(thing, "__module__", None)
    if not isinstance(name, str):
        name = type(thing).__module__
    return name


def code_of(modules: Iterable[str]) -> list[list[str]]:
    """``[name, digest]`` for each source the ``modules`` come from: a
    package by its top-level folder's files, a plugin file by its text;
    each once, sorted by name."""
    sources: dict[str, Path] = {}
    for module in modules:
        top = module.partition(".")[0]
        loaded = sys.modules.get(top) or sys.modules.get(module)
        where = getattr(loaded, "__file__", None)
        if where is None:
            continue
        path = Path(where)
        if path.name == "__init__.py":
            sources[top] = path.parent
        else:
            sources[path.name if top.startswith("tabletop_plugin_") else top] = path
    return sorted([name, digest(path)] for name, path in sources.items())


def digest(path: Path) -> str:
    """A short digest of a file's bytes, or of every file under a folder
    (by relative name and content; compiled caches left out)."""
    hashed = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if _counted(p, path))
    for file in files:
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise UsageError(
                f"cannot read it to record the code of the run: {exc.strerror or exc}", where=str(file)
            ) from None
        name = file.name if file == path else file.relative_to(path).as_posix()
        hashed.update(f"{name}\0{len(data)}\0".encode())
        hashed.update(data)
    return hashed.hexdigest()[:16]


def _counted(file: Path, root: Path) -> bool:
    parts = file.relative_to(root).parts
    return file.is_file() and "__pycache__" not in parts and file.suffix not in (".pyc", ".pyo")


def maker(meta: Mapping[str, Any]) -> dict[str, Any]:
    """Who made the last games of a run's metadata: the run's own maker, or
    that of its last continuation."""
    later = meta.get(CONTINUED) or []
    last = later[-1] if later and isinstance(later[-1], Mapping) else meta
    return {key: last.get(key) for key in MAKER_KEYS}


def continued(meta: Mapping[str, Any], here: Mapping[str, Any], first_game: int) -> dict[str, Any]:
    """``meta`` (a file's), noting that games from ``first_game`` on are made by ``here``."""
    entry = {"from_game": first_game, **{key: here[key] for key in MAKER_KEYS}}
    return {**meta, CONTINUED: [*(meta.get(CONTINUED) or []), entry]}


def difference(there: Mapping[str, Any], here: Mapping[str, Any]) -> str:
    """What differs between the maker of a file's games (``there``, see
    :func:`maker`) and this run's (``here``), in a few words; "" when nothing."""
    said = []
    if there.get("code") is None:
        return "it does not record the code that made its games (an older tabletop)"
    if there.get("tabletop") != here.get("tabletop"):
        said.append(f"tabletop {there.get('tabletop')} made them, this is {here.get('tabletop')}")
    then = {name: hashed for name, hashed in _pairs(there.get("code"))}
    now = {name: hashed for name, hashed in _pairs(here.get("code"))}
    for name in sorted(set(then) | set(now)):
        if name not in now:
            said.append(f"{name} is no longer used")
        elif name not in then:
            said.append(f"{name} was not used")
        elif then[name] != now[name]:
            said.append(f"{name} changed ({then[name]}, now {now[name]})")
    if there.get("rules") != here.get("rules") and not said:
        said.append(f"variants {_rules(there.get('rules'))}, now {_rules(here.get('rules'))}")
    return "; ".join(said)


def _pairs(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, list):
        return []
    return [(str(p[0]), str(p[1])) for p in value if isinstance(p, list) and len(p) == 2]


def _rules(value: Any) -> str:
    if not isinstance(value, list):
        return "unknown"
    return " / ".join(" ".join(map(str, arm)) if isinstance(arm, list) else "?" for arm in value) or "none"
