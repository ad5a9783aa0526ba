"""The referee: starts a game by mail, plays the moves mailed in, mails every
player their own view, keeps the deadlines, answers the game master.

This module makes a game (:func:`init`) and puts the referee together;
each job is a module of its own:

- :mod:`.settings`: the bounds, and the check of a game's settings;
- :mod:`.change`: a change to the game as one recoverable step;
- :mod:`.inbox`: mail in: routing, the secret, the limits, the answers;
- :mod:`.commands`: one module per player's or game master's command;
- :mod:`.letters`: the mails, composed;
- :mod:`.clock`: deadlines, reminders, the late bot, time zones.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import chain, files, logfile
from ..engine import Match, Replay
from ..errors import UsageError
from ..events import Event
from ..header import check_players
from ..live import make_header, seed_file, settle
from ..nodes import Decide, Over
from ..registry import Registry
from . import bots, commands, mailin, mailout, notices, passwords
from . import observers as add_observer
from .change import Changes
from .clock import Clock, check_zone, when
from .commands.move import plan
from .commands.resign import resign
from .gamedir import GameDir, check_owned, one_line, write_private
from .inbox import Inbox
from .letters import Letters, joined, waiting_for
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
    MAX_SEED,
    PICTURES,
    SEEN_KEPT,
    check_settings,
)

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
) -> dict[str, str]:
    """Create a game directory; return each player's secret (also mailed to
    them), and the master's under the key ``"(master)"``. Everything is
    checked before the folder is made. A player's address ``bot:SPEC`` seats
    a bot (:mod:`.bots`); ``observers`` get the game as any onlooker may
    see it (:mod:`.observers`)."""
    path = Path(path)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(f"{path}: the folder exists and is not empty")
    if path.exists():
        check_owned(path)
    names = [name for name, _ in players]
    check_players(names)
    addresses = set()
    for name, address in players:
        if bots.spec(address) is not None:
            bots.check(registry, game, name, address)
            continue
        if not mailin.valid_address(address):
            raise UsageError(f"--player {name}={one_line(address)}: not a single mail address")
        if address.lower() in addresses:
            raise UsageError(f"--player {name}={address}: the address is another player's too")
        addresses.add(address.lower())
    if all(bots.spec(address) is not None for _, address in players):
        raise UsageError("--player: every seat is a bot's; a game by mail needs one person at least")
    watching: list[str] = []
    for address in observers:
        watching.append(add_observer.check(address, {n: {"address": a} for n, a in players}, watching, "--observer"))
    zones = dict(zones or {})
    for name, zone in zones.items():
        if name not in names:
            raise UsageError(f"--tz {one_line(name)}=...: not a player of this game ({', '.join(names)})")
        check_zone(name, zone)
    if pictures not in PICTURES:
        raise UsageError(f"--pictures '{one_line(pictures)}': one of {', '.join(PICTURES)}")
    game_id = game_id if game_id is not None else path.name
    if not GAME_ID.match(game_id):
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
        "vote_majority": vote_majority,
        "civil_disorder": civil_disorder,
        "substitutes": list(substitutes),
        # When the game began: mail that reached a shared mailbox before is not its.
        "created": int(time.time()),
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
    for name, address in players:
        if bots.spec(address) is not None:
            del secrets[name]  # a bot's seat has a secret nobody was given: a mail in its name is a stranger's
    if master:
        secrets["(master)"] = passwords.new_secret()
        settings["master_secret"] = passwords.store(secrets["(master)"])
    ref = Referee(registry, directory, settings)
    ref.refresh_due(match, time.time())
    if any(bots.spec(address) is not None for _, address in players):
        # A bot to decide first decides before anyone is mailed: the welcomes show it.
        directory.save(settings)
        ref.holding = True
        bots.play(ref, time.time())
        ref.holding = False
        match = ref.replay()
    log = ref.read_log(game)
    held = settings.pop("held_notes", [])
    for name in names:
        if name in secrets:
            ref.queue_view(
                match, name, welcome=secrets[name], note=joined(held, name), log=log, key=f"welcome-{name}", first=True
            )
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
    for number, address in enumerate(watching):
        add_observer.welcome(ref, address, f"welcome-observer-{number}", note=joined(held, None))
    directory.save(settings)
    return secrets


class Referee(Changes, Inbox, Letters, Clock):
    """One game by mail: its folder, its settings, and every job of the
    referee (each in a module of its own: :mod:`.change`, :mod:`.inbox`,
    :mod:`.commands`, :mod:`.letters`, :mod:`.clock`)."""

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
        return chain.head_of((line for _, line in logfile.read_lines(self.dir.log)), self.seed)

    def read_log(self, game: str) -> tuple[list[tuple[int, Event]], str]:
        """The log's events (already checked when appended) and its chain head,
        read once for all the mails of one change."""
        lines = [line for _, line in logfile.read_lines(self.dir.log)]
        events = [self.registry.codec.decode_line(game, line) for line in lines[1:]]
        return events, chain.head_of(lines, self.seed)

    def replay(self, handle=None) -> Match:
        return Replay(self.registry, self.dir.log, handle).run()

    def master(
        self,
        command: str,
        *,
        player: str | None = None,
        seconds: int | None = None,
        address: str | None = None,
        addresses: Sequence[str] | None = None,
        now: float | None = None,
    ) -> str:
        """A game master's command (from the command line or by mail); a one-line report."""
        now = time.time() if now is None else now
        given = (("player", player), ("seconds", seconds), ("address", address), ("addresses", addresses))
        kwargs = {k: v for k, v in given if v is not None}
        return commands.run_master(self, command, now, f"{command}-{time.time_ns()}", **kwargs)

    def locked_master(self, command: str, **kwargs: Any) -> str:
        now = time.time()
        with self.dir.locked():
            self._begin(now)
            report = self.master(command, now=now, **kwargs)
            self.dir.save(self.settings)
            played = bots.play(self, now)  # a bot due once the game resumed, or its seat handed back
            self.dir.save(self.settings)
        return "; ".join([report, *played])

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

    # -- what the referee can say of the game, from the command line
    def _history(self, player: str) -> str:
        from .commands import history

        return history.text(self, player)

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
            **notices.as_data(self, match),
            "bots": bots.seated(self, match),
            "observers": len(add_observer.listed(self)),
        }
        if isinstance(node, Over):
            outcome = match.outcome()
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
            by = "the players' vote" if self.settings.get("paused_by") == "vote" else "the game master"
            lines.append(f"paused by {by}")
        node = match.node
        if isinstance(node, Over):
            outcome = match.outcome()
            lines.append("over: " + ", ".join(f"{p} {sc}" for p, sc in outcome.ranked()) + "; " + outcome.verdict())
        elif isinstance(node, Decide):
            for player in node.players:
                deadline = self.deadline_of(player)
                due = f", due {when(deadline)}" if deadline else ""
                lines.append(f"waiting for {player}{due}")
        lines += notices.for_status(self, match)
        lines += [
            f"{seat} is played by the bot '{bot['bot']}' ({bot['decisions']} decision{'s' * (bot['decisions'] != 1)})"
            for seat, bot in bots.seated(self, match).items()
        ]
        if add_observer.listed(self):
            lines.append(f"observers: {len(add_observer.listed(self))}")
        lines.append(f"outbox: {len(self.dir.waiting())} mail(s) waiting")
        if self.dir.undeliverable.is_dir():
            lines.append(f"undeliverable: {len(list(self.dir.undeliverable.glob('*.eml')))} mail(s)")
        if self.dir.quarantine_dir.is_dir():
            lines.append(f"quarantined: {len(list(self.dir.quarantine_dir.glob('*.eml')))} message(s)")
        lines.append(f"chain head: {self.head()}")
        return lines
