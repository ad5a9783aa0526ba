"""``tabletop play FILE`` without a move: hot-seat play at one screen.

Each round shows the board as the player to decide may see it, numbers their
legal decisions and reads a number or a decision in notation; the decision is
appended to the log (with what follows it) exactly as ``play FILE MOVE`` does,
so the log on disk is always the game so far. In a game at a real table the
chance outcomes are asked for the same way. ``undo`` cuts the last decision
when nothing hidden has come out since.

On a terminal the screen and its scrollback are cleared and handed over
("pass to ben, press Enter") whenever the player to decide changes, so that
nobody sees another's hand. The board and the events are always shown as the
player at the screen may see them (see :class:`Told`); what went wrong is said
under the board and the list, where an 80x24 screen still shows it.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from ..base.errors import NotationError, TabletopError, UsageError
from ..host.registry import Registry
from ..log import logfile
from ..model.events import CHANCE, DECISION, Event, Reveal, Seal, Unseal
from ..model.nodes import Chance, Decide
from ..play import snapshot
from ..play.engine import Match, Replay
from ..play.table import at_the_table, notation, possible
from ..sight import seen
from .adding import add
from .common import status
from .terminal import wipe

#: How many decisions are numbered on screen; the rest are played in notation.
LISTED = 30
#: The words understood besides a number or a decision.
WORDS = ("moves", "undo", "help", "quit")
HELP = (
    "Type a number or a decision in notation. Other commands: "
    "moves (list them all), undo (take back the last decision), help, quit."
)


def hot_seat(registry: Registry, file: Path, seed_path: Path | None, color: bool, handover: bool | None = None) -> None:
    """Play the log at ``file`` at this screen until the game ends or input
    does. ``handover`` (default: on a terminal) clears the screen and its
    scrollback and waits for Enter whenever the player to decide changes."""
    if handover is None:
        handover = sys.stdin.isatty() and sys.stdout.isatty()
    click.echo(f"{file}: hot-seat play. {HELP}")
    screen = _Screen(registry, file, seed_path, color)
    while True:
        match = snapshot.run(registry, file)
        told = screen.follow(match)
        who = _who(match)
        # A chance outcome that concerns nobody (a die at a real table) leaves the screen where it is.
        coming = who if who is not None else screen.holder
        if handover and screen.holder is not None and coming != screen.holder and not match.over:
            if not _hand_over(match, told, screen.said, screen.holder, coming):
                return
        screen.holder = coming
        click.echo("")
        if match.over:  # a finished game is shown whole
            screen.show_end(match)
            return
        choices = screen.show(match, who)
        try:
            line = click.prompt(f"{who or 'chance'}>", default="", show_default=False, prompt_suffix=" ").strip()
        except click.Abort:  # end of input (Ctrl-D)
            click.echo("")
            return
        if not screen.answer(line, who, choices):
            return


class _Screen:
    """Hot-seat play at one screen: what it keeps from one round to the next."""

    def __init__(self, registry: Registry, file: Path, seed_path: Path | None, color: bool) -> None:
        self.registry = registry
        self.file = file
        self.seed_path = seed_path
        self.color = color
        self.show_all = False
        self.said: list[str] = []  # said to the player at the screen, under the board: a mistake, help
        self.told: Told | None = None
        self.holder: str | None = None  # whose screen it is

    def follow(self, match: Match) -> Told:
        """The events told so far, up to date with ``match``."""
        if self.told is None:
            self.told = Told(match.seq)
        self.told.cut(match.seq)  # an undo took events back
        return self.told

    def show_end(self, match: Match) -> None:
        assert self.told is not None
        click.echo(seen.text(match.game, match.state, seen.EVERYONE, self.color), color=self.color)
        for line in self.told.unread(match, self.holder):
            click.echo(line)
        click.echo(status(match, self.holder))

    def show(self, match: Match, who: str | None) -> list[str]:
        """Show the board, the choices of ``who`` and what to say; the choices."""
        assert self.told is not None
        holder = self.holder
        if holder is not None:  # else no seat has the screen yet (a die at a real table): no board to show
            click.echo(seen.text(match.game, match.state, holder, self.color), color=self.color)
        choices = _choices(match, who)
        if choices is None:
            raise UsageError(f"{status(match)} Nobody can decide here: the game needs its seed", where=str(self.file))
        shown = choices if self.show_all else choices[:LISTED]
        for line in columns([f"{number}. {text}" for number, text in enumerate(shown, start=1)]):
            click.echo(line)
        if len(choices) > len(shown):
            click.echo(f"  ... and {len(choices) - len(shown)} more: type one in notation, or 'moves' to list them")
        click.echo(status(match, holder))
        for line in [*self.told.unread(match, holder), *self.said]:
            click.echo(line)
        self.told.mark(holder, match.seq)
        self.said = []
        self.show_all = False
        return choices

    def answer(self, line: str, who: str | None, choices: list[str]) -> bool:
        """Do what ``line`` says: a word, or a decision (by its number or in
        notation) played for ``who``; False to stop playing."""
        if not line:
            return True
        word = line.lower()
        if word in ("quit", "q", "exit"):
            return False
        if word in ("help", "?"):
            self.said.append(HELP)
        elif word == "moves":
            self.show_all = True
        elif word == "undo":
            done = _report(undo, self.said, self.registry, self.file, self.holder)
            if done is not None:
                self.said.append(f"Undone: {done}.")
        elif not line.isdigit():
            self.play(line, who, choices)
        elif 0 <= int(line) - 1 < len(choices):
            self.play(choices[int(line) - 1], who, choices)
        else:
            self.said.append(f"No decision {line}: choose 1 to {len(choices)}.")
        return True

    def play(self, line: str, who: str | None, choices: list[str]) -> None:
        """Add the decision ``line`` to the log; a mistake is said, with what may have been meant."""
        assert self.told is not None
        try:
            added = add(self.registry, self.file, line, who, self.seed_path)
        except TabletopError as exc:
            self.said.append(f"Not played: {exc.message}")
            # A line that cannot be read at all may be a word or a decision mistyped.
            import difflib  # only for a line that is no command nor option

            guess = difflib.get_close_matches(line, [*WORDS, *choices], n=1, cutoff=0.6)
            if isinstance(exc, NotationError) and guess:
                self.said.append(f"Did you mean '{guess[0]}'?")
            return
        after, events, _ = added
        self.told.add(after.seq - len(events) + 1, events)


class Told:
    """The events played at this screen, and how far each player has been
    told of them in their own words.

    Each player reads the events since their own last turn, described as they
    may see them, once the screen is theirs; the screen that waits for the
    next player shows the last turn's events only as both players may see them.
    """

    def __init__(self, start: int) -> None:
        self.start = start  # the events before this session are not retold (``replay --as`` has them)
        self.events: list[tuple[int, Event]] = []
        self.read: dict[str, int] = {}

    def add(self, first: int, events: list[Event]) -> None:
        self.events.extend(enumerate(events, start=first))

    def cut(self, seq: int) -> None:
        """Forget the events after ``seq`` (taken back)."""
        self.events = [(n, e) for n, e in self.events if n <= seq]
        self.read = {p: min(n, seq) for p, n in self.read.items()}

    def mark(self, player: str | None, seq: int) -> None:
        if player is not None:
            self.read[player] = seq

    def since(self, player: str) -> list[tuple[int, Event]]:
        last = self.read.get(player, self.start)
        return [(n, e) for n, e in self.events if n > last]

    def unread(self, match: Match, player: str | None) -> list[str]:
        """The events ``player`` has not been told of, as ``player`` may see
        them (None, no seat at the screen: nothing is told)."""
        if player is None:
            return []
        return [f"{n}. {match.describe(e, player)}" for n, e in self.since(player)]

    def between(self, match: Match, leaving: str, coming: str) -> list[str]:
        """The events since ``leaving`` last had the screen, each as the one of
        the two who may see less of it sees it: what ``leaving`` drew stays
        hidden from ``coming``, and what ``coming`` drew from ``leaving``."""
        lines = []
        for n, event in self.since(leaving):
            viewer = coming if match.game.sees(event, leaving) else leaving
            lines.append(f"{n}. {match.describe(event, viewer)}")
        return lines


def _hand_over(match: Match, told: Told, said: list[str], leaving: str, coming: str) -> bool:
    """Clear the screen of ``leaving``'s view, history included, and wait for
    ``coming``; False when input ends."""
    wipe()
    for line in [*told.between(match, leaving, coming), *said]:
        click.echo(line)
    try:
        click.prompt(f"Pass to {coming}, then press Enter", default="", show_default=False, prompt_suffix=" ")
    except click.Abort:
        click.echo("")
        return False
    wipe()
    return True


def columns(items: list[str], width: int | None = None) -> list[str]:
    """``items`` in as many columns as fit the terminal, numbered down each column."""
    if not items:
        return []
    width = width or shutil.get_terminal_size((80, 24)).columns
    cell = max(map(len, items)) + 3
    across = max(1, min(len(items), (width - 2) // cell))
    down = -(-len(items) // across)
    rows = []
    for row in range(down):
        cells = [items[i] for i in range(row, len(items), down)]
        rows.append("  " + "".join(c.ljust(cell) for c in cells).rstrip())
    return rows


def _report(action, said: list[str], *args):
    """Run ``action(*args)``; a mistake is said (under the board) and play goes on (the log is unchanged)."""
    try:
        return action(*args)
    except TabletopError as exc:
        said.append(f"Not played: {exc.message}")
        return None


def _who(match: Match) -> str | None:
    """Whose screen this is: the first player to decide; at a real table, whom the chance outcome concerns."""
    node = match.node
    if isinstance(node, Decide):
        return node.players[0]
    outcomes = possible(match)
    if outcomes:
        return getattr(outcomes[0], "player", None)
    return None


def _choices(match: Match, who: str | None) -> list[str] | None:
    node = match.node
    if isinstance(node, Decide) and who is not None:
        return [match.game.notate(d) for d in match.game.legal(match.state, who)]
    if isinstance(node, Chance) and at_the_table(match.header):
        return [notation(match, o) for o in possible(match)]
    return None


def undo(registry: Registry, file: Path, viewer: str | None = None) -> str:
    """Cut the last decision, and what followed it, from the log. Refused when
    something hidden came out since (a draw into a hand): the player would
    decide again knowing it. Returns what was cut, in words; what is said of
    the events, either way, is what ``viewer`` (the player at the screen) may
    see, or (None: no seat has the screen) only their kind."""

    def said(event: Event) -> str:
        return event.kind if viewer is None else match.describe(event, viewer)

    with logfile.locked(file) as handle:
        replay = Replay(registry, file, handle)
        events: list[tuple[int, Event]] = [(seq, event) for _, seq, event in replay]
        match = replay.match
        last = max(
            (i for i, (_, e) in enumerate(events) if e.origin == DECISION and not isinstance(e, Seal)), default=None
        )
        if last is None:
            raise UsageError("no decision to undo")
        for _, event in events[last:]:
            if isinstance(event, (Seal, Unseal, Reveal)):
                raise UsageError("a secret decision or the seed was revealed since: undo is not possible")
        for seq, event in events[last + 1 :]:
            if event.origin == CHANCE and not all(match.game.sees(event, p) for p in match.header.players):
                raise UsageError(
                    f"event {seq} ({said(event)}) is hidden information that came out since: undo is not possible"
                )
        cut = said(events[last][1])
        truncate(handle, keep=last + 1)  # the header and the events before the decision
    return f"{cut} (and the {len(events) - last - 1} events after it)"


def truncate(handle, keep: int) -> None:
    """Cut the log open in ``handle`` after its first ``keep`` lines, on disk at once."""
    handle.seek(0)
    size = 0
    for _ in range(keep):
        size += len(handle.readline())
    handle.truncate(size)
    handle.flush()
    os.fsync(handle.fileno())
