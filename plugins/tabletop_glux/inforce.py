"""Which rules are in force for one game: the official ones or a variant's."""

from __future__ import annotations

import weakref
from typing import Any

_KNOWN: weakref.WeakKeyDictionary[Any, dict[str, bool]] = weakref.WeakKeyDictionary()


def overridden(rules: Any, name: str) -> bool:
    """Whether a variant in force implements the rule hook ``name``.

    The game keeps its official code inlined for every rule no variant
    changes, so that official games pay nothing for the hooks."""
    try:
        known = _KNOWN[rules]
    except (KeyError, TypeError):
        known = {}
        try:
            _KNOWN[rules] = known
        except TypeError:  # not weakly referable: ask each time
            pass
    found = known.get(name)
    if found is None:
        found = known[name] = _overridden(rules, name)
    return found


def _overridden(rules: Any, name: str) -> bool:
    probe = getattr(rules, "overridden", None)
    if probe is not None:
        return bool(probe(name))
    # A plain pluggy relay: anything registered besides the official rules.
    caller = getattr(rules, name)
    return any(impl.plugin_name != "official" for impl in caller.get_hookimpls())
