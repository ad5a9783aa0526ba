"""Votes by mail: ``vote: pause``, ``vote: resume``, ``vote: draw``,
``vote: abandon`` and ``unvote:``.

A vote is carried when enough of the players still in the game are for it:
all of them unless the organiser set another number at ``init``
(``--vote-majority N``). Who voted stays secret until the vote is carried
or the turn ends (the next event in the log): until then the others are
told only how many votes it has. A vote stands until it is withdrawn
(``unvote:``), carried, or the game ends; a player who leaves the game
(resigns, is eliminated, or whose seat changes hands) takes their votes
with them.

A seat a bot plays is in the game but casts no vote (no mail comes from
it), so it is not counted among those a vote needs: a table of one person
and a bot votes by that person alone.

- **pause** carried: no decision is played, no deadline runs, the late bot
  waits. Any one player still in the game lifts it with ``vote: resume``
  (a pause needs everyone, going on needs one), and so does the game
  master. A pause the game master made only the game master lifts.
- **draw** carried: the game ends with a victory shared by the players
  still in it, recorded in the log (an ``agreement`` event), and the seed
  is revealed as at any end.
- **abandon** carried: the game ends with no winner, recorded the same way.

The votes are kept in the referee's settings (``votes``: kind -> player ->
the number of events in the log when they voted), never in the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base.errors import TabletopError
from ..play.engine import Match
from . import botseats

if TYPE_CHECKING:
    from .settings import Settings

#: What a vote may be for, in the order they are shown.
KINDS = ("pause", "resume", "draw", "abandon")
#: What a carried vote does, in a few words.
MEANING = {
    "pause": "pause the game",
    "resume": "resume the game",
    "draw": "end the game in a draw",
    "abandon": "abandon the game",
}


def in_game(match: Match) -> list[str]:
    """The players still in the game, in seat order: those its rules would
    let resign now. While they let nobody resign (a setup), everyone is;
    once the game is over, nobody is."""
    if match.over:
        return []
    players = list(match.header.players)
    state = match.state
    able = []
    for player in players:
        try:
            match.game.resign(state, player)
        except TabletopError:
            continue
        able.append(player)
    return able or players


def voters(settings: Settings, match: Match) -> list[str]:
    """Who votes: the players still in the game whose seat a person plays,
    in seat order (a bot never votes, so counting it would block every vote
    that needs all)."""
    return [p for p in in_game(match) if not botseats.of(settings, p)]


def needed(settings: Settings, players: list[str]) -> int:
    """How many of ``players`` (those still in the game) carry a vote."""
    majority = settings.vote_majority or "all"
    if majority == "all":
        return len(players)
    return max(1, min(int(majority), len(players)))


def check_majority(value: Any) -> str:
    """``all`` or a number of players from 1: one UsageError otherwise."""
    from ..base.errors import UsageError

    text = str(value).strip().lower()
    if text == "all":
        return "all"
    if text.isdigit() and 0 < int(text) <= 64:
        return str(int(text))
    raise UsageError(f"--vote-majority '{text[:40]}': write all, or how many players carry a vote (like 2)")


def standing(settings: Settings) -> dict[str, dict[str, int]]:
    """The votes cast, by kind (each: player -> events in the log when cast)."""
    if settings.votes is None:
        settings.votes = {}
    return settings.votes


def counted(settings: Settings, kind: str, players: list[str]) -> list[str]:
    """Who of ``players`` votes for ``kind``, in seat order."""
    cast = standing(settings).get(kind) or {}
    return [p for p in players if p in cast]


def carried(settings: Settings, kind: str, players: list[str]) -> bool:
    return bool(players) and len(counted(settings, kind, players)) >= needed(settings, players)


def open_summary(settings: Settings, viewer: str | None, match: Match) -> str:
    """What is open to vote on, as ``viewer`` may know it ("" when nothing
    is): each vote's count and how many carry it, the names of those who
    voted before the current turn (the others' stay secret until the turn
    ends), and whether ``viewer`` voted. For the view mails, ``pbem status``
    (``viewer`` None: the names as any player may know them) and the
    letters of the referee."""
    if not any(standing(settings).values()):
        return ""  # nothing cast: no need to ask the rules who is still in the game
    players = voters(settings, match)
    if not players:
        return ""
    need = needed(settings, players)
    lines = []
    for kind in KINDS:
        for_it = counted(settings, kind, players)
        if not for_it:
            continue
        cast = standing(settings)[kind]
        known = [p for p in for_it if cast[p] < match.seq]
        secret = len(for_it) - len(known)
        who = ", ".join(known)
        if secret:
            later = "who voted is told when the turn ends"
            who = f"{who}, and {secret} more: {later}" if who else later
        mine = ""
        if viewer in players:
            mine = "; your vote is in" if viewer in for_it else f"; yours with 'vote: {kind}'"
        lines.append(f"  {kind} ({MEANING[kind]}): {len(for_it)} of {need} needed ({who}){mine}")
    if not lines:
        return ""
    return "Votes open:\n" + "\n".join(lines)
