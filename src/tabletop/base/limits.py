"""How long a game may be, for the programs that must know.

OpenSpiel asks every game for ``max_game_length``: the most decision
actions (words, :mod:`tabletop.model.numbering`) any one game can take, which its
algorithms size buffers and trees by and its own tests check. A game says
it with ``Game.most_words()``, computed from the rules in force for its
header (Glüx: one word per chip placed, so the players times a bag), or has
no such method, or answers None: its rules set no bound (Glyph Chess has no
end but a win). The adapters then stop a game at a limit of their own,
:data:`LIMIT` words unless asked otherwise, as unfinished: no winner, every
return 0 (PettingZoo: truncated), its log as it stands.

What a game author must not do: declare a bound the rules can pass. The
adapters check it as they play: a game that goes on past it is one
:class:`~tabletop.base.errors.PluginError` naming the game.
"""

from __future__ import annotations

from typing import Any

import attrs

from .errors import PluginError, UsageError

#: The words after which the adapters stop a game whose rules set no bound
#: (a two-player Glyph Chess game played at random takes about 1,700).
LIMIT = 20_000


def most_words(game: Any) -> int | None:
    """The bound ``game`` declares for its header, or None."""
    declare = getattr(game, "most_words", None)
    found = declare() if declare is not None else None
    if found is not None and (type(found) is not int or found < 1):
        raise PluginError(f"{game.name}: most_words() gave {found!r}, not a whole number above 0 or None")
    return found


@attrs.frozen
class Length:
    """A game's length as the adapters bound it."""

    #: What the rules in force bound it to, or None.
    bound: int | None
    #: The adapter's limit (:data:`LIMIT` unless asked otherwise).
    limit: int

    @property
    def longest(self) -> int:
        """OpenSpiel's ``max_game_length``: no game takes more words."""
        return self.limit if self.bound is None else min(self.bound, self.limit)

    @property
    def stop(self) -> int | None:
        """The words after which a game is stopped unfinished, or None when
        the rules end every game first."""
        return self.limit if self.bound is None or self.limit < self.bound else None

    def check(self, game: Any, words: int, deciding: bool) -> None:
        """Refuse a game that goes on past the bound its rules declared."""
        if deciding and self.bound is not None and words >= self.bound and self.stop is None:
            raise PluginError(
                f"{game.name}: most_words() says a game takes at most {self.bound} decision words, "
                "but this one asks for more"
            )


def length_of(game: Any, limit: Any = LIMIT) -> Length:
    """The length of games of ``game`` with the adapter's ``limit``."""
    if type(limit) is not int or limit < 1:
        raise UsageError(f"limit: {limit!r} is not a whole number of words above 0")
    return Length(most_words(game), limit)
