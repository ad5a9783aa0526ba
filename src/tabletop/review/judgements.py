"""The analysis a study keeps: each run of ``tabletop analyse`` (its bot and
seed) and its judgements, one per decision of the main line: the mover's
winning chance before and after it, and the decision the bot prefers
(:mod:`tabletop.review.analysis` makes them).

A judgement is shown to its mover and to whoever may see everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..base.errors import CheckFailed, LogFormatError, TabletopError, describe
from ..host.registry import Registry
from ..log.header import Header
from ..model.events import DECISION, Event
from .records import MAIN, Analysis, Judgement, sees


class Judgements:
    """Analyses and their judgements (a part of :class:`~tabletop.review.study.Study`)."""

    registry: Registry
    header: Header
    events: list[Event]
    analyses: dict[str, Analysis]
    judgements: dict[tuple[str, int], Judgement]

    def judgements_of(self, analysis: str, viewer: str | None = None) -> list[Judgement]:
        """The judgements of one analysis, by event number, that ``viewer`` may be shown."""
        found = [j for (a, _), j in self.judgements.items() if a == analysis and sees(viewer, j.player)]
        return sorted(found, key=lambda j: j.at.seq)

    def latest_analysis(self) -> Analysis | None:
        return list(self.analyses.values())[-1] if self.analyses else None

    def analysis_by(self, bot: str, seed: str) -> Analysis | None:
        """The analysis by ``bot`` with ``seed`` in the study, if any."""
        return next((a for a in self.analyses.values() if a.bot == bot and a.seed == seed), None)

    def judge(self, bot: str, seed: str, judgements: Iterable[dict[str, Any]]) -> None:
        """Write judgements of the analysis by ``bot`` with ``seed`` (begun with
        the first of them): each ``{"seq", "player", "before", "after", "best"}``
        (``best`` an event or None). A decision judged already is left as it is."""
        given = list(judgements)

        def build() -> list[dict[str, Any]]:
            records: list[dict[str, Any]] = []
            known = self.analysis_by(bot, seed)
            if known is None:
                ident = self._next("a")
                records.append({"kind": "analysis", "id": ident, "bot": bot, "seed": seed})
            else:
                ident = known.id
            for j in given:
                if (ident, j["seq"]) in self.judgements:
                    continue  # judged meanwhile by another run of the same analysis
                best = j["best"]
                records.append(
                    {
                        "kind": "judgement",
                        "analysis": ident,
                        "at": self.anchor(MAIN, j["seq"]).to_json(),
                        "player": j["player"],
                        "before": _rounded(j["before"]),
                        "after": _rounded(j["after"]),
                        "best": None if best is None else self._decision_json(best),
                    }
                )
            return records if len(records) > (known is None) else []

        self._write(build)

    def _decision_json(self, event: Event) -> dict[str, Any]:
        data = self._encode(0, event)
        del data["seq"]
        return data

    def _take_analysis(self, data: dict, number: int) -> None:
        ident = self._named(data, "a")
        bot, seed = data["bot"], data["seed"]
        for field, value in (("bot", bot), ("seed", seed)):
            if not isinstance(value, str) or not 0 < len(value) <= 256:
                raise LogFormatError(f"analysis {ident}: '{field}' must be 1 to 256 characters")
        self.analyses[ident] = Analysis(ident, bot, seed, number)

    def _take_judgement(self, data: dict, number: int) -> None:
        analysis = data["analysis"]
        if not isinstance(analysis, str) or analysis not in self.analyses:
            raise CheckFailed(f"a judgement of analysis {describe(analysis)}: no such analysis before it")
        at = self._anchored(data, f"a judgement of analysis {analysis}", main_only=True)
        what = f"the judgement of event {at.seq} by analysis {analysis}"
        if (analysis, at.seq) in self.judgements:
            raise CheckFailed(f"{what}: the decision is judged twice")
        event = self.events[at.seq - 1] if at.seq else None
        player = data["player"]
        if event is None or event.origin != DECISION or getattr(event, "player", None) != player:
            raise CheckFailed(f"{what}: event {at.seq} is no decision of {describe(player)}")
        values = []
        for field in ("before", "after"):
            value = data[field]
            if value is not None and (type(value) not in (int, float) or not 0 <= value <= 1):
                raise LogFormatError(f"{what}: '{field}' must be a chance from 0 to 1, or null")
            values.append(None if value is None else float(value))
        best = data["best"]
        if best is not None:
            if not isinstance(best, dict) or "seq" in best:
                raise LogFormatError(f"{what}: 'best' must be a decision (kind, player, payload), or null")
            try:
                best = self.registry.codec.decode(self.header.game, {"seq": 0, **best})[1]
            except TabletopError as exc:
                raise LogFormatError(f"{what}: 'best': {exc.message}") from None
            if best.origin != DECISION or getattr(best, "player", None) != player:
                raise CheckFailed(f"{what}: 'best' is no decision of {player}")
        self.judgements[(analysis, at.seq)] = Judgement(analysis, at, player, values[0], values[1], best, number)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(float(value), 4)
