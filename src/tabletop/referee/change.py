"""A change to the game as one recoverable step (the unit of work).

``with referee.change() as change:`` locks the log, replays the game and
takes the sealed choices in hand; ``change.commit(events, ...)`` makes the
change. A journal names it first (``journal.json``: the events' numbers, the
sealed decisions before and after, the mails to send); the secrets are
written, then the log is appended, then the mails are queued under names of
their own and the settings saved, then the journal goes. A crash anywhere is
finished (log appended) or undone (log not appended) by the next run, under
the lock, before it does anything else (:meth:`Changes.begin`); a mail
queued under its name is never queued twice. Leaving the ``with`` without a
commit changes nothing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..log import files, logfile
from ..log.files import sync_folder
from ..log.secretfile import SecretKeeper
from ..model.events import DECISION, Event
from ..play.engine import Match
from . import faults, mailout
from .gamedir import MAX_RECORD, write_private
from .settings import ACCEPTED_KEPT, SEEN_KEPT

if TYPE_CHECKING:
    from .clock import Clock
    from .ledger import Ledger
    from .letters import Letters
    from .passwords import Secrets

#: The settings a run may have changed before its change to the log: they
#: are journaled with it (see :meth:`Changes.commit`).
CARRIED = ("players", "due", "votes", "conditionals", "paused", "paused_by", "offers", "ended")


class Change:
    """One change in the making: the game as the log has it (``match``, the
    log locked), the sealed choices (``secrets``, changed in place by the
    rules), the seed."""

    def __init__(self, changes: Changes, handle: IO[bytes]) -> None:
        self.changes = changes
        self.handle = handle
        ledger = changes.ledger
        self.match: Match = ledger.replay(handle)
        self.start = self.match.seq
        keeper = SecretKeeper(ledger.dir.log)
        self.secrets: dict = keeper.secrets
        self.before = json.loads(json.dumps(keeper.secrets))
        self.seed: str = ledger.seed()

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
        self.changes.commit(
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

    def __init__(self, ledger: Ledger, letters: Letters, clock: Clock, secrets: Secrets) -> None:
        self.ledger = ledger
        self.letters = letters
        self.clock = clock
        self.secrets = secrets
        #: The id of the mail in hand by what it says (:func:`.mailin.content_id`),
        #: remembered with its Message-ID (:meth:`accepted`); "" between mails.
        self.content_id = ""

    @contextlib.contextmanager
    def change(self) -> Iterator[Change]:
        with logfile.locked(self.ledger.dir.log) as handle:
            yield Change(self, handle)

    def begin(self, now: float) -> None:
        """Under the lock: read the settings, finish or undo a change a crash
        left, mail the new secrets a crash left unmailed."""
        self.ledger.reload()
        self.ledger.dir.tidy()
        if self.ledger.dir.journal.exists():
            self.recover(now)
        if self.ledger.settings.pending_secrets:
            self.secrets.mail_pending()

    def recover(self, now: float) -> str:
        """Finish the change the journal names if its events are in the log, else undo it."""
        directory = self.ledger.dir
        journal = json.loads(files.read_text(directory.journal, MAX_RECORD, "the referee's journal"))
        with logfile.locked(directory.log) as handle:
            seq = self.ledger.replay(handle).seq
        if seq >= journal["last"]:
            self._finish(journal, now)
            return "finished a change a crash interrupted"
        _write_secrets(directory.log, journal["secrets_before"])
        directory.journal.unlink()
        sync_folder(directory.path)
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
        carried = {k: v for k, v in self.ledger.settings.to_json().items() if k in CARRIED}
        journal = {
            "first": match_before + 1,
            "last": match_before + len(events),
            "message_id": message_id,
            "content_id": self.content_id if message_id else "",
            "note": note,
            "mails": list(mails),
            "secrets_before": secrets_before,
            "secrets_after": secrets_after,
            # Settings that go with the events (a vote carried, a seat handed
            # over, conditional moves played), and those the same mail or run
            # changed before (a vote cast, conditional moves left, a deadline
            # missed): applied when the change is finished, so never without
            # its events, nor lost with a run cut short after them.
            "records": {**carried, **(records or {})},
            # Whose clock starts again: a player who decided in this change
            # and must decide again (a conditional move answered theirs).
            "decided": sorted({e.player for e in events if e.origin == DECISION and hasattr(e, "player")}),
        }
        write_private(self.ledger.dir.journal, json.dumps(journal))
        faults.point("journal")
        # The secret first, durably: a seal in the log with its choice lost
        # would deadlock the game; a choice kept without its seal is undone.
        _write_secrets(self.ledger.dir.log, secrets_after)
        faults.point("secrets")
        lines = [self.ledger.registry.codec.encode(journal["first"] + i, e) for i, e in enumerate(events)]
        logfile.append(handle, lines)
        faults.point("log")
        self._finish(journal, now)

    def _finish(self, journal: dict, now: float) -> None:
        ledger = self.ledger
        match = ledger.replay()
        last = journal["last"]
        settings = ledger.settings
        settings.update(journal.get("records") or {}, ledger.dir.journal)
        self.clock.restart_clocks(journal.get("decided") or [])
        if journal["message_id"]:
            self.seen(journal["message_id"])
            self.accepted(journal["message_id"], journal.get("content_id") or "")
            settings.played[journal["message_id"]] = last
            played = settings.played
            for old in list(played)[:-2000]:
                del played[old]
        for mail in journal["mails"]:
            ledger.dir.queue(
                mailout.message(
                    settings, mail["to"], mail["subject"], mail["body"], reply_to=mail.get("reply_to") or None
                ),
                key=mail["key"],
            )
            faults.point("mail:" + mail["key"])
        self.letters.after_change(match, now, note=journal["note"], key=f"e{last}")
        ledger.save()
        faults.point("settings")
        ledger.dir.journal.unlink()
        sync_folder(ledger.dir.path)
        faults.point("journal-removed")

    def seen(self, message_id: str) -> None:
        """Remember a mail's id, to answer it once. Anyone can fill this list
        (it keeps the last :data:`SEEN_KEPT`), so a mail whose sender proved
        who they are is remembered apart (:meth:`accepted`)."""
        seen = self.ledger.settings.seen
        if message_id not in seen:
            seen.append(message_id)
            del seen[:-SEEN_KEPT]

    def accepted(self, message_id: str, content_id: str = "") -> None:
        """Remember the id of a mail with a good secret, and its id by what
        it says (``content_id``, or the mail in hand's): only players and
        the master add to this list, so strangers' mails never push an
        accepted mail out of it (which would make it playable again), and
        the same mail delivered again under a new Message-ID is known."""
        accepted = self.ledger.settings.accepted
        for one in (message_id, content_id or self.content_id):
            if one and one not in accepted:
                accepted.append(one)
        del accepted[:-ACCEPTED_KEPT]


def _write_secrets(log: Path, secrets: dict) -> None:
    path = log.with_name(log.name + ".secrets")
    if secrets:
        write_private(path, json.dumps(secrets))
    else:
        path.unlink(missing_ok=True)
        sync_folder(path.parent)
