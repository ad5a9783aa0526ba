"""Adding one decision (or, at a real table, a chance outcome) to a log with
the draws that follow it: what ``play`` does with a move, and hot-seat play
with each one."""

from __future__ import annotations

from pathlib import Path

from ..base.errors import TabletopError, UsageError, quote, shown
from ..log import files, logfile
from ..log.secretfile import SecretKeeper
from ..model.events import Event, Resign
from ..model.nodes import Chance, Decide
from ..play import chance, snapshot, table
from ..play.engine import Match
from ..play.live import decide, seed_file, settle
from ..play.table import at_the_table
from .common import check_viewer, status


def decider(match: Match, player: str | None) -> str:
    """Who decides now: ``player``, checked, or the only player who may."""
    node = match.node
    if not isinstance(node, Decide):
        raise UsageError("no decision is open: " + status(match))
    if player is None:
        if len(node.players) > 1:
            raise UsageError(f"several players may decide now ({', '.join(node.players)}); name one with --player")
        return node.players[0]
    check_viewer(match, player, "--player")
    return player


#: The largest seed file read, in bytes.
MAX_SEED_FILE = 4096


def add(
    registry, file: Path, move: str, player: str | None, seed_path: Path | None
) -> tuple[Match, list[Event], str | None]:
    """Append ``move`` (a decision, or at a real table a chance outcome) and what
    follows it to the log: the match after it, the events added, and whose
    view to show them in."""
    with logfile.locked(file) as handle:
        match = snapshot.run(registry, file, handle)
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
                who = player if resigning and player else decider(match, player)
            except TabletopError as exc:
                raise exc.at(str(file)) from None
            seed = sealed_seed(match, file, seed_path)
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


def sealed_seed(match: Match, file: Path, given: Path | None) -> str | None:
    """The game's seed: in the header, or (sealed) from its seed file, checked."""
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
