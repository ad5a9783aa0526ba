"""``tabletop new``, ``moves`` and ``play``: starting a log and adding to it."""

from __future__ import annotations

import os
from pathlib import Path

import click

from .. import chance, logfile
from ..engine import Match, Replay
from ..errors import TabletopError, UsageError
from ..events import Resign
from ..live import decide, make_header, seed_file, settle
from ..nodes import Decide
from ..secretfile import SecretKeeper
from . import main
from .common import check_viewer, parse_options, pass_env, status


@main.command()
@click.argument("game")
@click.option("--players", required=True, help="Player names in seat order, comma-separated.")
@click.option("--variant", "variants", multiple=True, help="A variant to enable (repeatable).")
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
    names = [p.strip() for p in players.split(",")]
    header, seed = make_header(registry, game, names, variants, parse_options(options), seed, sealed)
    match = Match(registry, header)
    events = settle(match, seed)
    lines = registry.codec.log(header, events)
    if sealed:
        secret = seed_file(output)
        logfile.create(secret, [seed], mode=0o600)
        try:
            logfile.create(output, lines)
        except TabletopError:
            os.unlink(secret)
            raise
    else:
        logfile.create(output, lines)
    click.echo(f"{output}: new {header.game} game for {', '.join(names)}.")
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
      tabletop play game.jsonl resign --player bob
    """
    registry = env.registry
    with logfile.locked(file) as handle:
        replay = Replay(registry, file, handle)
        match = replay.run()
        resigning = move.strip().lower() == "resign"
        try:
            # A player resigns in turn or not: --player says who.
            who = player if resigning and player else _decider(match, player)
        except TabletopError as exc:
            raise exc.at(str(file)) from None
        seed = _seed(match, file, seed_path)
        keeper = SecretKeeper(file)
        try:
            first = match.seq + 1
            if resigning:
                match.accept(Resign(who))
                keeper.secrets.pop(who, None)
                events = [Resign(who), *settle(match, seed, keeper.secrets)]
            else:
                decision = match.game.parse(move, who, match.state)
                events = decide(match, decision, seed, keeper.secrets)
        except TabletopError as exc:
            raise exc.at(f"{file}: {move!r}") from None
        lines = [registry.codec.encode(first + i, e) for i, e in enumerate(events)]
        with keeper.saving():
            logfile.append(handle, lines)
    for event in events:
        click.echo(match.describe(event, who))
    click.echo(status(match, who))


def _seed(match: Match, file: Path, given: Path | None) -> str | None:
    randomness = match.header.randomness
    if randomness.seed is not None or not randomness.sealed:
        return randomness.seed
    path = given or seed_file(file)
    try:
        seed = path.read_text().strip()
    except OSError:
        raise UsageError(f"the game is sealed and its seed file {path} cannot be read") from None
    if not chance.matches(seed, randomness.commitment or ""):
        raise UsageError(f"{path}: this seed does not match the commitment in {file}")
    return seed
