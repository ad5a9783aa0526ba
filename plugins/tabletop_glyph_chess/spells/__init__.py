"""The spells, one module each. :data:`SPELLS` is the official table, in the
order ``moves`` lists them; the rule hook ``glyph_spells`` gives the table in
force (a variant adds a spell with a wrapper: see docs/glyph-chess.md)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from tabletop import rulehook

from .. import payment
from ..notation import OWN_WORDS
from ..pieces import NAMES
from .base import Spell, adjacent_empty, bounded, empty_next, most_of, pieces_of
from .blast import BLAST
from .blaze import BLAZE
from .foresee import FORESEE
from .march import MARCH
from .replica import REPLICA
from .revive import REVIVE
from .summon import SUMMON
from .swap import SWAP

SPELLS: dict[str, Spell] = {s.name: s for s in (SWAP, REPLICA, FORESEE, BLAZE, BLAST, REVIVE, MARCH, SUMMON)}
#: Spell costs, with the icons the rule book lost restored by RULINGS.
COSTS = {name: spell.cost for name, spell in SPELLS.items()}


@rulehook
def glyph_spells(players: int) -> Mapping[str, Spell]:
    return SPELLS


@rulehook
def glyph_costs() -> Mapping[str, str]:
    return COSTS


@rulehook
def glyph_more_spells(players: int) -> None:
    return None  # the official game adds none: its spells are the table


#: A spell's name as a player writes it (``NAME SPOT ...``): the notation
#: reads the first word in lower case.
NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")
#: What a spell's ``argument`` may be (see :class:`Spell`).
ARGUMENTS = frozenset({"", "player", "piece", "direction"})


def check(game: Any, more: Iterable[Mapping[str, Spell]], costs: Mapping[str, Any]) -> None:
    """Refuse, as the game is made, a table of spells the game cannot use:
    a name that is not the spell's own, not a lower-case word or a word of
    the notation (``escape``, ``skip`` ...), given by two variants'
    ``glyph_more_spells``; a caster that is no piece; an argument the
    notation cannot read; a cost of an unknown kind or type; a cost for a
    spell that is none. The hook that gave it is named, with the variant."""
    r = game.rules
    added: dict[str, int] = {}
    for table in more:
        for name in table:
            added[name] = added.get(name, 0) + 1
    for name, spell in game.spells.items():
        hook = "glyph_more_spells" if name in added else "glyph_spells"
        if added.get(name, 0) > 1:
            raise r.refuse(hook, f"gave '{name}' twice: two variants add a spell of that name")
        problem = _problem(name, spell)
        if problem:
            raise r.refuse(hook, f"gave the spell {name!r}: {problem}")
        value = costs.get(name, spell.cost)
        problem = payment.cost_problem(*((value, None) if isinstance(value, str) else (tuple(value) + (None,))[:2]))
        if problem:
            hook = "glyph_costs" if name in costs and not r.official("glyph_costs") else hook
            raise r.refuse(hook, f"gave {value!r} as the cost of {name}: {problem}")
    unknown = [name for name in costs if name not in game.spells and name not in COSTS]
    if unknown:
        raise r.refuse(
            "glyph_costs", f"gave a cost for {unknown[0]!r}, which is no spell (spells: {', '.join(game.spells)})"
        )


def _problem(name: str, spell: Spell) -> str | None:
    if spell.name != name:
        return f"it is named {spell.name!r} (a spell is listed under its own name)"
    if not NAME.match(name) or name in OWN_WORDS:
        return "a spell's name is a lower-case word the notation reads as no other decision"
    if spell.caster not in NAMES:
        return f"its caster {spell.caster!r} is no piece ({', '.join(NAMES)})"
    if spell.argument not in ARGUMENTS:
        return f"its argument {spell.argument!r} is none of {', '.join(repr(a) for a in sorted(ARGUMENTS))}"
    return None


__all__ = [
    "COSTS",
    "SPELLS",
    "Spell",
    "adjacent_empty",
    "bounded",
    "empty_next",
    "glyph_costs",
    "glyph_more_spells",
    "glyph_spells",
    "most_of",
    "pieces_of",
]
