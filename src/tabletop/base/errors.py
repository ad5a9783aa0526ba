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
        # One line, always: text quoted from a log or a mail may hold newlines,
        # and so may a file name. A message never runs to megabytes either.
        message = _cut(_one_line(message), MAX_MESSAGE)
        if where is not None:
            where = _cut(_one_line(where), MAX_MESSAGE)
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)

    def at(self, where: str) -> TabletopError:
        """Return the same error, located at ``where`` (a file, ``FILE:LINE``, ...);
        a place it named already (a board file's line) stays in the message."""
        if self.where and _same_file(self.where, where):
            # Already a line of that very file (read ahead of the caller's
            # count): the more exact place stands, named once.
            return type(self)(self.message, where=self.where)
        message = f"{self.where}: {self.message}" if self.where and self.where != where else self.message
        return type(self)(message, where=where)


def _same_file(known: str, where: str) -> bool:
    """Whether ``known`` is ``where`` or another line of the file ``where`` names (``FILE:LINE``)."""
    if known == where:
        return True
    path, sep, line = where.rpartition(":")
    name = path if sep and line.isdigit() else where
    rest = known[len(name) + 1 :] if known.startswith(name + ":") else ""
    return rest.isdigit()


#: The longest error message printed, and the longest value quoted in one.
MAX_MESSAGE = 500
MAX_QUOTE = 60


def _one_line(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(path: object) -> str:
    """A file name as printed: one line, whatever bytes it holds."""
    return _one_line(str(path))


def quote(value: object, limit: int = MAX_QUOTE) -> str:
    """``value`` quoted for an error message: one line, cut to ``limit``
    characters, a string in single quotes, anything else as JSON would show
    it (never a whole nested structure)."""
    if isinstance(value, str):
        text = value
    else:
        text = describe(value)
        return _cut(text, limit)
    return "'" + _cut(_one_line(text), limit) + "'"


def describe(value: object) -> str:
    """A short, safe word for a value read from JSON (never recurses)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value) if value.bit_length() < 200 else "a huge number"
        return text
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}" if value else "[]"
    if isinstance(value, dict):
        return f"an object of {len(value)} fields" if value else "{}"
    return type(value).__name__


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
