"""The core hooks: what a plugin can register with tabletop.

Every hook here is called with keyword arguments only and returns things to
register; the built-in games, variants and bots use the same hooks as any
outside plugin. Implement them with ``@tabletop.hookimpl``.
"""

from __future__ import annotations

from collections.abc import Iterable

import click
import pluggy

hookspec = pluggy.HookspecMarker("tabletop")


@hookspec
def register_games() -> Iterable[type]:
    """Return game classes (subclasses of :class:`tabletop.Game`) to install."""


@hookspec
def register_variants() -> Iterable[object]:
    """Return :class:`tabletop.Variant` objects: named rule changes of one game."""


@hookspec
def register_bots() -> Iterable[object]:
    """Return :class:`tabletop.Bot` objects that ``selfplay`` (and the referee) can use."""


@hookspec
def register_renderers() -> Iterable[object]:
    """Return :class:`tabletop.Renderer` objects: pictures of a game's board
    (``tabletop render``, the referee's mails)."""


@hookspec
def register_commands(cli: click.Group) -> None:
    """Add click commands to the ``tabletop`` command group ``cli``."""


@hookspec
def register_numberings() -> Iterable[object]:
    """Return :class:`tabletop.model.numbering.Numbering` objects: stable action
    numbers for a game's decisions (what the OpenSpiel and PettingZoo
    adapters use)."""
