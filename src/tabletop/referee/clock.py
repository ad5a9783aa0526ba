"""The referee's clocks: lengths (48h, 3d), moments in UTC and in each
player's own time zone, and the deadlines: a reminder before, a late notice
after (to the player, the others and the game master), and the late bot's
decision once the grace is over."""

from __future__ import annotations

import hashlib
import random
import re
import time
from datetime import datetime

from .. import seen
from ..api import bot_named
from ..engine import Match
from ..errors import UsageError
from ..live import decide
from ..nodes import Decide
from . import bots, conditionals, seats
from .gamedir import one_line

_DURATION = re.compile(r"^\s*(\d{1,9})\s*([smhdw])\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def duration(text: str | None, option: str) -> int | None:
    """``text`` like 90m, 48h or 3d in seconds (None stays None); ``option``
    names what is at fault in the one-line error."""
    if text is None:
        return None
    m = _DURATION.match(text)
    if not m:
        raise UsageError(f"{option} '{one_line(text)}': write a number and a unit, like 90m, 48h or 3d")
    return int(m.group(1)) * _UNITS[m.group(2)]


def utc(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(epoch))


def when(epoch: float, zone: str | None = None) -> str:
    """``epoch`` in UTC, and first in the time zone ``zone`` when one is given:
    "2026-11-30 19:00 CET (18:00 UTC)"."""
    text = utc(epoch)
    if not zone:
        return text
    # zoneinfo (with sysconfig) only when a zone is asked for: most mail names none.
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        local = datetime.fromtimestamp(epoch, ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):
        return text
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()} ({text[11:]})"


def check_zone(name: str, zone: str) -> str:
    """A time zone's name (like Europe/Berlin), checked: one UsageError otherwise."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"--tz {name}={one_line(zone)}: not a time zone (write one like Europe/Berlin)") from None
    return zone


class Clock:
    """The referee's clocks: reminders, late notices and the late bot."""

    def tick(self, now: float | None = None) -> list[str]:
        """Reminders, late notices and (if set) a bot's decision for the late."""
        now = time.time() if now is None else now
        done: list[str] = []
        with self.dir.locked():
            self._begin(now)
            done += bots.play(self, now)  # a seat a bot plays, due since a run cut short
            if not self.settings.get("paused") and not self.settings.get("ended"):
                for _ in range(100):  # a bot's decision may make another one due
                    if not self._tick_once(now, done):
                        break
                done += bots.play(self, now)  # due after the late bot's decision
            self.dir.save(self.settings)
        return done

    def _tick_once(self, now: float, done: list[str]) -> bool:
        deadline = self.settings.get("deadline")
        if not deadline:
            return False
        match = self.replay()
        node = match.node
        if not isinstance(node, Decide):
            return False
        due = self.settings["due"]
        if due is None or due["seq"] != match.seq:
            self.refresh_due(match, now)
            due = self.settings["due"]
        remind, grace, bot = self.settings.get("remind"), self.settings.get("grace") or 0, self.settings.get("late_bot")
        for player in node.players:
            if bot and seats.in_disorder(self, player):
                # In civil disorder: the bot decides as soon as the decision is due.
                return self._bot_decides(match, player, bot, now, done)
            at = due["since"][player] + deadline
            if remind and at - remind <= now < at and player not in due["reminded"]:
                due["reminded"].append(player)
                body = f"A reminder: your decision in game '{self.settings['game_id']}' is due by {self.when(at, player)}.\n\n{self._ask(match, player)}"
                self.mail_to(player, "Reminder: your decision is due", body, f"remind-{match.seq}-{player}")
                done.append(f"reminded {player}")
            if now >= at and player not in due["late"]:
                due["late"].append(player)
                then = (
                    f"The bot '{bot}' decides for you after {self.when(at + grace, player)}."
                    if bot
                    else "The game waits for you."
                )
                body = f"Your decision in game '{self.settings['game_id']}' was due by {self.when(at, player)}. {then}\n\n{self._ask(match, player)}"
                self.mail_to(player, "Late: your decision was due", body, f"late-{match.seq}-{player}")

                def notice(reader: str | None, at: float = at, player: str = player) -> str:
                    then = (
                        f"The bot '{bot}' decides for them after {self.when(at + grace, reader)}."
                        if bot
                        else "The game waits for them."
                    )
                    return f"{player} is late: their decision was due by {self.when(at, reader)}. {then}\n"

                self.mail_others(player, f"{player} is late", notice, f"late-{match.seq}-{player}-to-")
                self.mail_master(f"{player} is late", notice(None), key=f"late-{match.seq}-{player}-to-master")
                seats.count_missed(self, player, match.seq)
                done.append(f"late notice to {player}")
                if bot and seats.in_disorder(self, player):
                    return self._bot_decides(match, player, bot, now, done)
            if bot and now >= at + grace:
                return self._bot_decides(match, player, bot, now, done)
        return False

    def _bot_decides(
        self, match: Match, player: str, bot_name: str, now: float, done: list[str], seated: bool = False
    ) -> bool:
        """The bot decides for ``player``: late, in civil disorder, or
        (``seated``) the bot that plays the seat (:mod:`.bots`)."""
        bot = bot_named(self.registry, bot_name, match.header.game)
        with self.change() as change:
            match = change.match
            legal = list(match.game.legal(match.state, player))
            if not legal:
                return False
            sealed = isinstance(match.node, Decide) and match.node.sealed
            digest = hashlib.sha256(f"late {player} {match.seq} {change.seed}".encode()).digest()
            choice = seen.choice(bot, match.game, match.state, player, legal, random.Random(digest))
            events = decide(match, choice, change.seed, change.secrets)
            text = "a secret choice" if sealed else match.game.notate(choice)
            more, answers, chains, answered = conditionals.answer(
                self, match, events, change.secrets, change.seed, f"late-bot-{change.start}"
            )
            disorder = seats.in_disorder(self, player)
            why = "is played by a bot" if seated else "is in civil disorder" if disorder else "was late"
            said = (
                f"{player} (the bot '{bot_name}') played."
                if seated
                else f"{player} {why}: the bot '{bot_name}' decided for {player}."
            )
            # The note goes to every player alike: the decision itself reaches
            # each in their news, as they may see it (a secret one is hidden);
            # the player it was made for reads it as theirs.
            yours = f"You {'are in civil disorder' if disorder else 'were late'}: the bot '{bot_name}' decided for you: {text}."
            answered_notes = [f"{a}." for a in answered]
            note = {"": " ".join([said, *answered_notes]), player: " ".join([yours, *answered_notes])}
            records = {"conditionals": chains} if chains is not None else None
            change.commit(events + more, now, note=note, mails=answers, records=records)
        done.append(f"{player} {why}: the bot '{bot_name}' played {text}")
        done += answered
        return True

    def refresh_due(self, match: Match, now: float) -> None:
        """Start the clock for each player who must now decide; a player still
        deciding the same thing (another's move came in between) keeps theirs."""
        old = self.settings.get("due") or {"since": {}, "reminded": [], "late": []}
        node = match.node
        deciding = list(node.players) if isinstance(node, Decide) else []
        self.settings["due"] = {
            "seq": match.seq,
            "since": {p: old["since"].get(p, now) for p in deciding},
            "reminded": [p for p in old["reminded"] if p in deciding],
            "late": [p for p in old["late"] if p in deciding],
        }

    def restart_clocks(self, players: list[str]) -> None:
        """``players`` decided: a decision due of theirs after it is a new one, on a clock of its own."""
        due = self.settings.get("due")
        if not due:
            return
        for player in players:
            due["since"].pop(player, None)
        due["reminded"] = [p for p in due["reminded"] if p not in players]
        due["late"] = [p for p in due["late"] if p not in players]

    def when(self, epoch: float, player: str | None = None) -> str:
        """A moment as ``player`` reads it: in their time zone (``--tz``), and in UTC."""
        zone = self.players[player].get("tz") if player in self.players else None
        return when(epoch, zone)

    def deadline_of(self, player: str) -> float | None:
        due, deadline = self.settings.get("due"), self.settings.get("deadline")
        if not due or not deadline or player not in due["since"]:
            return None
        return due["since"][player] + deadline
