"""What several commands share: their options for variants, game options and
pictures, and what they print (who acts next, the result, a game's summary)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import click

from ..engine import Match
from ..errors import UsageError
from ..files import reason
from ..nodes import Chance, Decide, Forced, Over

pass_env = click.pass_obj

#: ``--variant``, as every command that starts games takes it.
variant_option = click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME[:KEY=VALUE,...]",
    help="A variant to enable, with its parameters if it has any (repeatable).",
)
#: ``--option``, a game option.
game_option = click.option("--option", "options", multiple=True, help="A game option KEY=VALUE (repeatable).")
#: ``--plot``, a picture of a summary.
plot_option = click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Draw win rates and scores (.svg, .png).",
)


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option '{pair}' must be KEY=VALUE")
        options[key] = value
    return options


def report(lines: Iterable[str], done: str) -> None:
    """Print the report of a command that has changed a file. If the output
    fails (a full disk, a closed terminal), say on stderr that ``done`` was
    done, and do not fail: the change is made."""
    try:
        for line in lines:
            click.echo(line)
        sys.stdout.flush()
    except OSError as exc:
        with contextlib.suppress(OSError):
            click.echo(f"tabletop: {done}; the report could not be printed: {reason(exc)}", err=True)
        # Said once: whatever the command prints after this goes nowhere.
        _quiet_stdout()


def _quiet_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def check_viewer(match: Match, viewer: str | None, option: str = "--as") -> None:
    if viewer is not None and viewer not in match.header.players:
        raise UsageError(f"{option} '{viewer}': not a player of this game ({', '.join(match.header.players)})")


def status(match: Match, viewer: str | None = None) -> str:
    """One line: whose decision it is, or the final result."""
    node = match.node
    if isinstance(node, Over):
        return "Game over. " + result(match)
    if isinstance(node, Decide):
        parts = []
        for player in node.players:
            if viewer in (None, player):
                parts.append(f"{player} to {match.game.asks(match.state, player)}")
            else:
                parts.append(f"{player} to decide")
        return "; ".join(parts) + "."
    if isinstance(node, Chance):
        return "A chance outcome is due."
    assert isinstance(node, Forced)
    return "The rules decide next."


def result(match: Match) -> str:
    outcome = match.game.outcome(match.state)
    scores = ", ".join(f"{p} {s}" for p, s in outcome.ranked())
    return f"{scores}; {outcome.verdict()}."


def next_actor(match: Match) -> dict[str, Any] | None:
    node = match.node
    if isinstance(node, Decide):
        return {"kind": "decision", "players": list(node.players)}
    if isinstance(node, Chance):
        return {"kind": "chance"}
    if isinstance(node, Forced):
        return {"kind": "rules"}
    return None


def summary(match: Match, path: str, viewer: str | None = None) -> Mapping[str, Any]:
    """The stable machine-readable summary that ``replay --json`` prints."""
    outcome = match.game.outcome(match.state)
    return {
        "file": path,
        "game": match.header.game,
        "players": list(match.header.players),
        "variants": list(match.header.variants),
        "events": match.seq,
        "finished": match.over,
        "scores": dict(outcome.scores),
        "winners": list(outcome.winners) if match.over else [],
        "next": next_actor(match),
        "as": viewer,
    }
