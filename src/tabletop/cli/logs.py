"""``tabletop new``, ``moves`` and ``play``: starting a log and adding to it."""

from __future__ import annotations

from pathlib import Path

import attrs
import click

from .. import table
from ..engine import Match, Replay
from ..errors import UsageError, quote, shown
from ..header import Randomness
from ..live import create_log, make_header, seed_file, settle
from ..nodes import Chance, Decide
from ..table import at_the_table
from . import main
from .adding import add
from .common import check_viewer, game_option, next_actor, parse_options, pass_env, report, status, variant_option
from .hotseat import hot_seat
from .shapes import emit
from .terminal import color_option, use_color


@main.command()
@click.argument("game")
@click.option("--players", required=True, help="Player names in seat order, comma-separated.")
@variant_option
@game_option
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
    header, seed, _ = make_header(registry, game, names, variants, parse_options(options), seed, sealed)
    if table:
        header, seed = attrs.evolve(header, randomness=Randomness()), None
    match = Match(registry, header)
    events = settle(match, seed)
    create_log(output, registry.codec.log(header, events), seed if sealed else None)
    lines = [f"{shown(output)}: new {header.game} game for {', '.join(names)}."]
    if sealed:
        lines.append(f"The seed is sealed; keep {shown(seed_file(output))} secret until the game is over.")
    elif table:
        lines.append("Chance outcomes are entered by hand: tabletop moves lists the possible ones.")
    else:
        lines.append(
            "The seed is open: whoever has the log can foresee every draw. "
            "For a live game between people, use --sealed."
        )
    report([*lines, status(match)], f"{shown(output)} was written")


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
        hot_seat(env.registry, file, seed_path, use_color(color))
        return
    match, events, who = add(env.registry, file, move, player, seed_path)
    # The decision is in the log now: if the report cannot be printed, say on
    # stderr that it was made, and do not fail.
    lines = [match.describe(event, who) for event in events] + [status(match, who)]
    report(lines, f"{shown(file)}: {quote(move)} was played and logged (event {match.seq - len(events) + 1})")
