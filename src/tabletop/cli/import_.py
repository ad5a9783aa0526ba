"""``tabletop import``: a transcript turned back into its log."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import shown
from .common import pass_env, report, status


@click.command("import")
@click.argument("transcript", type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path), help="The new log (a new file).")
@pass_env
def import_(env, transcript: Path, output: Path) -> None:
    """Turn a transcript (export --transcript) back into its log, checking
    every event against the rules and every draw against the seed.

    With a seed (or a sealed game's seed revealed at its end), each chance
    outcome is derived from it and must be the one written. Without one (a
    game at a real table), the outcomes are taken as written, and the log
    says so. The log is written only if the whole transcript is right; a
    transcript that is not is named with its line. FILE - reads standard
    input.

    \b
    Example:
      tabletop import game.txt -o game.jsonl
    """
    from ..log import files
    from ..play.live import create_log
    from ..review import transcript as transcripts

    files.check_output(output)  # never named as another log's seed, study, ...

    data = transcripts.load(transcript)
    registry = env.registry_for(transcripts.peek_game(data))
    where = "<stdin>" if str(transcript) == "-" else str(transcript)
    read = transcripts.parse(registry, data, where)
    rebuilt = transcripts.rebuild(registry, read)
    create_log(output, list(rebuilt.lines))
    match = rebuilt.match
    if rebuilt.seed is not None:
        draws = f"{rebuilt.checked} chance outcomes are the ones the seed gives."
    elif match.header.randomness.sealed:
        draws = "The seed is not revealed yet: tabletop verify checks the draws once it is."
    else:
        draws = 'Chance outcomes are as written: the log has no seed ("randomness": {}), they were drawn at a table.'
    lines = [f"{shown(output)}: {match.seq} events from {shown(where)}, each legal. {draws}", status(match)]
    notes = read.notes()
    if notes:
        comments = sum(1 for note in notes if note.comment is not None)
        variations = len(notes) - comments
        lines.append(
            f"{comments} comment{'s' * (comments != 1)} and {variations} variation{'s' * (variations != 1)} "
            "were read: a study's, not the log's."
        )
    report(lines, f"{shown(output)} was written")
