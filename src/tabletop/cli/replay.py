"""``tabletop replay``: replay recorded games, checking every event."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click

from ..base.errors import TabletopError, UsageError, shown
from ..log import files, folders
from ..play.engine import Replay
from ..sight import seen
from .common import check_viewer, pass_env, result, status, summary
from .history import open_replay, past_the_end
from .terminal import color_option, use_color


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--as", "viewer", help="Show only what this player may know.")
@click.option("--until", type=click.IntRange(min=0), help="Stop after event SEQ.")
@click.option("--step", is_flag=True, help="Print every event in notation and the board after it.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary (one JSON object per game).")
@click.option(
    "--state",
    is_flag=True,
    help="With --json: the state as --as's player may see it (without --as, all of it), after every event with --step.",
)
@color_option
@pass_env
def replay(env, paths: tuple[Path, ...], viewer, until, step, as_json, state, color) -> None:
    """Replay logs, checking every event against the rules.

    One file: the board and whose turn it is, or the final scores and winners.
    Several files or a folder: one line per game and a total; every illegal
    game is named and the exit code is 1. FILE - reads a log from standard
    input.

    \b
    Example:
      tabletop replay replays/glux/two-players.jsonl
      tabletop replay game.jsonl --as alice --step --until 20
      tabletop replay replays/ --json
      tabletop replay game.jsonl --json --step --state --as alice
      cat game.jsonl | tabletop replay -
    """
    if state and not as_json:
        raise UsageError("--state is given with --json")
    if len(paths) == 1 and (str(paths[0]) == "-" or not paths[0].is_dir()):
        _replay_one(env, paths[0], viewer, until, step, as_json, use_color(color), state)
    else:
        if step or viewer or until is not None or state:
            raise UsageError("--step, --as, --until and --state take a single file")
        sys.exit(_replay_many(env.registry, paths, as_json))


def _replay_one(env, path: Path, viewer, until, step, as_json, color: bool, state: bool = False) -> None:
    with contextlib.ExitStack() as stack:
        run, viewer = _opened(env, path, viewer, stack)
        _show(run, path, viewer, until, step, as_json, color, state)


def _opened(env, path: Path, viewer, stack: contextlib.ExitStack):
    """The replay of ``path``, a log or one player's copy, and whose eyes it is
    seen with. The file is opened once: its first line says both the game
    (whose plugins to load) and whether it is a copy, and the replay reads
    on from the same handle."""
    from ..review.redaction import CopyReplay, begins_as_copy, first_line

    if str(path) == "-":
        return open_replay(env.registry_for_log(path), path), viewer
    try:
        handle = stack.enter_context(files.open_regular(path))
    except (OSError, TabletopError):
        # The replay says why it cannot be read, as it says any log's fault.
        return open_replay(env.registry_for(None), path), viewer
    first = first_line(handle)
    game = first.get("game") if isinstance(first, dict) else None
    registry = env.registry_for(game if type(game) is str else None)
    if begins_as_copy(first):
        # One player's copy (export --as) shows that player's view, and no one else's.
        run = CopyReplay(registry, path, handle=handle)
        return run, run.check_viewer(viewer)
    return Replay(registry, path, handle), viewer


def _show(run, path: Path, viewer, until, step, as_json, color: bool, state: bool) -> None:
    match = run.match
    check_viewer(match, viewer, where=str(path))
    game = match.game
    h = run.header
    variants = f" with {', '.join(h.variants)}" if h.variants else ""
    title = f"{game.title or h.game}: {', '.join(h.players)}{variants}"
    steps = []
    start = state_json(match, viewer) if state and step else None
    if step and not as_json:
        click.echo(title)
    for _, seq, event in run:
        if step and as_json:
            steps.append(step_json(match, seq, event, viewer))
            if state:
                steps[-1]["state"] = state_json(match, viewer)
        elif step:
            click.echo(f"\n{seq}. {match.describe(event, viewer)}")
            # After every event, as the help says: a draw changes a hand, if not the board.
            click.echo(seen.text(game, match.state, viewer, color), color=color)
        if until is not None and seq >= until:
            break
    if until is not None and match.seq < until:
        raise past_the_end(until, match)
    if as_json:
        found = dict(summary(match, str(path), viewer))
        if state:
            found["state"] = steps[-1]["state"] if steps else state_json(match, viewer)
        if start is not None:
            found["start"] = start
        if step:
            found["steps"] = steps
        click.echo(json.dumps(found, ensure_ascii=False))
        return
    if not step:
        click.echo(title)
        click.echo(seen.text(game, match.state, viewer, color), color=color)
    click.echo(f"After {match.seq} events. {status(match, viewer)}")


def step_json(match, seq: int, event, viewer: str | None) -> dict:
    """One event of ``replay --json --step``: its number, kind, origin, player and notation."""
    return {
        "seq": seq,
        "kind": event.kind,
        "origin": event.origin,
        "player": getattr(event, "player", None),
        "text": match.describe(event, viewer),
    }


def state_json(match, viewer: str | None) -> object:
    """The state now as ``viewer`` may see it (None: all of it), as JSON data."""
    from ..sight.viewdata import data

    return data(seen.view(match.game, match.state, viewer))


def _replay_many(registry, paths: tuple[Path, ...], as_json: bool) -> int:
    games = events = illegal = unreadable = 0
    for path in folders.logs(paths):
        name = path.where if isinstance(path, TabletopError) else shown(path)
        try:
            if isinstance(path, TabletopError):  # a folder that cannot be read
                raise path
            games += 1
            match = Replay(registry, path).run()
        except TabletopError as exc:
            if exc.exit_code == 1:
                illegal += 1
            else:
                unreadable += 1
            if as_json:
                click.echo(json.dumps({"file": name, "error": str(exc), "exit": exc.exit_code}))
            else:
                click.echo(f"{'ILLEGAL' if exc.exit_code == 1 else 'UNREADABLE'} {exc}")
            continue
        events += match.seq
        if as_json:
            click.echo(json.dumps(summary(match, name), ensure_ascii=False))
        else:
            done = result(match) if match.over else status(match)
            click.echo(f"ok {name}: {match.header.game}, {match.seq} events. {done}")
    if not as_json:
        click.echo(f"{games} games, {events} events; {illegal} illegal, {unreadable} unreadable.")
    if games == 0 and not unreadable:
        raise UsageError("no .jsonl logs found in " + ", ".join(map(shown, paths)))
    return 2 if unreadable else 1 if illegal else 0
