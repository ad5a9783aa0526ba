"""Logs and command lines written to break tabletop: each is refused in one
line naming the file, line and field, exit 2, in bounded time; what the
format forbids is refused; header options are checked on replay exactly as
``new`` checks them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.log import folders

from ..base.test_errors import fails
from ..conftest import PILE, REPLAYS

GLUX = REPLAYS / "glux" / "two-players.jsonl"
GLYPH = REPLAYS / "glyph_chess" / "two-players-random.jsonl"
ADVANCED = REPLAYS / "glyph_chess" / "advanced-setup.jsonl"


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def dump(rows: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows)


def header(game: str = "glyph-chess", **fields) -> dict:
    return {
        "tabletop": 1,
        "game": game,
        "players": ["ann", "ben"],
        "variants": [],
        "options": {},
        "randomness": {"seed": "1"},
        **fields,
    }


def compact(row: dict) -> str:
    return json.dumps(row, separators=(",", ":"))


def log_with(tmp_path: Path, text: str | bytes, name: str = "bad.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    return path


def refused(cli, path: Path, *phrases: str, code: int = 2, command: str = "replay") -> str:
    """Run a reading command on ``path``: one line naming it, the exit code,
    the file unchanged, in bounded work (CPU time of this process, which
    other work on the machine does not change)."""
    before = path.read_bytes()
    start = time.process_time()
    message = fails(cli(command, path), code, str(path), *phrases)
    assert time.process_time() - start < 5
    assert path.read_bytes() == before
    return message


# -- what the format forbids -------------------------------------------------
@pytest.mark.parametrize("version", [True, 1.0, "1", [1]])
def test_the_format_version_is_the_integer_1(cli, tmp_path, version):
    rows = rows_of(GLUX)
    rows[0]["tabletop"] = version
    refused(cli, log_with(tmp_path, dump(rows)), ":1:", "unsupported log format version")


def test_a_player_inside_the_payload_is_refused(cli, tmp_path):
    rows = rows_of(GLUX)
    rows[1]["payload"]["player"] = rows[1].pop("player")
    refused(cli, log_with(tmp_path, dump(rows[:2])), ":2:", "'player' belongs beside 'payload'")


def test_a_player_inside_the_payload_never_overrides_the_player(cli, tmp_path):
    rows = rows_of(GLUX)
    rows[1]["payload"]["player"] = "ben"
    refused(cli, log_with(tmp_path, dump(rows[:2])), ":2:", "'player' belongs beside 'payload'")


def test_an_extra_payload_field_is_refused(cli, tmp_path):
    rows = rows_of(GLUX)
    rows[1]["payload"]["colour"] = "red"
    refused(cli, log_with(tmp_path, dump(rows[:2])), ":2:", "colour")


def test_an_extra_field_in_a_sealed_choice_is_refused(cli, tmp_path):
    rows = rows_of(ADVANCED)
    unseal = next(i for i, r in enumerate(rows) if r.get("kind") == "unseal")
    rows[unseal]["payload"]["choice"]["colour"] = "red"
    refused(cli, log_with(tmp_path, dump(rows)), f":{unseal + 1}:", "a sealed choice has only", code=1)


def test_duplicate_keys_are_refused_in_an_event(cli, tmp_path):
    lines = GLUX.read_text().splitlines()
    lines[1] = lines[1].replace('"kind":"draw"', '"kind":"draw","kind":"draw"')
    refused(cli, log_with(tmp_path, "\n".join(lines[:2]) + "\n"), ":2:", "duplicate key 'kind'")


@pytest.mark.parametrize("twice", ['"chip":"2/5","chip":"2/5"', '"chip":"2/5","\\u0063hip":"3/4"'])
def test_duplicate_keys_are_refused_in_a_payload(cli, tmp_path, twice):
    lines = GLUX.read_text().splitlines()
    lines[1] = lines[1].replace('"chip":"2/5"', twice)
    refused(cli, log_with(tmp_path, "\n".join(lines[:2]) + "\n"), ":2:", "duplicate key 'chip'")


def test_duplicate_keys_are_refused_in_the_header(cli, tmp_path):
    lines = GLUX.read_text().splitlines()
    lines[0] = lines[0].replace('"game":"glux"', '"game":"glux","game":"glux"')
    refused(cli, log_with(tmp_path, "\n".join(lines[:2]) + "\n"), ":1:", "duplicate key 'game'")


def test_a_byte_order_mark_is_refused(cli, tmp_path):
    refused(cli, log_with(tmp_path, b"\xef\xbb\xbf" + GLUX.read_bytes()), ":1:", "byte-order mark")


def test_crlf_line_endings_are_refused(cli, tmp_path):
    text = GLUX.read_text().replace("\n", "\r\n")
    refused(cli, log_with(tmp_path, text), ":1:", "CR LF")


# -- malformed values --------------------------------------------------------
@pytest.mark.parametrize("kind", [["draw"], {"draw": 1}, 7, None])
def test_a_kind_that_is_not_a_string(cli, tmp_path, kind):
    rows = rows_of(GLUX)
    rows[1]["kind"] = kind
    refused(cli, log_with(tmp_path, dump(rows[:2])), ":2:", "'kind' must be a string")


def test_a_sequence_number_of_5000_digits(cli, tmp_path):
    lines = GLUX.read_text().splitlines()
    lines[1] = lines[1].replace('"seq":1', '"seq":' + "9" * 5000)
    refused(cli, log_with(tmp_path, "\n".join(lines[:2]) + "\n"), ":2:", "not JSON: a number too large")


def test_a_repeated_line_with_a_sequence_number_of_5000_digits(cli, tmp_path):
    """A line that repeats an earlier one but for its number is read from a
    cache: a huge number there is refused all the same."""
    lines = GLUX.read_text().splitlines()
    huge = lines[1].replace('"seq":1', '"seq":' + "9" * 5000)
    refused(
        cli, log_with(tmp_path, "\n".join([lines[0], lines[1], huge]) + "\n"), ":3:", "not JSON: a number too large"
    )


def test_a_board_row_number_of_5000_digits(cli, tmp_path):
    text = "middle: M\nstart 2: a1 c1\n" + "9" * 5000 + "  A M B\n"
    rows = [header("glux", options={"board": {"file": "b.txt", "text": text}})]
    refused(cli, log_with(tmp_path, dump(rows)), ":1:", "b.txt:3:", "row number")


@pytest.mark.parametrize("where", ["payload", "options"])
def test_json_nested_1000_deep(cli, tmp_path, where):
    deep = "[" * 1000 + "]" * 1000
    if where == "payload":
        lines = GLUX.read_text().splitlines()
        text = lines[0] + "\n" + lines[1].replace('"2/5"', deep) + "\n"
        refused(cli, log_with(tmp_path, text), ":2:")
    else:
        text = compact(header()).replace('"options":{}', '"options":{"radius":' + deep + "}") + "\n"
        refused(cli, log_with(tmp_path, text), ":1:", "option 'radius'")


@pytest.mark.parametrize("field", ["players", "seed"])
def test_a_lone_surrogate_in_a_name_or_seed(cli, tmp_path, field):
    if field == "players":
        text = compact(header()).replace('"ann"', '"ann\\ud800"')
    else:
        text = compact(header()).replace('"seed":"1"', '"seed":"\\ud800"')
    refused(cli, log_with(tmp_path, text + "\n"), ":1:", "lone surrogate")


@pytest.mark.parametrize("option", ["--players", "--seed"])
def test_invalid_utf8_on_the_command_line(tmp_path, option):
    """Bytes that are not UTF-8 (a real process, a real argv)."""
    args = {"--players": b"ann\xff,ben", "--seed": b"s\xff"}
    argv = [b"new", b"glux", b"--players", b"ann,ben", b"-o", b"g.jsonl"]
    if option == "--players":
        argv[3] = args[option]
    else:
        argv += [b"--seed", args[option]]
    result = subprocess.run(
        [sys.executable.encode(), b"-m", b"tabletop", *argv], cwd=tmp_path, capture_output=True, timeout=60
    )
    assert result.returncode == 2, result.stderr
    message = result.stderr.decode("utf-8", "replace").strip()
    assert "\n" not in message and "Traceback" not in message and option in message, message
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["a\x07b", "zero\u200bwidth", "rtl\u202e", "nbsp\u00a0x", "bom\ufeff"])
def test_player_names_with_control_or_invisible_characters_at_new(cli, tmp_path, name):
    fails(cli("new", "pile", "--players", f"{name},bob", "-o", "x.jsonl"), 2, "--players", "bad player name")
    assert not (tmp_path / "x.jsonl").exists()


def test_player_names_with_invisible_characters_in_a_log(cli, tmp_path):
    text = json.dumps(header(players=["ann\u200b", "ben"])) + "\n"
    refused(cli, log_with(tmp_path, text), ":1:", "bad player name")


# -- header options: as on new, within bounds ----------------------------------
@pytest.mark.parametrize("radius", [13, 1000, 3000, 3, 5, "7", [7], 7.0, True, None, {"r": 7}])
def test_glyph_radius_of_every_wrong_kind(cli, tmp_path, radius):
    text = json.dumps(header(options={"radius": radius})) + "\n"
    refused(cli, log_with(tmp_path, text), ":1:", "option 'radius'")


def test_a_glyph_radius_within_the_bounds_replays(cli, tmp_path):
    path = log_with(tmp_path, json.dumps(header(options={"radius": 12})) + "\n")
    assert cli("replay", path).exit_code == 0


def test_an_unknown_option_in_a_log_is_refused_as_on_new(cli, tmp_path):
    refused(cli, log_with(tmp_path, json.dumps(header(options={"colour": "red"})) + "\n"), "unknown option 'colour'")
    fails(cli("new", "glyph-chess", "--players", "a,b", "--option", "colour=red", "-o", "x.jsonl"), 2, "colour")


@pytest.mark.parametrize(
    "position",
    [
        "p.json",
        ["turn"],
        {"turn": ["ann"], "dice": ["S"] * 5},
        {"turn": "ann", "dice": "SSEEN"},
        {"turn": "ann", "dice": [["S"]] * 5},
        {"turn": "ann", "dice": ["S"] * 5, "pieces": ["K"]},
        {"turn": "ann", "dice": ["S"] * 5, "pieces": {"ann": {"g4": ["K"]}}},
        {"turn": "ann", "dice": ["S"] * 5, "pieces": {"ann": ["g4"]}},
        {"turn": "ann", "dice": ["S"] * 5, "hands": {"ann": "SS"}},
        {"turn": "ann", "dice": ["S"] * 5, "fates": {"ann": {"F": ["burnt"]}}},
        {"turn": "ann", "dice": ["S"] * 5, "eliminated": "ben"},
    ],
)
def test_a_position_of_the_wrong_shape(cli, tmp_path, position):
    text = json.dumps(header(options={"position": position})) + "\n"
    refused(cli, log_with(tmp_path, text), ":1:", "option 'position'")
    (tmp_path / "p.json").write_text(json.dumps(position))
    result = cli("new", "glyph-chess", "--players", "ann,ben", "--option", "position=p.json", "-o", "g.jsonl")
    fails(result, 2, "option 'position'")
    assert not (tmp_path / "g.jsonl").exists()


def test_a_board_of_2000_rows_is_refused_quickly(cli, tmp_path):
    """26 x 2000 squares took gigabytes; the bounds stop it at once."""
    rows_text = "".join(
        f"{n}  " + " ".join("A" if n % 2 else "." for _ in range(26)) + "\n" for n in range(2000, 0, -1)
    )
    text = "middle: A\nstart 2: a1 z1\n" + rows_text
    rows = [header("glux", options={"board": {"file": "b.txt", "text": text[: 64 * 1024]}})]
    refused(cli, log_with(tmp_path, dump(rows)), ":1:", "b.txt:3:", "at most 26 rows")
    rows = [header("glux", options={"board": {"file": "b.txt", "text": text}})]
    refused(cli, log_with(tmp_path, dump(rows)), ":1:", "more than 65,536 characters")


@pytest.mark.parametrize(
    "board",
    [
        7,
        ["two-players"],
        "no-such-board",
        {"file": "b.txt"},
        {"file": "b.txt", "text": 7},
        {"file": "b.txt", "text": "x", "more": 1},
        {"file": "", "text": "middle: A\n"},
    ],
)
def test_a_glux_board_option_of_the_wrong_shape(cli, tmp_path, board):
    refused(cli, log_with(tmp_path, dump([header("glux", options={"board": board})])), ":1:", "option 'board'")


def test_a_board_without_start_squares_for_the_players_is_refused_on_replay(cli, tmp_path):
    text = "middle: M\nstart 3: a1 b1 c1\n1  A M B\n"
    rows = [header("glux", options={"board": {"file": "b.txt", "text": text}})]
    refused(cli, log_with(tmp_path, dump(rows)), ":1:", "no start squares for 2 players")


def test_too_many_players_in_a_header(cli, tmp_path):
    names = [f"p{i}" for i in range(100_000)]
    refused(cli, log_with(tmp_path, json.dumps(header(players=names)) + "\n"), ":1:", "at most 16")


def test_a_seed_longer_than_the_bound(cli, tmp_path):
    text = json.dumps(header(randomness={"seed": "s" * 100_000})) + "\n"
    refused(cli, log_with(tmp_path, text), ":1:", "the seed must be 1 to 256 characters")


def test_a_line_longer_than_the_bound(cli, tmp_path):
    text = GLUX.read_text().splitlines()[0] + "\n" + "x" * (2 << 20) + "\n"
    refused(cli, log_with(tmp_path, text), ":2:", "line longer than 1,048,576 bytes")


def test_a_bad_file_in_a_folder_never_aborts_the_others(cli, tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    rows = rows_of(GLUX)
    (folder / "a.jsonl").write_text(GLUX.read_text())
    rows[1]["kind"] = ["draw"]
    (folder / "b.jsonl").write_text(dump(rows))
    (folder / "c.jsonl").write_text(json.dumps(header(options={"radius": 3000})) + "\n")
    (folder / "d.jsonl").write_text(GLYPH.read_text())
    result = cli("replay", folder)
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"ok {folder / 'a.jsonl'}")
    assert lines[1].startswith(f"UNREADABLE {folder / 'b.jsonl'}:2:")
    assert lines[2].startswith(f"UNREADABLE {folder / 'c.jsonl'}:1:")
    assert lines[3].startswith(f"ok {folder / 'd.jsonl'}")
    assert (
        lines[4]
        == f"4 games, {len(rows) - 1 + len(GLYPH.read_text().splitlines()) - 1} events; 0 illegal, 2 unreadable."
    )


# -- hangs and unbounded reads -------------------------------------------------
def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@needs_fifo
@pytest.mark.parametrize("command", ["replay", "moves", "verify", "render", "play", "diff"])
def test_a_fifo_as_the_log_is_refused_without_blocking(tmp_path, command):
    pipe = fifo(tmp_path / "g.jsonl")
    args = {"play": [pipe, "1"], "diff": [pipe, GLUX]}.get(command, [pipe])
    result = subprocess.run(
        [sys.executable, "-m", "tabletop", command, *map(str, args)], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"tabletop: {pipe}: {'cannot open' if command == 'play' else 'cannot read'}: not a regular file"
    )


@needs_fifo
def test_a_fifo_in_a_folder_is_reported_and_the_walk_goes_on(tmp_path):
    (tmp_path / "a.jsonl").write_text(GLUX.read_text())
    fifo(tmp_path / "b.jsonl")
    result = subprocess.run(
        [sys.executable, "-m", "tabletop", "replay", str(tmp_path)], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2
    assert f"UNREADABLE {tmp_path / 'b.jsonl'}: cannot read: not a regular file" in result.stdout
    assert "2 games" in result.stdout


@needs_fifo
@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
@pytest.mark.parametrize("option", ["board", "position", "--seed-file"])
def test_a_fifo_or_dev_zero_as_an_input_file(tmp_path, special, option):
    source = str(fifo(tmp_path / "in.txt")) if special == "fifo" else special
    if option == "--seed-file":
        subprocess.run(
            [sys.executable, "-m", "tabletop", "--plugins", str(PILE), "new", "pile", "--players", "a,b", "--sealed"]
            + ["-o", "g.jsonl"],
            cwd=tmp_path,
            check=True,
            capture_output=True,
        )
        argv = ["--plugins", str(PILE), "play", "g.jsonl", "pick 1", "--player", "a", "--seed-file", source]
    else:
        game = "glux" if option == "board" else "glyph-chess"
        argv = ["new", game, "--players", "a,b", "--option", f"{option}={source}", "-o", "x.jsonl"]
    result = subprocess.run(
        [sys.executable, "-m", "tabletop", *argv], cwd=tmp_path, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2, result.stderr
    message = result.stderr.strip()
    assert "\n" not in message and "not a regular file" in message and source in message, message
    assert not (tmp_path / "x.jsonl").exists()


# -- folder walking -------------------------------------------------------------
def test_a_folder_985_levels_deep(cli, tmp_path):
    here = tmp_path / "deep"
    os.makedirs(here)
    fd = os.open(here, os.O_RDONLY)
    depth = 985
    try:
        # Made level by level relative to the last one: the whole path is longer
        # than some systems take in one call.
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
        with os.fdopen(os.open("g.jsonl", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as out:
            out.write(GLUX.read_text())
    finally:
        os.close(fd)
    try:
        found = list(folders.logs([here]))
        assert len(found) == 1 and found[0].parts.count("d") == depth
    finally:
        # shutil.rmtree recurses once per level; pytest's clean-up would too.
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(limit + 4 * depth)
        try:
            shutil.rmtree(here)
        finally:
            sys.setrecursionlimit(limit)


def _unreadable_b(tmp_path, monkeypatch) -> None:
    """Folders a (holding one game) and b, which cannot be read."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "g.jsonl").write_text(GLUX.read_text())
    real = os.scandir

    def scandir(path):
        if Path(path) == tmp_path / "b":
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_an_unreadable_subfolder_is_reported(cli, tmp_path, monkeypatch):
    _unreadable_b(tmp_path, monkeypatch)
    result = cli("replay", tmp_path)
    assert result.exit_code == 2
    assert f"UNREADABLE {tmp_path / 'b'}: cannot read the folder: Permission denied" in result.stdout
    assert "1 games" in result.stdout and "1 unreadable" in result.stdout


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_an_unreadable_subfolder_is_reported_for_real():
    """Run as a user whom permissions stop (root reads anything, so the test
    drops to another user when it is root)."""
    import shutil
    import subprocess
    import sys
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="tabletop-unreadable-"))
    try:
        shutil.copy(REPLAYS / "glux" / "two-players.jsonl", base / "a.jsonl")
        (base / "b").mkdir()
        command = [sys.executable, "-m", "tabletop", "replay", str(base)]
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                pytest.skip("no setpriv to drop root")
            for path in [base, *base.rglob("*")]:
                os.chown(path, 65534, 65534)
            command = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", *command]
        base.chmod(0o755)
        (base / "b").chmod(0)
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert result.returncode == 2, result.stderr
        assert f"UNREADABLE {base / 'b'}: cannot read the folder: Permission denied" in result.stdout
        assert "Traceback" not in result.stdout + result.stderr
    finally:
        (base / "b").chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)


def test_replay_of_a_folder_streams_its_paths(tmp_path, monkeypatch):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "g.jsonl").write_text("")
    read = []
    real = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: read.append(Path(path).name) or real(path))
    walk = folders.logs([tmp_path])
    assert next(walk) == tmp_path / "a" / "g.jsonl"
    assert "b" not in read  # the second folder is read only when its turn comes
    assert list(walk) == [tmp_path / "b" / "g.jsonl"]


def test_stats_reports_an_unreadable_subfolder_and_counts_the_rest(cli, tmp_path, monkeypatch):
    _unreadable_b(tmp_path, monkeypatch)
    result = cli("stats", tmp_path)
    assert result.exit_code == 2
    assert f"{tmp_path / 'b'}: cannot read the folder: Permission denied" in result.output
