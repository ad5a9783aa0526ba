"""``tabletop export``: a log as a transcript to read and share, or as one
player's copy that hides what they may not see and still verifies."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..base.errors import TabletopError, UsageError, shown
from ..log import files
from .common import pass_env, report


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--transcript", is_flag=True, help="Write the game as a transcript (tags, then each decision).")
@click.option(
    "--as", "player", metavar="PLAYER", help="Write PLAYER's copy: what PLAYER may not see stands as a commitment."
)
@click.option("-o", "--output", type=click.Path(path_type=Path), help="The file to write (default: standard output).")
@click.option(
    "--seed-file",
    "seed_path",
    type=click.Path(path_type=Path),
    help="The secret seed of a sealed game (default FILE.seed), for --as.",
)
@pass_env
def export(env, file: Path, transcript: bool, player: str | None, output: Path | None, seed_path: Path | None) -> None:
    """Write a log as a transcript to read and share, or as one player's copy
    that still verifies against the chain.

    --transcript: a text in the spirit of PGN: tags (game, players,
    variants, options, the seed or its commitment, the result), then each
    decision in the game's notation with turn numbers, each chance outcome
    in the game's words in <...>, and the notes {...} and variations (...)
    of the log's study, if it has one. tabletop import turns it back into
    the same log, byte for byte.

    --as PLAYER: PLAYER's copy of a sealed game's log: every line PLAYER
    may not see is replaced by its salted commitment, so that the copy
    gives the same chain heads as the log (tabletop verify COPY --head
    HEAD) and nobody can find a hidden draw by trying each one. It needs
    the seed (FILE.seed, or revealed at the end of the game).

    \b
    Example:
      tabletop export game.jsonl --transcript -o game.txt
      tabletop export game.jsonl --as ben -o ben.jsonl
    """
    if transcript == (player is not None):
        raise UsageError("give --transcript, or --as PLAYER for one player's copy")
    files.check_output(output, file)  # never the log, its seed, its study, ...
    registry = env.registry_for_log(file)
    if transcript:
        _transcript(registry, file, output)
    else:
        assert player is not None
        _copy(registry, file, player, output, seed_path)


def _transcript(registry, file: Path, output: Path | None) -> None:
    from ..review import study, transcript

    notes, studied = None, study.default_path(file)
    if studied.exists():
        # The study beside the log: its notes and variations, inline.
        try:
            notes = transcript.from_study(study.load(registry, file))
        except TabletopError as exc:
            click.echo(f"tabletop: note: {exc}; the transcript is written without the study", err=True)
    written = transcript.write(registry, file, notes)
    for warning in written.warnings:
        click.echo(f"tabletop: note: {warning}", err=True)
    if written.secret:
        click.echo(
            f"tabletop: note: {shown(file)} is a sealed game not over: the transcript holds every hidden draw; "
            "give a player their own copy (export --as PLAYER) instead",
            err=True,
        )
    _write(output, written.text.encode("utf-8"))
    if output is not None:
        done = f"{shown(output)} was written"
        with_study = f", with the notes and variations of {shown(studied)}" if notes else ""
        report([f"{shown(output)}: the transcript of {shown(file)} ({written.events} events){with_study}."], done)


def _copy(registry, file: Path, player: str, output: Path | None, seed_path: Path | None) -> None:
    from types import SimpleNamespace

    from ..log.logfile import parse_header, read_lines
    from ..play.engine import Replay
    from ..review import redaction
    from .adding import sealed_seed

    _, first = next(read_lines(file))
    header = parse_header(file, first)
    if header.randomness.sealed:
        try:
            seed = sealed_seed(SimpleNamespace(header=header), file, seed_path)
        except UsageError:
            seed = Replay(registry, file).run().seed  # revealed once the game is over
            if seed is None:
                raise
    else:
        seed = header.randomness.seed or ""  # refused by the copy: only a sealed game of format 2 has one
    written = redaction.write(registry, file, player, seed)
    _write(output, b"".join(line + b"\n" for line in written.lines))
    if output is not None:
        events = len(written.lines) - 1
        report(
            [
                f"{shown(output)}: {player}'s copy of {shown(file)}: {events} events, "
                f"{written.hidden} of them hidden as commitments.",
                f"Its chain head is the log's: {written.head}",
            ],
            f"{shown(output)} was written",
        )


def _write(output: Path | None, data: bytes) -> None:
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        files.replace(output, data)
    except TabletopError as exc:
        raise exc if exc.where else exc.at(str(output)) from None
