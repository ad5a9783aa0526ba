"""``tabletop study``: the analysis board of a log, or a note or variation written from the command line."""

from __future__ import annotations

import secrets
from pathlib import Path

import click

from ..base.errors import UsageError, shown
from .common import check_study_name, pass_env, report


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--as", "viewer", help="Only what this player may know; notes and variations are made as them.")
@click.option(
    "--study",
    "study_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The study file (default: FILE with .study.jsonl).",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8766, show_default=True, help="The port (0: any free one)."
)
@click.option("--at", "at", type=click.IntRange(min=0), help="Write here instead of serving: after event AT.")
@click.option("--line", default="main", show_default=True, help="With --at: 'main', or a variation's id (v1).")
@click.option("--comment", help="With --at: a note's comment.")
@click.option("--mark", type=click.Choice(["!", "?", "!!", "??", "!?", "?!"]), help="With --at: a note's mark.")
@click.option("--square", "squares", multiple=True, help="With --at: a square or spot to highlight (repeatable).")
@click.option("--arrow", "arrows", multiple=True, help="With --at: an arrow FROM-TO (repeatable).")
@click.option(
    "--play",
    "plays",
    multiple=True,
    help="With --at: a decision in the game's notation, played there (repeatable: each after the last).",
)
@click.option("--player", help="With --play: whose decision, when several players may decide.")
@click.option(
    "--seed",
    help="The seed of a new variation's chance outcomes (with --play), or what the board draws new variations' "
    "seeds from (default: a fresh one).",
)
@pass_env
def study(
    env, file: Path, viewer, study_path, port, at, line, comment, mark, squares, arrows, plays, player, seed
) -> None:
    """Serve the analysis board of a log on 127.0.0.1: step through the game,
    write notes, play other decisions as variations, see a bot's analysis;
    all saved as it is made in a study file beside the log.

    The study file (FILE with .study.jsonl) is checked against the log when
    it is read: every note and variation is anchored to an event and the
    hash chain there, so a study never attaches to another game. The log
    is never changed. Open the address it prints in a browser on this
    machine; only that address is answered, and only writes from its own
    page. With --as, the board holds only what that player may know.

    With --at, nothing is served: the note (--comment, --mark, --square,
    --arrow) or the decisions (--play) are written at that event of the
    game, or of a variation with --line, and the command ends.

    \b
    Example:
      tabletop study game.jsonl
      tabletop study game.jsonl --as ann --port 8080
      tabletop study game.jsonl --at 12 --comment "too early for the middle room" --mark "?!"
      tabletop study game.jsonl --at 12 --play 6@g9 --play 3@f1
    """
    from ..log import files
    from ..play.engine import Match
    from ..play.standing import check_viewer
    from ..review import study as studies

    # The study is written: never over the log, its seed, another log's study, ...
    files.check_output(study_path, file, option="--study", allow=("the study",))
    check_study_name(file)
    registry = env.registry_for_log(file)
    loaded = studies.load(registry, file, study_path)
    check_viewer(Match(registry, loaded.header, loaded.game), viewer)
    writing = comment is not None or mark is not None or squares or arrows or plays
    if at is None:
        if writing or line != "main" or player is not None:
            raise UsageError("--comment, --mark, --square, --arrow, --play, --line and --player need --at")
        loaded.check_writable()
        _serve(registry, file, loaded, viewer, port, seed)
        return
    if not writing:
        raise UsageError("--at: give a note (--comment, --mark, --square, --arrow) or decisions (--play)")
    loaded.check_writable()
    # Tried first on a copy, then written: a decision refused part way leaves the study as it was.
    seed = seed or secrets.token_hex(8)
    trial = studies.load(registry, file, study_path)
    trial.trial = True
    _write(trial, line, at, viewer, comment, mark, squares, arrows, plays, player, seed)
    lines = loaded.lines
    done = _write(loaded, line, at, viewer, comment, mark, squares, arrows, plays, player, seed)
    if loaded.lines > lines:
        done.append(f"Written to {shown(loaded.path)}.")
    else:
        done.append(f"Nothing new to write to {shown(loaded.path)}.")
    report(done, "the study is written")


def _write(loaded, line, at, viewer, comment, mark, squares, arrows, plays, player, seed) -> list[str]:
    done: list[str] = []
    if comment is not None or mark is not None or squares or arrows:
        pairs = []
        for arrow in arrows:
            start, sep, end = arrow.partition("-")
            if not sep or not start or not end:
                raise UsageError(f"--arrow {arrow!r}: FROM-TO, like f7-e6")
            pairs.append((start, end))
        note = loaded.note(line, at, viewer, comment or "", mark, squares, pairs)
        done.append(f"Note {note.id} at {_where(loaded, line, at, viewer)}.")
    here = (line, at)
    for decision in plays:
        before = here
        here = loaded.play(here[0], here[1], decision, player, viewer, seed)
        player = None  # the next decision is whoever's it is then
        if here[0] == before[0]:
            what = f"{'the game' if here[0] == 'main' else 'variation ' + here[0]} goes on with it"
        else:
            what = f"on variation {here[0]}"
        done.append(f"{decision} at event {before[1]}: {what}, to event {here[1]}:")
        for number in range(before[1] + 1, here[1] + 1):
            done.append(f"  {number}. {loaded.describe(loaded.event(here[0], number), viewer)}")
    return done


def _where(loaded, line: str, at: int, viewer: str | None) -> str:
    if at == 0:
        return "the start" if line == "main" else f"the start of variation {line}"
    text = loaded.describe(loaded.event(line, at), viewer)
    on = "" if line == "main" else f" of variation {line}"
    return f"event {at}{on} ({text})"


def _serve(registry, file: Path, loaded, viewer: str | None, port: int, seed: str | None) -> None:
    from ..viewer.board import serve

    def ready(server) -> None:
        seen = f" as {viewer} sees it" if viewer else ""
        click.echo(
            f"Studying {shown(file)}{seen} at {server.url} (notes and variations go to {shown(loaded.path)}; "
            "Ctrl-C to stop)."
        )

    serve(registry, file, loaded, viewer, port, ready, seed)
