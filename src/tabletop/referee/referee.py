"""The referee: starts a game by mail, plays the moves mailed in, mails every
player their own view, keeps the deadlines, answers the game master.

This module makes a game (:func:`init`) and puts the referee together
from collaborators, each an object owning one concern in a module of its
own, handed what it needs when the referee is made:

- :class:`.ledger.Ledger`: the game's folder, its settings record (:mod:`.settings`), its log;
- :class:`.clock.Clock`: whose decision is due since when, each moment in its reader's zone;
- :class:`.letters.Letters`: mail out, composed (views, notes, the welcome, the end);
- :class:`.observers.Observers`: observers added to a game under way;
- :class:`.passwords.Secrets`: wrong secrets counted, new ones handed out and mailed;
- :class:`.change.Changes`: a change to the game as one recoverable step;
- :class:`.seats.Seats`: missed deadlines, civil disorder, seats offered and claimed;
- :class:`.bots.Bots`: the bot that plays a seat, and the late bot;
- :class:`.deadlines.Deadlines`: reminders, late notices, the late bot's turn;
- :class:`.inbox.Inbox`: mail in: routing, the secret, the limits, the answers.

Votes (:mod:`.votes`), conditional moves (:mod:`.conditionals`) and what
stands beside the game (:mod:`.notices`) are functions of the settings;
the commands of a mail (:mod:`.commands`) are run on the referee. The
referee's own methods are the runs a command line asks for (a mail, a
tick, a game master's command, a change of settings, the status).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..base.errors import UsageError
from ..host.registry import Registry
from ..log import logfile
from ..log.header import Header, check_players
from ..model.events import Event
from ..play.engine import Match
from ..play.live import make_header, seed_file, settle
from . import bots, botseats, commands, mailin, mailout, pages, passwords
from . import observers as watchers
from .asked import check_settings
from .bots import Bots
from .change import Changes
from .clock import Clock, check_zone
from .commands.move import plan
from .commands.resign import resign
from .deadlines import Deadlines
from .gamedir import GameDir, check_owned, one_line, write_private
from .inbox import Inbox
from .ledger import Ledger
from .letters import Letters, joined, waiting_for
from .observers import Observers
from .passwords import Secrets
from .seats import Seats
from .settings import (
    ACCEPTED_KEPT,
    ANSWERS_A_DAY,
    DAY,
    GAME_ID,
    GUESSES_A_DAY,
    GUESSES_AN_HOUR,
    HOUR,
    LISTED,
    LISTED_ALL,
    PICTURES,
    SEEN_KEPT,
    Settings,
    read,
)
from .status import Status

__all__ = [
    "ACCEPTED_KEPT",
    "ANSWERS_A_DAY",
    "DAY",
    "GUESSES_AN_HOUR",
    "GUESSES_A_DAY",
    "HOUR",
    "LISTED",
    "LISTED_ALL",
    "PICTURES",
    "SEEN_KEPT",
    "Referee",
    "Settings",
    "check_settings",
    "init",
    "plan",
    "resign",
    "waiting_for",
]


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
    vote_majority: str = "all",
    civil_disorder: int | None = None,
    substitutes: Sequence[str] = (),
    observers: Sequence[str] = (),
    page_url: str | None = None,
) -> dict[str, str]:
    """Create a game directory; return each player's secret (also mailed to
    them), and the master's under the key ``"(master)"``. Everything is
    checked before the folder is made. A player's address ``bot:SPEC`` seats
    a bot (:mod:`.bots`); ``observers`` get the game as any onlooker may
    see it (:mod:`.observers`)."""
    path = Path(path)
    _check_folder(path)
    names = _check_seats(registry, game, players)
    watching = _check_observers(observers, players)
    zones = _check_zones(zones or {}, names)
    settings: dict[str, Any] = {
        "game_id": game_id if game_id is not None else path.name,
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
        "vote_majority": vote_majority,
        "civil_disorder": civil_disorder,
        "substitutes": list(substitutes),
        "page_url": page_url,
        # When the game began: mail that reached a shared mailbox before is not its.
        "created": int(time.time()),
    }
    _check_asked(settings, registry)
    header, seed, _ = make_header(registry, game, names, variants, options or {}, sealed=True)
    match = Match(registry, header)
    settings["thread"] = f"{match.game.title or match.game.name}: {', '.join(names)}"
    directory = _write_folder(path, registry, header, seed, settle(match, seed))
    secrets = _hand_out_secrets(settings, players, zones)
    ref = Referee(registry, directory, read(settings, directory.settings_file))
    _welcome(ref, match, players, secrets, watching)
    return secrets


def _check_folder(path: Path) -> None:
    """The game's folder: new, or empty and the referee's own."""
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(f"{path}: the folder exists and is not empty")
    if path.exists():
        check_owned(path)


def _check_seats(registry: Registry, game: str, players: Sequence[tuple[str, str]]) -> list[str]:
    """The players' names, once each seat's address is checked: a bot the
    game has, or one plain address no other player has; a person in one
    seat at least."""
    names = [name for name, _ in players]
    check_players(names)
    addresses = set()
    for name, address in players:
        if botseats.spec(address) is not None:
            bots.check(registry, game, name, address)
            continue
        if not mailin.valid_address(address):
            raise UsageError(f"--player {name}={one_line(address)}: not a single mail address")
        if address.lower() in addresses:
            raise UsageError(f"--player {name}={address}: the address is another player's too")
        addresses.add(address.lower())
    if all(botseats.spec(address) is not None for _, address in players):
        raise UsageError("--player: every seat is a bot's; a game by mail needs one person at least")
    return names


def _check_observers(observers: Sequence[str], players: Sequence[tuple[str, str]]) -> list[str]:
    """The observers' addresses, each checked against the players' and the others'."""
    watching: list[str] = []
    for address in observers:
        watching.append(watchers.check(address, {n: {"address": a} for n, a in players}, watching, "--observer"))
    return watching


def _check_zones(zones: dict[str, str], names: list[str]) -> dict[str, str]:
    """The players' time zones, each a player's and a zone this system knows."""
    for name, zone in zones.items():
        if name not in names:
            raise UsageError(f"--tz {one_line(name)}=...: not a player of this game ({', '.join(names)})")
        check_zone(name, zone)
    return dict(zones)


def _check_asked(settings: dict[str, Any], registry: Registry) -> None:
    """The pictures, the game's name, then what :func:`.asked.check_settings` checks."""
    pictures, game_id = settings["pictures"], settings["game_id"]
    if pictures not in PICTURES:
        raise UsageError(f"--pictures '{one_line(pictures)}': one of {', '.join(PICTURES)}")
    if not GAME_ID.match(game_id):
        raise UsageError(f"--id '{one_line(game_id)}': a game's name is letters, digits, '.', '_' or '-' (at most 40)")
    check_settings(settings, registry)


def _write_folder(path: Path, registry: Registry, header: Header, seed: str, events: list[Event]) -> GameDir:
    """The game's folder made, with its secret seed and its sealed log."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        directory = GameDir(path)
        write_private(seed_file(directory.log), seed + "\n")
        lines = registry.codec.log(header, events)
        # The log holds hidden draws: players see it whole only at the end.
        logfile.create(directory.log, lines, mode=0o600)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the game folder ({exc.strerror})") from None
    return directory


def _hand_out_secrets(
    settings: dict[str, Any], players: Sequence[tuple[str, str]], zones: dict[str, str]
) -> dict[str, str]:
    """A secret for each person's seat and the game master, stored in
    ``settings`` as hashes with the players' and the mail state's records;
    the secrets themselves, to be mailed."""
    secrets = {name: passwords.new_secret() for name, _ in players}
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
    for name, address in players:
        if botseats.spec(address) is not None:
            del secrets[name]  # a bot's seat has a secret nobody was given: a mail in its name is a stranger's
    if settings["master"]:
        secrets["(master)"] = passwords.new_secret()
        settings["master_secret"] = passwords.store(secrets["(master)"])
    return secrets


def _welcome(
    ref: Referee, match: Match, players: Sequence[tuple[str, str]], secrets: dict[str, str], watching: list[str]
) -> None:
    """The first mails of a new game: a bot to decide first decides, then
    each person is welcomed with their secret and view, the game master
    with theirs and the help, each observer with the game so far."""
    ref.clock.refresh_due(match, time.time())
    if any(botseats.spec(address) is not None for _, address in players):
        # A bot to decide first decides before anyone is mailed: the welcomes show it.
        ref.ledger.save()
        ref.letters.holding = True
        ref.bots.play(time.time())
        ref.letters.holding = False
        match = ref.ledger.replay()
    settings = ref.settings
    log = ref.ledger.read_log(settings.game)
    held = settings.held_notes or []
    settings.held_notes = None
    for name, _ in players:
        if name in secrets:
            ref.letters.queue_view(
                match, name, welcome=secrets[name], note=joined(held, name), log=log, key=f"welcome-{name}", first=True
            )
    if settings.master:
        names = ", ".join(name for name, _ in players)
        ref.letters.mail_master(
            "You are the game master",
            f"You are the game master of game '{settings.game_id}' ({match.game.title or match.game.name}) "
            f"for {names}.\n\nYour secret: {secrets['(master)']}\n"
            "Put it in every mail you send to the referee; it is stored only as a hash.\n\n"
            + (
                f"Your page, with these commands:\n  {page}\n\n"
                if (page := pages.link(ref.dir, settings, pages.MASTER))
                else ""
            )
            + mailout.master_help(settings.game_id),
            key="welcome-master",
            first=True,
        )
    for number, address in enumerate(watching):
        ref.observers.welcome(address, f"welcome-observer-{number}", note=joined(held, None))
    ref.ledger.save()


class Referee:
    """One game by mail: its collaborators, and the runs a command line asks
    for, each under the game's lock (a mail received, a tick, a game
    master's command, settings changed) or reading it (the status)."""

    def __init__(self, registry: Registry, directory: GameDir, settings: Settings) -> None:
        ledger = self.ledger = Ledger(registry, directory, settings)
        self.clock = Clock(ledger)
        self.letters = Letters(ledger, self.clock)
        self.observers = Observers(ledger, self.letters)
        self.secrets = Secrets(ledger, self.letters)
        self.changes = Changes(ledger, self.letters, self.clock, self.secrets)
        self.seats = Seats(ledger, self.letters, self.changes)
        self.bots = Bots(ledger, self.changes)
        self.deadlines = Deadlines(ledger, self.clock, self.letters, self.seats, self.bots)
        self.inbox = Inbox(ledger, self.changes, self.letters, self.secrets, self.seats, self.bots, self)
        self.status_report = Status(ledger, self.clock, self.bots)

    @classmethod
    def open(cls, registry: Registry, path: Path) -> Referee:
        directory = GameDir(path)
        return cls(registry, directory, directory.load())

    @property
    def settings(self) -> Settings:
        return self.ledger.settings

    @property
    def dir(self) -> GameDir:
        return self.ledger.dir

    def replay(self) -> Match:
        """The game as the log has it now."""
        return self.ledger.replay()

    def read_log(self, game: str) -> tuple[list[tuple[int, Event]], str]:
        """The log's events and its chain head (see :meth:`.ledger.Ledger.read_log`)."""
        return self.ledger.read_log(game)

    def mail_to(
        self, player: str, subject: str, body: str, key: str | None, letter: mailin.Letter | None = None
    ) -> None:
        """A note to ``player`` (a command's answer to its sender's mail: ``letter``)."""
        self.letters.mail_to(player, subject, body, key, letter)

    # -- the runs ----------------------------------------------------------------------
    def receive(
        self, raw: bytes, now: float | None = None, size: int | None = None, arrived: float | None = None
    ) -> str:
        """Handle one raw message (see :meth:`.inbox.Inbox.receive`): a one-line report."""
        return self.inbox.receive(raw, now, size, arrived)

    @property
    def passed_over(self) -> bool:
        """Whether the last mail received was another game's, left to its referee."""
        return self.inbox.passed_over

    def tick(self, now: float | None = None) -> list[str]:
        """Reminders, late notices and (if set) a bot's decision for the late."""
        now = time.time() if now is None else now
        done: list[str] = []
        with self.dir.locked():
            self.changes.begin(now)
            done += self.bots.play(now)  # a seat a bot plays, due since a run cut short
            if not self.settings.paused and not self.settings.ended:
                for _ in range(100):  # a bot's decision may make another one due
                    if not self.deadlines.keep(now, done):
                        break
                done += self.bots.play(now)  # due after the late bot's decision
            self.ledger.save()
        return done

    def locked_master(self, command: str, **kwargs: Any) -> str:
        """A game master's command from the command line (``player``,
        ``seconds``, ``address``, ``addresses`` as it takes them); a one-line report."""
        now = time.time()
        given = {k: v for k, v in kwargs.items() if v is not None}
        with self.dir.locked():
            self.changes.begin(now)
            report = commands.run_master(self, command, now, f"{command}-{time.time_ns()}", **given)
            self.ledger.save()
            played = self.bots.play(now)  # a bot due once the game resumed, or its seat handed back
            self.ledger.save()
        return "; ".join([report, *played])

    def set(self, changes: dict[str, Any]) -> list[str]:
        """Change settings after init (SMTP server, deadlines, ...), checked first."""
        with self.dir.locked():
            self.changes.begin(time.time())
            changes = dict(changes)
            zone = changes.pop("tz", None)
            new = {**self.settings.to_json(), **changes}
            check_settings(new, self.ledger.registry)
            players = self.settings.players
            if zone is not None:
                name, value = zone
                if name not in players:
                    raise UsageError(f"tz={one_line(name)}=...: not a player of this game ({', '.join(players)})")
                players[name]["tz"] = check_zone(name, value) if value else None
                changes["tz"] = f"{name}={value or 'UTC'}"
            if new.get("pictures", "png") not in PICTURES:
                raise UsageError(f"pictures '{one_line(str(new['pictures']))}': one of {', '.join(PICTURES)}")
            self.ledger.settings = read(new, self.dir.settings_file)
            page = pages.link(self.dir, self.settings, pages.MASTER) if "page_url" in changes else None
            if page:
                # The players' next mails carry their links; the game master hears of theirs now.
                self.letters.mail_master(
                    "Your page", f"The game's pages are served at {self.settings.page_url}.\n\nYours:\n  {page}\n"
                )
            self.ledger.save()
        return [f"{k} = {v}" for k, v in changes.items()]

    def report_refused(self, refused: list[tuple[str, str, str]]) -> None:
        """Mails the SMTP server refused for good: the game master hears of each."""
        if not refused or not self.settings.master:
            return
        with self.dir.locked():
            self.changes.begin(time.time())
            master = (self.settings.master or "").lower()
            lines = [
                f"  {name}: to {rcpts}: {one_line(reason)}"
                for name, rcpts, reason in refused
                if master not in rcpts.lower()
            ]
            if lines:
                self.letters.mail_master(
                    "Mail could not be delivered",
                    "The SMTP server refused these mails for good (kept in undeliverable/):\n"
                    + "\n".join(lines)
                    + "\n",
                    key="refused-" + hashlib.sha256("".join(lines).encode()).hexdigest()[:16],
                )
            self.ledger.save()

    # -- what the referee can say of the game, from the command line
    def history(self, player: str) -> str:
        """The game as ``player`` may see it (what ``history`` mails them)."""
        from .commands import history

        return history.text(self, player)

    def status_data(self) -> dict[str, Any]:
        """The status as data: ``pbem status --json``."""
        return self.status_report.data()

    def status(self) -> list[str]:
        """The status, a line each: ``pbem status``."""
        return self.status_report.lines()
