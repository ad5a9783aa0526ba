"""The game a referee keeps: its folder (:mod:`.gamedir`), its settings
record (:mod:`.settings`) and its log. Every collaborator of the
:class:`~.referee.Referee` is handed the ledger: the record is read again
under the lock at the start of each run (:meth:`Ledger.reload`), so each
reads ``ledger.settings`` when it needs it, never a copy kept from before."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..host.registry import Registry
from ..log import chain, files, logfile
from ..model.events import Event
from ..play.engine import Match, Replay
from ..play.live import seed_file
from .gamedir import GameDir
from .settings import MAX_SEED, Player, Settings

if TYPE_CHECKING:
    from typing import IO


class Ledger:
    def __init__(self, registry: Registry, directory: GameDir, settings: Settings) -> None:
        self.registry = registry
        self.dir = directory
        self.settings = settings

    def reload(self) -> None:
        """The record as the file has it (under the lock, at the start of a run)."""
        self.settings = self.dir.load()

    def save(self) -> None:
        self.dir.save(self.settings)

    @property
    def players(self) -> dict[str, Player]:
        return self.settings.players

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

    def replay(self, handle: IO[bytes] | None = None) -> Match:
        return Replay(self.registry, self.dir.log, handle).run()
