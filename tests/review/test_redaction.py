"""One player's copy of a log (``export --as``): what they may not see stands
as a salted commitment, the copy verifies against the log's chain head,
replays as that player saw the game, and gives away nothing a player could
find by trying every outcome a hidden line could hold."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
from pathlib import Path

import jsonschema
import pytest

from tabletop import Registry, get_plugin_manager
from tabletop.log import chain
from tabletop.model.nodes import Chance, Decide
from tabletop.play.engine import Match, Replay
from tabletop.play.live import decide, make_header, settle

from ..conftest import REPLAYS, ROOT


@pytest.fixture(scope="module")
def games() -> Registry:
    return Registry(get_plugin_manager(environment=False))


def sealed(
    registry: Registry, folder: Path, game: str, players: list[str], until, rng_seed: int = 1
) -> tuple[Path, str]:
    """A sealed game (format 2) played by random choices until ``until(match,
    events)`` says so (or the end), written as ``folder/game.jsonl`` with
    its seed file beside it, as ``tabletop new --sealed`` keeps it."""
    header, seed, made = make_header(registry, game, players, seed=f"{game}-{rng_seed}", sealed=True)
    match = Match(registry, header, made)
    secrets: dict = {}
    events = settle(match, seed, secrets)
    rng = random.Random(rng_seed)
    while not match.over and not until(match, events):
        player = match.node.players[0]
        events += decide(match, rng.choice(match.legal(player)), seed, secrets)
    log = folder / "game.jsonl"
    log.write_text("".join(line + "\n" for line in registry.codec.log(header, events)))
    (folder / "game.jsonl.seed").write_text(seed + "\n")
    return log, seed


def bens_turn(match: Match, events: list) -> bool:
    """Ben is to place, well into the game (the others hold a hidden chip each)."""
    node = match.node
    return len(events) > 30 and isinstance(node, Decide) and node.players == ("ben",)


def copy(cli, log: Path, player: str = "ben", name: str = "ben.jsonl") -> Path:
    result = cli("export", log, "--as", player, "-o", log.parent / name, plugins=False)
    assert result.exit_code == 0, result.output
    return log.parent / name


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- twins ------------------------------------------------------------------------------------
def _twins(registry: Registry, log: Path) -> list[list[str]]:
    """The log with each opponent's last hidden draw changed to every other
    chip that could have been drawn there (and the log still legal)."""
    lines = log.read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    last = {}
    for i, row in enumerate(rows[1:], start=1):
        if row["kind"] == "draw" and row["player"] != "ben":
            last[row["player"]] = i
    choices = []
    for i in last.values():
        replay = Replay(registry, log)
        match = replay.run(until=i - 1)
        node = match.node
        assert isinstance(node, Chance)
        outcomes = [o for o, w in zip(node.outcomes, node.weights or (1,) * len(node.outcomes)) if w > 0]
        choices.append([(i, registry.codec.encode(i, o)) for o in outcomes])
    twins = []
    for combo in itertools.product(*choices):
        twin = list(lines)
        for i, line in combo:
            twin[i] = line
        twins.append(twin)
    return twins


def test_twin_logs_give_copies_that_differ_only_in_their_commitments(cli, games, tmp_path):
    """Logs that differ only in ann's and cat's hidden draws give ben copies
    that differ only in those lines' commitments (and the heads after them),
    and replay alike, as ben saw the game."""
    log, seed = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    twins = _twins(games, log)
    assert len(twins) >= 4
    copies, shown = [], []
    for n, twin in enumerate(twins):
        folder = tmp_path / f"twin{n}"
        folder.mkdir()
        (folder / "game.jsonl").write_text("\n".join(twin) + "\n")
        (folder / "game.jsonl.seed").write_text(seed + "\n")
        assert cli("replay", folder / "game.jsonl", plugins=False).exit_code == 0  # each twin is a legal game
        copies.append(copy(cli, folder / "game.jsonl").read_text())
        replayed = cli("replay", folder / "ben.jsonl", "--step", plugins=False)
        assert replayed.exit_code == 0
        shown.append(replayed.stdout.replace(str(folder), "F"))
    masked = {re.sub(r'"(hidden|head)":"\w+:[0-9a-f]{64}"', r'"\1":"-"', c) for c in copies}
    assert len(masked) == 1 and len(set(copies)) == len(twins)
    assert len(set(shown)) == 1


# -- verifying ----------------------------------------------------------------------------------
def test_a_copy_gives_every_head_of_the_log(cli, games, tmp_path):
    log, seed = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    full = list(chain.heads(log.read_bytes().splitlines(), seed))
    ben = copy(cli, log)
    assert [row["head"] for row in lines_of(ben)] == full
    middle = full[len(full) // 2]
    result = cli("verify", ben, "--head", middle, "--head", full[-1], plugins=False)
    assert result.exit_code == 0, result.output
    assert f"head {middle} is event {len(full) // 2}'s: ben's copy extends it" in result.stdout
    assert f"chain head after event {len(full) - 1}: {full[-1]}" in result.stdout
    # The head as the log's holder sees it printed, by verify with the seed.
    held = cli("verify", log, "--seed", seed, plugins=False)
    assert held.exit_code == 0 and f"chain head after event {len(full) - 1}: {full[-1]}" in held.stdout


def test_a_head_of_another_game_is_refused(cli, games, tmp_path):
    log, _ = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    ben = copy(cli, log)
    other = "chain:" + "0" * 64
    result = cli("verify", ben, "--head", other, plugins=False)
    last = len(ben.read_text().splitlines())
    assert result.exit_code == 1 and result.stderr.startswith(
        f"tabletop: {ben}:{last}: no line of the copy has the head"
    )


def _tamper_move(rows: list[dict]) -> int:
    i = next(i for i, r in enumerate(rows) if r.get("kind") == "place" and r["player"] == "ann" and i > 20)
    rows[i]["payload"]["face"] = 7 - rows[i]["payload"]["face"]
    return i


def _tamper_commitment(rows: list[dict]) -> int:
    i = next(i for i, r in enumerate(rows) if "hidden" in r and i > 10)
    rows[i]["hidden"] = "sha256:" + hashlib.sha256(b"another chip").hexdigest()
    return i


def _remove(rows: list[dict]) -> int:
    i = next(i for i, r in enumerate(rows) if r.get("kind") == "place" and i > 20)
    del rows[i]
    return i


@pytest.mark.parametrize("tamper", [_tamper_move, _tamper_commitment, _remove], ids=["move", "commitment", "removed"])
def test_a_tampered_copy_fails_naming_the_line(cli, games, tmp_path, tamper):
    log, _ = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    ben = copy(cli, log)
    head = lines_of(ben)[-1]["head"]
    rows = lines_of(ben)
    at = tamper(rows)
    ben.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows))
    result = cli("verify", ben, "--head", head, plugins=False)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"tabletop: {ben}:{at + 1}: ") and len(result.stderr.splitlines()) == 1


def test_a_copy_changed_with_every_head_worked_out_again_fails_against_the_head_sent(cli, games, tmp_path):
    log, _ = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    ben = copy(cli, log)
    head = lines_of(ben)[-1]["head"]
    rows = lines_of(ben)
    _tamper_commitment(rows)
    # Carried heads made to follow the change: the copy agrees with itself...
    current = None
    out = []
    for row in rows:
        row.pop("head")
        line = json.dumps(row, separators=(",", ":"))
        if current is None:
            original = line[: line.rindex(',"copy"')] + "}"
            current = chain.first(original.encode())
        elif "hidden" in row:
            current = chain.step(current, row["hidden"].encode())
        else:
            original = line[: line.rindex(',"key"')] + "}"
            current = chain.step(current, chain.commitment(bytes.fromhex(row["key"]), original.encode()).encode())
        out.append(line[:-1] + f',"head":"{current}"}}\n')
    ben.write_text("".join(out))
    assert cli("verify", ben, plugins=False).exit_code == 0
    # ...but not with the head ben was sent.
    result = cli("verify", ben, "--head", head, plugins=False)
    assert result.exit_code == 1 and f"{ben}:{len(out)}: no line of the copy has the head {head}" in result.stderr


# -- what a commitment gives away ----------------------------------------------------------------
def test_brute_forcing_a_hidden_line_finds_nothing_without_the_seed(cli, games, tmp_path):
    """Each hidden draw could be one of three chips: hashing each possible line,
    or chaining it as a format-1 log does, matches neither the commitment nor
    the head after it. With the seed's salt, exactly one does (so the
    commitment binds)."""
    log, seed = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    ben = lines_of(copy(cli, log))
    replay = Replay(games, log)
    nodes = {}
    replay.before = lambda match, seq, event: nodes.__setitem__(seq, match.node)
    replay.run()
    hidden = 0
    for seq, row in enumerate(ben[1:], start=1):
        if "hidden" not in row:
            continue
        hidden += 1
        node = nodes[seq]
        assert isinstance(node, Chance)
        candidates = [games.codec.encode(seq, o).encode() for o in node.outcomes]
        before, after = ben[seq - 1]["head"], row["head"]
        for line in candidates:
            guesses = {
                "sha256:" + hashlib.sha256(line).hexdigest(),
                chain.commitment(b"", line),
                chain.commitment(bytes(32), line),
                chain.commitment(chain.key("", seq), line),
            }
            assert row["hidden"] not in guesses
            assert chain.step(before, line) != after
        salt = chain.key(seed, seq)
        assert sum(chain.commitment(salt, line) == row["hidden"] for line in candidates) == 1
    assert hidden >= 10


def test_a_format_1_chain_gives_a_hidden_draw_away_to_whoever_holds_two_heads():
    """Why a sealed game's chain is salted: with format 1, the heads before and
    after a hidden draw (as a referee mails them) tell which draw it was."""
    lines = (REPLAYS / "glux" / "three-players.jsonl").read_bytes().splitlines()
    heads = list(chain.heads(lines))
    draw = next(i for i, line in enumerate(lines) if b'"kind":"draw","player":"ann"' in line and i > 20)
    found = [
        chip
        for chip in ("1/6", "2/5", "3/4")
        if chain.step(heads[draw - 1], re.sub(rb'"chip":"[^"]+"', f'"chip":"{chip}"'.encode(), lines[draw]))
        == heads[draw]
    ]
    assert found == [json.loads(lines[draw])["payload"]["chip"]]


# -- with the seed ------------------------------------------------------------------------------
def test_with_the_seed_every_hidden_line_is_opened(cli, games, tmp_path):
    log, seed = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    ben = copy(cli, log)
    hidden = sum("hidden" in r for r in lines_of(ben))
    result = cli("verify", ben, "--seed", seed, plugins=False)
    assert result.exit_code == 0, result.output
    assert f"verified with the seed: {hidden} hidden lines open their commitments" in result.stdout
    wrong = cli("verify", ben, "--seed", "not-the-seed", plugins=False)
    assert wrong.exit_code == 1 and "does not match the commitment" in wrong.stderr


def test_with_the_seed_a_hidden_draw_the_seed_does_not_give_is_named(cli, games, tmp_path):
    log, seed = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    rows = log.read_text().splitlines()
    twin = next(t for t in _twins(games, log) if t != rows)
    at = next(i for i, (a, b) in enumerate(zip(rows, twin)) if a != b)
    log.write_text("\n".join(twin) + "\n")
    ben = copy(cli, log)
    assert cli("verify", ben, plugins=False).exit_code == 0  # without the seed, nothing shows
    result = cli("verify", ben, "--seed", seed, plugins=False)
    assert result.exit_code == 1 and result.stderr.startswith(f"tabletop: {ben}:{at + 1}: event {at}")
    assert "does not open its commitment: the seed and the rules give" in result.stderr


def test_a_finished_game_reveals_its_seed_in_the_copy(cli, games, tmp_path):
    log, _ = sealed(games, tmp_path, "glyph-chess", ["ann", "ben"], lambda m, e: False)
    ben = copy(cli, log)
    assert lines_of(ben)[-1]["kind"] == "reveal"
    result = cli("verify", ben, plugins=False)
    hidden = sum("hidden" in r for r in lines_of(ben))
    assert result.exit_code == 0 and f"{hidden} hidden lines open their commitments" in result.stdout
    same = cli("replay", ben, plugins=False)
    full = cli("replay", log, "--as", "ben", plugins=False)
    assert same.stdout.replace("ben.jsonl", "F") == full.stdout.replace("game.jsonl", "F")


# -- replaying ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game, players, stop",
    [("glux", ["ann", "ben", "cat", "dan"], 70), ("glyph-chess", ["ann", "ben", "cat"], 400)],
)
def test_a_copy_replays_as_its_player_saw_the_game(cli, games, tmp_path, game, players, stop):
    log, _ = sealed(games, tmp_path, game, players, lambda m, e: len(e) >= stop)
    ben = copy(cli, log)
    own = cli("replay", ben, "--step", plugins=False)
    as_ben = cli("replay", ben, "--as", "ben", "--step", plugins=False)
    full = cli("replay", log, "--as", "ben", "--step", plugins=False)
    assert own.exit_code == 0, own.output
    assert own.stdout == as_ben.stdout == full.stdout
    refused = cli("replay", ben, "--as", "cat", plugins=False)
    assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
    assert "ben.jsonl is ben's copy; it shows only what ben may see" in refused.stderr


def test_a_copy_is_read_only_by_replay_and_verify(cli, games, tmp_path):
    log, _ = sealed(games, tmp_path, "glux", ["ann", "ben"], bens_turn)
    ben = copy(cli, log)
    result = cli("moves", ben, plugins=False)
    assert result.exit_code == 2 and "one player's copy of a log (tabletop export --as)" in result.stderr


# -- which logs have copies -----------------------------------------------------------------------
def test_only_a_sealed_game_of_format_2_gives_copies(cli, tmp_path):
    result = cli("export", REPLAYS / "glux" / "two-players.jsonl", "--as", "ben", "-o", "ben.jsonl")
    assert result.exit_code == 2 and "needs a sealed game of format 2" in result.stderr
    assert not (tmp_path / "ben.jsonl").exists()
    assert cli("new", "glux", "--players", "ann,ben", "--table", "-o", "t.jsonl").exit_code == 0
    assert cli("export", "t.jsonl", "--as", "ben").exit_code == 2
    assert cli("new", "glux", "--players", "ann,ben", "--sealed", "-o", "s.jsonl").exit_code == 0
    assert (tmp_path / "s.jsonl").read_text().startswith('{"tabletop":2,"game":"glux"')
    assert cli("export", "s.jsonl", "--as", "cat").exit_code == 2
    (tmp_path / "s.jsonl.seed").rename(tmp_path / "elsewhere")
    lost = cli("export", "s.jsonl", "--as", "ben")
    assert lost.exit_code == 2 and "seed file" in lost.stderr


def test_a_format_2_header_is_a_sealed_one(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_text(
        '{"tabletop":2,"game":"glux","players":["ann","ben"],"variants":[],"options":{},"randomness":{"seed":"x"}}\n'
    )
    result = cli("replay", log)
    assert result.exit_code == 2 and "a log of format 2 is a sealed game" in result.stderr


def test_a_copy_matches_the_published_schema(cli, games, tmp_path):
    schema = json.loads((ROOT / "docs" / "log-format.schema.json").read_text())

    def validator(pointer: str):
        return jsonschema.Draft202012Validator({**schema, "oneOf": [{"$ref": pointer}]})

    log, _ = sealed(games, tmp_path, "glyph-chess", ["ann", "ben", "cat"], lambda m, e: len(e) > 200)
    rows = lines_of(copy(cli, log))
    validator("#/$defs/copyHeader").validate(rows[0])
    for row in rows[1:]:
        validator("#/$defs/hiddenEvent" if "hidden" in row else "#/$defs/copyEvent").validate(row)
    with pytest.raises(jsonschema.ValidationError):
        validator("#/$defs/hiddenEvent").validate({**rows[2], "hidden": "2/5"})


def test_with_the_seed_a_hidden_line_that_misstates_its_player_is_named(cli, games, tmp_path):
    """The commitment covers the event, not the player the copy states for it
    in the clear: with the seed, that player is held to the opened event's."""
    log, seed = sealed(games, tmp_path, "glux", ["ann", "ben", "cat"], bens_turn)
    ben = copy(cli, log)
    rows = lines_of(ben)
    at, row = next((i, r) for i, r in enumerate(rows) if "hidden" in r and r.get("player") not in (None, "ben"))
    other = next(p for p in ("ann", "cat") if p != row["player"])
    text = ben.read_text().splitlines()
    text[at] = text[at].replace(f'"player":"{row["player"]}"', f'"player":"{other}"')
    assert text[at] != ben.read_text().splitlines()[at]
    ben.write_text("\n".join(text) + "\n")
    result = cli("verify", ben, "--seed", seed, plugins=False)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"tabletop: {ben}:{at + 1}: event {row['seq']}")
    assert f"the copy says it is {other}'s, it opens as {row['player']}'s" in result.stderr
