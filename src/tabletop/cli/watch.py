"""``tabletop watch``: the viewer of a log served on this machine, updated as the log grows."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import shown
from ..play.standing import check_viewer
from .common import pass_env


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--as", "viewer", help="Only what this player may know.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="The port (0: any free one)."
)
@pass_env
def watch(env, file: Path, viewer: str | None, port: int) -> None:
    """Serve the viewer of a log on 127.0.0.1 and update it as the log grows,
    for spectators of a game played by mail, at one screen or by bots.

    Open the address it prints in a browser on this machine: only that
    address, with its random key, is answered, and only to pages of this
    machine's own address. A page opens at the latest event and follows the
    game as moves are added to FILE; stepped back, it stays where it is until
    End. With --as the pages hold only what that player may know; without,
    they show everything, and the log can be downloaded once the game is
    over. Stop with Ctrl-C.

    \b
    Example:
      tabletop watch game.jsonl
      tabletop watch game.jsonl --as ann --port 8080
    """
    from ..play import snapshot
    from ..viewer.serve import serve

    match = snapshot.run(env.registry_for_log(file), file)  # a log that cannot be read is said now, not in the page
    check_viewer(match, viewer)

    def ready(server) -> None:
        seen = f" as {viewer} sees it" if viewer else ""
        click.echo(f"Watching {shown(file)}{seen} at {server.url} (Ctrl-C to stop).")

    serve(env.registry_for_log(file), file, viewer, port, ready)
