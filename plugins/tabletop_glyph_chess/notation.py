"""Glyph Chess notation. Spots are named like ``c4`` (see docs/glyph-chess.md);
what is paid comes after a ``/``: dice as ``D1``..``D5`` (as many as the game
has, ``glyph_dice``), coins by their letter (S I E F N U; a wild coin keeps
its letter).

==============================  ========================================
``c3-c6 / D2 D3 E``             move the piece on c3 to c6
``swap c3 e5 / I``              illusionist on c3 swaps with the piece on e5
``replica c3 d4 / D2``          place the replica on d4
``foresee c3 ben / D1``         seeress on c3 looks at ben's coins
``blaze c3 c4 d4 / D1 E E``     elementalist steps c4, then d4
``blast c3 f6 / D1 F F F``      force mage to f6, killing enemies next to it
``revive c3 F d4 / D5``         necromancer brings the force mage back on d4
``march c3 ne d3 d4 / U U``     summoner moves the minions on d3, then d4, north-east
``summon c3 d3 d4 / D2``        minions onto d3 and d4
``reroll`` / ``skip``           awakening: re-roll dice of dead types, or not
``escape N`` / ``stay``         the necromancer escapes paying an N coin, or not
``escape D2``                   ... paying a die, where the escape's cost allows one
``discard S E`` / ``discard``   after foresee: the coins to discard (0 to 2)
``arrange S I K E F N U``       advanced setup: your edge, left to right
==============================  ========================================
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tabletop import Event, NotationError, rulehook

from .events import Arrange, Cast, Discard, Draw, Escape, Glimpse, Move, Pass, Reroll, Roll, Shuffle
from .pieces import GLYPHS, a_coin
from .state import State

if TYPE_CHECKING:
    from .game import GlyphChess

_SPOT = re.compile(r"^[a-z][1-9][0-9]?$")
_MOVE = re.compile(r"^([a-z][1-9][0-9]?)\s*-\s*([a-z][1-9][0-9]?)$")


def payment_text(event: Event) -> str:
    """What an event pays, as written after its decision: `` / D1 E``, or nothing."""
    items = [f"D{n}" for n in event.dice] + list(event.coins)
    return f" / {' '.join(items)}" if items else ""


@rulehook
def glyph_notate(game: GlyphChess, decision: Event) -> str:
    return notate(game, decision)


@rulehook
def glyph_parse(game: GlyphChess, text: str, player: str, state: State) -> Event:
    return parse(game, text, player, state)


def notate(game: GlyphChess, decision: Event) -> str:
    """A decision as a player writes it (what :func:`parse` reads back)."""
    if isinstance(decision, Move):
        return f"{decision.source}-{decision.target}{payment_text(decision)}"
    if isinstance(decision, Cast):
        words = [decision.spell, decision.source]
        spell = game.spells.get(decision.spell)
        if spell is not None and spell.argument:
            words.append(decision.target)
        words += list(decision.spots)
        return " ".join(words) + payment_text(decision)
    if isinstance(decision, Reroll):
        return "reroll" if decision.accept else "skip"
    if isinstance(decision, Escape):
        return f"escape {decision.coin}" if decision.coin else "stay"
    if isinstance(decision, Discard):
        return " ".join(["discard", *decision.coins])
    if isinstance(decision, Arrange):
        return " ".join(["arrange", *decision.order])
    shape = _shape_notation(decision)
    if shape is not None:
        return shape
    raise TypeError(f"not a Glyph Chess decision: {decision!r}")


def _shape_notation(decision: Event) -> str | None:
    """A variant's decision of one of the core's shapes, or its deal, writes
    itself (``tabletop.model.shapes``: ``take 2``, ``keep yes``, ``patron E``);
    None for anything else."""
    from tabletop.model.shapes import Deal, Shape  # only a variant's event comes this far

    return decision.notation() if isinstance(decision, (Shape, Deal)) else None


def shapes(game: GlyphChess) -> tuple[type[Event], ...]:
    """The decision shapes the steps in force take (a variant's, added with
    ``TurnStep.adding``), in the order of the table: what :func:`parse`
    reads besides the game's own notation."""
    from tabletop.model.shapes import Shape

    found: dict[type[Event], None] = {}
    for step in game.steps.values():
        for cls in step.accepts:
            if isinstance(cls, type) and issubclass(cls, Shape):
                found[cls] = None
    return tuple(found)


def outcome(game: GlyphChess, event: Event) -> str | None:
    """A chance outcome as a table records it: ``draw S``, ``roll E``, ``shuffle S I E F N U``."""
    if isinstance(event, Draw):
        return f"draw {event.glyph}"
    if isinstance(event, Roll):
        return f"roll {event.face}"
    if isinstance(event, Shuffle):
        return " ".join(["shuffle", *event.order])
    return _shape_notation(event)  # a variant's deal (``tabletop.model.shapes.Deal``)


def sentence(game: GlyphChess, event: Event, visible: bool) -> str:
    """Any event as a short line, redacted when not ``visible``."""
    if isinstance(event, Roll):
        return f"D{event.die} rolls {event.face}"
    if isinstance(event, Draw):
        return f"{event.player} draws {a_coin(event.glyph) if visible else 'a coin'}"
    if isinstance(event, Shuffle):
        return f"{event.player}'s glyph cards: {' '.join(event.order[:3])} | {' '.join(event.order[3:])}"
    if isinstance(event, Glimpse):
        if visible:
            return f"{event.player} sees {event.target}'s coins: {' '.join(event.coins) or 'none'}"
        return f"{event.player} looks at {event.target}'s coins"
    if isinstance(event, Pass):
        return f"{event.player} passes (no legal action)"
    if not visible:  # a decision its player keeps secret (a variant's shape declared ``secret``)
        from tabletop.model.shapes import redacted

        return f"{event.player} {redacted(event)}"
    return f"{event.player} {game.notate(event)}"


def parse(game: GlyphChess, text: str, player: str, state: State) -> Event:
    main, _, paid = text.strip().partition("/")
    words = main.split()
    if not words:
        raise NotationError("empty decision: write a move like c3-c6 / D1 E, or a spell like swap c3 e5 / I")
    head = words[0].lower()
    for shape in shapes(game) if head not in _OWN else ():  # a variant's decision of a core shape
        decision = shape.parse(text, player)  # type: ignore[attr-defined]
        if decision is not None:
            return decision
    dice, coins = read_payment(paid)
    if len(words) == 1 and head in ("reroll", "skip"):
        return Reroll(player, head == "reroll")
    if head == "stay" and len(words) == 1:
        return Escape(player, "")
    if head == "escape":
        paying = words[1].upper() if len(words) == 2 else ""
        if paying not in GLYPHS and not _DIE.match(paying):
            raise NotationError(
                "write 'escape N' (the coin you pay: N or a wild coin's letter, or a die: D2), or 'stay'"
            )
        return Escape(player, paying)
    if head == "discard":
        picked = tuple(w.upper() for w in words[1:])
        if any(c not in GLYPHS for c in picked):
            raise NotationError("write 'discard' and up to 2 coin letters (S I E F N U)")
        return Discard(player, picked)
    if head == "arrange":
        return Arrange(player, tuple(w.upper() for w in words[1:]))
    if head in game.spells:
        return _cast(head, game.spells[head].argument, words[1:], player, dice, coins)
    move = _MOVE.match(main.strip().lower())
    if move and len(words) <= 3:
        return Move(player, move.group(1), move.group(2), dice, coins)
    raise NotationError(
        f"cannot read {text.strip()!r}: write a move like c3-c6 / D1 E, a spell "
        f"({', '.join(game.spells)}), reroll, skip, escape, stay, discard or arrange"
    )


#: The first words of the game's own decisions (a spell's name aside).
_OWN = frozenset({"reroll", "skip", "stay", "escape", "discard", "arrange"})
#: The words no spell may be named: the game's own decisions and the core's
#: (a pass, a resignation).
OWN_WORDS = _OWN | {"pass", "resign"}


_DIE = re.compile(r"^[dD][1-9]$")


def read_payment(paid: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """What is written after the ``/``: (die numbers, coin letters)."""
    dice, coins = [], []
    for token in paid.split():
        if _DIE.match(token):
            dice.append(int(token[1]))
        elif token.upper() in GLYPHS:
            coins.append(token.upper())
        else:
            raise NotationError(f"cannot read {token!r} as payment: dice are D1, D2 ..., coins S I E F N U")
    return tuple(dice), tuple(coins)


#: How the word after the caster's spot is written, by a spell's ``argument``.
_WORDS = {"player": "a player", "piece": "a piece letter", "direction": "a direction"}


def _cast(spell: str, argument: str, args: list[str], player: str, dice, coins) -> Cast:
    if not args or not _SPOT.match(args[0].lower()):
        raise NotationError(f"'{spell}' needs the spot of the caster first, like {spell} c3 ...")
    source, rest = args[0].lower(), args[1:]
    target = ""
    if argument:
        if not rest:
            raise NotationError(f"'{spell}' needs {_WORDS.get(argument, argument)}")
        target, rest = rest[0], rest[1:]
        target = target.upper() if argument == "piece" else target.lower() if argument == "direction" else target
    spots = tuple(s.lower() for s in rest)
    bad = [s for s in spots if not _SPOT.match(s)]
    if bad:
        raise NotationError(f"'{bad[0]}' is not a spot name like c4")
    return Cast(player, spell, source, spots, target, dice, coins)
