"""The one root exception and its few kinds.

Every error a user can cause is a :class:`TabletopError`. Its message is one
line that names the file, line, event or option at fault; the command line
prints it and exits with :attr:`TabletopError.exit_code`, never a traceback.
"""

from __future__ import annotations


class TabletopError(Exception):
    """Raised for anything a user can get wrong; the root of all tabletop errors."""

    #: 1: the game is illegal or a check failed; 2: usage or unreadable input.
    exit_code = 2

    def __init__(self, message: str, *, where: str | None = None) -> None:
        # One line, always: text quoted from a log or a mail may hold newlines.
        message = _one_line(message)
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)

    def at(self, where: str) -> TabletopError:
        """Return the same error, located at ``where`` (a file, ``FILE:LINE``, ...)."""
        return type(self)(self.message, where=where)


def _one_line(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class UsageError(TabletopError):
    """Raised when a command, option, game, variant or bot name is wrong."""


class LogFormatError(TabletopError):
    """Raised when a log cannot be read: not JSON, a truncated line, a bad header,
    an unknown event kind, a field missing or of the wrong type."""


class PluginError(TabletopError):
    """Raised when a plugin cannot be loaded or implements a hook with no spec."""


class IllegalEventError(TabletopError):
    """Raised when an event breaks the rules: an illegal decision, the wrong
    player, a wrong sequence number, an impossible chance outcome, an event
    after the game ended."""

    exit_code = 1


class CheckFailed(TabletopError):
    """Raised when a check does not hold: a chance outcome that does not match
    the seed, a seed that does not match its commitment, a rewritten history."""

    exit_code = 1


class NotationError(TabletopError):
    """Raised when a decision written in a game's notation cannot be read."""
