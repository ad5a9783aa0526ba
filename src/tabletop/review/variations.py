"""A study's tree of variations: decisions legal at a position of the game
(or of another variation) other than those played, the chance outcomes
that follow drawn from the variation's own seed, and the matches to play
on from any position of any line.

A variation made as a player is played in a world made up from that
player's view (:func:`made_up`), so its legal decisions and outcomes
never tell the player what they could not know.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from ..base.caches import Bound
from ..base.errors import CheckFailed, IllegalEventError, LogFormatError, TabletopError, UsageError, describe
from ..host.registry import Registry
from ..log import chain
from ..log.header import Header
from ..model.events import CHANCE, DECISION, Event, Resign, Seal, Unseal
from ..model.game import Game
from ..model.nodes import Chance, Decide, Forced
from ..play import chance
from ..play.engine import Match
from ..sight import seen
from .records import MAIN, MAX_EVENTS, Anchor, Variation, eyes, sees

#: Positions kept to play on from (the main line's and variations'): a
#: study plays on from a few hundred at most, each a state.
MAX_KEPT = Bound(512)


class Variations:
    """The lines of a study and the positions on them (a part of
    :class:`~tabletop.review.study.Study`)."""

    registry: Registry
    header: Header
    game: Game
    events: list[Event]
    variations: dict[str, Variation]
    _matches: dict[tuple[str, int], tuple[Any, int, str | None, dict[str, str]]]

    def seen_as(self, line: str) -> str | None:
        """Whose eyes a line is seen with (None: everything; the main line is anyone's)."""
        return None if line == MAIN else self._variation(line).seen_as

    def events_of(self, line: str, seq: int) -> list[Event]:
        """The events that lead to event ``seq`` of ``line``, the main line's first."""
        if line == MAIN:
            return self.events[:seq]
        variation = self._variation(line)
        return self.events_of(variation.at.line, variation.at.seq) + variation.events[: seq - variation.at.seq]

    def event(self, line: str, seq: int) -> Event:
        """Event ``seq`` of ``line`` (from its first event on)."""
        return self.events_of(line, seq)[-1]

    def variations_for(self, viewer: str | None) -> list[Variation]:
        return [v for v in self.variations.values() if sees(viewer, v.seen_as)]

    # -- positions ----------------------------------------------------------------
    def match(self, line: str, seq: int, seen_as: str | None = None, seed: str | None = None) -> Match:
        """A match at event ``seq`` of ``line``, to play on: the game itself on
        the main line, seen whole; seen as a player, a world made up from that
        player's view with ``seed`` (a variation's). On a variation: its world."""
        registry, header = self.registry, self.header
        made = Match(registry, header, self.game)
        if line == MAIN:
            # From the nearest position kept, on: a study's variations start at a few positions, often the same.
            start = max((k for (where, k) in self._matches if where == MAIN and k <= seq), default=None)
            if start is not None:
                made.restore(*self._matches[(MAIN, start)])
            for event in self.events[made.seq : seq]:
                made.apply(event)  # each was checked when the log was read
            self._keep(MAIN, made)
            if seen_as is not None:
                if seed is None:  # pragma: no cover - every caller names the seed of the world
                    raise UsageError("a world made up from a player's view needs a seed")
                made.restore(made_up(made.game, made.state, seen_as, seed), made.seq, made.revealed, made.seals)
            return made
        known = self._matches.get((line, seq))
        if known is not None:
            made.restore(*known)
            return made
        variation = self._variation(line)
        made = self.match(variation.at.line, variation.at.seq, variation.seen_as, variation.seed)
        for event in variation.events[: seq - variation.at.seq]:
            made.apply(event)
        self._keep(line, made)
        return made

    def _keep(self, line: str, match: Match) -> None:
        """Keep where ``match`` is on ``line`` (a few hundred positions at most)."""
        MAX_KEPT.keep(self._matches, (line, match.seq), (match.state, match.seq, match.revealed, dict(match.seals)))

    # -- playing on ---------------------------------------------------------------
    def play(
        self, line: str, seq: int, decision: Event | str, player: str | None, seen_as: str | None, seed: str
    ) -> tuple[str, int]:
        """Play ``decision`` (an event, or the game's notation for ``player``)
        at event ``seq`` of ``line``: on along the line when the line holds
        it next, else on a variation, continued when this is its last
        position, else a new one with ``seed`` (seen as ``seen_as``). The
        chance outcomes and rule events that follow are drawn from the
        variation's seed. Returns the line and the event number reached.

        An illegal decision is refused with the rule's reason
        (:class:`~tabletop.base.errors.IllegalEventError`), and nothing is written."""
        found: list[tuple[str, int]] = []

        def build() -> list[dict[str, Any]]:
            self.anchor(line, seq)
            if line != MAIN and self.variations[line].seen_as != seen_as:
                raise UsageError(
                    f"variation {line} was made {eyes(self.variations[line].seen_as)}, not {eyes(seen_as)}"
                )
            here = self.match(line, seq, seen_as if line == MAIN else None, seed)
            event = self._decision(here, decision, player)
            # The line's own next decision, or a variation's first, is followed
            # as it is (legal where it was played); any other is checked here.
            if seq < self.length(line):
                ahead = self.event(line, seq + 1)
                if ahead == event and (line != MAIN or self.game.sees(ahead, seen_as)):
                    found.append((line, seq + 1))  # the line goes on with it: no new record
                    return []
            for variation in self.variations.values():
                if (
                    variation.at.line == line
                    and variation.at.seq == seq
                    and variation.seen_as == seen_as
                    and variation.events[:1] == [event]
                ):
                    found.append((variation.id, seq + 1))
                    return []
            self._check(here, event, seen_as)
            going_on = line != MAIN and seq == self.length(line)
            events = [event, *_settle(here, self.variations[line].seed if going_on else seed)]
            numbered = [self._encode(seq + k, e) for k, e in enumerate(events, start=1)]
            if going_on:
                found.append((line, seq + len(events)))
                return [{"kind": "more", "variation": line, "events": numbered}]
            record = {
                "kind": "variation",
                "id": self._next("v"),
                "at": self.anchor(line, seq).to_json(),
                "as": seen_as,
                "seed": seed,
                "events": numbered,
            }
            found.append((record["id"], seq + len(events)))
            return [record]

        self._write(build)
        return found[-1]

    def _decision(self, match: Match, decision: Event | str, player: str | None) -> Event:
        node = match.node
        if isinstance(node, Decide) and node.sealed:
            raise IllegalEventError("a secret decision is due here: a variation cannot be played from it")
        if not isinstance(node, Decide):
            raise IllegalEventError("no decision is due here")
        if isinstance(decision, str):
            who = player if player is not None else node.players[0]
            if who not in node.players:
                raise IllegalEventError(f"not {who}'s decision here: {' or '.join(node.players)} to decide")
            decision = match.game.parse(decision, who, match.state)
        if decision.origin != DECISION or isinstance(decision, (Seal, Unseal, Resign)):
            raise IllegalEventError(f"'{decision.kind}' is not a decision a variation may play")
        return decision

    def _check(self, match: Match, decision: Event, seen_as: str | None) -> None:
        """Refuse ``decision`` with the rule's reason unless it is legal in
        ``match``, then play it there."""
        reason = match.why_illegal(decision)
        if reason is not None:
            made_up = "" if seen_as is None else f" (in a world made up from {seen_as}'s view)"
            raise IllegalEventError(f"{match.describe(decision, seen_as)}: {reason}{made_up}")
        match.apply(decision)

    # -- checking what the study file holds ---------------------------------------
    def _visible(self, at: Anchor, seen_as: str | None, what: str) -> None:
        line_eyes = self.seen_as(at.line)
        if at.line != MAIN and line_eyes != seen_as:
            raise CheckFailed(f"{what} is made {eyes(seen_as)} on variation {at.line}, made {eyes(line_eyes)}")

    def _take_variation(self, data: dict, number: int) -> None:
        ident = self._named(data, "v")
        what = f"variation {ident}"
        at = self._anchored(data, what)
        seed = data["seed"]
        if not isinstance(seed, str) or not 0 < len(seed) <= 256:
            raise LogFormatError(f"{what}: 'seed' must be 1 to 256 characters")
        seen_as = self._eyes(data, what)
        self._visible(at, seen_as, what)
        variation = Variation(ident, at, seed, seen_as, [], [at.head], number)
        self._go_on(variation, data["events"], what, new=True)
        self.variations[ident] = variation

    def _take_more(self, data: dict, number: int) -> None:
        ident = data["variation"]
        if not isinstance(ident, str) or ident not in self.variations:
            raise CheckFailed(f"more of variation {describe(ident)}: no such variation before it")
        self._go_on(self.variations[ident], data["events"], f"more of variation {ident}", new=False)

    def _go_on(self, variation: Variation, events: Any, what: str, new: bool) -> None:
        """Check ``events`` as the next of ``variation`` (a decision legal where
        it is played, then the chance outcomes its seed gives and the events the
        rules force, up to the next decision) and add them."""
        if not isinstance(events, list) or not events or len(events) > MAX_EVENTS:
            raise LogFormatError(f"{what}: 'events' must be a list of 1 to {MAX_EVENTS:,} events")
        if new:
            match = self.match(variation.at.line, variation.at.seq, variation.seen_as, variation.seed)
        else:
            match = self.match(variation.id, variation.end)
        codec, game = self.registry.codec, self.header.game
        head = variation.heads[-1]
        decided = False
        for data in events:
            expected = match.seq + 1
            try:
                seq, event = codec.decode(game, data)
            except TabletopError as exc:
                raise LogFormatError(f"{what}: {exc.message}") from None
            if seq != expected:
                raise CheckFailed(f"{what}: event {seq}: wrong sequence number (expected {expected})")
            said = f"{what}, event {seq} ({match.describe(event)})"
            node = match.node
            if event.origin == DECISION:
                if decided:
                    raise CheckFailed(f"{said}: one decision a record, then what follows it")
                if isinstance(event, (Seal, Unseal, Resign)):
                    raise CheckFailed(f"{said}: a variation plays open decisions only")
                decided = True
                reason = match.why_illegal(event)
                if reason is not None:
                    raise CheckFailed(f"{said}: {reason}")
            elif not decided:
                raise CheckFailed(f"{said}: a record of a variation begins with a decision")
            elif event.origin == CHANCE and not isinstance(
                node, Forced
            ):  # a forced one is checked as the rules force it
                if not isinstance(node, Chance):
                    raise CheckFailed(f"{said}: no chance outcome is due here")
                drawn = node.pick(chance.number(variation.seed, seq))
                if drawn != event:
                    raise CheckFailed(f"{said}: the variation's seed gives '{match.describe(drawn)}' here")
            else:
                reason = match.why_illegal(event)
                if reason is not None or not isinstance(node, Forced):
                    raise CheckFailed(f"{said}: {reason or 'the rules force nothing here'}")
            match.apply(event)
            head = chain.step(head, codec.encode(seq, event).encode("utf-8"))
            variation.events.append(event)
            variation.heads.append(head)
        if isinstance(match.node, (Chance, Forced)):
            raise CheckFailed(f"{what}: it stops at event {match.seq}, before the outcome or rule event due there")
        self._keep(variation.id, match)


def _settle(match: Match, seed: str) -> list[Event]:
    """The chance outcomes (from the variation's ``seed``) and rule events that
    follow a decision in a variation, up to the next decision or the end."""
    events: list[Event] = []
    while len(events) < MAX_EVENTS:
        node = match.node
        if isinstance(node, Chance):
            event = node.pick(chance.number(seed, match.seq + 1))
        elif isinstance(node, Forced):
            event = node.event
        else:
            return events
        match.apply(event)
        events.append(event)
    raise IllegalEventError(f"the rules ran on for {MAX_EVENTS:,} events without a decision")


def made_up(game: Game, state: Any, seen_as: str, seed: str) -> Any:
    """The world a variation made as ``seen_as`` is played in: ``seen_as``'s
    view of ``state`` filled in by the game's ``determinize``, drawing from
    the variation's ``seed`` alone (nothing of ``state`` but the view)."""
    rng = random.Random(hashlib.sha256(b"tabletop world\x00" + seed.encode("utf-8")).digest())
    return game.determinize(seen.view(game, state, seen_as), seen_as, rng)
