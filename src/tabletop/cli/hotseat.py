"""``tabletop play FILE`` without a move: hot-seat play at one screen.

Each round shows the board as the player to decide may see it, numbers their
legal decisions and reads a number or a decision in notation; the decision is
appended to the log (with what follows it) exactly as ``play FILE MOVE`` does,
so the log on disk is always the game so far. In a game at a real table the
chance outcomes are asked for the same way. ``undo`` cuts the last decision
when nothing hidden has come out since.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from .. import logfile
from ..engine import Match, Replay
from ..errors import TabletopError, UsageError
from ..events import CHANCE, DECISION, Event, Reveal, Seal, Unseal
from ..nodes import Chance, Decide
from ..registry import Registry
from ..table import at_the_table, notation, possible
from .adding import add
from .common import status

#: How many decisions are numbered on screen; the rest are played in notation.
LISTED = 30
HELP = (
    "Type a number or a decision in notation. Other commands: "
    "moves (list them all), undo (take back the last decision), help, quit."
)


def hot_seat(registry: Registry, file: Path, seed_path: Path | None, color: bool) -> None:
    """Play the log at ``file`` at this screen until the game ends or input does."""
    click.echo(f"{file}: hot-seat play. {HELP}")
    show_all = False
    while True:
        match = Replay(registry, file).run()
        who = _who(match)
        click.echo("")
        click.echo(match.game.render(match.state, who, color), color=color)
        click.echo(status(match, who))
        if match.over:
            return
        choices = _choices(match, who)
        if choices is None:
            raise UsageError(f"{status(match)} Nobody can decide here: the game needs its seed", where=str(file))
        shown = choices if show_all else choices[:LISTED]
        for number, text in enumerate(shown, start=1):
            click.echo(f"  {number:>3}. {text}")
        if len(choices) > len(shown):
            click.echo(f"  ... and {len(choices) - len(shown)} more: type one in notation, or 'moves' to list them")
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
            click.echo(HELP)
            continue
        if word == "moves":
            show_all = True
            continue
        if word == "undo":
            _report(undo, registry, file)
            continue
        if line.isdigit():
            index = int(line) - 1
            if not 0 <= index < len(choices):
                click.echo(f"No decision {line}: choose 1 to {len(choices)}.")
                continue
            line = choices[index]
        added = _report(add, registry, file, line, who, seed_path)
        if added is not None:
            after, events, _ = added
            # Shown as the next player to sit here may see it: a draw into the
            # hand of the one who just played stays hidden.
            first, watching = after.seq - len(events) + 1, _who(after)
            for seq, event in enumerate(events, start=first):
                click.echo(f"{seq}. {after.describe(event, watching)}")


def _report(action, *args):
    """Run ``action(*args)``; a mistake is said and play goes on (the log is unchanged)."""
    try:
        return action(*args)
    except TabletopError as exc:
        click.echo(f"Not played: {exc.message}")
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
    click.echo(f"Undone: {cut} (and the {len(events) - last - 1} events after it).")
    return cut


def truncate(handle, keep: int) -> None:
    """Cut the log open in ``handle`` after its first ``keep`` lines, on disk at once."""
    handle.seek(0)
    size = 0
    for _ in range(keep):
        size += len(handle.readline())
    handle.truncate(size)
    handle.flush()
    os.fsync(handle.fileno())
