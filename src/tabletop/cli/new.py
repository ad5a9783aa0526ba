"""``tabletop new``: start a log, its header and the setup's chance outcomes."""

from __future__ import annotations

from pathlib import Path

import attrs
import click

from ..base.errors import UsageError, shown
from ..log import files
from ..log.header import Randomness
from ..play.engine import Match
from ..play.live import create_log, make_header, seed_file, settle
from .common import game_option, parse_options, pass_env, report, status, variant_option


@click.command()
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
    files.check_output(output)  # never named as another log's seed, study, ...
    if seed is not None and sealed:
        raise UsageError("--seed and --sealed exclude each other: a sealed game draws its own seed")
    if table and (seed is not None or sealed):
        raise UsageError("--table takes no seed: its chance outcomes are entered by hand")
    registry = env.registry_for(game)
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
    # What comes next is asked before the log is written: a rule that cannot
    # answer it (a house rule's) leaves no file behind.
    now = status(match)
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
    report([*lines, now], f"{shown(output)} was written")
