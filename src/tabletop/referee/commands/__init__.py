"""What a mail may ask of the referee, one command a module, found by name
(as GNU Mailman 3 finds its email commands).

A player's mail may ask for ``help``, the ``history``, every ``legal``
decision, relay ``press``, cast a ``vote`` (or ``unvote``), leave
conditional moves (``if``) or withdraw them (``clear``), then ``resign`` or
play its ``move`` lines; a mail that asks for nothing gets the ``view``
back. The game master's mail, or the command line, may ``pause``,
``resume``, ``end``, ``extend`` a deadline, ``replace`` a player's address,
``reissue`` a secret, ``seek`` a substitute for a seat, let someone
``observe`` the game, or ask for ``help``. A substitute's ``claim`` is read before any of these (it comes
with no secret: :meth:`..seats.Seats.claim`).

No list names them: every module of this package is read once (its
command classes, those defining a ``name``), so a command is added by
adding its module, and the help mails list what is found here. A game
master's command is a ``tabletop pbem`` subcommand too, made from its class
(its arguments, options and help: :class:`MasterCommand`).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from textwrap import wrap
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from ...base.errors import UsageError
from ..mailin import Letter

if TYPE_CHECKING:
    from ..referee import Referee


@attrs.frozen
class Mail:
    """A player's mail as a command gets it: the letter, whose it is (its
    secret checked), its id, the key its answers are queued under, and when."""

    letter: Letter
    player: str
    mid: str
    key: str
    now: float


#: How a mail writes a command: ``name: value``, the name alone on its line, or either.
KEY, ALONE, EITHER = "key", "alone", "either"

#: How wide the help mails' lines may grow before what a command does is wrapped.
HELP_WIDTH = 100

#: When a player's command runs among those of one mail: the asking ones
#: first, then at most one decision, else (nothing asked) the fallback.
ASKING, DECISION, FALLBACK = "asking", "decision", "fallback"


class PlayerCommand:
    """A command in a player's mail: ``asked`` says whether the mail gives it."""

    name: ClassVar[str]
    #: How a mail writes it and what it does, for the help ("" for a
    #: command the help does not list).
    usage: ClassVar[str] = ""
    does: ClassVar[str] = ""
    #: How a mail writes it (by default as its usage does: a colon, a key).
    written: ClassVar[str] = ""
    #: When it runs (ASKING, DECISION or FALLBACK) and its place among those
    #: of its kind (in the mail and in the help): a decision first in order
    #: is the one played when a mail gives two.
    runs: ClassVar[str] = ASKING
    order: ClassVar[int] = 50

    def asked(self, letter: Letter) -> bool:
        return letter.has(self.name)

    def run(self, ref: Referee, mail: Mail) -> str:
        raise NotImplementedError


class MasterCommand:
    """A game master's command; the same by mail (a line ``name: value``) and
    on the command line (``tabletop pbem NAME DIR ...``, made from this class
    by :mod:`tabletop.cli.pbem`), each read into the keyword arguments of
    :meth:`run`.

    ``tabletop pbem --help`` lists these commands without importing the
    referee: it reads ``name``, ``does`` and ``by_mail_only`` from the source
    of a class that names ``MasterCommand`` as its base, so those are
    written there as plain strings (or True)."""

    name: ClassVar[str]
    #: How a mail writes it and what it does, for the help; its place there.
    #: ``does`` is the command line's help too ("Game master: " ``does``).
    usage: ClassVar[str] = ""
    does: ClassVar[str] = ""
    #: How a mail writes it (by default as its usage does: a colon, a key).
    written: ClassVar[str] = ""
    order: ClassVar[int] = 50
    #: Whether it names a player (checked before it runs).
    about_a_player: ClassVar[bool] = False
    #: Whether it is asked by mail only (no ``tabletop pbem`` command of its name).
    by_mail_only: ClassVar[bool] = False
    #: On the command line, after the game folder: its arguments (each a
    #: keyword of :meth:`given`, shown in capitals), its repeatable options
    #: (each the option, the keyword it fills with a list, and its help),
    #: and what follows ``tabletop pbem NAME duel`` in the help's example.
    takes: ClassVar[tuple[str, ...]] = ()
    repeats: ClassVar[tuple[tuple[str, str, str], ...]] = ()
    example: ClassVar[str] = ""

    def arguments(self, value: str) -> dict[str, Any]:
        """The keyword arguments of the mail's line ``name: value``."""
        return {}

    def given(self, **values: Any) -> dict[str, Any]:
        """The keyword arguments of the command line's ``values`` (as they
        are, unless the command reads one, as ``extend`` reads a length)."""
        return values

    def run(self, ref: Referee, now: float, stamp: str, **kwargs: Any) -> str:
        raise NotImplementedError


@functools.cache
def found() -> tuple[tuple[PlayerCommand, ...], tuple[MasterCommand, ...]]:
    """Every command of this package's modules, players' and the game
    master's, each in its order (then by name)."""
    players: list[PlayerCommand] = []
    masters: list[MasterCommand] = []
    for module in pkgutil.iter_modules(__path__):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        for value in vars(loaded).values():
            # A class defined there with a name of its own (not one imported, not a base).
            if not isinstance(value, type) or value.__module__ != loaded.__name__ or "name" not in vars(value):
                continue
            if issubclass(value, PlayerCommand):
                players.append(value())
            elif issubclass(value, MasterCommand):
                masters.append(value())
    players.sort(key=lambda c: (c.order, c.name))
    masters.sort(key=lambda c: (c.order, c.name))
    return tuple(players), tuple(masters)


def player_commands() -> tuple[PlayerCommand, ...]:
    return found()[0]


def asked(letter: Letter) -> list[PlayerCommand]:
    """The commands a player's mail gives, in the order they run: the asking
    ones first, then the one decision (a resignation, or the moves), else
    the view of the game."""
    commands = player_commands()
    given: list[PlayerCommand] = [c for c in commands if c.runs == ASKING and c.asked(letter)]
    decision = next((c for c in commands if c.runs == DECISION and c.asked(letter)), None)
    if decision is not None:
        given.append(decision)
    elif not given:
        given += [c for c in commands if c.runs == FALLBACK][:1]
    return given


def master_commands() -> tuple[MasterCommand, ...]:
    return found()[1]


def listing(commands: tuple[PlayerCommand, ...] | tuple[MasterCommand, ...]) -> str:
    """The help's lines for ``commands`` (those with a usage), in their
    order, the decisions first: each usage, then what it does."""
    shown = [c for c in commands if c.usage]
    shown.sort(key=lambda c: getattr(c, "runs", ASKING) != DECISION)
    width = max(len(c.usage) for c in shown) + 2
    indent = "\n" + " " * (4 + width)
    # A game master's command says as much as its command line's help: its
    # longer lines are wrapped, so that a mail reads as the others do.
    fit = max(40, HELP_WIDTH - 4 - width)
    return "\n".join(
        f"    {c.usage.ljust(width)}{indent.join(part for line in c.does.splitlines() for part in wrap(line, fit))}"
        for c in shown
    )


@functools.cache
def words() -> tuple[frozenset[str], frozenset[str]]:
    """The words a mail's lines are read for: the commands written
    ``name: value``, and those written alone on a line."""
    keys: set[str] = set()
    alone: set[str] = set()
    for command in (*found()[0], *found()[1]):
        if not (command.written or command.usage):
            continue  # asked by no line of its own (the view)
        written = command.written or (KEY if f"{command.name}:" in command.usage else ALONE)
        if written in (KEY, EITHER):
            keys.add(command.name)
        if written in (ALONE, EITHER):
            alone.add(command.name)
    return frozenset(keys), frozenset(alone)


def on_the_command_line() -> list[str]:
    """The game master's commands that are ``tabletop pbem`` commands too, in their order."""
    return [c.name for c in found()[1] if not c.by_mail_only]


def master_command(name: str) -> MasterCommand | None:
    """The game master's command of that name, or None."""
    return next((c for c in master_commands() if c.name == name), None)


def run_master(ref: Referee, name: str, now: float, stamp: str, **kwargs: Any) -> str:
    """Run the game master's command ``name``: a one-line report."""
    command = master_command(name)
    if command is None:
        raise UsageError(f"unknown game master command '{name}'")
    player = kwargs.get("player")
    players = ref.settings.players
    if command.about_a_player and player not in players:
        raise UsageError(f"'{player}' is not a player of this game ({', '.join(players)})")
    return command.run(ref, now, stamp, **kwargs)
