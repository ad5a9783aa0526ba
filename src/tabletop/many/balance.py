"""What a designer reads from a run: the arms a ``--compare`` or ``--sweep``
plays, and the report (tables, JSON, the data behind the pictures)."""

from __future__ import annotations

from typing import Any

import attrs

from ..base.errors import UsageError
from .intervals import wilson
from .runs import Done
from .simulation import Plan
from .stats import Group, rounded


def arms(plan: Plan, compare: str | None = None, sweep: str | None = None) -> tuple[Plan, ...]:
    """The rule sets a run plays on every seed: ``plan`` alone; with and
    without ``compare`` (the base first); or ``plan`` plus ``sweep``'s
    variant at each value (``VARIANT:key=v1,v2,...``)."""
    if compare is not None:
        name = compare.partition(":")[0]
        mine = [v for v in plan.variants if v.partition(":")[0] != name]
        if len(mine) != len(plan.variants):
            return (plan.with_variants(mine), plan)
        return (plan, plan.with_variants([*plan.variants, compare]))
    if sweep is not None:
        name, sep, setting = sweep.partition(":")
        key, eq, values = setting.partition("=")
        choices = [v for v in values.split(",") if v]
        if not sep or not eq or not key or "," in key or len(choices) < 2:
            raise UsageError(f"--sweep '{sweep}': give VARIANT:key=v1,v2,... with two values or more")
        return tuple(plan.with_variants([*plan.variants, f"{name}:{key}={v}"]) for v in choices)
    return (plan,)


def swept_value(plan: Plan, sweep: str) -> str:
    name, _, setting = sweep.partition(":")
    key = setting.partition("=")[0]
    for v in plan.variants:
        if v.startswith(f"{name}:{key}="):
            return v.split("=", 1)[1]
    return "?"  # pragma: no cover


@attrs.define
class Report:
    """A finished (or stopped) run, told as tables, JSON or pictures."""

    done: Done
    compare: str | None = None
    sweep: str | None = None

    @property
    def groups(self) -> list[Group]:
        """The games of each arm (one group each: an arm is one game, player count, rule set and line-up)."""
        return [g for s in self.done.summaries for g in s.sorted_groups()]

    def title(self) -> str:
        """Game, players, bots, variants and games, for the pictures."""
        base = self.done.run.arms[0]
        bots = base.bots[0] if len(set(base.bots)) == 1 else " ".join(base.bots)
        if self.compare:
            rules = f"with and without {self.compare}"
        elif self.sweep:
            rules = f"sweep {self.sweep}"
        else:
            rules = ", ".join(base.variants) or "official rules"
        return f"{base.game}, {base.players} players, bots {bots}, {rules}, {self.done.games:,} games"

    def text(self) -> str:
        blocks = [s.table() for s in self.done.summaries]
        if self.done.paired is not None:
            blocks.append(self.done.paired.table(self.changed()))
        if self.sweep:
            blocks.append(self.sweep_table())
        lines = "\n\n".join(blocks)
        notes = []
        if self.done.resumed:
            notes.append(f"Resumed: games 1 to {self.done.resumed} were played before.")
        for first in self.done.continued_from:
            notes.append(
                f"Games {first} on were played by other code than those before them (--continue-anyway): "
                "the summary counts both."
            )
        if self.done.narrow:
            notes.append(
                f"Stopped after {self.done.games} of {self.done.run.games} games: every interval is within "
                f"{self.done.run.until_interval:g}."
            )
        return lines + ("\n\n" + "\n".join(notes) if notes else "")

    def changed(self) -> str:
        base, other = self.done.run.arms[:2]
        return ", ".join(v for v in other.variants if v not in base.variants) or self.compare or "the variant"

    def sweep_rows(self) -> list[dict[str, Any]]:
        assert self.sweep is not None
        rows = []
        for arm, group in zip(self.done.run.arms, self.groups):
            seats = []
            for t in group.seats:
                low, high = wilson(t.wins, t.games)
                seats.append({"win_rate": rounded(t.rate), "ci95": [rounded(low), rounded(high)]})
            rows.append({"value": swept_value(arm, self.sweep), "games": group.finished, "seats": seats})
        return rows

    def sweep_table(self) -> str:
        head = f"Seat win rates (95% CI) at each value of {self.sweep}:"
        rows = [["value", "games", *[f"seat {i + 1}" for i in range(self.done.run.arms[0].players)]]]
        for r in self.sweep_rows():
            rows.append(
                [r["value"], str(r["games"])]
                + [f"{s['win_rate']:.1%} ({s['ci95'][0]:.1%}-{s['ci95'][1]:.1%})" for s in r["seats"]]
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        return "\n".join([head] + ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows])

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "run": self.done.meta(),
            "resumed": self.done.resumed,
            "continued_from": self.done.continued_from,
            "stopped_early": self.done.narrow,
            "summaries": [s.as_json() for s in self.done.summaries],
        }
        if self.done.paired is not None:
            data["compare"] = self.done.paired.as_json(self.changed())
        if self.sweep:
            data["sweep"] = {"variant": self.sweep, "values": self.sweep_rows()}
        return data
