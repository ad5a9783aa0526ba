"""The referee's mails, composed: each player's view (the news since their
last mail, the board as text and as pictures, what is asked of them, the
chain head), the welcome, the final mail, and the short notes to a player,
to everyone, or to the game master."""

from __future__ import annotations

import hashlib
import time

from .. import seen
from ..engine import Match
from ..errors import TabletopError
from ..events import CHANCE, Event, Unseal
from ..nodes import Decide, Over
from ..secretfile import SecretKeeper
from . import faults, mailin, mailout, notices
from .gamedir import one_line
from .settings import LISTED


class Letters:
    def mail_to(self, player: str, subject: str, body: str, key: str, letter: mailin.Letter | None = None) -> None:
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

    def mail_others(self, player: str, subject: str, body, key: str) -> None:
        """A note to every player but ``player``, queued under ``key`` and their
        name; ``body`` is the text, or makes each reader's own."""
        for other in self.players:
            if other != player:
                self.mail_to(other, subject, body(other) if callable(body) else body, key + other)

    def mail_master(self, subject: str, body: str, key: str | None = None, first: bool = False) -> None:
        master = self.settings.get("master")
        if master:
            self.dir.queue(mailout.message(self.settings, master, subject, body, first=first), key=key)

    def mail_all(self, subject: str, body: str, stamp: str) -> None:
        """A note to every player, each queued under ``stamp`` and their name."""
        for player in self.players:
            self.mail_to(player, subject, body + "\n", f"{stamp}-{player}")

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

    def after_change(self, match: Match, now: float, note: str = "", key: str | None = None) -> None:
        self.refresh_due(match, now)
        log = self.read_log(match.header.game)
        for player in match.header.players:
            self.queue_view(match, player, note=note, log=log, key=f"{key}-{player}" if key else None)
            faults.point(f"view:{player}")

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
        parts.extend(notices.for_view(self, match, player))  # votes open, deadlines missed
        parts.append(seen.text(game, match.state, player))
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
            return f"It is your turn: {seen.asks(match.game, match.state, player)}.{why}{secret}\nYour legal decisions:\n{shown}{more}{due}"
        return f"Waiting for {self._waiting_for(match)}."

    def _subject(self, match: Match, player: str, welcome: bool) -> str:
        node = match.node
        if isinstance(node, Over):
            return "Game over: " + match.outcome().verdict()
        prefix = "Welcome. " if welcome else ""
        if isinstance(node, Decide) and player in node.players:
            return prefix + f"Your turn: {seen.asks(match.game, match.state, player)}"
        return prefix + f"Waiting for {self._waiting_for(match)}"

    def _has_picture(self, match: Match) -> bool:
        return (match.header.game, "svg") in self.registry.renderers

    def _picture(self, match: Match, player: str) -> tuple[str, str]:
        renderer = self.registry.renderer(match.header.game, "svg")
        return renderer.media_type, seen.picture(renderer, match.game, match.state, player)

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
        outcome = match.outcome()
        scores = ", ".join(f"{p} {s}" for p, s in outcome.ranked())
        seed = match.seed or self.seed()
        return (
            f"Final scores: {scores}; {outcome.verdict()}.\n\n"
            f"The seed was: {seed}\n"
            f"Its hash, sent to you at the start: {match.header.randomness.commitment}\n"
            "The whole log is attached, and game.html steps through it in a browser.\n"
            "To check every draw, shuffle and roll, and\n"
            "that it is the history you were sent, run:\n\n"
            "    tabletop verify game.jsonl --head (a head from any of your mails)"
        )


def waiting_for(match: Match) -> str:
    """Who the game waits for (only who: what another player is asked may show their hidden hand)."""
    node = match.node
    if isinstance(node, Decide):
        return " and ".join(f"{p} to decide" for p in node.players)
    return "nobody"
