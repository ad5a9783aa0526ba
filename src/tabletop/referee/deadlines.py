"""Deadlines kept: a reminder before, a late notice after (to the player,
the others and the game master, and the deadline counted as missed), and
the late bot's decision once the grace is over, or at once for a player in
civil disorder (:mod:`.seats`). The clocks are :mod:`.clock`'s; the run
that keeps them is ``tick`` (:meth:`.referee.Referee.tick`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.nodes import Decide
from .seats import in_disorder

if TYPE_CHECKING:
    from .bots import Bots
    from .clock import Clock
    from .ledger import Ledger
    from .letters import Letters
    from .seats import Seats


class Deadlines:
    def __init__(self, ledger: Ledger, clock: Clock, letters: Letters, seats: Seats, bots: Bots) -> None:
        self.ledger = ledger
        self.clock = clock
        self.letters = letters
        self.seats = seats
        self.bots = bots

    def keep(self, now: float, done: list[str]) -> bool:
        """Remind, tell who is late and let the late bot decide, as ``now``
        asks; whether a decision was made (another may then be due)."""
        settings = self.ledger.settings
        deadline = settings.deadline
        if not deadline:
            return False
        match = self.ledger.replay()
        node = match.node
        if not isinstance(node, Decide):
            return False
        due = settings.due
        if due is None or due["seq"] != match.seq:
            self.clock.refresh_due(match, now)
            due = settings.due
        remind, grace, bot = settings.remind, settings.grace or 0, settings.late_bot
        when = self.clock.when
        for player in node.players:
            if bot and in_disorder(settings, player):
                # In civil disorder: the bot decides as soon as the decision is due.
                return self.bots.decide(match, player, bot, now, done)
            at = due["since"][player] + deadline
            if remind and at - remind <= now < at and player not in due["reminded"]:
                due["reminded"].append(player)
                body = f"A reminder: your decision in game '{settings.game_id}' is due by {when(at, player)}.\n\n{self.letters.ask(match, player)}"
                self.letters.mail_to(player, "Reminder: your decision is due", body, f"remind-{match.seq}-{player}")
                done.append(f"reminded {player}")
            if now >= at and player not in due["late"]:
                due["late"].append(player)
                then = (
                    f"The bot '{bot}' decides for you after {when(at + grace, player)}."
                    if bot
                    else "The game waits for you."
                )
                body = f"Your decision in game '{settings.game_id}' was due by {when(at, player)}. {then}\n\n{self.letters.ask(match, player)}"
                self.letters.mail_to(player, "Late: your decision was due", body, f"late-{match.seq}-{player}")

                def notice(reader: str | None, at: float = at, player: str = player) -> str:
                    then = (
                        f"The bot '{bot}' decides for them after {when(at + grace, reader)}."
                        if bot
                        else "The game waits for them."
                    )
                    return f"{player} is late: their decision was due by {when(at, reader)}. {then}\n"

                self.letters.mail_others(player, f"{player} is late", notice, f"late-{match.seq}-{player}-to-")
                self.letters.mail_master(f"{player} is late", notice(None), key=f"late-{match.seq}-{player}-to-master")
                self.seats.count_missed(player, match.seq)
                done.append(f"late notice to {player}")
                if bot and in_disorder(settings, player):
                    return self.bots.decide(match, player, bot, now, done)
            if bot and now >= at + grace:
                return self.bots.decide(match, player, bot, now, done)
        return False
