"""A change to the game as one recoverable step (the unit of work).

``with referee.change() as change:`` locks the log, replays the game and
takes the sealed choices in hand; ``change.commit(events, ...)`` makes the
change. A journal names it first (``journal.json``: the events' numbers, the
sealed decisions before and after, the mails to send); the secrets are
written, then the log is appended, then the mails are queued under names of
their own and the settings saved, then the journal goes. A crash anywhere is
finished (log appended) or undone (log not appended) by the next run, under
the lock, before it does anything else (:meth:`Changes._begin`); a mail
queued under its name is never queued twice. Leaving the ``with`` without a
commit changes nothing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from .. import files, logfile
from ..engine import Match
from ..events import DECISION, Event
from ..files import sync_folder
from ..secretfile import SecretKeeper
from . import faults, mailout
from .commands.reissue import mail_pending
from .gamedir import MAX_RECORD, write_private
from .settings import ACCEPTED_KEPT, SEEN_KEPT

#: The settings a run may have changed before its change to the log: they
#: are journaled with it (see :meth:`Changes.commit`).
CARRIED = ("players", "due", "votes", "conditionals", "paused", "paused_by", "offers", "ended")


class Change:
    """One change in the making: the game as the log has it (``match``, the
    log locked), the sealed choices (``secrets``, changed in place by the
    rules), the seed."""

    def __init__(self, referee: Any, handle: IO[bytes]) -> None:
        self.referee = referee
        self.handle = handle
        self.match: Match = referee.replay(handle)
        self.start = self.match.seq
        keeper = SecretKeeper(referee.dir.log)
        self.secrets: dict = keeper.secrets
        self.before = json.loads(json.dumps(keeper.secrets))
        self.seed: str = referee.seed()

    def commit(
        self,
        events: list[Event],
        now: float,
        *,
        message_id: str = "",
        note: str = "",
        mails: Sequence[dict[str, str]] = (),
        records: dict[str, Any] | None = None,
    ) -> None:
        """Append ``events`` and send what follows, as one recoverable step;
        ``records``: settings that change with the events (their values
        after), saved with them or not at all."""
        self.referee.commit(
            self.handle,
            self.start,
            events,
            self.before,
            self.secrets,
            now,
            message_id=message_id,
            note=note,
            mails=mails,
            records=records,
        )


class Changes:
    """The referee's side of changes: begin a run, make a change, recover one."""

    @contextlib.contextmanager
    def change(self) -> Iterator[Change]:
        with logfile.locked(self.dir.log) as handle:
            yield Change(self, handle)

    def _begin(self, now: float) -> None:
        """Under the lock: read the settings, finish or undo a change a crash left."""
        self.settings = self.dir.load()
        self.dir.tidy()
        for key, empty in (
            ("played", {}),
            ("answered", {}),
            ("alerted", {}),
            ("seen", []),
            ("accepted", []),
            ("guesses", {}),
        ):
            self.settings.setdefault(key, empty)
        if self.dir.journal.exists():
            self.recover(now)
        if self.settings.get("pending_secrets"):
            mail_pending(self)

    def recover(self, now: float) -> str:
        """Finish the change the journal names if its events are in the log, else undo it."""
        journal = json.loads(files.read_text(self.dir.journal, MAX_RECORD, "the referee's journal"))
        with logfile.locked(self.dir.log) as handle:
            seq = self.replay(handle).seq
        if seq >= journal["last"]:
            self._finish(journal, now)
            return "finished a change a crash interrupted"
        _write_secrets(self.dir.log, journal["secrets_before"])
        self.dir.journal.unlink()
        sync_folder(self.dir.path)
        return "undid a change a crash interrupted before its log append"

    def commit(
        self,
        handle,
        match_before: int,
        events: list[Event],
        secrets_before: dict,
        secrets_after: dict,
        now: float,
        *,
        message_id: str = "",
        note: str = "",
        mails: Sequence[dict[str, str]] = (),
        records: dict[str, Any] | None = None,
    ) -> None:
        """Append ``events`` and send what follows, as one recoverable step."""
        journal = {
            "first": match_before + 1,
            "last": match_before + len(events),
            "message_id": message_id,
            "note": note,
            "mails": list(mails),
            "secrets_before": secrets_before,
            "secrets_after": secrets_after,
            # Settings that go with the events (a vote carried, a seat handed
            # over, conditional moves played), and those the same mail or run
            # changed before (a vote cast, conditional moves left, a deadline
            # missed): applied when the change is finished, so never without
            # its events, nor lost with a run cut short after them.
            "records": {**{k: self.settings[k] for k in CARRIED if k in self.settings}, **(records or {})},
            # Whose clock starts again: a player who decided in this change
            # and must decide again (a conditional move answered theirs).
            "decided": sorted({e.player for e in events if e.origin == DECISION and hasattr(e, "player")}),
        }
        write_private(self.dir.journal, json.dumps(journal))
        faults.point("journal")
        # The secret first, durably: a seal in the log with its choice lost
        # would deadlock the game; a choice kept without its seal is undone.
        _write_secrets(self.dir.log, secrets_after)
        faults.point("secrets")
        lines = [self.registry.codec.encode(journal["first"] + i, e) for i, e in enumerate(events)]
        logfile.append(handle, lines)
        faults.point("log")
        self._finish(journal, now)

    def _finish(self, journal: dict, now: float) -> None:
        match = self.replay()
        last = journal["last"]
        self.settings.update(journal.get("records") or {})
        self.restart_clocks(journal.get("decided") or [])
        if journal["message_id"]:
            self._seen(journal["message_id"])
            self._accepted(journal["message_id"])
            self.settings["played"][journal["message_id"]] = last
            played = self.settings["played"]
            for old in list(played)[:-2000]:
                del played[old]
        for mail in journal["mails"]:
            self.dir.queue(
                mailout.message(
                    self.settings, mail["to"], mail["subject"], mail["body"], reply_to=mail.get("reply_to") or None
                ),
                key=mail["key"],
            )
            faults.point("mail:" + mail["key"])
        self.after_change(match, now, note=journal["note"], key=f"e{last}")
        self.dir.save(self.settings)
        faults.point("settings")
        self.dir.journal.unlink()
        sync_folder(self.dir.path)
        faults.point("journal-removed")

    def _seen(self, message_id: str) -> None:
        """Remember a mail's id, to answer it once. Anyone can fill this list
        (it keeps the last :data:`SEEN_KEPT`), so a mail whose sender proved
        who they are is remembered apart (:meth:`_accepted`)."""
        seen = self.settings["seen"]
        if message_id not in seen:
            seen.append(message_id)
            del seen[:-SEEN_KEPT]

    def _accepted(self, message_id: str) -> None:
        """Remember the id of a mail with a good secret: only players and the
        master add to this list, so strangers' mails never push an accepted
        mail out of it (which would make it playable again)."""
        accepted = self.settings["accepted"]
        if message_id not in accepted:
            accepted.append(message_id)
            del accepted[:-ACCEPTED_KEPT]


def _write_secrets(log: Path, secrets: dict) -> None:
    path = log.with_name(log.name + ".secrets")
    if secrets:
        write_private(path, json.dumps(secrets))
    else:
        path.unlink(missing_ok=True)
        sync_folder(path.parent)
