"""Seats a bot plays from the start: ``pbem init --player NAME=bot:SPEC``
(``bot:mcts:seconds=2``, ``bot:random``; the bots of ``selfplay``).

The seat's address is ``bot:SPEC``: the bot is who plays it, as an address
says who plays a person's seat. The referee plays it as soon as one of its
decisions is due, right after the change that made it due (a mail played,
the late bot, a claim, the game resumed) and at every ``tick``: as the late
bot does (:meth:`Bots.decide`), the bot is handed the seat's
view alone (:func:`tabletop.sight.seen.choice`), and its decision is one
recoverable change. The others read it in their news ("ben (the bot
'mcts:seconds=2') played.") and the decisions are the seat's in the log.
A change after which a bot decides at once mails nobody: the bot's change
mails its news and the change's together (one mail to read, not a mail
already out of date), notes and all (``held_notes`` in the settings, kept
with the change).

A bot's seat gets no mail, and has a secret nobody was given: a mail in its
name is a stranger's. A substitute's claim or the game master's
``replace`` hands the seat to a person, whose address then replaces the bot.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any

from ..api import bot_named
from ..base.errors import UsageError
from ..host.registry import Registry
from ..model.events import DECISION, Handover, Seal
from ..model.nodes import Decide
from ..play.engine import Match
from ..play.live import decide
from ..sight import seen
from . import conditionals
from .botseats import of, spec
from .gamedir import one_line
from .seats import in_disorder

if TYPE_CHECKING:
    from .change import Changes
    from .ledger import Ledger
    from .settings import Settings

#: At most this many of the bots' decisions in one run: a table of bots
#: goes on at the next run (a tick, the next mail) rather than holding the
#: game's lock for the length of a whole game.
DECISIONS_A_RUN = 50


def check(registry: Registry, game: str, name: str, address: str) -> None:
    """A bot for ``name``'s seat that ``game`` has, with settings it takes: one line otherwise."""
    named = spec(address) or ""
    if not named.strip():
        raise UsageError(f"--player {name}={one_line(address)}: name the bot, like bot:mcts:seconds=2")
    try:
        bot_named(registry, named, game)
    except UsageError as error:
        raise UsageError(f"--player {name}={one_line(address)}: {error.message}") from None


def due(settings: Settings, match: Match) -> bool:
    """Whether a seat a bot plays decides next, and may (the game neither
    paused nor ended): it will, before this run ends."""
    if settings.paused or settings.ended or not isinstance(match.node, Decide):
        return False
    return any(of(settings, p) for p in match.node.players)


class Bots:
    """The bots that decide for a seat: the one that plays it, and the late
    bot for a player late or in civil disorder (:mod:`.deadlines`)."""

    def __init__(self, ledger: Ledger, changes: Changes) -> None:
        self.ledger = ledger
        self.changes = changes

    def play(self, now: float) -> list[str]:
        """Every decision due from a seat a bot plays, each played at once (a
        bot's decision may make another bot's due); what was done, a line each.
        Nothing while the game is paused or was ended."""
        done: list[str] = []
        if not any(of(self.ledger.settings, p) for p in self.ledger.players):
            return done
        for _ in range(DECISIONS_A_RUN):
            settings = self.ledger.settings
            if settings.paused or settings.ended:
                break
            match = self.ledger.replay()
            node = match.node
            if not isinstance(node, Decide):
                break
            seat = next((p for p in node.players if of(settings, p)), None)
            if seat is None:
                break
            if not self.decide(match, seat, of(settings, seat) or "", now, done, seated=True):
                break
        return done

    def decide(
        self, match: Match, player: str, bot_name: str, now: float, done: list[str], seated: bool = False
    ) -> bool:
        """The bot decides for ``player``: late, in civil disorder, or
        (``seated``) the bot that plays the seat; whether it did."""
        bot = bot_named(self.ledger.registry, bot_name, match.header.game)
        with self.changes.change() as change:
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
                self.ledger, match, events, change.secrets, change.seed, f"late-bot-{change.start}"
            )
            disorder = in_disorder(self.ledger.settings, player)
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
            note = conditionals.answered_note({"": said, player: yours}, answered)
            records = {"conditionals": chains} if chains is not None else None
            change.commit(events + more, now, note=note, mails=answers, records=records)
        done.append(f"{player} {why}: the bot '{bot_name}' played {text}")
        done += [conditionals.conditional_played(owner) for owner in answered]
        return True

    def seated(self, match: Match) -> dict[str, dict[str, Any]]:
        """Each seat a bot plays, its bot and how many decisions it took (the
        seat's decisions in the log since it last changed hands), for ``pbem
        status``."""
        seats = {p: of(self.ledger.settings, p) for p in match.header.players if of(self.ledger.settings, p)}
        if not seats:
            return {}
        events, _ = self.ledger.read_log(match.header.game)
        counts = dict.fromkeys(seats, 0)
        for _, event in events:
            who = getattr(event, "player", None)
            if who not in counts:
                continue
            if isinstance(event, Handover):
                counts[who] = 0
            elif event.origin == DECISION and not isinstance(event, Seal):
                counts[who] += 1
        return {seat: {"bot": spec, "decisions": counts[seat]} for seat, spec in seats.items()}
