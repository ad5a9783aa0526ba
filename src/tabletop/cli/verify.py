"""``tabletop verify``: check a log's events, its draws against the seed, and chain heads."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import CheckFailed
from ..play.engine import verify as verify_log
from . import shapes
from .common import pass_env


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--head", "heads", multiple=True, help="A chain head you were sent: prove the log still extends it (repeatable)."
)
@click.option(
    "--seed",
    "seed",
    help="The seed of a sealed game, once it is revealed: check every draw, and every hidden line of a player's copy.",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was checked as one JSON object.")
@pass_env
def verify(env, file: Path, heads: tuple[str, ...], seed: str | None, as_json: bool) -> None:
    """Check a log: every event legal, every chance outcome the one its seed
    gives, and (with --head) that history was not rewritten since a head you
    were sent.

    Chance outcomes are checked once the seed is known: an open seed, or a
    sealed game whose seed was revealed at the end (or given with --seed);
    before that, only --head checks are made. A player's copy of a log
    (export --as) is checked the same way: its lines against the head, and
    once the seed is known, every hidden line against its commitment. Exits
    1 naming the first thing that does not hold.

    \b
    Example:
      tabletop verify game.jsonl
      tabletop verify game.jsonl --head chain:3f5a...
      tabletop verify ben.jsonl --head chain:3f5a...
      tabletop verify game.jsonl --json
    """
    from ..review import redaction

    if redaction.is_copy(file):
        _verify_copy(env.registry_for_log(file), file, heads, seed, as_json)
        return
    found = []
    for head in heads:
        seq = find_head(file, head, seed)
        found.append({"head": head, "event": seq})
        if not as_json:
            click.echo(f"{file}: head {head} is event {seq}'s: the log extends it.")
    match, checked = verify_log(env.registry_for_log(file), file, require_seed=not heads, seed=seed)
    if as_json:
        shapes.emit({"file": str(file), "events": match.seq, "legal": True, "checked": checked, "heads": found})
        return
    if checked is None:
        click.echo(f"{file}: {match.seq} events are legal; the seed is not known yet, so draws are not checked.")
    else:
        click.echo(f"{file}: verified: {checked} chance outcomes match the seed; {match.seq} events are legal.")
    click.echo(f"{file}: {_last_head(file, seed)}")


def find_head(file: Path, head: str, seed: str | None = None) -> int:
    """The event number whose chain head is ``head``; CheckFailed if none is."""
    from ..log import chain
    from ..log.logfile import read_lines

    for number, current in enumerate(
        chain.heads((line for _, line in read_lines(file)), lambda: chain_seed(file, seed))
    ):
        if current == head:
            return number
    raise CheckFailed(
        f"no line of the log has the head {head}: the history you were sent was rewritten (or is from another game)",
        where=str(file),
    )


def chain_seed(file: Path, given: str | None) -> str:
    """The seed a sealed game's salted chain needs: given, in the seed file
    beside the log (whoever holds the game keeps it there), or revealed at
    its end."""
    import json

    from ..base.errors import TabletopError
    from ..log import files
    from ..log.logfile import read_lines
    from ..play import chance
    from ..play.live import seed_file

    if given is not None:
        return given
    first = last = b""
    for number, line in read_lines(file):
        first, last = (line if number == 1 else first), line
    secret = seed_file(file)
    if secret.is_file():
        try:
            seed = files.read_text(secret, 4096, "seed file").strip()
            if chance.matches(seed, json.loads(first)["randomness"]["commitment"]):
                return seed
        except (TabletopError, ValueError, KeyError, TypeError):
            pass  # not this game's seed: the seed revealed at the end may still be there
    try:
        seed = json.loads(last)["payload"]["seed"] if json.loads(last).get("kind") == "reveal" else None
    except (ValueError, KeyError, TypeError, AttributeError):
        seed = None
    if isinstance(seed, str):
        return seed
    raise CheckFailed(
        "the chain of a sealed game of format 2 takes each line with a salt made from the seed, which is not "
        "revealed yet: give --seed, or keep FILE.seed beside the log",
        where=str(file),
    )


def _last_head(file: Path, seed: str | None) -> str:
    from ..log import chain
    from ..log.logfile import read_lines

    lines = [line for _, line in read_lines(file)]
    try:
        head = chain.head_of(lines, lambda: chain_seed(file, seed))
    except CheckFailed:
        return "its chain heads need the seed (a sealed game of format 2), which is not known here."
    return f"chain head after event {len(lines) - 1}: {head}"


def _verify_copy(registry, file: Path, heads: tuple[str, ...], seed: str | None, as_json: bool) -> None:
    from ..review import redaction

    replay, found, last = redaction.verify(registry, file, heads, seed)
    copy, match = replay.copy, replay.match
    if as_json:
        shapes.emit(
            {
                "file": str(file),
                "copy": copy.player,
                "events": match.seq,
                "hidden": copy.hidden,
                "legal": True,
                "checked": replay.checked if replay.seed is not None else None,
                "opened": replay.opened if replay.seed is not None else None,
                "heads": [{"head": h, "event": n} for h, n in found],
                "head": last,
            }
        )
        return
    for head, number in found:
        click.echo(f"{file}: head {head} is event {number}'s: {copy.player}'s copy extends it.")
    hidden = f"{copy.hidden} hidden as commitments"
    if replay.seed is None:
        click.echo(
            f"{file}: {copy.player}'s copy: {match.seq} events ({hidden}) are legal as {copy.player} may see them; "
            "the seed is not known yet, so hidden lines are not opened."
        )
    else:
        click.echo(
            f"{file}: verified with the seed: {replay.opened} hidden lines open their commitments, "
            f"{replay.checked} chance outcomes match the seed; {match.seq} events are legal."
        )
    click.echo(f"{file}: chain head after event {match.seq}: {last}")
    if not heads:
        click.echo(f"{file}: compare it with the head you were sent, or give it with --head.")
