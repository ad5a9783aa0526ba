"""``tabletop replay``, ``diff`` and ``verify``: reading recorded games."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .. import folders
from ..diffing import diff as diff_logs
from ..engine import Replay
from ..engine import verify as verify_log
from ..errors import CheckFailed, TabletopError, UsageError, shown
from . import main, shapes
from .common import check_viewer, pass_env, result, status, summary
from .history import open_replay, past_the_end
from .terminal import color_option, use_color


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--as", "viewer", help="Show only what this player may know.")
@click.option("--until", type=click.IntRange(min=0), help="Stop after event SEQ.")
@click.option("--step", is_flag=True, help="Print every event in notation and the board after it.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary (one JSON object per game).")
@color_option
@pass_env
def replay(env, paths: tuple[Path, ...], viewer, until, step, as_json, color) -> None:
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
      cat game.jsonl | tabletop replay -
    """
    if len(paths) == 1 and (str(paths[0]) == "-" or not paths[0].is_dir()):
        _replay_one(env.registry, paths[0], viewer, until, step, as_json, use_color(color))
    else:
        if step or viewer or until is not None:
            raise UsageError("--step, --as and --until take a single file")
        sys.exit(_replay_many(env.registry, paths, as_json))


def _replay_one(registry, path: Path, viewer, until, step, as_json, color: bool) -> None:
    run = open_replay(registry, path)
    match = run.match
    check_viewer(match, viewer)
    game = match.game
    h = run.header
    variants = f" with {', '.join(h.variants)}" if h.variants else ""
    title = f"{game.title or h.game}: {', '.join(h.players)}{variants}"
    steps = []
    if step and not as_json:
        click.echo(title)
    for _, seq, event in run:
        if step and as_json:
            steps.append(step_json(match, seq, event, viewer))
        elif step:
            click.echo(f"\n{seq}. {match.describe(event, viewer)}")
            if event.origin != "chance":
                click.echo(game.render(match.state, viewer, color), color=color)
        if until is not None and seq >= until:
            break
    if until is not None and match.seq < until:
        raise past_the_end(until, match)
    if as_json:
        found = dict(summary(match, str(path), viewer))
        if step:
            found["steps"] = steps
        click.echo(json.dumps(found, ensure_ascii=False))
        return
    if not step:
        click.echo(title)
        click.echo(game.render(match.state, viewer, color), color=color)
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


@main.command()
@click.argument("a", type=click.Path(path_type=Path))
@click.argument("b", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as one JSON object.")
@pass_env
def diff(env, a: Path, b: Path, as_json: bool) -> None:
    """Compare two logs: the common prefix, the first differing event on each
    side, and what differs in the state there and at the end.

    Exits 0 when the games are identical, 1 when they differ.

    \b
    Example:
      tabletop diff mine.jsonl theirs.jsonl
      tabletop diff mine.jsonl theirs.jsonl --json
    """
    d = diff_logs(env.registry, a, b)
    if as_json:
        shapes.emit(shapes.difference(d))
        sys.exit(0 if d.identical else 1)
    for key, va, vb in d.header:
        click.echo(f"header {key}: {va} | {vb}")
    if d.identical:
        click.echo(f"identical: {d.prefix} events")
        return
    click.echo(f"common prefix: {d.prefix} events")
    if d.first is not None:
        click.echo(f"first difference: event {d.prefix + 1}")
        for label, side in zip("AB", d.first):
            where = f"{side.path}:{side.lineno}" if side.lineno else str(side.path)
            click.echo(f"  {label} {where}: {side.text if side.text is not None else '(log ends)'}")
        _facets(f"after event {d.prefix + 1} (A | B):", d.at_first)
        _facets(f"at the end, after {d.lengths[0]} | {d.lengths[1]} events (A | B):", d.at_end)
    sys.exit(1)


def _facets(title: str, rows: list[tuple[str, str, str]]) -> None:
    click.echo(title)
    if not rows:
        click.echo("  no difference")
    for key, va, vb in rows:
        click.echo(f"  {key}: {va} | {vb}")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--head", "heads", multiple=True, help="A chain head you were sent: prove the log still extends it (repeatable)."
)
@click.option("--json", "as_json", is_flag=True, help="Print what was checked as one JSON object.")
@pass_env
def verify(env, file: Path, heads: tuple[str, ...], as_json: bool) -> None:
    """Check a log: every event legal, every chance outcome the one its seed
    gives, and (with --head) that history was not rewritten since a head you
    were sent.

    Chance outcomes are checked once the seed is known: an open seed, or a
    sealed game whose seed was revealed at the end; before that, only --head
    checks are made. Exits 1 naming the first thing that does not hold.

    \b
    Example:
      tabletop verify game.jsonl
      tabletop verify game.jsonl --head chain:3f5a...
      tabletop verify game.jsonl --json
    """
    found = []
    for head in heads:
        seq = find_head(file, head)
        found.append({"head": head, "event": seq})
        if not as_json:
            click.echo(f"{file}: head {head} is event {seq}'s: the log extends it.")
    match, checked = verify_log(env.registry, file, require_seed=not heads)
    if as_json:
        shapes.emit({"file": str(file), "events": match.seq, "legal": True, "checked": checked, "heads": found})
        return
    if checked is None:
        click.echo(f"{file}: {match.seq} events are legal; the seed is not known yet, so draws are not checked.")
        return
    click.echo(f"{file}: verified: {checked} chance outcomes match the seed; {match.seq} events are legal.")


def find_head(file: Path, head: str) -> int:
    """The event number whose chain head is ``head``; CheckFailed if none is."""
    from .. import chain
    from ..logfile import read_lines

    for number, current in enumerate(chain.heads(line for _, line in read_lines(file))):
        if current == head:
            return number
    raise CheckFailed(
        f"no line of the log has the head {head}: the history you were sent was rewritten (or is from another game)",
        where=str(file),
    )
