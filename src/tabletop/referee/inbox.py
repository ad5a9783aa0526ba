"""Mail in: each message archived first, then routed (which game, which
player, or the game master), its sender proved by their secret, and its
commands run; answers to what cannot be played; the limits that keep the
referee from relaying anything for anyone or checking secrets without end."""

from __future__ import annotations

import hashlib
import re
import time
from typing import TYPE_CHECKING

import attrs

from ..base.errors import TabletopError, UsageError
from ..play.engine import Match
from . import blackout, commands, faults, mailin, mailout, pages, passwords
from .botseats import of
from .gamedir import one_line
from .seats import Refused
from .settings import ANSWERS_A_DAY, CLOCKS_DIFFER, DAY

if TYPE_CHECKING:
    from .bots import Bots
    from .change import Changes
    from .ledger import Ledger
    from .letters import Letters
    from .passwords import Secrets
    from .referee import Referee
    from .seats import Seats

#: How a bounced mail of the referee's names its game: the Subject's tag, or the thread's Message-ID.
_REPORTED = (
    re.compile(r"(?im)^[ \t>]*subject:[^\n]{0,400}?\[([A-Za-z0-9][A-Za-z0-9._-]{0,39})\]"),
    re.compile(r"<tabletop\.([A-Za-z0-9][A-Za-z0-9._-]{0,39})\.[0-9a-f]{16}@"),
)


@attrs.frozen
class Posted:
    """What a post from a turn page did: the report, the answers a mail would
    have had (the first line and the text of each)."""

    report: str
    answers: list[tuple[str, str]]


def _games_reported(report: str) -> set[str]:
    """The games a delivery report's quoted mail belongs to (none when it does not say)."""
    return {name.lower() for pattern in _REPORTED for name in pattern.findall(report[:200_000])}


class Inbox:
    """Mail in, one message a run: kept, routed, its sender proved, its
    commands run (on the ``referee``, as the game master's from the command
    line are), its answers bounded."""

    def __init__(
        self,
        ledger: Ledger,
        changes: Changes,
        letters: Letters,
        secrets: Secrets,
        seats: Seats,
        bots: Bots,
        referee: Referee,
    ) -> None:
        self.ledger = ledger
        self.changes = changes
        self.letters = letters
        self.secrets = secrets
        self.seats = seats
        self.bots = bots
        self.referee = referee
        #: Whether the last mail was another game's, left to its referee (a shared Maildir leaves it in new/).
        self.passed_over = False
        #: Whether the mail in hand arrived before the game began (then nobody is answered).
        self._older = False

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
        self.passed_over = False
        created = self.ledger.settings.created
        self._older = bool(
            arrived is not None and isinstance(created, (int, float)) and arrived < created - CLOCKS_DIFFER
        )
        try:
            return self._kept_and_handled(raw, now, size)
        finally:
            self._older = False
            self.changes.content_id = ""

    def _kept_and_handled(self, raw: bytes, now: float, size: int | None) -> str:
        size = len(raw) if size is None else max(size, len(raw))
        if size > mailin.MAX_BYTES:
            raw = blackout.headers_only(raw)
        directory = self.ledger.dir
        try:
            _, before = directory.keep(raw)
        except OSError as exc:
            raise UsageError(f"{directory.path}: cannot archive the message ({exc.strerror})") from None
        with directory.locked():
            self.changes.begin(now)
            try:
                report = self._receive(raw, now, before, size)
            except Exception as exc:  # noqa: BLE001 - a message must never stop the others
                self.ledger.reload()
                reason = f"{type(exc).__name__}: {one_line(str(exc))}"
                kept = directory.quarantine(raw, reason)
                self.letters.mail_master(
                    "A message was quarantined",
                    f"A message could not be handled and was set aside as {kept.name} in quarantine/:\n\n  {reason}\n",
                    key="quarantine-" + kept.stem,
                )
                return f"quarantined: {reason}"
            played = self._saved(now)
            if played:
                report = "; ".join([report, *played])
        return report

    def _saved(self, now: float) -> list[str]:
        """The run's changes saved; then a seat a bot plays decides as soon
        as its decision is due (:mod:`.bots`): what the bots did."""
        self.ledger.save()
        faults.point("saved")
        played = self.bots.play(now)
        if played:
            self.ledger.save()
        return played

    def _receive(self, raw: bytes, now: float, archived_before: bool, size: int) -> str:
        settings = self.ledger.settings
        letter = mailin.read(raw, settings.referee, size, words=commands.words())
        if letter.ignored:
            self._bounce(letter, now)
            return f"ignored a mail from {letter.sender or 'nobody'}: {letter.ignored}"
        mid = letter.message_id or mailin.fallback_id(raw)
        key = "re-" + hashlib.sha256(mid.encode()).hexdigest()[:20]
        if mid in settings.seen or mid in settings.accepted:
            return self._again(letter, mid, key, archived_before)
        said = mailin.content_id(letter)
        if said and said in settings.accepted:
            # The same mail under another Message-ID (delivered again by a
            # relay or a list): never played again, nor a vote withdrawn since cast again.
            self.changes.seen(mid)
            return self.reply(
                letter,
                "this mail was received before under another Message-ID (the same sender, date and lines); "
                "it is not played again",
                key="again-" + key[3:],
            )
        self.changes.seen(mid)
        # Remembered with the Message-ID once the sender is proved (:meth:`.change.Changes.accepted`).
        self.changes.content_id = said
        refused = self._not_this_games(letter, key, now)
        if refused is not None:
            return refused
        if letter.has("claim"):
            # A substitute's claim to a seat on offer: its token is its proof.
            taken = self.seats.claim(letter, mid, key, now)
            if isinstance(taken, Refused):
                return self.reply(letter, taken.why, key=key, echo=taken.proven, now=None if taken.proven else now)
            return taken
        master = settings.master
        if master and letter.sender == master.lower() and not letter.values("player"):
            return self._master_mail(letter, mid, key, now)
        player, problem = self._who(letter)
        if problem:
            named = letter.values("player")
            passed = self.seat_passed(letter, named[0][1].strip() if named else None, key, now)
            return passed or self.reply(letter, problem, key=key, now=now)
        refused = self._secret_refused(letter, player, key, now)
        if refused is not None:
            return refused
        self.changes.accepted(mid)
        return self._player_mail(letter, player, mid, key, now)

    def posted(self, reader: str, lines: list[tuple[str, str]], post: str, now: float | None = None) -> Posted:
        """A post from ``reader``'s turn page (a seat, :data:`.pages.MASTER`,
        a substitute offered a seat), its token checked by the server as a
        mail's secret is checked here: run as the mail with these ``lines``
        (key, value) from the reader's address, through the same commands,
        journal, log and mails. ``post`` names it (drawn by the page): the
        same post again (a browser that sends it twice, a post sent again
        after the server died) is never run twice. The answers a mail would
        get are the page's: kept in ``shown/``, not mailed; what the others
        are mailed is as for a mail."""
        now = time.time() if now is None else now
        directory = self.ledger.dir
        mid = f"<page.{post}@{self.ledger.settings.game_id}>"
        key = "re-" + hashlib.sha256(mid.encode()).hexdigest()[:20]
        with directory.locked():
            self.changes.begin(now)
            settings = self.ledger.settings
            if mid in settings.accepted:
                return Posted("this was sent before and handled then; it is not done again", [])
            offer = pages.offer_of(settings, reader) if reader.startswith(pages.OFFER) else None
            if reader == pages.MASTER:
                address = settings.master or ""
            elif reader in settings.players:
                address = self.ledger.address(reader)
            elif offer is not None:
                address = offer["address"]
            else:
                return Posted("the page's reader has no say in this game", [])
            letter = mailin.Letter(address.lower(), mid, lines=tuple((n, k, v) for n, (k, v) in enumerate(lines, 1)))
            self.changes.seen(mid)
            if offer is not None:
                # The claim a mail makes, the page's token its proof; its answers are mailed as a
                # claim's are (the seat's new secret among them: a page shows no secret).
                taken = self.seats.claim(letter, mid, key, now, offer=offer)
                report = self.reply(letter, taken.why, key=key, echo=True) if isinstance(taken, Refused) else taken
                self._saved(now)
                return Posted(report, [])
            self.changes.accepted(mid)
            if reader == pages.MASTER:
                report = self._master_lines(letter, key, now)
            else:
                report = self._player_mail(letter, reader, mid, key, now)
            self._saved(now)
            answers = directory.shown_answers(key, address)
        return Posted(report, answers)

    def _again(self, letter: mailin.Letter, mid: str, key: str, archived_before: bool) -> str:
        """A mail handled before: these very bytes say nothing; a copy
        delivered again (another relay's) is told it is not played again."""
        if archived_before:
            return f"this very message ({mid}) was handled before; nothing to do"
        played = self.ledger.settings.played.get(mid)
        text = (
            f"this mail ({mid}) was already played (up to event {played}); it is not played again"
            if played
            else f"this mail ({mid}) was received before and answered then; it is ignored this time"
        )
        return self.reply(letter, text, key="again-" + key[3:], echo=False)

    def _not_this_games(self, letter: mailin.Letter, key: str, now: float) -> str | None:
        """Why the mail goes no further (another game's, passed over; one the
        referee cannot read, or for no game or another, answered), or None."""
        elsewhere = self._elsewhere(letter)
        if elsewhere:
            self.passed_over = True
            return (
                f"passed over a mail from {letter.sender} for game '{elsewhere}': another game's, left to its referee"
            )
        if letter.problem:
            return self.reply(letter, letter.problem, key=key, now=now)
        game_id = self.ledger.settings.game_id
        games = letter.values("game")
        if len(games) != 1:
            return self.reply(letter, "say which game, once: a line 'game: " + game_id + "'", key=key, now=now)
        if games[0][1].strip().lower() != game_id.lower():
            return self.reply(
                letter, f"line {games[0][0]}: not this game (this referee runs '{game_id}')", key=key, now=now
            )
        return None

    def _secret_refused(self, letter: mailin.Letter, player: str, key: str, now: float) -> str | None:
        """Why the mail in ``player``'s name is refused, answered: no secret,
        too many wrong ones from its sender this hour, or a wrong one (the
        player told of a stranger's); None when its secret is theirs."""
        secrets = letter.values("secret")
        own = letter.sender == self.ledger.address(player).lower()
        if not secrets:
            if not own:
                self.alert(player, letter, now)
            return self.reply(
                letter, "no secret: add a line 'secret: ...' with the secret you were sent", key=key, now=now
            )
        stored = self.ledger.players[player]["secret"]
        if self.secrets.guessed_enough(letter.sender, stored, now):
            return self.reply(
                letter,
                f"too many wrong secrets from {letter.sender} this hour; this mail's secret was not checked and "
                "nothing was played: try again later, with the secret from your first mail",
                key=key,
                now=now,
            )
        if not passwords.matches(secrets[0][1], stored):
            passed = self.seat_passed(letter, player, key, now)
            if passed is not None:
                return passed
            self.secrets.wrong_guess(letter.sender, player, now)
            if not own:
                self.alert(player, letter, now)
            why = f"line {secrets[0][0]}: wrong secret for {player}; nothing was played"
            if own:
                why += "\n\n  Use the secret from your first mail (a mistyped one is refused like this)."
            return self.reply(letter, why, key=key, now=now)
        return None

    def seat_passed(self, letter: mailin.Letter, seat: str | None, key: str, now: float) -> str | None:
        """A mail with the secret of a seat's former holder (the seat handed
        to another address by ``replace`` or a claim), naming the seat or
        from the address that held it: answered that the seat passed on,
        and nothing more (not to whom, nor anything of the game); None
        when the mail is no such one. The secret is its proof: a wrong one
        costs no slow hash (:func:`.passwords.matches`)."""
        secrets = letter.values("secret")
        if not secrets:
            return None
        for former in reversed(self.ledger.settings.former or []):
            ours = former["seat"] == seat if seat else former["address"].lower() == letter.sender
            if not ours or (
                not passwords.tagged(former["secret"])
                and self.secrets.guessed_enough(letter.sender, former["secret"], now)
            ):
                continue
            if passwords.matches(secrets[0][1], former["secret"]):
                seat = former["seat"]
                if self.ledger.address(seat).lower() == letter.sender:
                    # The seat's own address with a secret it had before (replace to the same person).
                    why = f"line {secrets[0][0]}: that secret is an old one of {seat}'s: use the one of your last welcome mail"
                else:
                    why = (
                        f"line {secrets[0][0]}: {seat}'s seat in this game was handed to another address, and "
                        "this secret no longer works: the seat is no longer yours"
                    )
                return self.reply(letter, why + "; nothing was played", key=key, now=now)
        return None

    def _elsewhere(self, letter: mailin.Letter) -> str | None:
        """The game a mail is for when it is another game's: its ``game:`` line
        or its Subject's tag names another game, and neither names this one.
        Several games may share the referee's mailbox: each leaves the
        others' mail alone (no answer, no count against anyone)."""
        ours = self.ledger.settings.game_id.lower()
        named = [value.strip() for _, value in letter.values("game")] + list(letter.tags)
        if not named or any(name.lower() == ours for name in named):
            return None
        return one_line(named[0])[:40]

    def _who(self, letter: mailin.Letter) -> tuple[str, str | None]:
        players = self.ledger.players
        by_address = [p for p, data in players.items() if data["address"].lower() == letter.sender]
        named = letter.values("player")
        if named:
            player = named[0][1].strip()
            if player not in players:
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
        if self.ledger.settings.ended:
            return self.reply(letter, "the game was ended by the game master", key=key, echo=True)
        mail = commands.Mail(letter, player, mid, key, now)
        return "; ".join(command.run(self.referee, mail) for command in commands.asked(letter))

    def _master_mail(self, letter: mailin.Letter, mid: str, key: str, now: float) -> str:
        secrets = letter.values("secret")
        stored = self.ledger.settings.master_secret
        if not secrets or not stored or self.secrets.guessed_enough(letter.sender, stored, now):
            return self.reply(
                letter, "the game master's mail needs the master's secret: a line 'secret: ...'", key=key, now=now
            )
        if not passwords.matches(secrets[0][1], stored):
            self.secrets.wrong_guess(letter.sender, "(master)", now)
            return self.reply(
                letter, "the game master's mail needs the master's secret: a line 'secret: ...'", key=key, now=now
            )
        self.changes.accepted(mid)
        return self._master_lines(letter, key, now)

    def _master_lines(self, letter: mailin.Letter, key: str, now: float) -> str:
        """Run the game master's commands a mail (or the master's page) gives, in order."""
        done = []
        try:
            for _, name, value in letter.lines:
                command = commands.master_command(name)
                if command is None:
                    continue
                stamp = key if name == "help" else f"{name}-{time.time_ns()}"
                done.append(commands.run_master(self.referee, name, now, stamp, **command.arguments(value)))
        except TabletopError as exc:
            done.append(f"refused: {exc.message}")
        if not done:
            self.letters.mail_master(
                "Game master commands", mailout.master_help(self.ledger.settings.game_id), key=key + "-help"
            )
            return "the game master asked for help"
        self.letters.mail_master("Done", "\n".join(done) + "\n", key=key + "-done")
        return "game master: " + "; ".join(done)

    def _limited(self, table: str, who: str, now: float, per_day: int = 1) -> bool:
        """Whether ``who`` had ``per_day`` answers of this kind (``answered``,
        ``alerted``) today (then none now)."""
        settings = self.ledger.settings
        counts = getattr(settings, table)
        day = int(now // DAY)
        entry = counts.get(who)
        if entry and entry[0] == day and entry[1] >= per_day:
            return True
        count = entry[1] + 1 if entry and entry[0] == day else 1
        counts[who] = [day, count]
        if len(counts) > 5000:  # forget yesterday's strangers
            setattr(settings, table, {k: v for k, v in counts.items() if v[0] == day})
        return False

    def alert(self, player: str, letter: mailin.Letter, now: float) -> None:
        """A mail from another address without the right secret for
        ``player``: the player hears of it (once a day). A wrong secret from
        the player's own address is only answered (a mistyped secret is no
        forgery); many of them reach the game master (:meth:`.passwords.Secrets.wrong_guess`)."""
        if of(self.ledger.settings, player) or self._older or self._limited("alerted", player, now):
            return  # (a seat a bot plays reads no mail)
        body = (
            f"A mail from {letter.sender} tried to play as you, {player}, without your secret.\n"
            "Nothing was played. If it was not you, keep your secret to yourself;\n"
            "if it was you, use the secret from your first mail. (You hear of such mails once a day at most.)"
        )
        self.ledger.dir.queue(
            mailout.message(self.ledger.settings, self.ledger.address(player), "A move was tried in your name", body)
        )

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
        if not echo and self._older:
            return f"not answered {letter.sender} (the mail is older than the game): {problem.splitlines()[0]}"
        known = any(d["address"].lower() == letter.sender for d in self.ledger.players.values())
        if (
            not echo
            and now is not None
            and self._limited("answered", letter.sender, now, ANSWERS_A_DAY if known else 1)
        ):
            return f"not answered {letter.sender} again today: {problem.splitlines()[0]}"
        body = [f"Your mail could not be played; nothing was changed.\n\n  {problem}\n"]
        if match is not None and player is not None:
            body.append(self.letters.ask(match, player))
        settings = self.ledger.settings
        body.append(mailout.syntax(settings.game_id, "..."))
        self.ledger.dir.queue(
            mailout.message(settings, letter.sender, "Not played", "\n".join(body), reply_to=letter.message_id or None),
            key=key,
        )
        return f"answered {letter.sender}: {problem.splitlines()[0]}"

    def _bounce(self, letter: mailin.Letter, now: float) -> None:
        """A delivery report naming a player's address: the game master hears
        of it (once a day). A report older than the game, or about another
        game's mail (its tag, not this game's), is not this game's to tell."""
        settings = self.ledger.settings
        if not letter.report or not settings.master or self._older:
            return
        text = letter.report.lower()
        games = _games_reported(letter.report)
        if games and settings.game_id.lower() not in games:
            return
        for player, data in settings.players.items():
            if data["address"].lower() in text and not self._limited("alerted", "bounce:" + player, now):
                self.letters.mail_master(
                    f"Mail to {player} bounced",
                    f"A delivery report says mail to {data['address']} ({player}) could not be delivered.\n"
                    "Replace the address if it is gone: 'replace: PLAYER NEW-ADDRESS'.\n",
                )
