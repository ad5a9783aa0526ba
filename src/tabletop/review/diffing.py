"""Comparing two logs: how long they agree, where they part, what that changes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import attrs

from ..base.errors import TabletopError
from ..host.registry import Registry
from ..model.events import Event
from ..play.engine import Match, Replay
from ..sight import seen


@attrs.frozen
class Side:
    """One log at the first difference: its event there (None: the log ended)."""

    path: Path
    lineno: int | None
    text: str | None


@attrs.frozen
class Result:
    """How one of the two games stands at the end of its log: who won, and the scores."""

    path: Path
    events: int
    over: bool
    winners: tuple[str, ...]
    #: The result in a few words: ``ann wins``, ``shared victory: ann, ben``, ``not over``.
    verdict: str
    #: The scores in seat order; None for a game won without points (its legend says so).
    scores: dict[str, int] | None

    def line(self) -> str:
        """One line: the file, who won, after how many events, and the scores."""
        scores = "; scores " + ", ".join(f"{p} {n}" for p, n in self.scores.items()) if self.scores is not None else ""
        return f"{self.path}: {self.verdict}, after {self.events} events{scores}"


@attrs.frozen
class Difference:
    header: list[tuple[str, str, str]]
    prefix: int
    first: tuple[Side, Side] | None
    at_first: list[tuple[str, str, str]]
    at_end: list[tuple[str, str, str]]
    lengths: tuple[int, int]
    #: Each game's result at the end of its log (A, B).
    results: tuple[Result, Result] | None = None

    @property
    def identical(self) -> bool:
        return not self.header and self.first is None


def facets(match: Match) -> dict[str, str]:
    """What a diff compares: the game's own facets plus scores and winners."""
    found = seen.facets(match.game, match.state, seen.EVERYONE)
    outcome = match.game.outcome(match.state)
    for player, score in outcome.scores.items():
        found[f"score {player}"] = str(score)
    found["winners"] = ", ".join(outcome.winners) if match.over else "(not over)"
    return found


def compare(a: dict[str, str], b: dict[str, str]) -> list[tuple[str, str, str]]:
    """The facets that differ, in the games' own order: a facet only in ``b``
    comes where ``b`` has it (a square among the squares, not after the scores)."""
    keys = list(a)
    at = 0
    for key in b:
        if key in a:
            at = keys.index(key) + 1
        else:
            keys.insert(at, key)
            at += 1
    keys = _in_order(keys, list(a), list(b))
    return [(k, a.get(k, "-"), b.get(k, "-")) for k in keys if a.get(k) != b.get(k)]


def _in_order(keys: list[str], a: list[str], b: list[str]) -> list[str]:
    """``keys`` with each family of facets named alike (``square a1``, ``square
    c2``) in one order: by its letters then digits, or its digits then letters,
    whichever orders both states' own lists as the game gave them. A square
    only one side has then comes among the squares where the board has it."""
    families: dict[str, list[int]] = {}
    for i, key in enumerate(keys):
        head, _, name = key.rpartition(" ")
        if _NAME.fullmatch(name):
            families.setdefault(head, []).append(i)
    result = list(keys)
    for head, places in families.items():
        if len(places) < 2:
            continue
        for order in (_letters_first, _digits_first):
            if all(_sorted_by(order, [k for k in side if k.rpartition(" ")[0] == head]) for side in (a, b)):
                family = sorted((keys[i] for i in places), key=order)
                for i, key in zip(places, family):
                    result[i] = key
                break
    return result


_NAME = re.compile(r"[a-z]+\d+|\d+[a-z]+")


def _letters_first(key: str) -> tuple:
    name = key.rpartition(" ")[2]
    letters = name.strip("0123456789")
    return (len(letters), letters, int(name.strip("abcdefghijklmnopqrstuvwxyz") or 0))


def _digits_first(key: str) -> tuple:
    name = key.rpartition(" ")[2]
    letters = name.strip("0123456789")
    return (int(name.strip("abcdefghijklmnopqrstuvwxyz") or 0), len(letters), letters)


def _sorted_by(order, keys: list[str]) -> bool:
    if not all(_NAME.fullmatch(k.rpartition(" ")[2]) for k in keys):
        return False
    return keys == sorted(keys, key=order)


def result(registry: Registry, path: Path, match: Match) -> Result:
    """How ``match`` (the game of ``path``, replayed to its end) stands."""
    outcome = match.game.outcome(match.state)
    verdict = outcome.verdict() if match.over else "not over"
    scores = {p: outcome.scores[p] for p in match.header.players} if _points(registry, match) else None
    return Result(path, match.seq, match.over, tuple(outcome.winners) if match.over else (), verdict, scores)


def _points(registry: Registry, match: Match) -> bool:
    # A game won without points says so in the key to its pictures.
    try:
        renderer = registry.renderer(match.header.game, "svg")
    except TabletopError:
        return True
    legend = renderer.key(match.game)
    return legend is None or legend.points


def diff(registry: Registry, path_a: Path, path_b: Path) -> Difference:
    ra, rb = Replay(registry, path_a), Replay(registry, path_b)
    ha, hb = ra.header.to_json(), rb.header.to_json()
    header = [(k, _short(ha[k]), _short(hb[k])) for k in ha if ha[k] != hb[k]]
    if ra.header.game != rb.header.game or ra.header.players != rb.header.players:
        ma, mb = ra.run(), rb.run()
        results = (result(registry, path_a, ma), result(registry, path_b, mb))
        return Difference(header, 0, None, [], [], (0, 0), results)
    ia: Iterator[tuple[int, int, Event]] = iter(ra)
    ib: Iterator[tuple[int, int, Event]] = iter(rb)
    prefix = 0

    def ends() -> tuple[Result, Result]:
        return result(registry, path_a, ra.match), result(registry, path_b, rb.match)

    while True:
        ea, eb = next(ia, None), next(ib, None)
        if ea is None and eb is None:
            return Difference(header, prefix, None, [], [], (prefix, prefix), ends())
        if ea is not None and eb is not None and ea[2] == eb[2]:
            prefix += 1
            continue
        first = (_side(ra, ea), _side(rb, eb))
        at_first = compare(facets(ra.match), facets(rb.match))
        for _ in ia:
            pass
        for _ in ib:
            pass
        at_end = compare(facets(ra.match), facets(rb.match))
        return Difference(header, prefix, first, at_first, at_end, (ra.match.seq, rb.match.seq), ends())


def _side(replay: Replay, item: tuple[int, int, Event] | None) -> Side:
    if item is None:
        return Side(replay.path, None, None)
    lineno, _, event = item
    return Side(replay.path, lineno, replay.match.describe(event))


def _short(value: object) -> str:
    """A header value as a person writes it: ``seed selfplay-1``, ``a, b``, ``(none)``."""
    if isinstance(value, dict):
        text = ", ".join(f"{k} {_short(v)}" for k, v in value.items()) or "(none)"
    elif isinstance(value, list):
        text = ", ".join(_short(v) for v in value) or "(none)"
    else:
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."
