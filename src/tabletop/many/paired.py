"""Paired comparison: the same seeds played under two rule sets.

Each seed gives a pair of games, one per rule set, that start alike; a
seat's win in one and not the other is a *changed outcome*. The change in a
seat's win rate is the mean of the per-seed differences (+1, 0 or -1), with a
normal (Wald) 95% interval built from the spread of those differences, which
is what pairing gains: seeds where nothing changed add no noise, and when no
outcome changed the interval is exactly 0. McNemar's exact test (a two-sided
binomial test on the changed outcomes) gives the p-value. Scores are
compared the same way (mean per-seed difference, normal interval).
"""

from __future__ import annotations

import math
from typing import Any

from .intervals import Z95, wilson
from .stats import GameRow, rounded


class Mean:
    """The mean of some numbers and its 95% interval, kept as three sums."""

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merge(self, other: Mean) -> None:
        # Sums of whole numbers (differences of wins and of scores) stay
        # exact in floats: merging in any grouping gives the same sums.
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        if self.n < 2:
            return (-math.inf, math.inf) if self.n == 0 else (self.mean, self.mean)
        variance = max(0.0, (self.squares - self.n * self.mean**2) / (self.n - 1))
        half = Z95 * math.sqrt(variance / self.n)
        return (self.mean - half, self.mean + half)


def mcnemar(gains: int, losses: int) -> float:
    """Two-sided exact McNemar p-value for ``gains`` against ``losses``."""
    n = gains + losses
    if n == 0:
        return 1.0
    k = min(gains, losses)
    # P(X <= k) for X ~ Binomial(n, 1/2), summed in logs to stay exact for large n.
    tail = sum(
        math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2))
        for i in range(k + 1)
    )
    return min(1.0, 2 * tail)


class Paired:
    """Pairs of games (same seed, two rule sets) added one at a time."""

    def __init__(self, players: int, by: str = "seat") -> None:
        self.players = players
        #: ``seat``: seat k against seat k; ``turn-order``: the k-th player in
        #: turn order against the k-th (the same seed draws the same start
        #: player under both rule sets unless the rules change the draw).
        self.by = by
        self.games = 0
        #: Games where anything the study reports differs: the play (events,
        #: scores, turn order, length, figures) or the winners.
        self.changed_games = 0
        #: Games whose play differs; games whose winners differ; games where a
        #: seat (or a place in turn order) won in one and not the other, which
        #: is what the win-rate differences count.
        self.changed_play = 0
        self.changed_winners = 0
        self.changed_places = 0
        #: Games whose turn order differs (then, paired by turn order, the
        #: k-th player is not the same person with and without).
        self.changed_order = 0
        self.wins = [Mean() for _ in range(players)]
        self.scores = [Mean() for _ in range(players)]
        self.gains = [0] * players
        self.losses = [0] * players
        self.base_wins = [0] * players
        self.other_wins = [0] * players

    def add(self, base: GameRow, other: GameRow) -> None:
        self.games += 1
        play = (
            base.digest != other.digest
            or base.events != other.events
            or base.scores != other.scores
            or base.order != other.order
            or base.turns != other.turns
            or base.finished != other.finished
            or base.figures != other.figures
        )
        winners = set(base.winners) != set(other.winners)
        self.changed_play += play
        self.changed_winners += winners
        self.changed_games += play or winners
        self.changed_order += base.order != other.order
        ours, theirs = (base.order, other.order) if self.by == "turn-order" else (base.players, other.players)
        moved = False
        for seat, player in enumerate(ours):
            a = player in base.winners
            b = theirs[seat] in other.winners
            moved = moved or a != b
            self.base_wins[seat] += a
            self.other_wins[seat] += b
            self.gains[seat] += b and not a
            self.losses[seat] += a and not b
            self.wins[seat].add(int(b) - int(a))
            self.scores[seat].add(
                other.scores[other.players.index(theirs[seat])] - base.scores[base.players.index(player)]
            )
        self.changed_places += moved

    def merge(self, other: Paired) -> Paired:
        """Add the pairs ``other`` counted (other seeds, paired the same way)."""
        if (other.players, other.by) != (self.players, self.by):
            raise ValueError("paired tallies of other seats merged")
        self.games += other.games
        self.changed_games += other.changed_games
        self.changed_play += other.changed_play
        self.changed_winners += other.changed_winners
        self.changed_places += other.changed_places
        self.changed_order += other.changed_order
        for mine, theirs in zip(self.wins + self.scores, other.wins + other.scores):
            mine.merge(theirs)
        for name in ("gains", "losses", "base_wins", "other_wins"):
            setattr(self, name, [a + b for a, b in zip(getattr(self, name), getattr(other, name))])
        return self

    def seats(self) -> list[dict[str, Any]]:
        out = []
        for seat in range(self.players):
            low, high = self.wins[seat].interval()
            slow, shigh = self.scores[seat].interval()
            out.append(
                {
                    "seat" if self.by == "seat" else "turn_order": seat + 1,
                    "without": rounded(self.base_wins[seat] / self.games) if self.games else None,
                    "with": rounded(self.other_wins[seat] / self.games) if self.games else None,
                    "difference": rounded(self.wins[seat].mean),
                    "ci95": [rounded(low), rounded(high)],
                    "changed": {"won": self.gains[seat], "lost": self.losses[seat]},
                    "mcnemar_p": rounded(mcnemar(self.gains[seat], self.losses[seat])),
                    "score_difference": rounded(self.scores[seat].mean, 3),
                    "score_ci95": [rounded(slow, 3), rounded(shigh, 3)],
                }
            )
        return out

    def widest(self) -> float:
        """The widest win-rate interval among the seats, for deciding whether
        enough games were played. A seat whose outcome no game has changed
        has an interval of exactly 0, which says nothing of how often a change
        might come: it counts as wide as the Wilson interval of its changed
        outcomes (0 of n: up to about 3.84 / n either way)."""
        widths = []
        for seat, mean in enumerate(self.wins):
            low, high = mean.interval()
            if not self.gains[seat] + self.losses[seat]:
                low, high = -wilson(0, mean.n)[1], wilson(0, mean.n)[1]
            widths.append(high - low)
        return max(widths, default=math.inf)

    def verdict(self, name: str) -> str:
        """What the change did, in one sentence, from the same counts as the
        table: it never calls a change none."""
        n = self.games
        if not self.changed_games:
            return (
                f"{name} changed nothing: all {n} games were played event for event alike, with the same "
                "scores and winners (it does not apply to these games, e.g. at this player count)."
            )
        if not self.changed_places:
            said = (
                f"{name} changed the play or the scores of {self.changed_play} of {n} games but the winners of none"
                if not self.changed_winners
                else f"{name} changed the winners of {self.changed_winners} of {n} games, but not which "
                f"{self._slot()} won"
            )
            return said + ": every win-rate difference is exactly 0." + self._order_note(name)
        share = self.changed_winners / n
        said = f"{name} changed the winners of {self.changed_winners} of {n} games ({share:.1%})"
        if not self.changed_play:
            said += ", with the same play and scores: it decides only who wins"
        elif self.changed_winners != self.changed_places:
            said += f"; which {self._slot()} won changed in {self.changed_places}"
        return said + "." + self._order_note(name)

    def _slot(self) -> str:
        return "seat" if self.by == "seat" else "place in turn order"

    def _order_note(self, name: str) -> str:
        if self.by != "turn-order" or not self.changed_order:
            return ""
        return (
            f" The turn order differs in {self.changed_order} games: there the k-th player in turn order "
            f"is not the same player with and without {name}."
        )

    def as_json(self, name: str) -> dict[str, Any]:
        return {
            "variant": name,
            "games": self.games,
            "changed_games": self.changed_games,
            "changed_play": self.changed_play,
            "changed_winners": self.changed_winners,
            "changed_places": self.changed_places,
            "changed_turn_order": self.changed_order,
            "verdict": self.verdict(name),
            "test": "paired difference of per-seed win indicators, normal 95% interval; McNemar exact test",
            "seats": self.seats(),
        }

    def label(self, k: int) -> str:
        """What slot ``k`` (from 1) is: ``seat 2`` or ``2nd`` (in turn order)."""
        if self.by == "seat":
            return f"seat {k}"
        return f"{k}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(k, 'th') }"

    def table(self, name: str) -> str:
        lines = [f"Paired comparison with and without {name} (same seeds; with minus without, 95% interval):"]
        head = "seat" if self.by == "seat" else "turn order"
        rows = [[head, "without", "with", "difference", "95% CI", "won/lost", "McNemar p", "score diff"]]
        for k, e in enumerate(self.seats(), start=1):
            low, high = e["ci95"]
            rows.append(
                [
                    str(k) if self.by == "seat" else self.label(k),
                    f"{e['without']:.1%}",
                    f"{e['with']:.1%}",
                    f"{e['difference']:+.1%}",
                    f"{low:+.1%} to {high:+.1%}",
                    f"{e['changed']['won']}/{e['changed']['lost']}",
                    f"{e['mcnemar_p']:.3g}",
                    f"{e['score_difference']:+.2f}",
                ]
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines += [
            "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in rows
        ]
        lines.append(self.verdict(name))
        significant = [k for k, e in enumerate(self.seats(), start=1) if e["ci95"][0] > 0 or e["ci95"][1] < 0]
        if self.changed_places:
            if significant:
                places = ", ".join(str(k) if self.by == "seat" else self.label(k) for k in significant)
                lines.append(
                    f"The interval excludes 0 (a real change) for {'seat ' if self.by == 'seat' else ''}{places}."
                )
            else:
                lines.append("Every interval includes 0: no change in win rates is shown at this number of games.")
        return "\n".join(lines)
