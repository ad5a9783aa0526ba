"""``tabletop cut``: a log cut after an event, to continue differently."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import TabletopError, UsageError
from ..log import files
from ..play.engine import Replay
from ..play.live import create_log, seed_file, settle
from ..play.table import at_the_table
from .adding import sealed_seed
from .common import pass_env, status
from .history import run_until


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--until", required=True, type=click.IntRange(min=0), help="Keep the events up to SEQ.")
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path), help="The new log (a new file).")
@click.option(
    "--seed-file",
    "seed_path",
    type=click.Path(path_type=Path),
    help="The secret seed of a sealed game (default FILE.seed), copied to OUTPUT.seed.",
)
@pass_env
def cut(env, file: Path, until: int, output: Path, seed_path: Path | None) -> None:
    """Write a branch of a log: its header and events up to SEQ, to continue
    differently with play.

    The branch keeps the header, seed included, so verify checks it as it
    checks the original. The chance and rules events that follow event SEQ
    up to the next decision are derived again from the seed (the same as in
    the original). A sealed game's seed is copied to OUTPUT.seed.

    \b
    Example:
      tabletop cut game.jsonl --until 40 -o branch.jsonl
      tabletop play branch.jsonl 6@f7
    """
    files.check_output(output, file)  # a new log never takes the name of one of this log's files
    registry = env.registry_for_log(file)
    match, events = run_until(Replay(registry, file), until)
    if match.seals:
        raise UsageError(
            f"--until {until}: a secret decision is open there ({', '.join(match.seals)} sealed, not yet revealed); "
            "cut before its first seal or after its reveal"
        )
    header = match.header
    seed = header.randomness.seed
    if header.randomness.sealed:
        seed = _sealed_seed(registry, match, file, seed_path)
    try:
        follow = settle(match, seed) if seed is not None or at_the_table(header) else []
    except TabletopError as exc:
        raise exc.at(str(file)) from None
    create_log(output, registry.codec.log(header, [*events, *follow]), seed if header.randomness.sealed else None)
    again = ""
    if follow:
        again = f", and {len(follow)} event{'s' if len(follow) > 1 else ''} the seed and the rules give after them"
    click.echo(f"{output}: events 1-{until} of {file}{again}.")
    if header.randomness.sealed:
        click.echo(
            f"The seed is in {seed_file(output)}."
            if seed is not None
            else "The seed is not known here: give --seed-file."
        )
    click.echo(status(match))


def _sealed_seed(registry, match, file: Path, given: Path | None) -> str | None:
    """A sealed game's seed: from its seed file, or revealed at the end of the log."""
    try:
        return sealed_seed(match, file, given)
    except UsageError:
        if given is not None:
            raise
    return Replay(registry, file).run().seed  # revealed once the game is over, else None
