"""Mail in: each message archived first, then routed (which game, which
player, or the game master), its sender proved by their secret, and its
commands run; answers to what cannot be played; the limits that keep the
referee from relaying anything for anyone or checking secrets without end."""

from __future__ import annotations

import hashlib
import re
import time

from ..engine import Match
from ..errors import TabletopError, UsageError
from . import blackout, bots, commands, faults, mailin, mailout, passwords, seats
from .gamedir import one_line
from .settings import ANSWERS_A_DAY, CLOCKS_DIFFER, DAY, GUESSES_A_DAY, GUESSES_AN_HOUR, HOUR

#: How a bounced mail of the referee's names its game: the Subject's tag, or the thread's Message-ID.
_REPORTED = (
    re.compile(r"(?im)^[ \t>]*subject:[^\n]{0,400}?\[([A-Za-z0-9][A-Za-z0-9._-]{0,39})\]"),
    re.compile(r"<tabletop\.([A-Za-z0-9][A-Za-z0-9._-]{0,39})\.[0-9a-f]{16}@"),
)


def _games_reported(report: str) -> set[str]:
    """The games a delivery report's quoted mail belongs to (none when it does not say)."""
    return {name.lower() for pattern in _REPORTED for name in pattern.findall(report[:200_000])}


class Inbox:
    def receive(
        self, raw: bytes, now: float | None = None, size: int | None = None, arrived: float | None = None
    ) -> str:
        """Handle one raw message; a one-line report of what was done. A message
        that cannot be handled is quarantined with its reason, never raised.

        ``size``: the whole mail's size when ``raw`` is only its start (a
        mail larger than :data:`mailin.MAX_BYTES` is read no further). A mail
        over that size is kept and read as its headers alone: it is answered
        (it is too large), never parsed whole nor archived whole.

        ``arrived``: when the mail reached the mailbox, where the mailbox
        says (IMAP, a Maildir). A mail that arrived before the game began
        (a mailbox that served other games) gets no answer: it cannot be
        for this game, whose secrets did not exist yet."""
        now = time.time() if now is None else now
        #: Whether the mail was another game's, left to its referee (a shared Maildir leaves it in new/).
        self.passed_over = False
        created = self.settings.get("created")
        self._older = bool(
            arrived is not None and isinstance(created, (int, float)) and arrived < created - CLOCKS_DIFFER
        )
        try:
            return self._kept_and_handled(raw, now, size)
        finally:
            self._older = False

    def _kept_and_handled(self, raw: bytes, now: float, size: int | None) -> str:
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
            # A seat a bot plays decides as soon as its decision is due (:mod:`.bots`).
            played = bots.play(self, now)
            if played:
                self.dir.save(self.settings)
                report = "; ".join([report, *played])
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
        elsewhere = self._elsewhere(letter)
        if elsewhere:
            self.passed_over = True
            return (
                f"passed over a mail from {letter.sender} for game '{elsewhere}': another game's, left to its referee"
            )
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
        if letter.has("claim"):
            # A substitute's claim to a seat on offer: its token is its proof.
            return seats.claim(self, letter, mid, letter_key, now)
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
        stored = self.players[player]["secret"]
        if self._guessed_enough(letter.sender, stored, now):
            return self.reply(
                letter,
                f"too many wrong secrets from {letter.sender} this hour; this mail's secret was not checked and "
                "nothing was played: try again later, with the secret from your first mail",
                key=letter_key,
                now=now,
            )
        if not passwords.matches(secrets[0][1], stored):
            self._wrong_guess(letter.sender, player, now)
            if not own:
                self.alert(player, letter, now)
            why = f"line {secrets[0][0]}: wrong secret for {player}; nothing was played"
            if own:
                why += "\n\n  Use the secret from your first mail (a mistyped one is refused like this)."
            return self.reply(letter, why, key=letter_key, now=now)
        self._accepted(mid)
        return self._player_mail(letter, player, mid, letter_key, now)

    def _elsewhere(self, letter: mailin.Letter) -> str | None:
        """The game a mail is for when it is another game's: its ``game:`` line
        or its Subject's tag names another game, and neither names this one.
        Several games may share the referee's mailbox: each leaves the
        others' mail alone (no answer, no count against anyone)."""
        ours = self.settings["game_id"].lower()
        named = [value.strip() for _, value in letter.values("game")] + list(letter.tags)
        if not named or any(name.lower() == ours for name in named):
            return None
        return one_line(named[0])[:40]

    def _guessed_enough(self, sender: str, stored: dict, now: float) -> bool:
        """Whether ``sender`` used up this hour's wrong secrets, for a secret
        stored without its short tag (a game begun before tags: each check
        of it costs the slow hash). A tagged secret is always checked: a
        wrong guess costs next to nothing, and the right one is never
        refused, whoever guessed before (see :mod:`.passwords`)."""
        if passwords.tagged(stored):
            return False
        by_sender = self.settings["guesses"].get("from:" + sender)
        return bool(by_sender and by_sender[0] == int(now // HOUR) and by_sender[1] >= GUESSES_AN_HOUR)

    def _wrong_guess(self, sender: str, player: str, now: float) -> None:
        """Count a wrong secret, by its sender (the hour's) and for the player
        (the day's). The game master hears once a day when a player's wrong
        secrets reach :data:`GUESSES_A_DAY`: someone may be guessing. Nobody
        is refused for it."""
        guesses = self.settings["guesses"]
        for key, window in (("from:" + sender, int(now // HOUR)), ("for:" + player, int(now // DAY))):
            entry = guesses.get(key)
            guesses[key] = [window, entry[1] + 1 if entry and entry[0] == window else 1]
        if len(guesses) > 5000:  # forget the windows gone by
            guesses.clear()
        if guesses.get("for:" + player, [0, 0])[1] == GUESSES_A_DAY:
            self.mail_master(
                f"Wrong secrets for {player}",
                f"{GUESSES_A_DAY} mails today gave a wrong secret for {player} (the last from {sender}). "
                "Someone may be guessing; it does not lock anyone out: the right secret is still taken, "
                f"and guessing one takes about 10^23 tries. If {player}'s secret may have leaked, "
                "'reissue: PLAYER' mails them a new one.\n",
                key=f"guesses-{player}-{int(now // DAY)}",
            )

    def forget_guesses(self, player: str) -> None:
        """A new secret for ``player``: the wrong secrets counted for them,
        and from their address, and the answers their address had today,
        start again."""
        address = self.address(player).lower()
        for key in ("for:" + player, "from:" + address):
            self.settings["guesses"].pop(key, None)
        self.settings.get("answered", {}).pop(address, None)

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
        """Run the commands the mail gives (:func:`commands.asked`), in order."""
        if self.settings.get("ended"):
            return self.reply(letter, "the game was ended by the game master", key=key, echo=True)
        mail = commands.Mail(letter, player, mid, key, now)
        return "; ".join(command.run(self, mail) for command in commands.asked(letter))

    def _master_mail(self, letter: mailin.Letter, mid: str, key: str, now: float) -> str:
        secrets = letter.values("secret")
        stored = self.settings.get("master_secret")
        if not secrets or not stored or self._guessed_enough(letter.sender, stored, now):
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
                command = commands.master_command(name)
                if command is None:
                    continue
                stamp = key if name == "help" else f"{name}-{time.time_ns()}"
                done.append(commands.run_master(self, name, now, stamp, **command.arguments(value)))
        except TabletopError as exc:
            done.append(f"refused: {exc.message}")
        if not done:
            self.mail_master("Game master commands", mailout.master_help(self.settings), key=key + "-help")
            return "the game master asked for help"
        self.mail_master("Done", "\n".join(done) + "\n", key=key + "-done")
        return "game master: " + "; ".join(done)

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
        if bots.of(self, player) or getattr(self, "_older", False) or self._limited("alerted", player, now):
            return  # (a seat a bot plays reads no mail)
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
        if not echo and getattr(self, "_older", False):
            return f"not answered {letter.sender} (the mail is older than the game): {problem.splitlines()[0]}"
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
        """A delivery report naming a player's address: the game master hears
        of it (once a day). A report older than the game, or about another
        game's mail (its tag, not this game's), is not this game's to tell."""
        if not letter.report or not self.settings.get("master") or getattr(self, "_older", False):
            return
        text = letter.report.lower()
        games = _games_reported(letter.report)
        if games and self.settings["game_id"].lower() not in games:
            return
        for player, data in self.players.items():
            if data["address"].lower() in text and not self._limited("alerted", "bounce:" + player, now):
                self.mail_master(
                    f"Mail to {player} bounced",
                    f"A delivery report says mail to {data['address']} ({player}) could not be delivered.\n"
                    "Replace the address if it is gone: 'replace: PLAYER NEW-ADDRESS'.\n",
                )
