"""What a game pays each player, for learning algorithms: its declared
payoffs (:meth:`tabletop.Game.payoffs`, by default a share of the victory),
its rewards during play (:meth:`tabletop.Game.rewards`), and their bounds,
checked as the adapters hand them out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..base.errors import PluginError
from ..model.events import Agreement, Event, Handover, Resign, Reveal, Seal, Unseal
from ..model.game import Game, shares
from ..model.nodes import Outcome

#: How far a return may stray from the declared bounds and sum (rounding).
SLACK = 1e-9
ZERO_SUM, CONSTANT_SUM, GENERAL_SUM = "zero-sum", "constant-sum", "general-sum"


def kind_of(total: float | None) -> str:
    """The kind of payoffs that always add up to ``total`` (a game's
    ``payoff_sum``): zero-sum, constant-sum, or (None) general-sum."""
    return GENERAL_SUM if total is None else ZERO_SUM if total == 0 else CONSTANT_SUM


def returns_of(outcome: Outcome, players: Sequence[str]) -> list[float]:
    """Each player's return: a zero-sum share of the victory. A sole winner
    gets 1 and the others -1/(n-1); a shared victory splits the 1; no
    winner: 0 for all (:func:`tabletop.model.game.shares`)."""
    return shares(outcome, players)


class Payout:
    """One header's payoffs as the adapters hand them out: the game's
    declarations, read in seat order and held to the bounds it declares."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = tuple(game.players)
        low, high = game.payoff_bounds()
        #: The least and the most one player's return can be.
        self.low, self.high = float(low), float(high)
        if not self.low < self.high:
            raise PluginError(f"{game.name}: payoff_bounds gives ({low}, {high}): the least must be below the most")
        total = type(game).payoff_sum
        #: What every finished game's returns add up to, or None (general-sum).
        self.total = None if total is None else float(total)
        #: Whether the game pays during play (it declares ``rewards``).
        self.during = type(game).rewards is not Game.rewards

    @property
    def kind(self) -> str:
        """``zero-sum``, ``constant-sum`` or ``general-sum``."""
        return kind_of(self.total)

    def none(self) -> list[float]:
        return [0.0] * len(self.players)

    def at_end(self, state: Any) -> list[float]:
        """Each player's return from the finished ``state``, in seat order."""
        values = self._read(self.game.payoffs(state), "payoffs")
        for player, value in zip(self.players, values):
            if not self.low - SLACK <= value <= self.high + SLACK:
                raise PluginError(
                    f"{self.game.name}: payoffs gives {player} {value:g}, outside its payoff_bounds "
                    f"({self.low:g}, {self.high:g})"
                )
        if self.total is not None and abs(sum(values) - self.total) > SLACK * max(1.0, abs(self.total)):
            raise PluginError(f"{self.game.name}: payoffs add up to {sum(values):g}, not its payoff_sum {self.total:g}")
        return values

    def along(self, state: Any, events: Iterable[Event], unsealed: Callable[[Unseal], Event]) -> list[float]:
        """What ``events`` pay during play, from ``state`` on: each player's
        sum, in seat order."""
        return [sum(paid) for paid in zip(self.none(), *self.each(state, events, unsealed))]

    def each(self, state: Any, events: Iterable[Event], unsealed: Callable[[Unseal], Event]) -> Iterator[list[float]]:
        """What each of ``events`` pays during play, from ``state`` on (in
        seat order): the game's own events, a revealed sealed decision as
        the decision it reveals; the core's others pay nothing."""
        game = self.game
        for event in events:
            if not self.during or isinstance(event, (Reveal, Seal, Agreement, Handover)):
                yield self.none()
                continue
            if isinstance(event, Resign):
                state = game.resign(state, event.player)
                yield self.none()
                continue
            if isinstance(event, Unseal):
                event = unsealed(event)
            after = game.apply(state, event)
            got = game.rewards(state, event, after)
            yield self.none() if got is None else self._read(got, "rewards")
            state = after

    def _read(self, values: Mapping[str, float] | Sequence[float], what: str) -> list[float]:
        """``values`` (by player, or in seat order) in seat order, as floats."""
        name = self.game.name
        if isinstance(values, Mapping):
            strangers = sorted(set(values) - set(self.players))
            missing = [p for p in self.players if p not in values]
            if strangers or missing:
                wrong = f"names {strangers[0]!r}, no player" if strangers else f"gives {missing[0]} nothing"
                raise PluginError(f"{name}: {what} {wrong} (it names each player once)")
            values = [values[p] for p in self.players]
        elif len(values) != len(self.players):
            raise PluginError(f"{name}: {what} gives {len(values)} values for {len(self.players)} players")
        try:
            return [float(v) for v in values]
        except (TypeError, ValueError):
            raise PluginError(f"{name}: {what} gives {list(values)!r}: numbers, one a player") from None
