"""``tabletop play FILE`` without a move: hot-seat play at one screen.

Each round shows the board as the player to decide may see it, numbers their
legal decisions and reads a number or a decision in notation; the decision is
appended to the log (with what follows it) exactly as ``play FILE MOVE`` does,
so the log on disk is always the game so far. In a game at a real table the
chance outcomes are asked for the same way. ``undo`` cuts the last decision
when nothing hidden has come out since.

On a terminal the screen is cleared and handed over ("pass to ben, press
Enter") whenever the player to decide changes, so that nobody sees another's
hand; what went wrong is said under the board and the list, where an 80x24
screen still shows it.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from .. import logfile, snapshot
from ..engine import Match, Replay
from ..errors import NotationError, TabletopError, UsageError
from ..events import CHANCE, DECISION, Event, Reveal, Seal, Unseal
from ..nodes import Chance, Decide
from ..registry import Registry
from ..table import at_the_table, notation, possible
from .adding import add
from .common import status

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
    does. ``handover`` (default: on a terminal) clears the screen and waits
    for Enter whenever the player to decide changes."""
    if handover is None:
        handover = sys.stdin.isatty() and sys.stdout.isatty()
    click.echo(f"{file}: hot-seat play. {HELP}")
    show_all = False
    said: list[str] = []  # what to say under the board: the last events, a mistake
    last: str | None = None
    while True:
        match = snapshot.run(registry, file)
        who = _who(match)
        if handover and who is not None and last is not None and who != last and not match.over:
            click.clear()
            for line in said:  # what happened is public: the next player sees it after the hand-over
                click.echo(line)
            try:
                click.prompt(f"Pass to {who}, then press Enter", default="", show_default=False, prompt_suffix=" ")
            except click.Abort:
                click.echo("")
                return
            click.clear()
        last = who
        click.echo("")
        click.echo(match.game.render(match.state, who, color), color=color)
        if match.over:
            click.echo(status(match, who))
            return
        choices = _choices(match, who)
        if choices is None:
            raise UsageError(f"{status(match)} Nobody can decide here: the game needs its seed", where=str(file))
        shown = choices if show_all else choices[:LISTED]
        for line in columns([f"{number}. {text}" for number, text in enumerate(shown, start=1)]):
            click.echo(line)
        if len(choices) > len(shown):
            click.echo(f"  ... and {len(choices) - len(shown)} more: type one in notation, or 'moves' to list them")
        click.echo(status(match, who))
        for line in said:
            click.echo(line)
        said = []
        show_all = False
        try:
            line = click.prompt(f"{who or 'chance'}>", default="", show_default=False, prompt_suffix=" ").strip()
        except click.Abort:  # end of input (Ctrl-D)
            click.echo("")
            return
        if not line:
            continue
        word = line.lower()
        if word in ("quit", "q", "exit"):
            return
        if word in ("help", "?"):
            said.append(HELP)
            continue
        if word == "moves":
            show_all = True
            continue
        if word == "undo":
            done = _report(undo, said, registry, file)
            if done is not None:
                said.append(f"Undone: {done}.")
            continue
        if line.isdigit():
            index = int(line) - 1
            if not 0 <= index < len(choices):
                said.append(f"No decision {line}: choose 1 to {len(choices)}.")
                continue
            line = choices[index]
        try:
            added = add(registry, file, line, who, seed_path)
        except TabletopError as exc:
            said.append(f"Not played: {exc.message}")
            # A line that cannot be read at all may be a word or a decision mistyped.
            import difflib  # only for a line that is no command nor option

            guess = difflib.get_close_matches(line, [*WORDS, *choices], n=1, cutoff=0.6)
            if isinstance(exc, NotationError) and guess:
                said.append(f"Did you mean '{guess[0]}'?")
            continue
        after, events, _ = added
        # Shown as the next player to sit here may see it: a draw into the
        # hand of the one who just played stays hidden.
        first, watching = after.seq - len(events) + 1, _who(after)
        said.extend(f"{seq}. {after.describe(event, watching)}" for seq, event in enumerate(events, start=first))


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


def undo(registry: Registry, file: Path) -> str:
    """Cut the last decision, and what followed it, from the log. Refused when
    something hidden came out since (a draw into a hand): the player would
    decide again knowing it. Returns what was cut, in words."""
    with logfile.locked(file) as handle:
        replay = Replay(registry, file, handle)
        events: list[Event] = [event for _, _, event in replay]
        match = replay.match
        last = max((i for i, e in enumerate(events) if e.origin == DECISION and not isinstance(e, Seal)), default=None)
        if last is None:
            raise UsageError("no decision to undo")
        for event in events[last:]:
            if isinstance(event, (Seal, Unseal, Reveal)):
                raise UsageError("a secret decision or the seed was revealed since: undo is not possible")
        for event in events[last + 1 :]:
            if event.origin == CHANCE and not all(match.game.sees(event, p) for p in match.header.players):
                raise UsageError(
                    f"event {events.index(event) + 1} ({match.describe(event)}) is hidden information "
                    "that came out since: undo is not possible"
                )
        cut = match.describe(events[last])
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
