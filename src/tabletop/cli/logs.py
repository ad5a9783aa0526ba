"""``tabletop new``, ``moves`` and ``play``: starting a log and adding to it."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import click

from .. import chance, files, logfile
from ..engine import Match, Replay
from ..errors import TabletopError, UsageError, quote, shown
from ..files import reason
from ..live import decide, make_header, seed_file, settle
from ..nodes import Decide
from ..secretfile import SecretKeeper
from . import main
from .common import check_viewer, parse_options, pass_env, status


@main.command()
@click.argument("game")
@click.option("--players", required=True, help="Player names in seat order, comma-separated.")
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME[:KEY=VALUE,...]",
    help="A variant to enable, with its parameters if it has any (repeatable).",
)
@click.option("--option", "options", multiple=True, help="A game option KEY=VALUE (repeatable).")
@click.option("--seed", help="The seed every chance outcome comes from (default: a fresh random one).")
@click.option("--sealed", is_flag=True, help="Write only a hash of the seed; keep the seed in FILE.seed.")
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="The new log file.")
@pass_env
def new(env, game, players, variants, options, seed, sealed, output) -> None:
    """Start a game: write its header and the setup's chance outcomes.

    \b
    Example:
      tabletop new glux --players alice,bob --seed 7 -o game.jsonl
      tabletop new glux --players ann,ben,cat --sealed -o game.jsonl
    """
    if seed is not None and sealed:
        raise UsageError("--seed and --sealed exclude each other: a sealed game draws its own seed")
    registry = env.registry
    cls = registry.game_class(game)
    # Counted before the names are made: a command line may hold millions of commas.
    if players.count(",") >= cls.max_players:
        count = players.count(",") + 1
        raise UsageError(f"--players: {cls.name} is for {cls.min_players} to {cls.max_players} players, not {count}")
    names = [p.strip() for p in players.split(",")]
    header, seed = make_header(registry, game, names, variants, parse_options(options), seed, sealed)
    match = Match(registry, header)
    events = settle(match, seed)
    lines = registry.codec.log(header, events)
    if os.path.lexists(output):
        raise UsageError("file exists; choose another name", where=str(output))
    if sealed:
        secret = seed_file(output)
        if os.path.lexists(secret):
            raise UsageError(
                f"{shown(secret)} exists without its log (left by a 'new' that failed?): remove it or choose another name",
                where=str(output),
            )
        logfile.create(secret, [seed], mode=0o600)
        try:
            logfile.create(output, lines)
        except TabletopError:
            os.unlink(secret)
            raise
    else:
        logfile.create(output, lines)
    click.echo(f"{shown(output)}: new {header.game} game for {', '.join(names)}.")
    if sealed:
        click.echo(f"The seed is sealed; keep {seed_file(output)} secret until the game is over.")
    click.echo(status(match))


def _decider(match: Match, player: str | None) -> str:
    node = match.node
    if not isinstance(node, Decide):
        raise UsageError("no decision is open: " + status(match))
    if player is None:
        if len(node.players) > 1:
            raise UsageError(f"several players may decide now ({', '.join(node.players)}); name one with --player")
        return node.players[0]
    check_viewer(match, player, "--player")
    return player


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--player", help="Only this player's decisions.")
@pass_env
def moves(env, file: Path, player: str | None) -> None:
    """List the legal decisions now, in the game's notation.

    \b
    Example:
      tabletop moves game.jsonl --player alice
    """
    match = Replay(env.registry, file).run()
    node = match.node
    if player is not None:
        check_viewer(match, player, "--player")
    if not isinstance(node, Decide):
        click.echo(status(match))
        return
    deciders = [p for p in node.players if player in (None, p)]
    if not deciders:
        click.echo(f"{player} has no decision now. {status(match)}")
        return
    for who in deciders:
        if player is None:
            click.echo(f"{who} ({match.game.asks(match.state, who)}):")
        for decision in match.game.legal(match.state, who):
            click.echo(("  " if player is None else "") + match.game.notate(decision))


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.argument("move")
@click.option("--player", help="Who decides (needed when several players may).")
@click.option(
    "--seed-file",
    "seed_path",
    type=click.Path(path_type=Path),
    help="The secret seed of a sealed game (default FILE.seed).",
)
@pass_env
def play(env, file: Path, move: str, player: str | None, seed_path: Path | None) -> None:
    """Add one decision to a log, then the chance outcomes that follow it.

    The decision and what follows are appended together or not at all.

    \b
    Example:
      tabletop play game.jsonl 6@b1
      tabletop play game.jsonl "5@start" --player bob
    """
    registry = env.registry
    with logfile.locked(file) as handle:
        replay = Replay(registry, file, handle)
        match = replay.run()
        try:
            who = _decider(match, player)
        except TabletopError as exc:
            raise exc.at(str(file)) from None
        seed = _seed(match, file, seed_path)
        keeper = SecretKeeper(file)
        try:
            decision = match.game.parse(move, who, match.state)
            first = match.seq + 1
            events = decide(match, decision, seed, keeper.secrets)
        except TabletopError as exc:
            raise exc.at(f"{file}: {quote(move)}") from None
        lines = [registry.codec.encode(first + i, e) for i, e in enumerate(events)]
        with keeper.saving():
            logfile.append(handle, lines)
    # The decision is in the log now: if the report cannot be printed, say on
    # stderr that it was made, and do not fail.
    try:
        for event in events:
            click.echo(match.describe(event, who))
        click.echo(status(match, who))
        sys.stdout.flush()
    except OSError as exc:
        with contextlib.suppress(OSError):
            click.echo(
                f"tabletop: {shown(file)}: {quote(move)} was played and logged (event {first}); "
                f"the report could not be printed: {reason(exc)}",
                err=True,
            )


#: The largest seed file read, in bytes.
MAX_SEED_FILE = 4096


def _seed(match: Match, file: Path, given: Path | None) -> str | None:
    randomness = match.header.randomness
    if randomness.seed is not None or not randomness.sealed:
        return randomness.seed
    path = given or seed_file(file)
    try:
        seed = files.read_text(path, MAX_SEED_FILE, "seed file").strip()
    except UsageError as exc:
        raise UsageError(f"the game is sealed and its seed file {shown(path)} cannot be read ({exc.message})") from None
    if not chance.matches(seed, randomness.commitment or ""):
        raise UsageError(f"{path}: this seed does not match the commitment in {file}")
    return seed
