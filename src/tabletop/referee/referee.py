"""The referee: starts a game by mail, plays the moves mailed in, mails every
player their own view, keeps the deadlines, answers the game master.

A change (decisions played, a resignation, a bot's move) is made as one
recoverable step: a journal names it first (``journal.json``: the events'
numbers, the sealed decisions before and after, the mails to send); the
secrets are written, then the log is appended, then the mails are queued
under names of their own and the settings saved, then the journal goes. A
crash anywhere is finished (log appended) or undone (log not appended) by
the next run, under the lock, before it does anything else; a mail queued
under its name is never queued twice.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import chain, files, logfile
from ..api import bot_named
from ..engine import Match, Replay
from ..errors import TabletopError, UsageError
from ..events import CHANCE, Event, Resign, Reveal, Unseal
from ..files import sync_folder
from ..header import check_players
from ..live import decide, make_header, seed_file, settle
from ..nodes import Decide, Over
from ..registry import Registry
from ..secretfile import SecretKeeper
from . import blackout, delivery, faults, mailin, mailout, passwords
from .clock import check_zone, duration, when
from .gamedir import MAX_RECORD, GameDir, append_private, check_owned, one_line, printable, write_private

#: A seed is at most 256 characters (the header's bound): 4 KiB is plenty.
MAX_SEED = 4096

#: How many legal decisions a mail lists before it says how many more there are.
LISTED = 40
#: At most this many in the full list a player may ask for.
LISTED_ALL = 10000
DAY = 86400
#: Answers a day to a known player's address for mails without a good secret.
ANSWERS_A_DAY = 5
#: Ids of mails from anyone kept to answer each once; of mails with a good secret, kept apart.
SEEN_KEPT = 5000
ACCEPTED_KEPT = 20000
#: Wrong secrets checked (each check costs a deliberately slow hash) from one
#: sender an hour, and for one player a day; past these, no secret is checked.
GUESSES_AN_HOUR = 5
GUESSES_A_DAY = 30
HOUR = 3600
#: The board in each view: "png" (a PNG picture, and the SVG beside it; needs
#: the png extra, else the SVG alone), or "svg" (the SVG alone).
PICTURES = ("png", "svg")
_GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")


def check_settings(settings: dict[str, Any], registry: Registry | None = None) -> None:
    """Refuse combinations that cannot work: each a one-line UsageError."""
    deadline, remind = settings.get("deadline"), settings.get("remind")
    grace, bot = settings.get("grace") or 0, settings.get("late_bot")
    if deadline is not None and deadline <= 0:
        raise UsageError("--deadline: must be longer than 0 (leave it out for no deadline)")
    if remind is not None:
        if remind <= 0:
            raise UsageError("--remind: must be longer than 0")
        if deadline is None:
            raise UsageError("--remind needs --deadline")
        if remind >= deadline:
            raise UsageError("--remind must be shorter than --deadline (it is how long before the deadline)")
    if grace and not bot:
        raise UsageError("--grace needs --late-bot (it is how long the late bot waits)")
    if bot and deadline is None:
        raise UsageError("--late-bot needs --deadline")
    if grace < 0:
        raise UsageError("--grace: must not be negative")
    if registry is not None and bot is not None:
        bot_named(registry, bot, settings["game"])
    smtp = settings.get("smtp", "")
    host, sep, port = smtp.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536 or not smtp.isprintable():
        raise UsageError(f"--smtp '{one_line(smtp)}': write HOST:PORT, like mail.example.org:25")
    security = settings.get("smtp_security") or "auto"
    if security not in delivery.SECURITY:
        raise UsageError(f"--smtp-security '{one_line(security)}': one of {', '.join(delivery.SECURITY)}")
    ca_file = settings.get("ca_file")
    if ca_file:
        delivery.tls_context(ca_file)  # readable, and certificates
    for key in ("referee", "master"):
        address = settings.get(key)
        if address is not None and not mailin.valid_address(address):
            raise UsageError(f"--{key} '{one_line(address)}': not a single mail address")


def init(
    registry: Registry,
    path: Path,
    game: str,
    players: Sequence[tuple[str, str]],
    *,
    variants: Sequence[str] = (),
    options: dict[str, str] | None = None,
    deadline: int | None = None,
    remind: int | None = None,
    late_bot: str | None = None,
    grace: int = 0,
    referee: str = "referee@localhost",
    smtp: str = "localhost:25",
    smtp_security: str = "auto",
    ca_file: str | None = None,
    game_id: str | None = None,
    master: str | None = None,
    zones: dict[str, str] | None = None,
    pictures: str = "png",
) -> dict[str, str]:
    """Create a game directory; return each player's secret (also mailed to
    them), and the master's under the key ``"(master)"``. Everything is
    checked before the folder is made."""
    path = Path(path)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(f"{path}: the folder exists and is not empty")
    if path.exists():
        check_owned(path)
    names = [name for name, _ in players]
    check_players(names)
    addresses = set()
    for name, address in players:
        if not mailin.valid_address(address):
            raise UsageError(f"--player {name}={one_line(address)}: not a single mail address")
        if address.lower() in addresses:
            raise UsageError(f"--player {name}={address}: the address is another player's too")
        addresses.add(address.lower())
    zones = dict(zones or {})
    for name, zone in zones.items():
        if name not in names:
            raise UsageError(f"--tz {one_line(name)}=...: not a player of this game ({', '.join(names)})")
        check_zone(name, zone)
    if pictures not in PICTURES:
        raise UsageError(f"--pictures '{one_line(pictures)}': one of {', '.join(PICTURES)}")
    game_id = game_id if game_id is not None else path.name
    if not _GAME_ID.match(game_id):
        raise UsageError(f"--id '{one_line(game_id)}': a game's name is letters, digits, '.', '_' or '-' (at most 40)")
    settings: dict[str, Any] = {
        "game_id": game_id,
        "game": game,
        "referee": referee,
        "smtp": smtp,
        "smtp_security": smtp_security,
        "ca_file": ca_file,
        "deadline": deadline,
        "remind": remind,
        "late_bot": late_bot,
        "grace": grace,
        "master": master,
        "pictures": pictures,
    }
    check_settings(settings, registry)
    header, seed, _ = make_header(registry, game, names, variants, options or {}, sealed=True)
    match = Match(registry, header)
    settings["thread"] = f"{match.game.title or match.game.name}: {', '.join(names)}"
    events = settle(match, seed)
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        directory = GameDir(path)
        write_private(seed_file(directory.log), seed + "\n")
        lines = registry.codec.log(header, events)
        # The log holds hidden draws: players see it whole only at the end.
        logfile.create(directory.log, lines, mode=0o600)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the game folder ({exc.strerror})") from None
    secrets = {name: passwords.new_secret() for name in names}
    settings.update(
        players={
            name: {"address": address, "secret": passwords.store(secrets[name]), "mailed": 0, "tz": zones.get(name)}
            for name, address in players
        },
        seen=[],
        accepted=[],
        guesses={},
        played={},
        due=None,
        paused=None,
        ended=None,
        answered={},
        alerted={},
    )
    if master:
        secrets["(master)"] = passwords.new_secret()
        settings["master_secret"] = passwords.store(secrets["(master)"])
    ref = Referee(registry, directory, settings)
    ref.refresh_due(match, time.time())
    log = ref.read_log(game)
    for name in names:
        ref.queue_view(match, name, welcome=secrets[name], log=log, key=f"welcome-{name}", first=True)
    if master:
        ref.mail_master(
            "You are the game master",
            f"You are the game master of game '{game_id}' ({match.game.title or match.game.name}) "
            f"for {', '.join(names)}.\n\nYour secret: {secrets['(master)']}\n"
            "Put it in every mail you send to the referee; it is stored only as a hash.\n\n"
            + mailout.master_help(ref.settings),
            key="welcome-master",
            first=True,
        )
    directory.save(settings)
    return secrets


class Referee:
    def __init__(self, registry: Registry, directory: GameDir, settings: dict[str, Any]) -> None:
        self.registry = registry
        self.dir = directory
        self.settings = settings

    @classmethod
    def open(cls, registry: Registry, path: Path) -> Referee:
        directory = GameDir(path)
        return cls(registry, directory, directory.load())

    @property
    def players(self) -> dict[str, dict[str, Any]]:
        return self.settings["players"]

    def address(self, player: str) -> str:
        return self.players[player]["address"]

    def seed(self) -> str:
        return files.read_text(seed_file(self.dir.log), MAX_SEED, "seed file").strip()

    def head(self) -> str:
        return chain.head_of(line for _, line in logfile.read_lines(self.dir.log))

    def read_log(self, game: str) -> tuple[list[tuple[int, Event]], str]:
        """The log's events (already checked when appended) and its chain head,
        read once for all the mails of one change."""
        lines = [line for _, line in logfile.read_lines(self.dir.log)]
        events = [self.registry.codec.decode_line(game, line) for line in lines[1:]]
        return events, chain.head_of(lines)

    def replay(self, handle=None) -> Match:
        return Replay(self.registry, self.dir.log, handle).run()

    # -- one step at a time -----------------------------------------------------
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
            self._mail_secrets()

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

    # -- mail in ---------------------------------------------------------------
    def receive(self, raw: bytes, now: float | None = None, size: int | None = None) -> str:
        """Handle one raw message; a one-line report of what was done. A message
        that cannot be handled is quarantined with its reason, never raised.

        ``size``: the whole mail's size when ``raw`` is only its start (a
        mail larger than :data:`mailin.MAX_BYTES` is read no further). A mail
        over that size is kept and read as its headers alone: it is answered
        (it is too large), never parsed whole nor archived whole."""
        now = time.time() if now is None else now
        size = len(raw) if size is None else max(size, len(raw))
        if size > mailin.MAX_BYTES:
            raw = blackout.headers_only(raw)
        try:
            _, before = self.dir.keep(raw)
        except OSError as exc:
            raise UsageError(f"{self.dir.path}: cannot archive the message ({exc.strerror})") from None
        with self.dir.locked():
            self._begin(now)
            try:
                report = self._receive(raw, now, before, size)
            except Exception as exc:  # noqa: BLE001 - a message must never stop the others
                self.settings = self.dir.load()
                reason = f"{type(exc).__name__}: {one_line(str(exc))}"
                kept = self.dir.quarantine(raw, reason)
                self.mail_master(
                    "A message was quarantined",
                    f"A message could not be handled and was set aside as {kept.name} in quarantine/:\n\n  {reason}\n",
                    key="quarantine-" + kept.stem,
                )
                return f"quarantined: {reason}"
            self.dir.save(self.settings)
            faults.point("saved")
        return report

    def _receive(self, raw: bytes, now: float, archived_before: bool, size: int) -> str:
        letter = mailin.read(raw, self.settings["referee"], size)
        if letter.ignored:
            self._bounce(letter, now)
            return f"ignored a mail from {letter.sender or 'nobody'}: {letter.ignored}"
        mid = letter.message_id or mailin.fallback_id(raw)
        key = "re-" + hashlib.sha256(mid.encode()).hexdigest()[:20]
        if mid in self.settings["seen"] or mid in self.settings["accepted"]:
            if archived_before:
                return f"this very message ({mid}) was handled before; nothing to do"
            played = self.settings["played"].get(mid)
            text = (
                f"this mail ({mid}) was already played (up to event {played}); it is not played again"
                if played
                else f"this mail ({mid}) was received before and answered then; it is ignored this time"
            )
            return self.reply(letter, text, key="again-" + key[3:], echo=False)
        self._seen(mid)
        letter_key = key
        if letter.problem:
            return self.reply(letter, letter.problem, key=letter_key, now=now)
        games = letter.values("game")
        if len(games) != 1:
            return self.reply(
                letter, "say which game, once: a line 'game: " + self.settings["game_id"] + "'", key=letter_key, now=now
            )
        if games[0][1].strip().lower() != self.settings["game_id"].lower():
            return self.reply(
                letter,
                f"line {games[0][0]}: not this game (this referee runs '{self.settings['game_id']}')",
                key=letter_key,
                now=now,
            )
        master = self.settings.get("master")
        if master and letter.sender == master.lower() and not letter.values("player"):
            return self._master_mail(letter, mid, letter_key, now)
        player, problem = self._who(letter)
        if problem:
            return self.reply(letter, problem, key=letter_key, now=now)
        secrets = letter.values("secret")
        own = letter.sender == self.address(player).lower()
        if not secrets:
            if not own:
                self.alert(player, letter, now)
            return self.reply(
                letter, "no secret: add a line 'secret: ...' with the secret you were sent", key=letter_key, now=now
            )
        if self._guessed_enough(letter.sender, player, now):
            return self.reply(
                letter,
                f"too many wrong secrets for {player} lately; this mail's secret was not checked and nothing "
                "was played: try again later, with the secret from your first mail",
                key=letter_key,
                now=now,
            )
        if not passwords.matches(secrets[0][1], self.players[player]["secret"]):
            self._wrong_guess(letter.sender, player, now)
            if not own:
                self.alert(player, letter, now)
            why = f"line {secrets[0][0]}: wrong secret for {player}; nothing was played"
            if own:
                why += "\n\n  Use the secret from your first mail (a mistyped one is refused like this)."
            return self.reply(letter, why, key=letter_key, now=now)
        self._accepted(mid)
        return self._player_mail(letter, player, mid, letter_key, now)

    def _guessed_enough(self, sender: str, player: str, now: float) -> bool:
        """Whether ``sender`` or guesses for ``player`` used up their wrong secrets."""
        guesses = self.settings["guesses"]
        hour, day = int(now // HOUR), int(now // DAY)
        by_sender = guesses.get("from:" + sender)
        by_player = guesses.get("for:" + player)
        return bool(
            (by_sender and by_sender[0] == hour and by_sender[1] >= GUESSES_AN_HOUR)
            or (by_player and by_player[0] == day and by_player[1] >= GUESSES_A_DAY)
        )

    def _wrong_guess(self, sender: str, player: str, now: float) -> None:
        """Count a wrong secret. The game master hears once a day when a
        player's wrong secrets reach the day's limit: someone may be guessing
        (a player's own mistyped secret is not reported)."""
        guesses = self.settings["guesses"]
        for key, window in (("from:" + sender, int(now // HOUR)), ("for:" + player, int(now // DAY))):
            entry = guesses.get(key)
            guesses[key] = [window, entry[1] + 1 if entry and entry[0] == window else 1]
        if len(guesses) > 5000:  # forget the windows gone by
            guesses.clear()
        if guesses["for:" + player][1] == GUESSES_A_DAY:
            self.mail_master(
                f"Wrong secrets for {player}",
                f"{GUESSES_A_DAY} mails today gave a wrong secret for {player} (the last from {sender}). "
                "Someone may be guessing: secrets for them are not checked again until tomorrow. "
                "'reissue: PLAYER' mails them a new secret.\n",
                key=f"guesses-{player}-{int(now // DAY)}",
            )

    def _who(self, letter: mailin.Letter) -> tuple[str, str | None]:
        by_address = [p for p, data in self.players.items() if data["address"].lower() == letter.sender]
        named = letter.values("player")
        if named:
            player = named[0][1].strip()
            if player not in self.players:
                return "", f"line {named[0][0]}: not a player of this game"
            if by_address and player not in by_address:
                return (
                    "",
                    f"line {named[0][0]}: a move for another player: {letter.sender} plays {by_address[0]}, not {player}",
                )
            return player, None
        if not by_address:
            return "", f"{letter.sender} is not a player's address; add a line 'player: NAME'"
        return by_address[0], None

    def _player_mail(self, letter: mailin.Letter, player: str, mid: str, key: str, now: float) -> str:
        if self.settings.get("ended"):
            return self.reply(letter, "the game was ended by the game master", key=key, echo=True)
        done = []
        if letter.has("help"):
            self._to(player, "How to play by mail", mailout.player_help(self.settings), key + "-help", letter)
            done.append(f"{player} asked for help")
        if letter.has("history"):
            self._to(player, "The game so far", self._history(player), key + "-history", letter)
            done.append(f"{player} asked for the history")
        if letter.has("legal"):
            self._to(player, "Your legal decisions", self._legal_all(player), key + "-legal", letter)
            done.append(f"{player} asked for every legal decision")
        presses = [text for _, text in letter.values("press")]
        if presses:
            done.append(self._press(player, presses, key, now))
        moves = letter.values("move")
        if letter.has("resign"):
            done.append(self._resign(letter, player, mid, key, now))
        elif moves:
            done.append(self._play(letter, player, moves, mid, key, now))
        elif not done:
            with logfile.locked(self.dir.log) as handle:
                match = self.replay(handle)
            self.queue_view(match, player, note="Here is the game as it stands.", resend=True, key=key + "-view")
            return f"{player} asked for the game as it stands"
        return "; ".join(done)

    def _to(self, player: str, subject: str, body: str, key: str, letter: mailin.Letter | None = None) -> None:
        self.dir.queue(
            mailout.message(
                self.settings,
                self.address(player),
                subject,
                body,
                reply_to=letter.message_id if letter is not None and letter.message_id else None,
            ),
            key=key,
        )

    # -- decisions -----------------------------------------------------------------
    def _play(self, letter: mailin.Letter, player: str, moves, mid: str, key: str, now: float) -> str:
        """Play the mail's decisions in order. Each is committed; the first that
        fails stops the rest, and so does a chance outcome or anything hidden
        coming out after one (the decisions after it are not tried: whatever
        they would answer could tell what the sender has not yet seen)."""
        if self.settings.get("paused"):
            return self.reply(letter, "the game is paused by the game master; nothing was played", key=key, echo=True)
        with logfile.locked(self.dir.log) as handle:
            match = self.replay(handle)
            start = match.seq
            keeper = SecretKeeper(self.dir.log)
            before = json.loads(json.dumps(keeper.secrets))
            events, played, problem = plan(match, player, moves, keeper.secrets, self.seed())
            mails = []
            if problem:
                body = (
                    "Your mail was played up to the line before.\n\n" if played else "Nothing was played.\n\n"
                ) + f"  {problem}\n"
                mails.append(
                    {
                        "key": key,
                        "to": letter.sender,
                        "subject": "Not played" if not played else "Partly played",
                        "body": body + "\n" + mailout.syntax(self.settings, "..."),
                        "reply_to": letter.message_id,
                    }
                )
            if not events:
                # Nothing to commit: the answer, with the legal decisions when it is the sender's turn.
                self.reply(letter, problem or "nothing to play", match=match, player=player, key=key, echo=True)
                return f"answered {letter.sender}: {problem}"
            self.commit(
                handle,
                start,
                events,
                before,
                keeper.secrets,
                now,
                message_id=mid,
                note=f"{player}'s mail was played.",
                mails=mails,
            )
        report = f"played {played} decision(s) of {player}: {len(events)} events appended"
        return report + (f"; {problem}" if problem else "")

    def _resign(self, letter: mailin.Letter, player: str, mid: str, key: str, now: float) -> str:
        with logfile.locked(self.dir.log) as handle:
            match = self.replay(handle)
            start = match.seq
            keeper = SecretKeeper(self.dir.log)
            before = json.loads(json.dumps(keeper.secrets))
            try:
                events = resign(match, player, self.seed(), keeper.secrets)
            except TabletopError as exc:
                self.reply(letter, f"resign: {exc.message}", key=key, echo=True)
                return f"answered {letter.sender}: {exc.message}"
            self.commit(handle, start, events, before, keeper.secrets, now, message_id=mid, note=f"{player} resigned.")
        return f"{player} resigned"

    # -- press, history, lists ----------------------------------------------------------
    def _press(self, player: str, texts: list[str], key: str, now: float) -> str:
        text = "\n".join(printable(t) for t in texts)[:4000]
        record = json.dumps({"time": int(now), "from": player, "text": text}, ensure_ascii=False) + "\n"
        append_private(self.dir.press, record.encode("utf-8"))
        for other in self.players:
            if other != player:
                self._to(
                    other,
                    f"Press from {player}",
                    f"{player} writes to the other players:\n\n{text}\n",
                    key + f"-press-{other}",
                )
        return f"{player}'s press relayed"

    def _history(self, player: str) -> str:
        match = self.replay()
        events, head = self.read_log(match.header.game)
        lines = [
            f"  {seq}. {match.describe(event, player)}"
            for seq, event in events
            if not isinstance(event, Reveal) or match.over
        ]
        return (
            f"Game '{self.settings['game_id']}' as {player} may see it:\n\n"
            + "\n".join(lines)
            + f"\n\nLog head: {head}\n"
        )

    def _legal_all(self, player: str) -> str:
        match = self.replay()
        node = match.node
        if not (isinstance(node, Decide) and player in node.players):
            return f"It is not your turn: waiting for {self._waiting_for(match)}."
        legal = list(match.game.legal(match.state, player))
        shown = "\n".join(f"  {match.game.notate(d)}" for d in legal[:LISTED_ALL])
        more = f"\n  ... and {len(legal) - LISTED_ALL} more" if len(legal) > LISTED_ALL else ""
        return f"All {len(legal)} of your legal decisions ({match.game.asks(match.state, player)}):\n{shown}{more}\n"

    # -- the game master -------------------------------------------------------------
    def mail_master(self, subject: str, body: str, key: str | None = None, first: bool = False) -> None:
        master = self.settings.get("master")
        if master:
            self.dir.queue(mailout.message(self.settings, master, subject, body, first=first), key=key)

    def _master_mail(self, letter: mailin.Letter, mid: str, key: str, now: float) -> str:
        secrets = letter.values("secret")
        stored = self.settings.get("master_secret")
        if not secrets or not stored or self._guessed_enough(letter.sender, "(master)", now):
            return self.reply(
                letter, "the game master's mail needs the master's secret: a line 'secret: ...'", key=key, now=now
            )
        if not passwords.matches(secrets[0][1], stored):
            self._wrong_guess(letter.sender, "(master)", now)
            return self.reply(
                letter, "the game master's mail needs the master's secret: a line 'secret: ...'", key=key, now=now
            )
        self._accepted(mid)
        done = []
        try:
            for _, name, value in letter.lines:
                if name in ("pause", "resume", "end"):
                    done.append(self.master(name, now=now))
                elif name == "extend":
                    who, _, length = value.partition(" ")
                    done.append(
                        self.master(
                            "extend",
                            player=who.strip(),
                            seconds=duration(length.strip(), f"extend: {who.strip()}"),
                            now=now,
                        )
                    )
                elif name == "replace":
                    who, _, address = value.partition(" ")
                    done.append(self.master("replace", player=who.strip(), address=address.strip(), now=now))
                elif name == "reissue":
                    done.append(self.master("reissue", player=value.strip(), now=now))
                elif name == "help":
                    self.mail_master("Game master commands", mailout.master_help(self.settings), key=key + "-help")
                    done.append("help")
        except TabletopError as exc:
            done.append(f"refused: {exc.message}")
        if not done:
            self.mail_master("Game master commands", mailout.master_help(self.settings), key=key + "-help")
            return "the game master asked for help"
        self.mail_master("Done", "\n".join(done) + "\n", key=key + "-done")
        return "game master: " + "; ".join(done)

    def master(
        self,
        command: str,
        *,
        player: str | None = None,
        seconds: int | None = None,
        address: str | None = None,
        now: float | None = None,
    ) -> str:
        """A game master's command (from the command line or by mail); a one-line report."""
        now = time.time() if now is None else now
        stamp = f"{command}-{time.time_ns()}"
        if player is not None and player not in self.players:
            raise UsageError(f"'{player}' is not a player of this game ({', '.join(self.players)})")
        if command == "pause":
            if self.settings.get("paused"):
                return "already paused"
            self.settings["paused"] = now
            self._all(
                "The game is paused",
                "The game master paused the game: no decision is played and no deadline runs until it resumes.",
                stamp,
            )
            return "paused"
        if command == "resume":
            since = self.settings.get("paused")
            if not since:
                return "not paused"
            self.settings["paused"] = None
            due = self.settings.get("due")
            if due:  # the clocks stood still while the game was paused
                due["since"] = {p: t + (now - since) for p, t in due["since"].items()}
            self._all("The game resumes", "The game master resumed the game; deadlines run again.", stamp)
            return "resumed"
        if command == "end":
            self.settings["ended"] = now
            self._all("The game was ended", "The game master ended the game. No more decisions are played.", stamp)
            return "ended"
        if command == "extend":
            assert player is not None and seconds is not None
            due = self.settings.get("due")
            if not due or player not in due["since"]:
                raise UsageError(f"{player} has no decision due now")
            due["since"][player] += seconds
            due["reminded"] = [p for p in due["reminded"] if p != player]
            due["late"] = [p for p in due["late"] if p != player]
            when = self.when(self.deadline_of(player) or now, player)
            self._to(
                player, "Your deadline was extended", f"The game master extended your deadline to {when}.\n", stamp
            )
            return f"{player}'s deadline extended to {when}"
        if command in ("replace", "reissue"):
            assert player is not None
            if command == "replace":
                if not address or not mailin.valid_address(address):
                    raise UsageError(f"replace {player}: '{one_line(address or '')}' is not a single mail address")
                if any(d["address"].lower() == address.lower() for p, d in self.players.items() if p != player):
                    raise UsageError(f"replace {player}: {address} is another player's address")
                old = self.address(player)
                self.players[player]["address"] = address
            secret = passwords.new_secret()
            self.players[player]["secret"] = passwords.store(secret)
            # The new hash and the secret still to mail are saved together, before
            # any mail: a crash then leaves a mail for the next run to queue, never
            # a secret that works for nobody, nor one mailed that does not work.
            self.settings.setdefault("pending_secrets", []).append(
                {"player": player, "secret": secret, "key": stamp, "replaced": address if command == "replace" else ""}
            )
            self.dir.save(self.settings)
            faults.point("master-secret-saved")
            self._mail_secrets()
            if command == "replace":
                return f"{player} is now played from {address} (was {old}); a new secret was mailed"
            return f"a new secret was mailed to {player}; the old one no longer works"
        raise UsageError(f"unknown game master command '{command}'")

    def _mail_secrets(self) -> None:
        """Queue the mails of new secrets the settings say are still to go (each
        queued under its own key, so a mail queued before a crash is not queued
        again), then forget the secrets."""
        pending = self.settings.get("pending_secrets") or []
        if not pending:
            return
        match = self.replay()
        for item in pending:
            player = item["player"]
            self.queue_view(match, player, welcome=item["secret"], resend=True, key=item["key"])
            faults.point("master-secret-mailed")
            if item["replaced"]:
                for other in self.players:
                    if other != player:
                        self._to(
                            other,
                            f"{player} is now played from another address",
                            f"The game master handed {player} to a new player ({item['replaced']}).\n",
                            item["key"] + "-" + other,
                        )
        self.settings["pending_secrets"] = []
        self.dir.save(self.settings)
        faults.point("master-secrets-forgotten")

    def _all(self, subject: str, body: str, stamp: str) -> None:
        for player in self.players:
            self._to(player, subject, body + "\n", f"{stamp}-{player}")

    def locked_master(self, command: str, **kwargs: Any) -> str:
        now = time.time()
        with self.dir.locked():
            self._begin(now)
            report = self.master(command, now=now, **kwargs)
            self.dir.save(self.settings)
        return report

    def set(self, changes: dict[str, Any]) -> list[str]:
        """Change settings after init (SMTP server, deadlines, ...), checked first."""
        with self.dir.locked():
            self._begin(time.time())
            changes = dict(changes)
            zone = changes.pop("tz", None)
            new = {**self.settings, **changes}
            check_settings(new, self.registry)
            if zone is not None:
                name, value = zone
                if name not in self.players:
                    raise UsageError(f"tz={one_line(name)}=...: not a player of this game ({', '.join(self.players)})")
                self.players[name]["tz"] = check_zone(name, value) if value else None
                new["players"] = self.players
                changes["tz"] = f"{name}={value or 'UTC'}"
            if new.get("pictures", "png") not in PICTURES:
                raise UsageError(f"pictures '{one_line(str(new['pictures']))}': one of {', '.join(PICTURES)}")
            self.settings = new
            self.dir.save(self.settings)
        return [f"{k} = {v}" for k, v in changes.items()]

    # -- answers ------------------------------------------------------------------
    def _limited(self, table: str, who: str, now: float, per_day: int = 1) -> bool:
        """Whether ``who`` had ``per_day`` answers of this kind today (then none now)."""
        day = int(now // DAY)
        entry = self.settings[table].get(who)
        if entry and entry[0] == day and entry[1] >= per_day:
            return True
        count = entry[1] + 1 if entry and entry[0] == day else 1
        self.settings[table][who] = [day, count]
        if len(self.settings[table]) > 5000:  # forget yesterday's strangers
            self.settings[table] = {k: v for k, v in self.settings[table].items() if v[0] == day}
        return False

    def alert(self, player: str, letter: mailin.Letter, now: float) -> None:
        """A mail from another address without the right secret for
        ``player``: the player hears of it (once a day). A wrong secret from
        the player's own address is only answered (a mistyped secret is no
        forgery); many of them reach the game master (:meth:`_wrong_guess`)."""
        if self._limited("alerted", player, now):
            return
        body = (
            f"A mail from {letter.sender} tried to play as you, {player}, without your secret.\n"
            "Nothing was played. If it was not you, keep your secret to yourself;\n"
            "if it was you, use the secret from your first mail. (You hear of such mails once a day at most.)"
        )
        self.dir.queue(mailout.message(self.settings, self.address(player), "A move was tried in your name", body))

    def reply(
        self,
        letter: mailin.Letter,
        problem: str,
        match: Match | None = None,
        player: str | None = None,
        *,
        key: str | None = None,
        echo: bool = False,
        now: float | None = None,
    ) -> str:
        """Answer a mail that changed nothing. Before the sender proved who they
        are (``echo`` False) no answer quotes their mail (its reasons are the
        referee's own words), and an address gets such answers a few times a
        day at most (once for a stranger's), so that the referee relays nothing
        for anyone."""
        known = any(d["address"].lower() == letter.sender for d in self.players.values())
        if (
            not echo
            and now is not None
            and self._limited("answered", letter.sender, now, ANSWERS_A_DAY if known else 1)
        ):
            return f"not answered {letter.sender} again today: {problem.splitlines()[0]}"
        body = [f"Your mail could not be played; nothing was changed.\n\n  {problem}\n"]
        if match is not None and player is not None:
            body.append(self._ask(match, player))
        body.append(mailout.syntax(self.settings, "..."))
        self.dir.queue(
            mailout.message(
                self.settings, letter.sender, "Not played", "\n".join(body), reply_to=letter.message_id or None
            ),
            key=key,
        )
        return f"answered {letter.sender}: {problem.splitlines()[0]}"

    def _bounce(self, letter: mailin.Letter, now: float) -> None:
        """A delivery report naming a player's address: the game master hears of it (once a day)."""
        if not letter.report or not self.settings.get("master"):
            return
        text = letter.report.lower()
        for player, data in self.players.items():
            if data["address"].lower() in text and not self._limited("alerted", "bounce:" + player, now):
                self.mail_master(
                    f"Mail to {player} bounced",
                    f"A delivery report says mail to {data['address']} ({player}) could not be delivered.\n"
                    "Replace the address if it is gone: 'replace: PLAYER NEW-ADDRESS'.\n",
                )

    def report_refused(self, refused: list[tuple[str, str, str]]) -> None:
        """Mails the SMTP server refused for good: the game master hears of each."""
        if not refused or not self.settings.get("master"):
            return
        with self.dir.locked():
            self._begin(time.time())
            master = self.settings["master"].lower()
            lines = [
                f"  {name}: to {rcpts}: {one_line(reason)}"
                for name, rcpts, reason in refused
                if master not in rcpts.lower()
            ]
            if lines:
                self.mail_master(
                    "Mail could not be delivered",
                    "The SMTP server refused these mails for good (kept in undeliverable/):\n"
                    + "\n".join(lines)
                    + "\n",
                    key="refused-" + hashlib.sha256("".join(lines).encode()).hexdigest()[:16],
                )
            self.dir.save(self.settings)

    # -- mail out ------------------------------------------------------------------
    def after_change(self, match: Match, now: float, note: str = "", key: str | None = None) -> None:
        self.refresh_due(match, now)
        log = self.read_log(match.header.game)
        for player in match.header.players:
            self.queue_view(match, player, note=note, log=log, key=f"{key}-{player}" if key else None)
            faults.point(f"view:{player}")

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

    def when(self, epoch: float, player: str | None = None) -> str:
        """A moment as ``player`` reads it: in their time zone (``--tz``), and in UTC."""
        zone = self.players[player].get("tz") if player in self.players else None
        return when(epoch, zone)

    def deadline_of(self, player: str) -> float | None:
        due, deadline = self.settings.get("due"), self.settings.get("deadline")
        if not due or not deadline or player not in due["since"]:
            return None
        return due["since"][player] + deadline

    def queue_view(
        self,
        match: Match,
        player: str,
        *,
        welcome: str | None = None,
        note: str = "",
        resend: bool = False,
        log: tuple[list[tuple[int, Event]], str] | None = None,
        key: str | None = None,
        first: bool = False,
    ) -> None:
        """Mail ``player`` their own view: the events since their last mail, the
        board, what is asked of them, the chain head."""
        events, head = log or self.read_log(match.header.game)
        data = self.players[player]
        since = 0 if resend else data["mailed"]
        game = match.game
        parts = []
        if welcome:
            parts.append(self._welcome(match, player, welcome))
        if note:
            parts.append(note)
        news = [f"  {seq}. {self._news(match, event, player)}" for seq, event in events if seq > since]
        if news:
            title = "So far:" if since == 0 else "Since your last mail:"
            parts.append(title + "\n" + "\n".join(news))
        parts.append(game.render(match.state, player))
        parts.append(self._ask(match, player, events))
        parts.append(
            f"Log head after event {match.seq}: {head}\n"
            f"Keep it: 'tabletop verify game.jsonl --head {head}' proves later that the log still extends it."
        )
        attachments = self._pictures(match, player) if self._has_picture(match) else []
        if isinstance(match.node, Over):
            parts.append(self._final(match))
            attachments.append(("game.jsonl", "application/x-ndjson", self.dir.log.read_text(encoding="utf-8")))
            attachments.append(("game.html", "text/html", self._viewer_page(match)))
        subject = self._subject(match, player, welcome is not None)
        mail = mailout.message(
            self.settings,
            data["address"],
            subject,
            "\n\n".join(parts) + "\n",
            attachments=tuple(attachments),
            first=first,
        )
        self.dir.queue(mail, key=key)
        data["mailed"] = max(data["mailed"], match.seq)

    def _news(self, match: Match, event: Event, player: str) -> str:
        """One event as ``player`` may see it; their own sealed choice is shown back to them."""
        text = match.describe(event, player)
        if getattr(event, "kind", "") == "seal" and event.player == player:  # type: ignore[attr-defined]
            mine = SecretKeeper(self.dir.log).secrets.get(player)
            if mine:
                try:
                    unseal = Unseal(player, mine["salt"], mine["choice"])
                    text += f" (your choice, sealed: {match.game.notate(match.unsealed(unseal))})"
                except (TabletopError, KeyError, TypeError):
                    pass
        return text

    def _welcome(self, match: Match, player: str, secret: str) -> str:
        game = match.game
        others = ", ".join(p for p in match.header.players if p != player)
        commitment = match.header.randomness.commitment
        variants = f" with {', '.join(match.header.variants)}" if match.header.variants else ""
        return (
            f"Welcome to {game.title or game.name}{variants}, game '{self.settings['game_id']}'. "
            f"You play {player}, against {others}.\n\n"
            f"Your secret: {secret}\n"
            "Put it in every mail you send; keep it to yourself. It is stored only as a hash,\n"
            "and this mail's copy on the referee's side has it blacked out.\n\n"
            + mailout.syntax(self.settings, self._example(match, player))
            + "\n\nEvery draw, shuffle and roll comes from a secret seed, sealed until the end.\n"
            f"Its hash: {commitment}\n"
            "When the game is over the seed is revealed and anyone can check every\n"
            "chance outcome with 'tabletop verify game.jsonl'."
        )

    def _example(self, match: Match, player: str) -> str:
        node = match.node
        if isinstance(node, Decide) and player in node.players:
            legal = match.game.legal(match.state, player)
            if legal:
                return match.game.notate(legal[0])
        return "..."

    def _waiting_for(self, match: Match) -> str:
        return waiting_for(match)

    def _ask(self, match: Match, player: str, events: list[tuple[int, Event]] | None = None) -> str:
        node = match.node
        if isinstance(node, Over):
            return "The game is over."
        if isinstance(node, Decide) and player in node.players:
            legal = list(match.game.legal(match.state, player))
            shown = "\n".join(f"  {match.game.notate(d)}" for d in legal[:LISTED])
            more = (
                f"\n  ... and {len(legal) - LISTED} more (write 'legal' in a mail for the whole list)"
                if len(legal) > LISTED
                else ""
            )
            deadline = self.deadline_of(player)
            due = f"\nDeadline: {self.when(deadline, player)}." if deadline else ""
            secret = (
                "\nThis decision is secret: it is sealed until every player has made theirs." if node.sealed else ""
            )
            why = ""
            if events and len(node.players) == 1 and events:
                # Asked out of turn (an attack to answer): say what brought it.
                last = next(
                    (e for _, e in reversed(events) if getattr(e, "player", player) != player and e.origin != CHANCE),
                    None,
                )
                if last is not None and getattr(last, "player", None) not in (None, player):
                    why = f"\nAfter: {match.describe(last, player)}."
            return f"It is your turn: {match.game.asks(match.state, player)}.{why}{secret}\nYour legal decisions:\n{shown}{more}{due}"
        return f"Waiting for {self._waiting_for(match)}."

    def _subject(self, match: Match, player: str, welcome: bool) -> str:
        node = match.node
        if isinstance(node, Over):
            return "Game over: " + match.game.outcome(match.state).verdict()
        prefix = "Welcome. " if welcome else ""
        if isinstance(node, Decide) and player in node.players:
            return prefix + f"Your turn: {match.game.asks(match.state, player)}"
        return prefix + f"Waiting for {self._waiting_for(match)}"

    def _has_picture(self, match: Match) -> bool:
        return (match.header.game, "svg") in self.registry.renderers

    def _picture(self, match: Match, player: str) -> tuple[str, str]:
        renderer = self.registry.renderer(match.header.game, "svg")
        return renderer.media_type, renderer.render(match.game, match.state, player)

    def _pictures(self, match: Match, player: str) -> list[tuple[str, str, str | bytes]]:
        """The board as the mail programs show it (a PNG, where the png extra
        is installed), and as SVG (sharp at any size) beside it."""
        media_type, svg = self._picture(match, player)
        found: list[tuple[str, str, str | bytes]] = []
        if self.settings.get("pictures", "png") == "png":
            from ..pictures import png

            try:
                found.append(("board.png", "image/png", png(svg, 1.0)))
            except TabletopError:
                pass  # no png extra: the SVG alone
        found.append(("board.svg", media_type, svg))
        return found

    def _viewer_page(self, match: Match) -> str:
        """The whole game in the step-through viewer: once the game is over the
        log (attached beside it) holds everything, so the page shows everything.
        Made once for all the players' final mails."""
        cached = getattr(self, "_final_page", None)
        if cached is None or cached[0] != match.seq:
            from ..viewer.page import page

            cached = self._final_page = (match.seq, page(self.registry, self.dir.log))
        return cached[1]

    def _final(self, match: Match) -> str:
        outcome = match.game.outcome(match.state)
        scores = ", ".join(f"{p} {s}" for p, s in outcome.ranked())
        winners = " and ".join(outcome.winners) or "nobody"
        seed = match.seed or self.seed()
        return (
            f"Final scores: {scores}. Winner: {winners}{' (' + outcome.note + ')' if outcome.note else ''}.\n\n"
            f"The seed was: {seed}\n"
            f"Its hash, sent to you at the start: {match.header.randomness.commitment}\n"
            "The whole log is attached, and game.html steps through it in a browser.\n"
            "To check every draw, shuffle and roll, and\n"
            "that it is the history you were sent, run:\n\n"
            "    tabletop verify game.jsonl --head (a head from any of your mails)"
        )

    # -- time ----------------------------------------------------------------------
    def tick(self, now: float | None = None) -> list[str]:
        """Reminders, late notices and (if set) a bot's decision for the late."""
        now = time.time() if now is None else now
        done: list[str] = []
        with self.dir.locked():
            self._begin(now)
            if not self.settings.get("paused") and not self.settings.get("ended"):
                for _ in range(100):  # a bot's decision may make another one due
                    if not self._tick_once(now, done):
                        break
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
            at = due["since"][player] + deadline
            if remind and at - remind <= now < at and player not in due["reminded"]:
                due["reminded"].append(player)
                body = f"A reminder: your decision in game '{self.settings['game_id']}' is due by {self.when(at, player)}.\n\n{self._ask(match, player)}"
                self._to(player, "Reminder: your decision is due", body, f"remind-{match.seq}-{player}")
                done.append(f"reminded {player}")
            if now >= at and player not in due["late"]:
                due["late"].append(player)
                then = (
                    f"The bot '{bot}' decides for you after {self.when(at + grace, player)}."
                    if bot
                    else "The game waits for you."
                )
                body = f"Your decision in game '{self.settings['game_id']}' was due by {self.when(at, player)}. {then}\n\n{self._ask(match, player)}"
                self._to(player, "Late: your decision was due", body, f"late-{match.seq}-{player}")

                def notice(reader: str | None, at: float = at, player: str = player) -> str:
                    then = (
                        f"The bot '{bot}' decides for them after {self.when(at + grace, reader)}."
                        if bot
                        else "The game waits for them."
                    )
                    return f"{player} is late: their decision was due by {self.when(at, reader)}. {then}\n"

                for other in self.players:
                    if other != player:
                        self._to(other, f"{player} is late", notice(other), f"late-{match.seq}-{player}-to-{other}")
                self.mail_master(f"{player} is late", notice(None), key=f"late-{match.seq}-{player}-to-master")
                done.append(f"late notice to {player}")
            if bot and now >= at + grace:
                return self._bot_decides(match, player, bot, now, done)
        return False

    def _bot_decides(self, match: Match, player: str, bot_name: str, now: float, done: list[str]) -> bool:
        bot = bot_named(self.registry, bot_name, match.header.game)
        with logfile.locked(self.dir.log) as handle:
            match = self.replay(handle)
            legal = list(match.game.legal(match.state, player))
            if not legal:
                return False
            sealed = isinstance(match.node, Decide) and match.node.sealed
            digest = hashlib.sha256(f"late {player} {match.seq} {self.seed()}".encode()).digest()
            choice = bot.choose(match.game, match.state, player, legal, random.Random(digest))
            keeper = SecretKeeper(self.dir.log)
            before = json.loads(json.dumps(keeper.secrets))
            start = match.seq
            events = decide(match, choice, self.seed(), keeper.secrets)
            text = "a secret choice" if sealed else match.game.notate(choice)
            self.commit(
                handle,
                start,
                events,
                before,
                keeper.secrets,
                now,
                note=f"{player} was late: the bot '{bot_name}' played {text} for {player}.",
            )
        done.append(f"{player} was late: the bot '{bot_name}' played {text}")
        return True

    # -- status --------------------------------------------------------------------
    def status_data(self) -> dict[str, Any]:
        """The status as data: ``pbem status --json``."""
        match = self.replay()
        node = match.node
        data: dict[str, Any] = {
            "game_id": self.settings["game_id"],
            "game": match.header.game,
            "players": list(match.header.players),
            "events": match.seq,
            "paused": bool(self.settings.get("paused")),
            "ended": bool(self.settings.get("ended")),
            "over": isinstance(node, Over),
            "waiting": [],
            "outbox": len(self.dir.waiting()),
            "undeliverable": len(list(self.dir.undeliverable.glob("*.eml"))) if self.dir.undeliverable.is_dir() else 0,
            "quarantined": len(list(self.dir.quarantine_dir.glob("*.eml"))) if self.dir.quarantine_dir.is_dir() else 0,
            "chain_head": self.head(),
        }
        if isinstance(node, Over):
            outcome = match.game.outcome(match.state)
            data["result"] = {
                "scores": {p: s for p, s in outcome.ranked()},
                "winners": list(outcome.winners),
                "verdict": outcome.verdict(),
            }
        elif isinstance(node, Decide):
            for player in node.players:
                deadline = self.deadline_of(player)
                due = datetime.fromtimestamp(deadline, timezone.utc).isoformat() if deadline else None
                data["waiting"].append({"player": player, "due": due})
        return data

    def status(self) -> list[str]:
        match = self.replay()
        lines = [f"game '{self.settings['game_id']}' ({match.header.game}): {match.seq} events"]
        if self.settings.get("ended"):
            lines.append("ended by the game master")
        if self.settings.get("paused"):
            lines.append("paused by the game master")
        node = match.node
        if isinstance(node, Over):
            outcome = match.game.outcome(match.state)
            lines.append("over: " + ", ".join(f"{p} {sc}" for p, sc in outcome.ranked()) + "; " + outcome.verdict())
        elif isinstance(node, Decide):
            for player in node.players:
                deadline = self.deadline_of(player)
                due = f", due {when(deadline)}" if deadline else ""
                lines.append(f"waiting for {player}{due}")
        lines.append(f"outbox: {len(self.dir.waiting())} mail(s) waiting")
        if self.dir.undeliverable.is_dir():
            lines.append(f"undeliverable: {len(list(self.dir.undeliverable.glob('*.eml')))} mail(s)")
        if self.dir.quarantine_dir.is_dir():
            lines.append(f"quarantined: {len(list(self.dir.quarantine_dir.glob('*.eml')))} message(s)")
        lines.append(f"chain head: {self.head()}")
        return lines


def waiting_for(match: Match) -> str:
    """Who the game waits for (only who: what another player is asked may show their hidden hand)."""
    node = match.node
    if isinstance(node, Decide):
        return " and ".join(f"{p} to decide" for p in node.players)
    return "nobody"


def plan(match: Match, player: str, moves, secrets: dict, seed: str | None) -> tuple[list[Event], int, str | None]:
    """Play ``moves`` (line number, text) on ``match`` in order: the events to
    commit, how many decisions were played, and why the rest was not.

    Stops at the first decision that fails, and after a decision the rules
    answered with events of their own (a draw, a roll, a forced event such as
    a look at a hand, a sealed decision revealed): what the next decisions
    would answer could then tell the sender what they have not seen. A run
    of decisions the rules answer with nothing is played whole."""
    events: list[Event] = []
    for index, (number, text) in enumerate(moves):
        node = match.node
        if isinstance(node, Over):
            return events, index, f"line {number}: {text!r}: the game is over"
        if not isinstance(node, Decide) or player not in node.players:
            return events, index, f"line {number}: {text!r}: not your turn: {waiting_for(match)}"
        kept = json.loads(json.dumps(secrets))
        try:
            decision = match.game.parse(text, player, match.state)
            new = decide(match, decision, seed, secrets)
        except TabletopError as exc:
            secrets.clear()
            secrets.update(kept)
            return events, index, f"line {number}: {text!r}: {exc.message}"
        events += new
        if index + 1 < len(moves) and _brings_out(match, new):
            rest = moves[index + 1][0]
            return (
                events,
                index + 1,
                f"line {rest} and after: not tried: line {number} brought a chance outcome or other "
                "news from the rules; send them again once you have seen it",
            )
    return events, len(moves), None


def _brings_out(match: Match, events: list[Event]) -> bool:
    """Whether the rules produced anything after the decision: a draw or a
    roll, a forced event (which may carry what a player could not see, like
    a look at an opponent's hand), a sealed decision revealed."""
    return len(events) > 1


def resign(match: Match, player: str, seed: str | None, secrets: dict) -> list[Event]:
    """``player`` resigns: the event, then what the rules run until a decision is due."""
    if player in secrets and not match.seals.get(player):
        secrets.pop(player, None)
    event = Resign(player)
    match.accept(event)
    secrets.pop(player, None)
    return [event, *settle(match, seed, secrets)]


def _write_secrets(log: Path, secrets: dict) -> None:
    path = log.with_name(log.name + ".secrets")
    if secrets:
        write_private(path, json.dumps(secrets))
    else:
        path.unlink(missing_ok=True)
        sync_folder(path.parent)
