"""The referee's mails, composed: each player's view (the news since their
last mail, the board as text and as pictures, what is asked of them, the
chain head), an observer's view (what every seat may see: :data:`.seen.PUBLIC`),
the welcome, the final mail, and the short notes to a player, to everyone,
or to the game master.

Each view is written twice, as text and as HTML (:mod:`.html`), from the
same parts: the HTML shows the board as a picture in the mail, the text
board in monospace and the legal decisions as a list. A note about a change
(``note``) is the same for everyone, or a mapping: ``""`` for everyone, and a
player's own wording under their name ("Your move 5@a1 was played.")."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

import attrs

from ..base.errors import TabletopError
from ..log.secretfile import SecretKeeper
from ..model.events import CHANCE, DECISION, Event, Seal, Unseal
from ..model.nodes import Decide, Over
from ..play.engine import Match
from ..sight import seen
from . import bots, botseats, faults, mailin, mailout, notices, observers, pages
from . import html as layout
from .conditionals import answered_note
from .settings import LISTED

if TYPE_CHECKING:
    from .clock import Clock
    from .ledger import Ledger

#: A note about a change: the same text for all, or ``{"": for all, PLAYER: theirs}``.
Note = str | Mapping[str, str]
#: The content id of the board's picture in a mail's HTML part.
BOARD_CID = "board@tabletop"


@attrs.frozen
class Asked:
    """What a view says is asked of its reader, in parts: the text and the
    HTML are both written from it."""

    question: str
    why: str = ""
    secret: str = ""
    legal: tuple[str, ...] = ()
    more: str = ""
    deadline: float | None = None
    turn: bool = False

    def text(self, when: str) -> str:
        if not self.turn:
            return self.question
        shown = "\n".join(f"  {d}" for d in self.legal)
        more = f"\n  {self.more}" if self.more else ""
        due = f"\nDeadline: {when}." if self.deadline else ""
        why = f"\n{self.why}" if self.why else ""
        secret = f"\n{self.secret}" if self.secret else ""
        return f"{self.question}{why}{secret}\nYour legal decisions:\n{shown}{more}{due}"

    def html(self, when: str) -> str:
        if not self.turn:
            return layout.waiting(self.question)
        utc = datetime.fromtimestamp(self.deadline, timezone.utc).strftime("%Y-%m-%dT%H:%MZ") if self.deadline else ""
        return layout.asked(
            self.question,
            why=self.why,
            secret=self.secret,
            deadline=when if self.deadline else "",
            deadline_utc=utc,
            legal=self.legal,
            more=self.more,
        )


def note_for(note: Note | None, reader: str | None) -> str:
    """The note as ``reader`` reads it (None or an observer: the one for all)."""
    if not note:
        return ""
    if isinstance(note, str):
        return note
    return (note.get(reader) if reader else None) or note.get("", "")


def joined(notes: Sequence[Note], reader: str | None) -> str:
    """Several changes' notes (a change held for a bot's, then the bot's) as ``reader`` reads them."""
    return " ".join(filter(None, (note_for(note, reader) for note in notes)))


def played_note(game: Any, player: str, events: Sequence[Event], answered: Sequence[str] = ()) -> dict[str, str]:
    """The note for a mail of ``player``'s that was played: the others read
    that it was; ``player`` reads what was played ("Your move 5@a1 was
    played."); ``answered``: whose conditional moves the change played
    (see :func:`answered_note`)."""
    mine = [e for e in events if e.origin == DECISION and getattr(e, "player", None) == player]
    shown = []
    for event in mine:
        if isinstance(event, (Seal, Unseal)):
            continue
        try:
            shown.append(game.notate(event))
        except (TabletopError, NotImplementedError):
            shown.append(event.kind)
    said = []
    if shown:
        many = len(shown) > 1
        said.append(f"Your move{'s' if many else ''} {', '.join(shown)} {'were' if many else 'was'} played.")
    if any(isinstance(e, Seal) for e in mine):
        if any(isinstance(e, Unseal) for e in mine):
            said.append("Your secret decision was sealed; every player's is in, so all are revealed.")
        else:
            said.append("Your secret decision was sealed: it is revealed once every player has made theirs.")
    mover = " ".join(said or ["Your mail was played."])
    return answered_note({"": f"{player}'s mail was played.", player: mover}, answered)


class Letters:
    """The referee's mails, composed and queued in the game's outbox."""

    def __init__(self, ledger: Ledger, clock: Clock) -> None:
        self.ledger = ledger
        self.clock = clock
        #: While set, a change's mails wait (its note kept) for the bot's decision that follows (:func:`.bots.due`).
        self.holding = False
        #: An observer's board, drawn once for all the observers' mails of one change; the final viewer page.
        self._public_drawn: tuple | None = None
        self._final_page: tuple | None = None

    def mail_to(
        self, player: str, subject: str, body: str, key: str | None, letter: mailin.Letter | None = None
    ) -> None:
        if botseats.of(self.ledger.settings, player):
            return  # a seat a bot plays reads no mail
        self.ledger.dir.queue(
            mailout.message(
                self.ledger.settings,
                self.ledger.address(player),
                subject,
                body,
                reply_to=letter.message_id if letter is not None and letter.message_id else None,
            ),
            key=key,
        )

    def mail_others(self, player: str, subject: str, body, key: str) -> None:
        """A note to every player but ``player``, queued under ``key`` and their
        name; ``body`` is the text, or makes each reader's own."""
        for other in self.ledger.players:
            if other != player:
                self.mail_to(other, subject, body(other) if callable(body) else body, key + other)

    def mail_master(self, subject: str, body: str, key: str | None = None, first: bool = False) -> None:
        master = self.ledger.settings.master
        if master:
            self.ledger.dir.queue(mailout.message(self.ledger.settings, master, subject, body, first=first), key=key)

    def mail_all(self, subject: str, body: str, stamp: str) -> None:
        """A note to every player, each queued under ``stamp`` and their
        name, and to every observer: told alike to every seat, it is no
        seat's secret (a pause, the game ended, a player in civil disorder)."""
        for player in self.ledger.players:
            self.mail_to(player, subject, body + "\n", f"{stamp}-{player}")
        for watcher in observers.listed(self.ledger.settings):
            self.ledger.dir.queue(
                mailout.message(self.ledger.settings, watcher["address"], subject, body + "\n"),
                key=observers.key(stamp, watcher),
            )

    def after_change(self, match: Match, now: float, note: Note = "", key: str | None = None) -> None:
        """Mail everyone their view after a change; none when a bot decides at
        once (:func:`.bots.due`): its change mails this one's news and note too."""
        self.clock.refresh_due(match, now)
        settings = self.ledger.settings
        notes = [*(settings.held_notes or []), note]
        if self.holding or bots.due(settings, match):
            settings.held_notes = notes
            return
        settings.held_notes = None
        log = self.ledger.read_log(match.header.game)
        for player in match.header.players:
            said = joined(notes, player)
            self.queue_view(match, player, note=said, log=log, key=f"{key}-{player}" if key else None)
            faults.point(f"view:{player}")
        for watcher in observers.listed(self.ledger.settings):
            said = joined(notes, seen.PUBLIC)
            self.queue_watch(match, watcher, note=said, log=log, key=observers.key(key, watcher))

    def queue_view(
        self,
        match: Match,
        player: str,
        *,
        welcome: str | None = None,
        note: Note = "",
        resend: bool = False,
        log: tuple[list[tuple[int, Event]], str] | None = None,
        key: str | None = None,
        first: bool = False,
    ) -> None:
        """Mail ``player`` their own view: the events since their last mail, the
        board, what is asked of them, the chain head."""
        if botseats.of(self.ledger.settings, player):
            return  # a seat a bot plays reads no mail: the bot is handed the seat's view
        events, head = log or self.ledger.read_log(match.header.game)
        data = self.ledger.players[player]
        since = 0 if resend else data["mailed"]
        text: list[str] = []
        html: list[str] = []
        if welcome:
            said = self._welcome(match, player, welcome)
            text.append(said)
            html += layout.from_text(said)
        self._news_and_notices(match, player, events, since, note_for(note, player), text, html)
        subject = self._subject(match, player, welcome is not None)
        page = pages.link(self.ledger.dir, self.ledger.settings, player)
        mail = self._view_mail(match, player, events, head, text, html, data["address"], subject, first, page)
        self.ledger.dir.queue(mail, key=key)
        data["mailed"] = max(data["mailed"], match.seq)

    def queue_watch(
        self,
        match: Match,
        watcher: dict[str, Any],
        *,
        welcome: bool = False,
        note: str = "",
        log: tuple[list[tuple[int, Event]], str] | None = None,
        key: str | None = None,
    ) -> None:
        """Mail an observer the game as a watcher with no seat may know it
        (:data:`tabletop.sight.seen.PUBLIC`): what every seat may see, never more;
        and at the end the whole log, as every player gets it."""
        events, head = log or self.ledger.read_log(match.header.game)
        since = 0 if welcome else int(watcher.get("mailed") or 0)
        text: list[str] = []
        html: list[str] = []
        if welcome:
            said = self._welcome_watcher(match)
            text.append(said)
            html += layout.from_text(said)
        self._news_and_notices(match, seen.PUBLIC, events, since, note, text, html)
        subject = ("Welcome. " if welcome else "") + self._watch_subject(match)
        page = pages.link(self.ledger.dir, self.ledger.settings, pages.OBSERVER + watcher["address"])
        mail = self._view_mail(match, seen.PUBLIC, events, head, text, html, watcher["address"], subject, welcome, page)
        self.ledger.dir.queue(mail, key=key)
        watcher["mailed"] = max(since, match.seq)

    def _view_mail(
        self,
        match: Match,
        viewer: str | None,
        events: list[tuple[int, Event]],
        head: str,
        text: list[str],
        html: list[str],
        address: str,
        subject: str,
        first: bool,
        page: str | None = None,
    ) -> Any:
        """The view mail of ``viewer`` (a player, or :data:`tabletop.sight.seen.PUBLIC`):
        ``text`` and ``html`` so far, then what is asked, the board and the rest.
        ``page``: the reader's turn page, linked (:mod:`.pages`)."""
        asked = self._asked(match, viewer, events)
        when = self.clock.when(asked.deadline, viewer) if asked.deadline and viewer is not None else ""
        attachments, inline, width = self._board_pictures(match, viewer)
        said = (asked.text(when), asked.html(when))
        if page is not None:
            label = "Your page: the board, the history, your decisions" if viewer != seen.PUBLIC else "The game's page"
            said = (f"{said[0]}\n\n{label}:\n  {page}", said[1] + "\n" + layout.page_link(page, label))
        self._board_and_more(match, viewer, said, head, width, text, html)
        if page is not None and inline:
            # The picture stays in the mail (read on a phone offline, it is the part shown in
            # place, and an attachment to mail programs that show the text); the SVG and a second
            # copy of the PNG go: the page draws the board at any size.
            attachments = []
        self._at_the_end(match, text, html, attachments, linked=page is not None)
        return mailout.message(
            self.ledger.settings,
            address,
            subject,
            "\n\n".join(text) + "\n",
            attachments=tuple(attachments),
            first=first,
            html=layout.page(subject, html),
            inline=inline,
        )

    def _news_and_notices(
        self,
        match: Match,
        reader: str,
        events: list[tuple[int, Event]],
        since: int,
        note: str,
        text: list[str],
        html: list[str],
    ) -> None:
        """The note, what happened since ``reader``'s last mail, and what
        stands at the table (votes open, deadlines missed)."""
        if note:
            text.append(note)
            html.append(layout.paragraph(note))
        news = [(seq, self._news(match, event, reader)) for seq, event in events if seq > since]
        if news:
            title = "So far:" if since == 0 else "Since your last mail:"
            text.append(title + "\n" + "\n".join(f"  {seq}. {said}" for seq, said in news))
            html.append(layout.news(title.rstrip(":"), news))
        for paragraph in notices.for_view(self.ledger.settings, match, None if reader == seen.PUBLIC else reader):
            text.append(paragraph)
            html += layout.from_text(paragraph)

    def _board_and_more(
        self,
        match: Match,
        reader: str,
        asked: tuple[str, str],
        head: str,
        width: int | None,
        text: list[str],
        html: list[str],
    ) -> None:
        """The board as text, what is asked, the chain head: the text in
        that order; the HTML puts the picture first, then what is asked,
        then the text board in monospace."""
        board = seen.text(match.game, match.state, reader)
        kept = (
            f"Log head after event {match.seq}: {head}\n"
            f"Keep it: 'tabletop verify game.jsonl --head {head}' proves later that the log still extends it."
        )
        text += [board, asked[0], kept]
        if self._has_picture(match):
            alt = "The board" + ("" if reader == seen.PUBLIC else f" as {reader} sees it")
            html.append(layout.picture(BOARD_CID, alt, width))
        html += [asked[1], layout.heading("The board as text"), layout.preformatted(board), layout.small(kept)]

    def _at_the_end(
        self, match: Match, text: list[str], html: list[str], attachments: list, linked: bool = False
    ) -> None:
        """Once the game is over: the scores, the seed, the whole log and the
        viewer (``linked``: the reader's page steps through the game, and the
        mail carries the log alone)."""
        if not isinstance(match.node, Over):
            return
        final = self._final(match, linked)
        text.append(final)
        html += layout.from_text(final)
        attachments.append(("game.jsonl", "application/x-ndjson", self.ledger.dir.log.read_text(encoding="utf-8")))
        if not linked:
            attachments.append(("game.html", "text/html", self._viewer_page(match)))

    def _board_pictures(self, match: Match, reader: str) -> tuple[list, tuple, int | None]:
        """The attachments (the PNG, the SVG), the picture the HTML shows in
        place (the PNG where there is one: many mail programs show no SVG)
        and how wide it is drawn (the SVG's width)."""
        if not self._has_picture(match):
            return [], (), None
        attachments = self._pictures(match, reader)
        _, media_type, data = attachments[0]
        svg = attachments[-1][2]
        found = re.search(r'<svg\b[^>]*?\swidth="(\d{1,5})(?:px)?"', svg[:4000]) if isinstance(svg, str) else None
        return attachments, ((BOARD_CID, media_type, data),), int(found.group(1)) if found else None

    def _news(self, match: Match, event: Event, player: str) -> str:
        """One event as ``player`` may see it; their own sealed choice is shown back to them."""
        text = match.describe(event, seen.told(match.game, event, player))
        if getattr(event, "kind", "") == "seal" and event.player == player:  # type: ignore[attr-defined]
            mine = SecretKeeper(self.ledger.dir.log).secrets.get(player)
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
            f"Welcome to {game.title or game.name}{variants}, game '{self.ledger.settings.game_id}'. "
            f"You play {player}, against {others}.\n\n"
            f"Your secret: {secret}\n"
            "Put it in every mail you send; keep it to yourself. It is stored only as a hash,\n"
            "and this mail's copy on the referee's side has it blacked out.\n\n"
            + mailout.syntax(self.ledger.settings.game_id, self._example(match, player))
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

    def ask(self, match: Match, player: str, events: list[tuple[int, Event]] | None = None) -> str:
        """What is asked of ``player`` now, as a mail's text says it."""
        asked = self._asked(match, player, events)
        return asked.text(self.clock.when(asked.deadline, player) if asked.deadline else "")

    def _asked(self, match: Match, player: str, events: list[tuple[int, Event]] | None = None) -> Asked:
        """What is asked of ``player`` now, in parts (:class:`Asked`); an
        observer (:data:`tabletop.sight.seen.PUBLIC`) is told who the game waits for."""
        node = match.node
        if isinstance(node, Over):
            return Asked("The game is over.")
        if isinstance(node, Decide) and player in node.players:
            legal = list(match.game.legal(match.state, player))
            more = (
                f"... and {len(legal) - LISTED} more (write 'legal' in a mail for the whole list)"
                if len(legal) > LISTED
                else ""
            )
            secret = "This decision is secret: it is sealed until every player has made theirs." if node.sealed else ""
            why = ""
            if events and len(node.players) == 1 and events:
                # Asked out of turn (an attack to answer): say what brought it.
                last = next(
                    (e for _, e in reversed(events) if getattr(e, "player", player) != player and e.origin != CHANCE),
                    None,
                )
                if last is not None and getattr(last, "player", None) not in (None, player):
                    why = f"After: {match.describe(last, player)}."
            return Asked(
                f"It is your turn: {seen.asks(match.game, match.state, player)}.",
                why=why,
                secret=secret,
                legal=tuple(match.game.notate(d) for d in legal[:LISTED]),
                more=more,
                deadline=self.clock.deadline_of(player),
                turn=True,
            )
        return Asked(f"Waiting for {waiting_for(match)}.")

    def _subject(self, match: Match, player: str, welcome: bool) -> str:
        node = match.node
        if isinstance(node, Over):
            return "Game over: " + match.outcome().verdict()
        prefix = "Welcome. " if welcome else ""
        if isinstance(node, Decide) and player in node.players:
            return prefix + f"Your turn: {seen.asks(match.game, match.state, player)}"
        return prefix + f"Waiting for {waiting_for(match)}"

    def _watch_subject(self, match: Match) -> str:
        if isinstance(match.node, Over):
            return "Game over: " + match.outcome().verdict()
        return f"Now: {waiting_for(match)}"

    def _welcome_watcher(self, match: Match) -> str:
        game = match.game
        commitment = match.header.randomness.commitment
        variants = f" with {', '.join(match.header.variants)}" if match.header.variants else ""
        return (
            f"You are watching {game.title or game.name}{variants}, game '{self.ledger.settings.game_id}', "
            f"between {', '.join(match.header.players)}.\n\n"
            "After every turn you get the game as anyone at the table may see it: no player's hidden\n"
            "chips, draws, hands or secret choices, only what every player may see. When the game is\n"
            "over, the last mail brings the whole log.\n\n"
            "You play no part and have no secret: the referee takes no commands from you.\n\n"
            "Every draw, shuffle and roll comes from a secret seed, sealed until the end.\n"
            f"Its hash: {commitment}"
        )

    def _has_picture(self, match: Match) -> bool:
        return (match.header.game, "svg") in self.ledger.registry.renderers

    def _picture(self, match: Match, player: str) -> tuple[str, str]:
        renderer = self.ledger.registry.renderer(match.header.game, "svg")
        return renderer.media_type, seen.picture(renderer, match.game, match.state, player)

    def _pictures(self, match: Match, player: str) -> list[tuple[str, str, str | bytes]]:
        """The board as the mail programs show it (a PNG, where the png extra
        is installed), and as SVG (sharp at any size) beside it. An
        observer's are drawn once for every observer's mail of one change."""
        if player != seen.PUBLIC:
            return self._draw(match, player)
        cached = self._public_drawn
        if cached is None or cached[0] != (id(match), match.seq):
            cached = self._public_drawn = ((id(match), match.seq), self._draw(match, seen.PUBLIC))
        return list(cached[1])

    def _draw(self, match: Match, player: str) -> list[tuple[str, str, str | bytes]]:
        media_type, svg = self._picture(match, player)
        found: list[tuple[str, str, str | bytes]] = []
        if self.ledger.settings.pictures == "png":
            from ..sight.pictures import png

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
        cached = self._final_page
        if cached is None or cached[0] != match.seq:
            from ..viewer.page import page

            cached = self._final_page = (match.seq, page(self.ledger.registry, self.ledger.dir.log))
        return cached[1]

    def _final(self, match: Match, linked: bool = False) -> str:
        outcome = match.outcome()
        scores = ", ".join(f"{p} {s}" for p, s in outcome.ranked())
        seed = match.seed or self.ledger.seed()
        return (
            f"Final scores: {scores}; {outcome.verdict()}.\n\n"
            f"The seed was: {seed}\n"
            f"Its hash, sent to you at the start: {match.header.randomness.commitment}\n"
            + (
                "The whole log is attached, and your page steps through it in a browser.\n"
                if linked
                else "The whole log is attached, and game.html steps through it in a browser.\n"
            )
            + "To check every draw, shuffle and roll, and\n"
            "that it is the history you were sent, run:\n\n"
            "    tabletop verify game.jsonl --head (a head from any of your mails)"
        )


def waiting_for(match: Match) -> str:
    """Who the game waits for (only who: what another player is asked may show their hidden hand)."""
    node = match.node
    if isinstance(node, Decide):
        return " and ".join(f"{p} to decide" for p in node.players)
    return "nobody"
