"""``tabletop analyse``: a bot's analysis of every decision of a log, written into its study."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..base.errors import shown
from .common import check_study_name, pass_env, report, workers_option


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--bot",
    "spec",
    default="mcts",
    show_default=True,
    help="The searching bot and its budget per decision: mcts:seconds=1, or mcts:iterations=400 to repeat exactly.",
)
@click.option("--as", "viewer", help="Only this player's decisions, and only what this player may see.")
@click.option("--json", "as_json", is_flag=True, help="Print every decision's figures and the summary as JSON.")
@workers_option
@click.option("--seed", default="analyse", show_default=True, help="What the searches draw their random numbers from.")
@click.option(
    "--study",
    "study_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The study file (default: FILE with .study.jsonl).",
)
@pass_env
def analyse(env, file: Path, spec: str, viewer: str | None, as_json: bool, workers, seed: str, study_path) -> None:
    """Analyse every decision of a log with a search bot: the mover's winning
    chance before and after it, the decision the bot prefers, and
    inaccuracies, mistakes and blunders marked.

    Each decision is searched from its mover's view of the position alone,
    never from what the mover could not see. A drop in winning chance of
    0.05 or more is an inaccuracy, 0.10 a mistake, 0.15 a blunder. The
    judgements are written into the study file as they are made; Ctrl-C
    stops, and the same command run again does only what is left. With
    mcts:iterations=N the same seed gives the same analysis on any machine
    and any number of workers; mcts:seconds=S searches as far as the
    machine gets in that much time, which differs from run to run.

    \b
    Example:
      tabletop analyse game.jsonl --bot mcts:seconds=1
      tabletop analyse game.jsonl --bot mcts:iterations=400 --as ann --json
    """
    from ..base.progress import Progress
    from ..log import files
    from ..many.simulation import Guard, Interrupted
    from ..play.standing import check_viewer
    from ..review import analysis, study

    # The study is written: never over the log, its seed, another log's study, ...
    files.check_output(study_path, file, option="--study", allow=("the study",))
    check_study_name(file)
    registry = env.registry_for_log(file)
    loaded = study.load(registry, file, study_path)
    if viewer is not None:
        from ..play.engine import Match

        check_viewer(Match(registry, loaded.header, loaded.game), viewer)
    analysis.searcher_of(registry, spec, loaded.header.game)
    loaded.check_writable()
    label = f"analysing {file.name}"
    with Guard() as guard, Progress(0, label, sys.stderr) as bar:

        def starting(begun: analysis.Begun) -> None:
            bar.total = begun.total
            if begun.kept:
                click.echo(
                    f"resuming: {begun.kept} of {begun.total} decisions already judged in {shown(loaded.path)}",
                    err=True,
                )
            bar.start(begun.kept)

        try:
            made = analysis.run(
                loaded,
                spec,
                seed,
                viewer,
                workers,
                tuple(str(p) for p in env.plugins),
                starting,
                bar.update,
                guard,
            )
        except Interrupted as exc:
            kept = analysis.kept(loaded, spec, seed, viewer)
            raise Interrupted(
                f"interrupted by {exc.name}: {kept} of {len(analysis.decisions(loaded, viewer))} decisions are judged "
                f"in {shown(loaded.path)}; run the same command again to continue",
                signum=exc.signum,
            ) from None
    if made is None:
        whose = f"{viewer} made" if viewer else "the log holds"
        click.echo(f"{shown(file)}: no decision to analyse ({whose} none the bot can weigh).")
        return
    if as_json:
        click.echo(json.dumps(analysis.report(loaded, made, viewer), ensure_ascii=False))
        return
    report([*analysis.text(loaded, made, viewer), f"Written to {shown(loaded.path)}."], "the analysis is written")
