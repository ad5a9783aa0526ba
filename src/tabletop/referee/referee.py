"""The referee: starts a game by mail, plays the moves mailed in, mails every
player their own view, keeps the deadlines."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import chain, logfile
from ..engine import Match, Replay
from ..errors import TabletopError, UsageError
from ..events import Event
from ..header import check_players
from ..live import decide, make_header, seed_file, settle
from ..nodes import Decide, Over
from ..registry import Registry
from ..secretfile import SecretKeeper
from . import mailin, mailout, passwords
from .gamedir import GameDir, write_private

#: How many legal decisions a mail lists before it says how many more there are.
LISTED = 40


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
    game_id: str | None = None,
) -> dict[str, str]:
    """Create a game directory; return each player's secret (also mailed to them)."""
    path = Path(path)
    if path.exists() and any(path.iterdir()):
        raise UsageError(f"{path}: the folder exists and is not empty")
    names = [name for name, _ in players]
    check_players(names)
    for name, address in players:
        if "@" not in address:
            raise UsageError(f"--player {name}={address}: not a mail address")
    if late_bot is not None:
        registry.bot(late_bot, game)
    header, seed = make_header(registry, game, names, variants, options or {}, sealed=True)
    match = Match(registry, header)
    events = settle(match, seed)
    path.mkdir(parents=True, exist_ok=True)
    directory = GameDir(path)
    write_private(seed_file(directory.log), seed + "\n")
    lines = registry.codec.log(header, events)
    # The log holds hidden draws: players see it whole only at the end.
    logfile.create(directory.log, lines, mode=0o600)
    secrets = {name: passwords.new_secret() for name in names}
    settings: dict[str, Any] = {
        "game_id": game_id or path.name,
        "game": game,
        "referee": referee,
        "smtp": smtp,
        "deadline": deadline,
        "remind": remind,
        "late_bot": late_bot,
        "grace": grace,
        "players": {
            name: {"address": address, "secret": passwords.store(secrets[name]), "mailed": 0}
            for name, address in players
        },
        "seen": [],
        "due": None,
    }
    ref = Referee(registry, directory, settings)
    ref.refresh_due(match, time.time())
    log = ref.read_log(game)
    for name in names:
        ref.queue_view(match, name, welcome=secrets[name], log=log)
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
        return seed_file(self.dir.log).read_text().strip()

    def head(self) -> str:
        return chain.head_of(line for _, line in logfile.read_lines(self.dir.log))

    def read_log(self, game: str) -> tuple[list[tuple[int, Event]], str]:
        """The log's events (already checked when appended) and its chain head,
        read once for all the mails of one change."""
        lines = [line for _, line in logfile.read_lines(self.dir.log)]
        events = [self.registry.codec.decode_line(game, line) for line in lines[1:]]
        return events, chain.head_of(lines)

    # -- mail in ---------------------------------------------------------------
    def receive(self, raw: bytes, now: float | None = None) -> str:
        """Handle one raw message; a one-line report of what was done."""
        now = time.time() if now is None else now
        self.dir.keep(raw)
        with self.dir.locked():
            self.settings = self.dir.load()
            report = self._receive(raw, now)
            self.dir.save(self.settings)
        return report

    def _receive(self, raw: bytes, now: float) -> str:
        letter = mailin.read(raw, self.settings["referee"])
        if letter.ignored:
            return f"ignored a mail from {letter.sender or 'nobody'}: {letter.ignored}"
        seen = self.settings["seen"]
        if letter.message_id and letter.message_id in seen:
            return self.reply(letter, f"this mail ({letter.message_id}) was received before; it is ignored this time")
        if letter.message_id:
            seen.append(letter.message_id)
            del seen[:-2000]
        if letter.problem:
            return self.reply(letter, letter.problem)
        games = letter.values("game")
        if len(games) != 1:
            return self.reply(letter, "say which game, once: a line 'game: " + self.settings["game_id"] + "'")
        if games[0][1] != self.settings["game_id"]:
            return self.reply(
                letter,
                f"line {games[0][0]}: unknown game '{games[0][1]}' (this referee runs '{self.settings['game_id']}')",
            )
        player, problem = self._who(letter)
        if problem:
            return self.reply(letter, problem)
        secrets = letter.values("secret")
        if not secrets:
            self.alert(player, letter)
            return self.reply(letter, "no secret: add a line 'secret: ...' with the secret you were sent")
        if not passwords.matches(secrets[0][1], self.players[player]["secret"]):
            self.alert(player, letter)
            return self.reply(letter, f"line {secrets[0][0]}: wrong secret for {player}; nothing was played")
        moves = letter.values("move")
        with logfile.locked(self.dir.log) as handle:
            match = Replay(self.registry, self.dir.log, handle).run()
            if not moves:
                self.queue_view(match, player, note="Here is the game as it stands.", resend=True)
                return f"{player} asked for the game as it stands"
            keeper = SecretKeeper(self.dir.log)
            first = match.seq + 1
            events: list[Event] = []
            for number, text in moves:
                problem = self._play(match, player, text, events, keeper)
                if problem:
                    return self.reply(
                        letter,
                        f"line {number}: {text!r}: {problem}",
                        match=Replay(self.registry, self.dir.log, handle).run(),
                        player=player,
                    )
            lines = [self.registry.codec.encode(first + i, e) for i, e in enumerate(events)]
            with keeper.saving():
                logfile.append(handle, lines)
        # The moves themselves are in each player's list of events, redacted
        # for them (a sealed choice must not be echoed to the others).
        self.after_change(match, now, note=f"{player}'s mail was played.")
        return f"played {len(moves)} decision(s) of {player}: {len(events)} events appended"

    def _who(self, letter: mailin.Letter) -> tuple[str, str | None]:
        by_address = [p for p, data in self.players.items() if data["address"].lower() == letter.sender]
        named = letter.values("player")
        if named:
            player = named[0][1]
            if player not in self.players:
                return "", f"line {named[0][0]}: '{player}' is not a player of this game"
            if by_address and player not in by_address:
                return (
                    "",
                    f"line {named[0][0]}: a move for another player: {letter.sender} plays {by_address[0]}, not {player}",
                )
            return player, None
        if not by_address:
            return "", f"{letter.sender} is not a player's address; add a line 'player: NAME'"
        return by_address[0], None

    def _play(self, match: Match, player: str, text: str, events: list[Event], keeper: SecretKeeper) -> str | None:
        node = match.node
        if isinstance(node, Over):
            return "the game is over"
        if not isinstance(node, Decide) or player not in node.players:
            return f"not your turn: {self._waiting_for(match)}"
        try:
            decision = match.game.parse(text, player, match.state)
            events += decide(match, decision, self.seed(), keeper.secrets)
        except TabletopError as exc:
            return exc.message
        return None

    def alert(self, player: str, letter: mailin.Letter) -> None:
        """A wrong secret: the registered player hears of it too."""
        if letter.sender == self.address(player).lower():
            return
        body = (
            f"A mail from {letter.sender} tried to play as you, {player}, without your secret.\n"
            "Nothing was played. If it was not you, keep your secret to yourself;\n"
            "if it was you, use the secret from your first mail."
        )
        self.dir.queue(mailout.message(self.settings, self.address(player), "A move was tried in your name", body))

    def reply(self, letter: mailin.Letter, problem: str, match: Match | None = None, player: str | None = None) -> str:
        """Answer a bad mail: what is wrong, and the legal decisions if it was the sender's turn."""
        body = [f"Your mail could not be played; nothing was changed.\n\n  {problem}\n"]
        if match is not None and player is not None:
            body.append(self._ask(match, player))
        body.append(mailout.syntax(self.settings, "..."))
        subject = f"Not played: {letter.subject}" if letter.subject else "Not played"
        self.dir.queue(
            mailout.message(self.settings, letter.sender, subject, "\n".join(body), reply_to=letter.message_id or None)
        )
        return f"answered {letter.sender}: {problem}"

    # -- mail out ------------------------------------------------------------------
    def after_change(self, match: Match, now: float, note: str = "") -> None:
        self.refresh_due(match, now)
        log = self.read_log(match.header.game)
        for player in match.header.players:
            self.queue_view(match, player, note=note, log=log)

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
        news = [f"  {seq}. {match.describe(event, player)}" for seq, event in events if seq > since]
        if news:
            parts.append("Since your last mail:\n" + "\n".join(news))
        parts.append(game.render(match.state, player))
        parts.append(self._ask(match, player))
        parts.append(
            f"Log head after event {match.seq}: {head}\n"
            f"Keep it: 'tabletop verify game.jsonl --head {head}' proves later that the log still extends it."
        )
        attachments = [("board.svg", *self._picture(match, player))] if self._has_picture(match) else []
        if isinstance(match.node, Over):
            parts.append(self._final(match))
            attachments.append(("game.jsonl", "application/x-ndjson", self.dir.log.read_text(encoding="utf-8")))
        subject = self._subject(match, player, welcome is not None)
        mail = mailout.message(
            self.settings, data["address"], subject, "\n\n".join(parts) + "\n", attachments=tuple(attachments)
        )
        self.dir.queue(mail)
        data["mailed"] = match.seq

    def _welcome(self, match: Match, player: str, secret: str) -> str:
        game = match.game
        others = ", ".join(p for p in match.header.players if p != player)
        commitment = match.header.randomness.commitment
        variants = f" with {', '.join(match.header.variants)}" if match.header.variants else ""
        return (
            f"Welcome to {game.title or game.name}{variants}, game '{self.settings['game_id']}'. "
            f"You play {player}, against {others}.\n\n"
            f"Your secret: {secret}\n"
            "Put it in every mail you send; keep it to yourself. It is stored only as a hash.\n\n"
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
        node = match.node
        if isinstance(node, Decide):
            # What another player is asked may show their hidden hand: only who.
            return " and ".join(f"{p} to decide" for p in node.players)
        return "nobody"

    def _ask(self, match: Match, player: str) -> str:
        node = match.node
        if isinstance(node, Over):
            return "The game is over."
        if isinstance(node, Decide) and player in node.players:
            legal = list(match.game.legal(match.state, player))
            shown = "\n".join(f"  {match.game.notate(d)}" for d in legal[:LISTED])
            more = f"\n  ... and {len(legal) - LISTED} more" if len(legal) > LISTED else ""
            deadline = self.deadline_of(player)
            due = f"\nDeadline: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(deadline))}." if deadline else ""
            secret = (
                "\nThis decision is secret: it is sealed until every player has made theirs." if node.sealed else ""
            )
            return f"It is your turn: {match.game.asks(match.state, player)}.{secret}\nYour legal decisions:\n{shown}{more}{due}"
        return f"Waiting for {self._waiting_for(match)}."

    def _subject(self, match: Match, player: str, welcome: bool) -> str:
        node = match.node
        if isinstance(node, Over):
            return "Game over: " + (", ".join(match.game.outcome(match.state).winners) or "no winner") + " won"
        prefix = "Welcome. " if welcome else ""
        if isinstance(node, Decide) and player in node.players:
            return prefix + f"Your turn: {match.game.asks(match.state, player)}"
        return prefix + f"Waiting for {self._waiting_for(match)}"

    def _has_picture(self, match: Match) -> bool:
        return (match.header.game, "svg") in self.registry.renderers

    def _picture(self, match: Match, player: str) -> tuple[str, str]:
        renderer = self.registry.renderer(match.header.game, "svg")
        return renderer.media_type, renderer.render(match.game, match.state, player)

    def _final(self, match: Match) -> str:
        outcome = match.game.outcome(match.state)
        scores = ", ".join(f"{p} {s}" for p, s in outcome.ranked())
        winners = " and ".join(outcome.winners) or "nobody"
        seed = match.seed or self.seed()
        return (
            f"Final scores: {scores}. Winner: {winners}{' (' + outcome.note + ')' if outcome.note else ''}.\n\n"
            f"The seed was: {seed}\n"
            f"Its hash, sent to you at the start: {match.header.randomness.commitment}\n"
            "The whole log is attached. To check every draw, shuffle and roll, and\n"
            "that it is the history you were sent, run:\n\n"
            "    tabletop verify game.jsonl --head (a head from any of your mails)"
        )

    # -- time ----------------------------------------------------------------------
    def tick(self, now: float | None = None) -> list[str]:
        """Reminders, late notices and (if set) a bot's decision for the late."""
        now = time.time() if now is None else now
        done: list[str] = []
        with self.dir.locked():
            self.settings = self.dir.load()
            for _ in range(100):  # a bot's decision may make another one due
                if not self._tick_once(now, done):
                    break
            self.dir.save(self.settings)
        return done

    def _tick_once(self, now: float, done: list[str]) -> bool:
        deadline = self.settings.get("deadline")
        if not deadline:
            return False
        match = Replay(self.registry, self.dir.log).run()
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
                body = f"A reminder: your decision in game '{self.settings['game_id']}' is due by {_when(at)}.\n\n{self._ask(match, player)}"
                self.dir.queue(
                    mailout.message(self.settings, self.address(player), "Reminder: your decision is due", body)
                )
                done.append(f"reminded {player}")
            if now >= at and player not in due["late"]:
                due["late"].append(player)
                then = (
                    f"The bot '{bot}' decides for you after {_when(at + grace)}." if bot else "The game waits for you."
                )
                body = f"Your decision in game '{self.settings['game_id']}' was due by {_when(at)}. {then}\n\n{self._ask(match, player)}"
                self.dir.queue(
                    mailout.message(self.settings, self.address(player), "Late: your decision was due", body)
                )
                done.append(f"late notice to {player}")
            if bot and now >= at + grace:
                return self._bot_decides(match, player, bot, now, done)
        return False

    def _bot_decides(self, match: Match, player: str, bot_name: str, now: float, done: list[str]) -> bool:
        bot = self.registry.bot(bot_name, match.header.game)
        with logfile.locked(self.dir.log) as handle:
            match = Replay(self.registry, self.dir.log, handle).run()
            legal = list(match.game.legal(match.state, player))
            if not legal:
                return False
            sealed = isinstance(match.node, Decide) and match.node.sealed
            digest = hashlib.sha256(f"late {player} {match.seq} {self.seed()}".encode()).digest()
            choice = bot.choose(match.game, match.state, player, legal, random.Random(digest))
            keeper = SecretKeeper(self.dir.log)
            first = match.seq + 1
            events = decide(match, choice, self.seed(), keeper.secrets)
            lines = [self.registry.codec.encode(first + i, e) for i, e in enumerate(events)]
            with keeper.saving():
                logfile.append(handle, lines)
        text = "a secret choice" if sealed else match.game.notate(choice)
        done.append(f"{player} was late: the bot '{bot_name}' played {text}")
        self.after_change(match, now, note=f"{player} was late: the bot '{bot_name}' played {text} for {player}.")
        return True

    # -- status --------------------------------------------------------------------
    def status(self) -> list[str]:
        match = Replay(self.registry, self.dir.log).run()
        lines = [f"game '{self.settings['game_id']}' ({match.header.game}): {match.seq} events"]
        node = match.node
        if isinstance(node, Over):
            lines.append("over: " + _result(match))
        elif isinstance(node, Decide):
            for player in node.players:
                deadline = self.deadline_of(player)
                due = f", due {_when(deadline)}" if deadline else ""
                lines.append(f"waiting for {player}{due}")
        lines.append(f"outbox: {len(self.dir.waiting())} mail(s) waiting")
        lines.append(f"chain head: {self.head()}")
        return lines


def _when(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(epoch))


def _result(match: Match) -> str:
    outcome = match.game.outcome(match.state)
    return (
        ", ".join(f"{p} {s}" for p, s in outcome.ranked()) + "; winner " + (" and ".join(outcome.winners) or "nobody")
    )
