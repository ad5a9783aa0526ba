"""One helper for the caches that forget past a bound (``tabletop.base.caches``)."""

from __future__ import annotations

import ast
import re

import pytest

from tabletop.base.caches import FORGET_ALL, FORGET_OLDEST, KEEP_FIRST, Bound

from ..conftest import ROOT


def fill(bound: Bound, keys) -> dict:
    cache: dict = {}
    for key in keys:
        assert bound.keep(cache, key, key * 10) == key * 10  # the value, kept or not
        assert len(cache) <= bound.limit
    return cache


def test_a_cache_that_forgets_all_at_once_starts_again_when_full():
    assert fill(Bound(3, FORGET_ALL), range(7)) == {6: 60}
    assert fill(Bound(3), range(3)) == {0: 0, 1: 10, 2: 20}  # the default policy, not yet full


def test_a_cache_that_forgets_the_oldest_keeps_the_last_entries():
    assert fill(Bound(3, FORGET_OLDEST), range(7)) == {4: 40, 5: 50, 6: 60}


def test_a_cache_that_keeps_the_first_keeps_them_for_good():
    assert fill(Bound(3, KEEP_FIRST), range(7)) == {0: 0, 1: 10, 2: 20}


@pytest.mark.parametrize("limit, policy", [(0, FORGET_ALL), (3, "forget some")])
def test_a_bound_is_at_least_one_entry_of_a_known_policy(limit, policy):
    with pytest.raises(ValueError):
        Bound(limit, policy)


def test_the_games_caches_stay_within_their_bounds():
    from tabletop_glux import fast
    from tabletop_glyph_chess import context

    for n in range(fast.DRAW_NODES_KEPT.limit + 5):
        fast.draw_nodes((f"p{n}", "q"))
        assert len(fast._DRAW_NODES) <= fast.DRAW_NODES_KEPT.limit
    for dice in range(1, 9):
        for spent in ((), (0,), (1, 0), (2, 1, 0)):
            assert context.free_dice(dice, spent) == tuple(n for n in range(1, dice + 1) if n - 1 not in spent)
    assert len(context.FREE) <= context.FREE_KEPT.limit


def test_a_registry_keeps_the_games_of_its_last_headers(registry):
    from tabletop import Header
    from tabletop.host.registry import GAMES_KEPT

    headers = [Header("glux", (f"a{n}", "b")) for n in range(GAMES_KEPT + 2)]
    games = [registry.game(header) for header in headers]
    assert registry.game(headers[-1]) is games[-1]  # kept
    assert registry.game(headers[0]) is not games[0]  # the oldest, forgotten and made again


# -- written once ------------------------------------------------------------------
SOURCES = [
    path
    for folder in ("src/tabletop", "plugins")
    for path in sorted((ROOT / folder).rglob("*.py"))
    # The referee's counts of strangers and guesses are records in its
    # settings file that forget the days gone by, not caches.
    if "referee" not in path.parts
]


def _forgets_by_hand(tree: ast.AST) -> list[int]:
    """The lines of ``if len(X) ...:`` blocks that empty ``X`` or drop one of its entries."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
            continue
        sized = node.test.left
        if not (isinstance(sized, ast.Call) and getattr(sized.func, "id", None) == "len" and sized.args):
            continue
        name = ast.unparse(sized.args[0])
        body = "\n".join(ast.unparse(statement) for statement in node.body)
        if f"{name}.clear()" in body or f"del {name}[next(iter({name}))]" in body:
            found.append(node.lineno)
    return found


#: Modules whose cache still forgets by hand, to move onto ``Bound``: none
#: (a module that does must move onto it).
STILL_BY_HAND: set[str] = set()


def test_no_cache_forgets_by_hand():
    """Every cache that forgets past a bound does so through ``caches.Bound``
    (before, 16 sites of the core and the games wrote it by hand, with 4
    policies and 8 sizes)."""
    by_hand = {
        str(path.relative_to(ROOT)): lines
        for path in SOURCES
        if path.name != "caches.py"  # the helper itself
        and (lines := _forgets_by_hand(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert set(by_hand) == STILL_BY_HAND, (
        f"a cache forgets by hand at these lines: keep its entries with tabletop.base.caches.Bound: {by_hand}"
    )


def test_each_bound_is_named_once_with_why_that_size():
    """A ``Bound`` is made at a module's top level, under a name, with a
    comment above it (why that size)."""
    made = 0
    for path in SOURCES:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if re.search(r"\bBound\(", line) and "class Bound" not in line and not line.lstrip().startswith("#"):
                if path.name == "caches.py":
                    continue  # the helper itself and its example
                where = f"{path.relative_to(ROOT)}:{number + 1}"
                assert re.match(r"^[A-Z_]+ = Bound\(", line), where
                assert lines[number - 1].lstrip().startswith("#"), where
                made += 1
    assert made >= 10
