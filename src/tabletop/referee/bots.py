"""Seats a bot plays from the start: ``pbem init --player NAME=bot:SPEC``
(``bot:mcts:seconds=2``, ``bot:random``; the bots of ``selfplay``).

The seat's address is ``bot:SPEC``: the bot is who plays it, as an address
says who plays a person's seat. The referee plays it as soon as one of its
decisions is due, right after the change that made it due (a mail played,
the late bot, a claim, the game resumed) and at every ``tick``: as the late
bot does (:meth:`.clock.Clock._bot_decides`), the bot is handed the seat's
view alone (:func:`tabletop.seen.choice`), and its decision is one
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

from typing import TYPE_CHECKING, Any

from ..api import bot_named
from ..engine import Match
from ..errors import UsageError
from ..events import DECISION, Handover, Seal
from ..nodes import Decide
from ..registry import Registry
from .gamedir import one_line

if TYPE_CHECKING:
    from .referee import Referee

#: How a seat's address names the bot that plays it.
PREFIX = "bot:"
#: At most this many of the bots' decisions in one run: a table of bots
#: goes on at the next run (a tick, the next mail) rather than holding the
#: game's lock for the length of a whole game.
DECISIONS_A_RUN = 50


def spec(address: str | None) -> str | None:
    """The bot an address names (``bot:mcts:seconds=2`` -> ``mcts:seconds=2``), or None."""
    if isinstance(address, str) and address.startswith(PREFIX):
        return address[len(PREFIX) :]
    return None


def check(registry: Registry, game: str, name: str, address: str) -> None:
    """A bot for ``name``'s seat that ``game`` has, with settings it takes: one line otherwise."""
    named = spec(address) or ""
    if not named.strip():
        raise UsageError(f"--player {name}={one_line(address)}: name the bot, like bot:mcts:seconds=2")
    try:
        bot_named(registry, named, game)
    except UsageError as error:
        raise UsageError(f"--player {name}={one_line(address)}: {error.message}") from None


def of(ref: Referee, player: str) -> str | None:
    """The bot that plays ``player``'s seat, or None (a person does)."""
    data: dict[str, Any] = ref.players.get(player) or {}
    return spec(data.get("address"))


def due(ref: Referee, match: Match) -> bool:
    """Whether a seat a bot plays decides next, and may (the game neither
    paused nor ended): it will, before this run ends."""
    if ref.settings.get("paused") or ref.settings.get("ended") or not isinstance(match.node, Decide):
        return False
    return any(of(ref, p) for p in match.node.players)


def play(ref: Referee, now: float) -> list[str]:
    """Every decision due from a seat a bot plays, each played at once (a
    bot's decision may make another bot's due); what was done, a line each.
    Nothing while the game is paused or was ended."""
    done: list[str] = []
    if not any(of(ref, p) for p in ref.players):
        return done
    for _ in range(DECISIONS_A_RUN):
        if ref.settings.get("paused") or ref.settings.get("ended"):
            break
        match = ref.replay()
        node = match.node
        if not isinstance(node, Decide):
            break
        seat = next((p for p in node.players if of(ref, p)), None)
        if seat is None:
            break
        if not ref._bot_decides(match, seat, of(ref, seat) or "", now, done, seated=True):
            break
    return done


def seated(ref: Referee, match: Match) -> dict[str, dict[str, Any]]:
    """Each seat a bot plays, its bot and how many decisions it took (the
    seat's decisions in the log since it last changed hands), for ``pbem
    status``."""
    seats = {p: of(ref, p) for p in match.header.players if of(ref, p)}
    if not seats:
        return {}
    events, _ = ref.read_log(match.header.game)
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
