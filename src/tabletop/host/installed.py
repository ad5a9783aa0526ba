"""What is installed, read from the distributions' entry points alone: the
plugins (group ``tabletop``) and what each game says of itself (group
``tabletop.games``), without importing any of them.

``importlib.metadata`` builds an object for every installed distribution and
imports the email parser to read their metadata; a command that starts a
process per mail or per move cannot afford that. This reads the
``entry_points.txt`` of each distribution on ``sys.path`` (first one found
wins, as for imports), which is all the plugin groups need.

A game's ``about`` module (the ``tabletop.games`` entry point named after the
game) is a plain module of constants, cheap to import:

- ``TITLE``, ``DESCRIPTION``, ``PLAYERS`` (min, max) and ``OPTIONS`` (name:
  help), what ``tabletop games`` lists;
- ``PLUGINS``: the names of the ``tabletop`` entry points that serve this
  game only (its numbering, its variants; the game itself, for a game with a
  plugin module of its own). A command on a log of another game does not
  load them. Every entry point no game claims (the core's, a third-party
  plugin's without an ``about``) is loaded for every game;
- ``GAME``, ``BOTS``, ``PICTURES``: where the game is, for a game that has
  no plugin module of its own (:mod:`tabletop.host.abouts`).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from types import ModuleType
from typing import Any, NamedTuple

#: The group of plugins, and the group of what games say of themselves.
PLUGIN_GROUP = "tabletop"
ABOUT_GROUP = "tabletop.games"

#: An ``entry_points.txt`` larger than this is not read (bounded work for any input).
MAX_FILE = 1 << 20


class EntryPoint(NamedTuple):
    """One entry point: its name, ``module`` or ``module:attr``, and its distribution."""

    name: str
    value: str
    dist: str

    def load(self) -> Any:
        """The module or the object the entry point names (extras are not checked)."""
        module, _, attr = self.value.split("[", 1)[0].partition(":")  # extras, in brackets, left out
        found: Any = importlib.import_module(module.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            found = getattr(found, part)
        return found


_SECTION = re.compile(r"^\[(.+)\]$")
_cache: dict[tuple[str, ...], dict[str, list[EntryPoint]]] = {}


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of ``group`` in every installed distribution (the
    first distribution of a name on ``sys.path`` wins), in the order found."""
    key = tuple(sys.path)
    groups = _cache.get(key)
    if groups is None:
        groups = _cache[key] = _read_all(key)
    return list(groups.get(group, ()))


def _read_all(path: tuple[str, ...]) -> dict[str, list[EntryPoint]]:
    groups: dict[str, list[EntryPoint]] = {}
    seen: set[str] = set()
    for folder in path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:  # a zip file, or a folder that is gone
            continue
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if not dot or kind not in ("dist-info", "egg-info"):
                continue
            dist = _normal(stem.split("-", 1)[0])
            if dist in seen:
                continue
            seen.add(dist)
            text = _read(os.path.join(folder or ".", name, "entry_points.txt"))
            if text is not None and "[tabletop" in text:
                for group, entry in _parse(text, dist):
                    groups.setdefault(group, []).append(entry)
    return groups


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _read(file: str) -> str | None:
    try:
        with open(file, encoding="utf-8") as handle:
            return handle.read(MAX_FILE)
    except (OSError, UnicodeDecodeError):
        return None


def _parse(text: str, dist: str) -> list[tuple[str, EntryPoint]]:
    found, group = [], None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        section = _SECTION.match(line)
        if section:
            group = section.group(1).strip()
            continue
        name, sep, value = line.partition("=")
        if group is not None and sep and group in (PLUGIN_GROUP, ABOUT_GROUP):
            found.append((group, EntryPoint(name.strip(), value.strip(), dist)))
    return found


class About(NamedTuple):
    """What a game says of itself before it is imported."""

    name: str
    title: str
    description: str
    players: tuple[int, int]
    options: dict[str, str]
    plugins: tuple[str, ...]


def abouts() -> dict[str, About]:
    """What each game with an ``about`` says of itself, by game name. An
    ``about`` that cannot be read is left out: the game is then found by
    loading its plugin, as for a game without one."""
    found: dict[str, About] = {}
    for entry in entry_points(ABOUT_GROUP):
        if entry.name in found:
            continue
        try:
            module = entry.load()
            about = _about(entry.name, module)
        except Exception:  # a broken about only costs the fast path
            continue
        found[entry.name] = about
    return found


def _about(name: str, module: ModuleType) -> About:
    low, high = module.PLAYERS
    return About(
        name,
        str(getattr(module, "TITLE", name)),
        str(module.DESCRIPTION),
        (int(low), int(high)),
        {str(k): str(v) for k, v in dict(getattr(module, "OPTIONS", {})).items()},
        tuple(str(p) for p in getattr(module, "PLUGINS", ())),
    )


def plugins_for(game: str | None) -> list[EntryPoint]:
    """The ``tabletop`` entry points to load for a log of ``game``: all of
    them, less those that another game claims. None, or a game that says
    nothing of itself: all of them."""
    found = entry_points(PLUGIN_GROUP)
    if game is None:
        return found
    known = abouts()
    if game not in known:
        return found
    others = {p for name, about in known.items() if name != game for p in about.plugins}
    others -= set(known[game].plugins)
    return [e for e in found if e.name not in others]


def abouts_for(game: str | None) -> list[EntryPoint]:
    """The ``tabletop.games`` entry points to load for a log of ``game`` (its
    own; every one for None), each an ``about`` that may declare its game
    (:mod:`tabletop.host.abouts`)."""
    found = entry_points(ABOUT_GROUP)
    return found if game is None else [e for e in found if e.name == game]


def unlisted() -> list[EntryPoint]:
    """The ``tabletop`` entry points of the distributions that list no game
    in ``tabletop.games``: the only ones that may register a game no
    ``about`` tells of (a distribution that lists its games lists them all)."""
    listing = {e.dist for e in entry_points(ABOUT_GROUP)}
    return [e for e in entry_points(PLUGIN_GROUP) if e.dist not in listing]
