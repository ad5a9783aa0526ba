"""What a batch of games adds up to: a :class:`~tabletop.many.stats.Summary`
per rule set (*arm*) and, for a paired comparison, the paired tallies.

A worker counts the games it plays into a :class:`Totals` and sends back
only that (a few kilobytes whatever the batch's size); the command that
started the run merges them in game order, which gives exactly the counts
of adding every row in order (every count is a whole number, and the sums
of the paired means are sums of whole numbers, exact in floats). A results
folder's manifest keeps the totals of its games as JSON (:meth:`Totals.state`),
so that resuming a run of any size reads no row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .paired import Mean, Paired
from .stats import GameRow, Group, Summary, Tally


class Totals:
    """The counts of some games of a run: one summary per arm, and the
    paired tallies when there are two arms."""

    def __init__(self, arms: int, by: Sequence[str], players: int) -> None:
        self.by = tuple(by)
        self.summaries = [Summary(self.by) for _ in range(arms)]
        self.paired = Paired(players, "turn-order" if "turn-order" in self.by else "seat") if arms == 2 else None
        #: Games counted (each played under every arm).
        self.games = 0

    def add(self, group: Sequence[GameRow]) -> None:
        """One game: its row under each arm, in arm order."""
        for summary, row in zip(self.summaries, group):
            summary.add(row)
        if self.paired is not None:
            self.paired.add(*group)
        self.games += 1

    def merge(self, other: Totals) -> Totals:
        """Add the games ``other`` counted (other games of the same run)."""
        for mine, theirs in zip(self.summaries, other.summaries):
            mine.merge(theirs)
        if self.paired is not None and other.paired is not None:
            self.paired.merge(other.paired)
        self.games += other.games
        return self

    # -- as JSON, for a results folder's manifest ---------------------------

    def state(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "by": list(self.by),
            "summaries": [_summary_state(s) for s in self.summaries],
            "paired": _paired_state(self.paired) if self.paired is not None else None,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any], players: int) -> Totals:
        """The totals :meth:`state` gave (raises KeyError, TypeError or
        ValueError on anything else)."""
        summaries = state["summaries"]
        totals = cls(len(summaries), state["by"], players)
        totals.games = int(state["games"])
        totals.summaries = [_summary_from(s, totals.by) for s in summaries]
        if totals.paired is not None:
            totals.paired = _paired_from(state["paired"])
        return totals


def _counter(pairs: Any) -> Counter[int]:
    return Counter({int(k): int(v) for k, v in pairs})


def _tally_state(tally: Tally) -> list[Any]:
    return [tally.games, tally.wins, tally.alone, sorted(tally.scores.items())]


def _tally_from(state: list[Any]) -> Tally:
    tally = Tally()
    tally.games, tally.wins, tally.alone = int(state[0]), int(state[1]), int(state[2])
    tally.scores = _counter(state[3])
    return tally


def _summary_state(summary: Summary) -> list[Any]:
    groups = []
    for _, g in sorted(summary.groups.items()):
        groups.append(
            {
                "key": [g.game, g.players, list(g.variants), list(g.lineup)],
                "games": g.games,
                "finished": g.finished,
                "shared": g.shared,
                "no_winner": g.no_winner,
                "lengths": sorted(g.lengths.items()),
                "turns": sorted(g.turns.items()),
                "seats": [_tally_state(t) for t in g.seats],
                "seat_names": [sorted(names.items()) for names in g.seat_names],
                "by_player": [[p, _tally_state(t)] for p, t in sorted(g.by_player.items())],
                "by_bot": [[b, _tally_state(t)] for b, t in sorted(g.by_bot.items())],
                "crossed": [[list(k), _tally_state(t)] for k, t in sorted(g.crossed.items())],
            }
        )
    return groups


def _summary_from(groups: list[dict[str, Any]], by: tuple[str, ...]) -> Summary:
    summary = Summary(by)
    for state in groups:
        game, players, variants, lineup = state["key"]
        key = (str(game), int(players), tuple(variants), tuple(lineup))
        g = summary.groups[key] = Group(*key, by=summary.by)
        g.games, g.finished = int(state["games"]), int(state["finished"])
        g.shared, g.no_winner = int(state["shared"]), int(state["no_winner"])
        g.lengths, g.turns = _counter(state["lengths"]), _counter(state["turns"])
        if len(state["seats"]) != g.players or len(state["seat_names"]) != g.players:
            raise ValueError("a tally per seat")
        g.seats = [_tally_from(t) for t in state["seats"]]
        g.seat_names = [Counter({str(p): int(n) for p, n in names}) for names in state["seat_names"]]
        g.by_player = {str(p): _tally_from(t) for p, t in state["by_player"]}
        g.by_bot = {str(b): _tally_from(t) for b, t in state["by_bot"]}
        g.crossed = {tuple(map(str, k)): _tally_from(t) for k, t in state["crossed"]}
    return summary


def _mean_state(mean: Mean) -> list[float]:
    return [mean.n, mean.total, mean.squares]


def _mean_from(state: list[Any]) -> Mean:
    mean = Mean()
    mean.n, mean.total, mean.squares = int(state[0]), float(state[1]), float(state[2])
    return mean


def _paired_state(paired: Paired) -> dict[str, Any]:
    return {
        "players": paired.players,
        "by": paired.by,
        "games": paired.games,
        "changed": [
            paired.changed_games,
            paired.changed_play,
            paired.changed_winners,
            paired.changed_places,
            paired.changed_order,
        ],
        "wins": [_mean_state(m) for m in paired.wins],
        "scores": [_mean_state(m) for m in paired.scores],
        "gains": paired.gains,
        "losses": paired.losses,
        "base_wins": paired.base_wins,
        "other_wins": paired.other_wins,
    }


def _paired_from(state: dict[str, Any]) -> Paired:
    paired = Paired(int(state["players"]), str(state["by"]))
    paired.games = int(state["games"])
    (
        paired.changed_games,
        paired.changed_play,
        paired.changed_winners,
        paired.changed_places,
        paired.changed_order,
    ) = (int(n) for n in state["changed"])
    paired.wins = [_mean_from(m) for m in state["wins"]]
    paired.scores = [_mean_from(m) for m in state["scores"]]
    for name in ("gains", "losses", "base_wins", "other_wins"):
        values = [int(n) for n in state[name]]
        if len(values) != paired.players:
            raise ValueError(f"{name}: one per seat")
        setattr(paired, name, values)
    if len(paired.wins) != paired.players or len(paired.scores) != paired.players:
        raise ValueError("a mean per seat")
    return paired
