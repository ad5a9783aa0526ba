"""``tabletop view``: a step-through viewer of a log, as one HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import UsageError, shown
from ..log import files
from ..review.study import default_path as default_study
from .common import pass_env


def default_output(file: Path, viewers: tuple[str, ...]) -> Path:
    """``game.jsonl`` gives ``game.html``, or ``game-ann.html`` for ann's view
    (``game-ann-ben.html`` for ann's and ben's)."""
    stem = file.name.removesuffix(".jsonl") if file.name.endswith(".jsonl") else file.stem
    return file.with_name("-".join([stem, *viewers]) + ".html")


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--as",
    "viewers",
    multiple=True,
    help="Only what this player may know (the page holds nothing else); repeat it for a page that switches "
    "between these players' views.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The page to write (default: FILE with .html, or -PLAYER.html with --as).",
)
@click.option(
    "--study",
    "study_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Show this study's notes, variations and analysis (default: FILE with .study.jsonl, when there is one).",
)
@pass_env
def view(env, file: Path, viewers: tuple[str, ...], output: Path | None, study_path: Path | None) -> None:
    """Write a step-through viewer of a log: one HTML page that opens from
    disk or as a mail attachment, with no network and no server.

    It shows the board after every event and the events by turn in
    notation; step with the buttons, the keys, the slider, or a click on an
    event, by event or by turn, to a player's next decision, or let it play.
    With --as the page holds only what that player may see; with --as given
    several times, those players' views to switch between. Without --as, a
    finished game's page holds every player's view as well, and the log.
    A study beside the log (tabletop study, tabletop analyse) is shown read
    only: its notes and variations, and the analysis as a graph; with --as,
    only what was made as that player and the analysis of their decisions.

    \b
    Example:
      tabletop view game.jsonl -o game.html
      tabletop view game.jsonl --as ann -o game-ann.html
      tabletop view game.jsonl --as ann --as ben
    """
    from ..viewer import write_html

    output = output or default_output(file, viewers)
    files.check_output(output, file)
    viewer = viewers[0] if viewers else None
    registry = env.registry_for_log(file)
    addition, studied = "", ""
    if study_path is not None or default_study(file).exists():
        from ..review import study
        from ..viewer.studied import section

        loaded = study.load(registry, file, study_path)
        if not loaded.exists:
            raise UsageError("no such study file", where=str(loaded.path))
        addition = section(loaded, list(viewers) or [None])
        studied = f", with its study {shown(loaded.path)}"
    write_html(registry, file, output, viewer, viewers[1:], addition)
    seen = f" as {' and '.join(viewers)} {'sees' if len(viewers) == 1 else 'see'} it" if viewers else ""
    click.echo(f"{shown(output)}: a viewer of {shown(file)}{seen}{studied}.")
