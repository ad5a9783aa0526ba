"""The events of a Glyph Chess log.

Spots are names like ``c4``. ``dice`` lists the numbers (1 to 5, or as many
as ``glyph_dice`` says) of the shared dice spent, ``coins`` the glyph types
of the coins spent (a wild coin keeps its type). Kills, incinerations, minions leaving and eliminations are not events:
replay works them out.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop import CHANCE, RULES, Event


# -- chance -----------------------------------------------------------------
@attrs.frozen
class Shuffle(Event):
    """A player's six glyph cards, shuffled: the order of the glyph pieces on
    their edge, left to right (the scepter stands in the middle)."""

    kind: ClassVar[str] = "shuffle"
    origin: ClassVar[str] = CHANCE
    player: str
    order: tuple[str, ...]


@attrs.frozen
class Roll(Event):
    """Die number ``die`` (1 to 5, or as many as ``glyph_dice`` says) is rolled and shows ``face``."""

    kind: ClassVar[str] = "roll"
    origin: ClassVar[str] = CHANCE
    die: int
    face: str


@attrs.frozen
class Draw(Event):
    """A player draws a coin from their bag (refilled first from the used area if empty)."""

    kind: ClassVar[str] = "draw"
    origin: ClassVar[str] = CHANCE
    player: str
    glyph: str


# -- decisions ----------------------------------------------------------------
@attrs.frozen
class Arrange(Event):
    """Advanced setup: a player's own order of scepter and glyph pieces on their edge."""

    kind: ClassVar[str] = "arrange"
    player: str
    order: tuple[str, ...]


@attrs.frozen
class Reroll(Event):
    """Awakening: re-roll every die showing a dead piece's type (``accept``), or skip."""

    kind: ClassVar[str] = "reroll"
    player: str
    accept: bool


@attrs.frozen
class Move(Event):
    """Move the piece on ``source`` in a straight line to ``target``, paying for each spot."""

    kind: ClassVar[str] = "move"
    player: str
    source: str
    target: str
    dice: tuple[int, ...] = ()
    coins: tuple[str, ...] = ()


@attrs.frozen
class Cast(Event):
    """Cast a spell of the piece on ``source``.

    ``spell`` is one of: ``swap`` (illusionist; ``spots`` = [the friend]),
    ``replica`` (illusionist; [the empty spot]), ``foresee`` (seeress;
    ``target`` = the player), ``blaze`` (elementalist; the path),
    ``blast`` (force mage; [the landing spot]), ``revive`` (necromancer;
    ``target`` = the piece letter, [the spot]), ``march`` (summoner;
    ``target`` = the direction, the minions in order), ``summon`` (summoner;
    1-3 empty spots).
    """

    kind: ClassVar[str] = "cast"
    player: str
    spell: str
    source: str
    spots: tuple[str, ...] = ()
    target: str = ""
    dice: tuple[int, ...] = ()
    coins: tuple[str, ...] = ()


@attrs.frozen
class Escape(Event):
    """The necromancer's owner answers an attack: pay ``coin`` to escape (a
    coin's letter, or a die's name, ``D2``, where the escape's cost allows a
    die), or ``coin`` = "" to let it be taken."""

    kind: ClassVar[str] = "escape"
    player: str
    coin: str = ""


@attrs.frozen
class Discard(Event):
    """After the seeress's look: up to two of the target's coins to their used area."""

    kind: ClassVar[str] = "discard"
    player: str
    coins: tuple[str, ...] = ()


# -- the rules ----------------------------------------------------------------
@attrs.frozen
class Glimpse(Event):
    """What the seeress saw: ``target``'s coins, shown to the caster and the target only."""

    kind: ClassVar[str] = "glimpse"
    origin: ClassVar[str] = RULES
    player: str
    target: str
    coins: tuple[str, ...]


@attrs.frozen
class Pass(Event):
    """A player with no legal action passes."""

    kind: ClassVar[str] = "pass"
    origin: ClassVar[str] = RULES
    player: str


EVENTS = (Shuffle, Roll, Draw, Arrange, Reroll, Move, Cast, Escape, Discard, Glimpse, Pass)
