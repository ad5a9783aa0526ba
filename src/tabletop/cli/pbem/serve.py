"""``tabletop pbem serve``: the turn pages of one or several games on the web."""

from __future__ import annotations

from pathlib import Path

import click

from ...base.errors import UsageError
from ..common import pass_env


@click.command()
@click.argument("directories", nargs=-1, required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--listen",
    default="127.0.0.1:8080",
    show_default=True,
    help="HOST:PORT to listen on (behind a reverse proxy that gives it TLS: this machine's loopback address).",
)
@click.option(
    "--certfile", type=click.Path(dir_okay=False, path_type=Path), help="A certificate (PEM) of its own: serve TLS."
)
@click.option("--keyfile", type=click.Path(dir_okay=False, path_type=Path), help="The certificate's private key (PEM).")
@click.option(
    "--proxy",
    "proxies",
    multiple=True,
    default=("127.0.0.1",),
    show_default=True,
    help="The address of a reverse proxy whose X-Forwarded-For names the client (repeatable).",
)
@click.option(
    "--page-requests", type=click.IntRange(1), default=120, show_default=True, help="Requests a page may make a minute."
)
@click.option(
    "--page-posts", type=click.IntRange(1), default=20, show_default=True, help="Posts a page may make a minute."
)
@click.option(
    "--address-requests",
    type=click.IntRange(1),
    default=600,
    show_default=True,
    help="Requests an address may make a minute.",
)
@pass_env
def serve(env, directories, listen, certfile, keyfile, proxies, page_requests, page_posts, address_requests):
    """Serve each player's turn page, and the observers' and the game
    master's, for the games in DIRECTORIES, until Ctrl-C or SIGTERM. Each
    game's mails link to its pages at its page_url ('pbem set DIR
    page_url=https://games.example.org'); the server answers only to that
    name.

    \b
    Example:
      tabletop pbem serve duel club --listen 127.0.0.1:8080
    """
    host, sep, port = listen.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise UsageError(f"--listen '{listen}': write HOST:PORT, like 127.0.0.1:8080")
    if (certfile is None) != (keyfile is None):
        raise UsageError("--certfile and --keyfile go together")
    try:
        import uvicorn

        from ...turnpage.app import Game, application
        from ...turnpage.guard import Limits
    except ImportError as exc:
        raise UsageError(f"'pbem serve' needs the serve extra: pip install 'tabletop[serve]' ({exc})") from None
    from ...referee.gamedir import GameDir
    from ...referee.pages import origin
    from .common import registry

    games = []
    for directory in directories:
        settings = GameDir(directory).load()
        if not settings.page_url:
            raise UsageError(
                f"{directory}: the game has no page_url: 'tabletop pbem set {directory} page_url=https://HOST'"
            )
        games.append(Game(directory, registry(env, directory)))
        click.echo(f"{directory}: pages at {origin(settings)}/turn/...")
    config = uvicorn.Config(
        application(games, Limits(page_requests, address_requests, page_posts)),
        host=host.strip("[]"),
        port=int(port),
        # Every address holds a reader's token: none is written to a log.
        access_log=False,
        proxy_headers=True,
        forwarded_allow_ips=list(proxies),
        server_header=False,
        ssl_certfile=str(certfile) if certfile else None,
        ssl_keyfile=str(keyfile) if keyfile else None,
        timeout_graceful_shutdown=5,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    click.echo(f"serving on {'https' if certfile else 'http'}://{listen} (Ctrl-C stops)")
    server.run()
    if not server.started:
        raise UsageError(f"--listen {listen}: cannot listen there")
    click.echo("stopped.")
