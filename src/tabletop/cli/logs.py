"""``tabletop new``, ``moves`` and ``play``: starting a log and adding to it."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import attrs
import click

from .. import chance, files, logfile, table
from ..engine import Match, Replay
from ..errors import TabletopError, UsageError, quote, shown
from ..events import Event, Resign
from ..files import reason
from ..header import Randomness
from ..live import create_log, decide, make_header, seed_file, settle
from ..nodes import Chance, Decide
from ..secretfile import SecretKeeper
from ..table import at_the_table
from . import main
from .common import check_viewer, next_actor, parse_options, pass_env, status
from .shapes import emit
from .terminal import color_option, use_color


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
@click.option(
    "--table", "table", is_flag=True, help="No seed: chance outcomes happen at a real table and are entered with play."
)
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="The new log file.")
@pass_env
def new(env, game, players, variants, options, seed, sealed, table, output) -> None:
    """Start a game: write its header and the setup's chance outcomes.

    \b
    Example:
      tabletop new glux --players alice,bob --seed 7 -o game.jsonl
      tabletop new glux --players ann,ben,cat --sealed -o game.jsonl
      tabletop new glux --players ann,ben --table -o table.jsonl
    """
    if seed is not None and sealed:
        raise UsageError("--seed and --sealed exclude each other: a sealed game draws its own seed")
    if table and (seed is not None or sealed):
        raise UsageError("--table takes no seed: its chance outcomes are entered by hand")
    registry = env.registry
    cls = registry.game_class(game)
    # Counted before the names are made: a command line may hold millions of commas.
    if players.count(",") >= cls.max_players:
        count = players.count(",") + 1
        raise UsageError(f"--players: {cls.name} is for {cls.min_players} to {cls.max_players} players, not {count}")
    names = [p.strip() for p in players.split(",")]
    header, seed = make_header(registry, game, names, variants, parse_options(options), seed, sealed)
    if table:
        header, seed = attrs.evolve(header, randomness=Randomness()), None
    match = Match(registry, header)
    events = settle(match, seed)
    create_log(output, registry.codec.log(header, events), seed if sealed else None)
    click.echo(f"{shown(output)}: new {header.game} game for {', '.join(names)}.")
    if sealed:
        click.echo(f"The seed is sealed; keep {seed_file(output)} secret until the game is over.")
    elif table:
        click.echo("Chance outcomes are entered by hand: tabletop moves lists the possible ones.")
    else:
        click.echo(
            "The seed is open: whoever has the log can foresee every draw. "
            "For a live game between people, use --sealed."
        )
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
@click.option("--json", "as_json", is_flag=True, help="Print the decisions (or chance outcomes) as one JSON object.")
@pass_env
def moves(env, file: Path, player: str | None, as_json: bool) -> None:
    """List the legal decisions now, in the game's notation (at a real table:
    the possible chance outcomes when one is due).

    \b
    Example:
      tabletop moves game.jsonl --player alice
      tabletop moves game.jsonl --json
    """
    match = Replay(env.registry, file).run()
    node = match.node
    if player is not None:
        check_viewer(match, player, "--player")
    outcomes = table.possible(match) if isinstance(node, Chance) and at_the_table(match.header) else []
    deciders = [p for p in node.players if player in (None, p)] if isinstance(node, Decide) else []
    if as_json:
        emit(
            {
                "file": str(file),
                "next": next_actor(match),
                "moves": {who: [match.game.notate(d) for d in match.game.legal(match.state, who)] for who in deciders},
                "outcomes": [table.notation(match, o) for o in outcomes],
            }
        )
        return
    if outcomes:
        for outcome in outcomes:
            click.echo(table.notation(match, outcome))
        return
    if not isinstance(node, Decide):
        click.echo(status(match))
        return
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
@click.argument("move", required=False)
@click.option("--player", help="Who decides (needed when several players may).")
@click.option(
    "--seed-file",
    "seed_path",
    type=click.Path(path_type=Path),
    help="The secret seed of a sealed game (default FILE.seed).",
)
@color_option
@pass_env
def play(env, file: Path, move: str | None, player: str | None, seed_path: Path | None, color) -> None:
    """Add one decision to a log, then the chance outcomes that follow it.

    The decision and what follows are appended together or not at all. In a
    game at a real table (tabletop new --table) a chance outcome is entered
    the same way, in the game's notation. Without MOVE: play at this screen,
    one decision after another (hot-seat).

    \b
    Example:
      tabletop play game.jsonl 6@b1
      tabletop play game.jsonl "5@start" --player bob
      tabletop play game.jsonl resign --player bob
      tabletop play table.jsonl "draw 2/5" --player ann
      tabletop play game.jsonl
    """
    if move is None:
        from .hotseat import hot_seat

        hot_seat(env.registry, file, seed_path, use_color(color))
        return
    match, events, who = add(env.registry, file, move, player, seed_path)
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
                f"tabletop: {shown(file)}: {quote(move)} was played and logged (event {match.seq - len(events) + 1}); "
                f"the report could not be printed: {reason(exc)}",
                err=True,
            )


#: The largest seed file read, in bytes.
MAX_SEED_FILE = 4096


def add(
    registry, file: Path, move: str, player: str | None, seed_path: Path | None
) -> tuple[Match, list[Event], str | None]:
    """Append ``move`` (a decision, or at a real table a chance outcome) and what
    follows it to the log: the match after it, the events added, and whose
    view to show them in."""
    with logfile.locked(file) as handle:
        replay = Replay(registry, file, handle)
        match = replay.run()
        keeper = SecretKeeper(file)
        if isinstance(match.node, Chance) and at_the_table(match.header):
            try:
                if player is not None:
                    check_viewer(match, player, "--player")
                outcome = table.parse_outcome(match, move, player)
                first = match.seq + 1
                match.accept(outcome)
                events = [outcome, *settle(match, None, keeper.secrets)]
            except TabletopError as exc:
                raise exc.at(f"{file}: {quote(move)}") from None
            who = player or getattr(outcome, "player", None)
        else:
            resigning = move.strip().lower() == "resign"
            try:
                # A player resigns in turn or not: --player says who.
                who = player if resigning and player else _decider(match, player)
            except TabletopError as exc:
                raise exc.at(str(file)) from None
            seed = _seed(match, file, seed_path)
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
                raise exc.at(f"{file}: {quote(move)}") from None
        lines = [registry.codec.encode(first + i, e) for i, e in enumerate(events)]
        with keeper.saving():
            logfile.append(handle, lines)
    return match, events, who


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
