"""``tabletop verify``: check a log's events, its draws against the seed, and chain heads."""

from __future__ import annotations

from pathlib import Path

import click

from ..engine import verify as verify_log
from ..errors import CheckFailed
from . import shapes
from .common import pass_env


@click.command()
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
    match, checked = verify_log(env.registry_for_log(file), file, require_seed=not heads)
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
