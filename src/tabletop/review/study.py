"""A study: notes, marks, variations and a bot's analysis beside a log, never in it.

A log holds what happened and nothing else (its format refuses any field it
does not define). What a player thinks of it lives in a **study file** beside
it (``game.jsonl`` has ``game.study.jsonl``), JSON Lines described by
``docs/study.schema.json``: a header naming the game, then one record a
line, appended whole as each is made, never rewritten:

- a **note**: a comment, a mark (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``),
  squares or spots to highlight and arrows, at one position;
- a **variation**: decisions legal at a position of the game (or of another
  variation) other than those played, with the chance outcomes that follow
  them drawn from a seed of the variation's own; ``more`` records continue it;
- an **analysis** (the bot and seed of a run of ``tabletop analyse``) and its
  **judgements**, one per decision: the mover's winning chance before and
  after it, and the decision the bot prefers.

Every record is anchored to a position: the line (``main``, or a variation's
id), the event number, and the hash chain's head there (:mod:`tabletop.log.chain`;
a variation's heads go on from the head where it starts, over its own event
lines). Loading a study checks every anchor against the log, every event of
every variation against the rules and its seed: a study never attaches to
another game, nor to a log rewritten since. A record at fault is one line
naming the study file's line and the record.

Whose eyes: a note or variation made as a player (``"as": "ann"``) is shown
to that player and to whoever may see everything; one made seeing everything
is shown only to whoever may see everything. A variation made as a player
is played in a world made up from that player's view (the game's
``determinize``, drawn from the variation's seed), so its legal decisions
and outcomes never tell the player what they could not know. A judgement is
shown to its mover and to whoever may see everything.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ..base.errors import UsageError
from ..host.registry import Registry
from ..log import files
from ..log.header import Header
from ..model.events import Event
from ..play.engine import Match, Replay
from . import studyfile
from .anchors import Anchors, log_heads
from .judgements import Judgements
from .notes import Notes
from .records import (
    JUDGED,
    MAIN,
    MARK_WORDS,
    MARKS,
    MAX_COMMENT,
    MAX_EVENTS,
    MAX_SPOTS,
    THRESHOLDS,
    Analysis,
    Anchor,
    Judgement,
    Note,
    Variation,
    judged,
    sees,
)
from .studyfile import SUFFIX, VERSION, StudyFile, default_path, is_same_file, is_study
from .variations import MAX_KEPT, Variations, made_up

# The names callers have always imported from here, wherever they are kept now.
__all__ = [
    "JUDGED",
    "MAIN",
    "MARK_WORDS",
    "MARKS",
    "MAX_COMMENT",
    "MAX_EVENTS",
    "MAX_KEPT",
    "MAX_SPOTS",
    "SUFFIX",
    "THRESHOLDS",
    "VERSION",
    "Analysis",
    "Anchor",
    "Judgement",
    "Note",
    "Study",
    "Variation",
    "default_path",
    "is_same_file",
    "is_study",
    "judged",
    "load",
    "made_up",
    "sees",
]


class Study(StudyFile, Anchors, Variations, Notes, Judgements):
    """A log and its study, checked against each other (:func:`load`).

    Each part is kept in a module of its own: the study file
    (:mod:`.studyfile`), the anchors (:mod:`.anchors`), the variations and
    the positions on every line (:mod:`.variations`), the notes
    (:mod:`.notes`) and the analysis (:mod:`.judgements`)."""

    def __init__(self, registry: Registry, log: Path, path: Path, header: Header, events: list[Event]) -> None:
        self.registry = registry
        self.log = Path(log)
        self.path = Path(path)
        self.header = header
        self.game = registry.game(header)
        #: The main line's events, and the chain's head after each position (0: the header).
        self.events = events
        self.heads: list[str] = []
        #: The log's bytes as they were read (what everything here is anchored to).
        self.source = b""
        self.notes: list[Note] = []
        #: The notes' ids, so that an id taken is found at once however many notes there are.
        self.note_ids: set[str] = set()
        self.variations: dict[str, Variation] = {}
        self.analyses: dict[str, Analysis] = {}
        self.judgements: dict[tuple[str, int], Judgement] = {}
        #: The study file's bytes read so far (the length of its whole lines), and its lines.
        self.size = 0
        self.lines = 0
        self._matches: dict[tuple[str, int], tuple[Any, int, str | None, dict[str, str]]] = {}
        #: A trial: what would be written is checked and taken in, and nothing is written.
        self.trial = False

    def describe(self, event: Event, viewer: str | None) -> str:
        """``event`` in the game's notation, as ``viewer`` may see it."""
        return Match(self.registry, self.header, self.game).describe(event, viewer)


def load(registry: Registry, log: Path, path: Path | None = None) -> Study:
    """The study of ``log`` (at ``path``, by default beside it: see
    :func:`default_path`), every record checked against the log; an empty
    study when there is no file yet. The log is read once and never written."""
    log = Path(log)
    path = Path(path) if path is not None else default_path(log)
    with files.open_regular(log) as handle:
        try:
            data = handle.read()
        except OSError as exc:
            raise UsageError(f"cannot read: {files.reason(exc)}", where=str(log)) from None
    replay = Replay(registry, log, io.BytesIO(data))
    events = [event for _, _, event in replay]
    study = Study(registry, log, path, replay.header, events)
    study.source = data
    study.heads = log_heads(data, log, replay.match)
    studyfile.read(study)
    return study
