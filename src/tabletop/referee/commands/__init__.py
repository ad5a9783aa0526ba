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
with no secret: :func:`..seats.claim`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from ...errors import UsageError
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


class PlayerCommand:
    """A command in a player's mail: ``asked`` says whether the mail gives it."""

    name: ClassVar[str]

    def asked(self, letter: Letter) -> bool:
        return letter.has(self.name)

    def run(self, ref: Referee, mail: Mail) -> str:
        raise NotImplementedError


class MasterCommand:
    """A game master's command; the same by mail (a line ``name: value``) and
    on the command line (its keyword arguments)."""

    name: ClassVar[str]
    #: Whether it names a player (checked before it runs).
    about_a_player: ClassVar[bool] = False

    def arguments(self, value: str) -> dict[str, Any]:
        """The keyword arguments of the mail's line ``name: value``."""
        return {}

    def run(self, ref: Referee, now: float, stamp: str, **kwargs: Any) -> str:
        raise NotImplementedError


def _player_commands() -> list[PlayerCommand]:
    from . import clear, conditional, help, history, legal, press, unvote, vote

    return [
        help.Help(),
        history.History(),
        legal.Legal(),
        press.Press(),
        vote.Vote(),
        unvote.Unvote(),
        clear.Clear(),
        conditional.Conditional(),
    ]


def asked(letter: Letter) -> list[PlayerCommand]:
    """The commands a player's mail gives, in the order they run: the asking
    ones first, then the one decision (a resignation, or the moves), else
    the view of the game."""
    from . import move, resign, view

    found: list[PlayerCommand] = [c for c in _player_commands() if c.asked(letter)]
    decision = next((c for c in (resign.Resign(), move.Move()) if c.asked(letter)), None)
    if decision is not None:
        found.append(decision)
    elif not found:
        found.append(view.View())
    return found


def _master_commands() -> dict[str, MasterCommand]:
    from . import end, extend, help, observe, pause, reissue, replace, resume, seek

    commands: list[MasterCommand] = [
        pause.Pause(),
        resume.Resume(),
        end.End(),
        extend.Extend(),
        replace.Replace(),
        reissue.Reissue(),
        seek.Seek(),
        observe.Observe(),
        help.MasterHelp(),
    ]
    return {c.name: c for c in commands}


def master_command(name: str) -> MasterCommand | None:
    """The game master's command of that name, or None."""
    return _master_commands().get(name)


def run_master(ref: Referee, name: str, now: float, stamp: str, **kwargs: Any) -> str:
    """Run the game master's command ``name``: a one-line report."""
    command = master_command(name)
    if command is None:
        raise UsageError(f"unknown game master command '{name}'")
    player = kwargs.get("player")
    if command.about_a_player and player not in ref.players:
        raise UsageError(f"'{player}' is not a player of this game ({', '.join(ref.players)})")
    return command.run(ref, now, stamp, **kwargs)
