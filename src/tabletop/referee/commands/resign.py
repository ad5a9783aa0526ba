"""``resign``: the player gives up; what that means is the game's rule."""

from __future__ import annotations

from ...base.errors import TabletopError
from ...model.events import Event
from ...model.events import Resign as ResignEvent
from ...play.engine import Match
from ...play.live import settle
from . import DECISION, Mail, PlayerCommand


class Resign(PlayerCommand):
    name = "resign"
    usage = "resign"
    does = "give up the game (what it means is the game's rule)"
    order = 10
    runs = DECISION

    def run(self, ref, mail: Mail) -> str:
        with ref.changes.change() as change:
            try:
                events = resign(change.match, mail.player, change.seed, change.secrets)
            except TabletopError as exc:
                ref.inbox.reply(mail.letter, f"resign: {exc.message}", key=mail.key, echo=True)
                return f"answered {mail.letter.sender}: {exc.message}"
            change.commit(
                events,
                mail.now,
                message_id=mail.mid,
                note={"": f"{mail.player} resigned.", mail.player: "You resigned."},
            )
        return f"{mail.player} resigned"


def resign(match: Match, player: str, seed: str | None, secrets: dict) -> list[Event]:
    """``player`` resigns: the event, then what the rules run until a decision is due."""
    if player in secrets and not match.seals.get(player):
        secrets.pop(player, None)
    event = ResignEvent(player)
    match.accept(event)
    secrets.pop(player, None)
    return [event, *settle(match, seed, secrets)]
