"""The public board geometry (``HexBoard``) agrees with its rays and
neighbours; every example in the hookspecs' docstrings (which docs/hooks.md
shows) is a working variant: a whole game is played under it."""

from __future__ import annotations

import inspect
import re
import textwrap

import attrs
import pytest

from tabletop import Outcome, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.play.live import selfplay
from tabletop_glyph_chess import SCEPTER, Payers, Spell, hookspecs, recall, remember
from tabletop_glyph_chess.hexes import DIRECTIONS, board


def test_geometry_helpers_agree_with_the_rays():
    geo = board(6)
    for source in range(geo.size):
        for direction in DIRECTIONS:
            line = geo.line(source, direction)
            assert line == geo.rays[source][direction]
            for distance, target in enumerate(line, start=1):
                assert geo.direction(source, target) == (direction, distance)
                assert geo.between(source, target) == line[: distance - 1]
                assert geo.distance(source, target) == distance
        assert {t for t in range(geo.size) if geo.distance(source, t) == 1} == set(geo.neighbours[source])
    far = next(t for t in range(1, geo.size) if geo.direction(0, t) is None)
    assert geo.between(0, far) is None and geo.distance(0, far) > 1
    assert geo.distance(geo.spot("a1"), geo.center) == 6


def examples() -> list[tuple[str, str]]:
    """(hook, example code) for every hookspec whose docstring has one."""
    found = []
    for name, function in inspect.getmembers(hookspecs, inspect.isfunction):
        doc = inspect.getdoc(function) or ""
        if name.startswith("glyph_") and "::\n" in doc:
            found.append((name, textwrap.dedent(doc.split("::\n", 1)[1])))
    return found


#: Examples that need names of their own the docstring does not define (an
#: event class, a spell's functions): their hooks are shown by the shipped
#: house rules (glyph_push.py) instead.
NOT_STANDALONE = {"glyph_parse", "glyph_notate", "glyph_more_spells"}


@pytest.mark.parametrize("hook,code", [e for e in examples() if e[0] not in NOT_STANDALONE])
def test_every_hook_example_plays_a_whole_game(hook, code):
    names = {"rulehook": rulehook, "attrs": attrs, "Payers": Payers, "Spell": Spell, "Outcome": Outcome}
    names.update(recall=recall, remember=remember, SCEPTER=SCEPTER)
    exec(compile(code, f"<{hook} example>", "exec"), names)
    cls = next(
        v
        for k, v in names.items()
        if isinstance(v, type) and re.match(r"[A-Z]", k) and k not in ("Payers", "Spell", "Outcome")
    )
    assert hook in vars(cls) or any(hook in vars(b) for b in cls.__mro__)

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("example", "glyph-chess", hook, cls())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    bots = [registry.bot("random", "glyph-chess")] * 2
    header, match, events = selfplay(registry, "glyph-chess", ["ann", "ben"], bots, f"example-{hook}", ["example"])
    assert match.over and events
