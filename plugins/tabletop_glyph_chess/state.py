"""The state of a Glyph Chess game.

Players are seat numbers (0 gold, 1 silver, 2 bronze). Spots are indices of
the :class:`~tabletop_glyph_chess.hexes.HexBoard`. Coins are counted per glyph
type, in ``GLYPHS`` order.
"""

from __future__ import annotations

import attrs

from .pieces import GLYPHS

#: A piece on the board: (seat of its owner, its letter).
Piece = tuple[int, str]
Counts = tuple[int, ...]

ALIVE, KILLED, BURNT = "alive", "killed", "burnt"

# The phases of a turn (and of setup) that wait for an event.
SETUP = "setup"  # shuffles or arrangements, then the first rolls and draws
AWAKEN = "awaken"  # may re-roll dice showing dead types
ROLLING = "rolling"  # dice in ``rolling`` are being rolled
DRAW = "draw"  # draws a coin
ACT = "act"  # one move or one spell
ESCAPE = "escape"  # a necromancer's owner decides whether to escape
GLIMPSE = "glimpse"  # the seeress looks (a rules event)
DISCARD = "discard"  # the seeress's caster picks coins to discard
OVER = "over"


@attrs.frozen
class Step:
    """One landing of a piece, which may attack: from ``source`` onto ``target``.

    ``burn`` when the piece incinerates (the elementalist) instead of killing.
    """

    source: int
    target: int
    burn: bool = False


@attrs.frozen
class State:
    board: tuple[Piece | None, ...]
    #: For each seat, each glyph piece's fate: alive, killed (revivable) or burnt.
    #: The illusionist is killed only when both its pieces are off the board.
    fates: tuple[tuple[str, ...], ...]
    hands: tuple[Counts, ...]
    bags: tuple[Counts, ...]
    used: tuple[Counts, ...]
    dice: tuple[str | None, ...]
    eliminated: tuple[bool, ...]
    phase: str = SETUP
    turn: int = 0
    #: Dice still to roll in this phase, in order, and the phase after them
    #: (``"turn"``: the next player's turn begins).
    rolling: tuple[int, ...] = ()
    then: str = ""
    #: Dice spent this turn: re-rolled in the reset step.
    spent: tuple[int, ...] = ()
    #: Landings still to happen in the action being resolved.
    steps: tuple[Step, ...] = ()
    #: The player the seeress looks at, while her spell is resolved.
    target: int | None = None
    #: Setup: which seats have their pieces on the board.
    placed: tuple[bool, ...] = ()
    #: Setup: coins still to draw, per seat.
    owed: tuple[int, ...] = ()
    winner: int | None = None

    def wild(self, seat: int) -> set[str]:
        """The seat's coin types that are wild: those of its dead glyph pieces."""
        return {g for g, fate in zip(GLYPHS, self.fates[seat]) if fate != ALIVE}

    def players_left(self) -> list[int]:
        return [s for s, out in enumerate(self.eliminated) if not out]


def _make_evolve():
    # attrs.evolve, written out for this class once (as attrs writes __init__):
    # replay calls it several times an event.
    args = ", ".join(f"c[{n!r}] if {n!r} in c else s.{n}" for n in (f.name for f in attrs.fields(State)))
    namespace = {"State": State}
    exec(f"def evolve(s, **c):\n    return State({args})\n", namespace)
    return namespace["evolve"]


evolve = _make_evolve()
evolve.__doc__ = "``state`` with the fields given changed."


def put(values: tuple, index: int, value: object) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def add(counts: Counts, glyph: str, n: int) -> Counts:
    i = GLYPHS.index(glyph)
    return put(counts, i, counts[i] + n)


def coins_list(counts: Counts) -> tuple[str, ...]:
    return tuple(g for g, n in zip(GLYPHS, counts) for _ in range(n))
