"""``tabletop moves``: the legal decisions now, in the game's notation."""

from __future__ import annotations

from pathlib import Path

import click

from ..model.nodes import Chance, Decide
from ..play import snapshot, table
from ..play.table import at_the_table
from ..sight import seen
from .common import check_viewer, next_actor, pass_env, status
from .shapes import emit


@click.command()
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
    match = snapshot.run(env.registry_for_log(file), file)
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
            click.echo(f"{who} ({seen.asks(match.game, match.state, who)}):")
        for decision in match.game.legal(match.state, who):
            click.echo(("  " if player is None else "") + match.game.notate(decision))
