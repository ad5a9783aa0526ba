"""Findings of the hostile trial on the command line: an output that is one
of a log's own files (``export --as P -o LOG.seed`` wrote over a sealed
game's seed), and a text option that is not UTF-8 (a traceback in ``study
--comment``, ``study --square``, ``analyse --seed``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.log import files


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _refused(result, option: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"tabletop: {option} ") and "a log's own files" in lines[0], lines[0]


def _first_move(cli, player: str | None = None) -> tuple[str, str]:
    """The first legal decision in g.jsonl (``player``'s), as ``moves`` lists it, and whose it is."""
    listed = cli("moves", "g.jsonl", plugins=False).stdout.splitlines()
    start = next(i for i, line in enumerate(listed) if not line.startswith(" ") and line.startswith(player or ""))
    return listed[start].split()[0], listed[start + 1].strip()


def _setup(cli) -> None:
    """Both players choose the face of their start chip."""
    for player in ("ann", "ben"):
        _, move = _first_move(cli, player)
        assert cli("play", "g.jsonl", move, "--player", player, plugins=False).exit_code == 0


@pytest.fixture
def sealed(cli, tmp_path) -> Path:
    """A sealed Glüx game under way, with its seed, its study and its sealed-decision file."""
    assert cli("new", "glux", "--players", "ann,ben", "--sealed", "-o", "g.jsonl", plugins=False).exit_code == 0
    _setup(cli)
    assert cli("study", "g.jsonl", "--at", "1", "--comment", "first", plugins=False).exit_code == 0
    (tmp_path / "g.jsonl.secrets").write_text("{}")
    return tmp_path / "g.jsonl"


OWN = {
    "the seed": "g.jsonl.seed",
    "the log itself": "g.jsonl",
    "the study": "g.study.jsonl",
    "the sealed decisions": "g.jsonl.secrets",
    "the snapshot": ".g.jsonl.fold",
}
COMMANDS = {
    "export --as": lambda out: ("export", "g.jsonl", "--as", "ann", "-o", out),
    "export --transcript": lambda out: ("export", "g.jsonl", "--transcript", "-o", out),
    "cut": lambda out: ("cut", "g.jsonl", "--until", "3", "-o", out),
    "new": lambda out: ("new", "glux", "--players", "a,b", "-o", out),
    "import": lambda out: ("import", "t.txt", "-o", out),
    "study --study": lambda out: ("study", "g.jsonl", "--study", out, "--at", "1", "--comment", "x"),
    "analyse --study": lambda out: ("analyse", "g.jsonl", "--study", out, "--bot", "mcts:iterations=2"),
}


# A study is written into the log's own study: that is its file.
CASES = [
    (command, what)
    for command in sorted(COMMANDS)
    for what in sorted(OWN)
    if not (command.startswith(("study", "analyse")) and what == "the study")
]


@pytest.mark.parametrize(("command", "what"), CASES)
def test_no_command_writes_over_a_logs_own_files(cli, sealed, tmp_path, command, what):
    """Finding 1: each command that writes a file, given one of the log's own
    files (existing or not yet: a cut named as the log's sealed decisions
    would be read as them), refuses in one line, exit 2, nothing written."""
    assert cli("export", "g.jsonl", "--transcript", "-o", "t.txt", plugins=False).exit_code == 0
    name = OWN[what]
    if what == "the snapshot":
        (tmp_path / name).unlink(missing_ok=True)  # not there yet: the name alone is the log's
    before = _files(tmp_path)
    result = cli(*COMMANDS[command](name), plugins=False)
    if command in ("new", "import") and what == "the log itself":
        # No log is read: the log is another one, which these never write over.
        assert result.exit_code == 2 and "file exists" in result.stderr, result.output
    else:
        _refused(result, "--study" if "--study" in command else "-o")
    if command.startswith(("export", "cut", "study", "analyse")):
        assert f"that is {what}" in result.stderr, result.stderr
    assert _files(tmp_path) == before


def test_export_as_a_player_never_writes_over_the_seed_by_any_name(cli, sealed, tmp_path):
    """The trial's case, and the seed reached by a link, by a hard link and
    by a path through a link to the folder: the seed stays, the game goes on."""
    seed = (tmp_path / "g.jsonl.seed").read_bytes()
    os.symlink("g.jsonl.seed", tmp_path / "link")
    os.link(tmp_path / "g.jsonl.seed", tmp_path / "hard")
    os.symlink(".", tmp_path / "here")
    for name in ("g.jsonl.seed", "./g.jsonl.seed", "link", "hard", "here/g.jsonl.seed", str(tmp_path / "link")):
        _refused(cli("export", "g.jsonl", "--as", "ann", "-o", name, plugins=False), "-o")
        assert (tmp_path / "g.jsonl.seed").read_bytes() == seed
    player, move = _first_move(cli)
    assert cli("play", "g.jsonl", move, "--player", player, plugins=False).exit_code == 0
    copy = cli("export", "g.jsonl", "--as", "ann", "-o", "ann.jsonl", plugins=False)
    assert copy.exit_code == 0, copy.output


@pytest.mark.parametrize("command", ["render", "view"])
def test_render_and_view_never_write_over_the_seed(cli, sealed, tmp_path, command):
    seed = (tmp_path / "g.jsonl.seed").read_bytes()
    args = ("render", "g.jsonl", "--format", "svg") if command == "render" else ("view", "g.jsonl")
    result = cli(*args, "-o", "g.jsonl.seed", plugins=False)
    assert (tmp_path / "g.jsonl.seed").read_bytes() == seed
    _refused(result, "-o")


def test_another_logs_own_files_are_refused_too(cli, sealed, tmp_path):
    """A file named as the seed, study or sealed decisions of another log
    that is there is that log's own: refused whatever log is read."""
    shutil.copy(sealed, tmp_path / "other.jsonl")
    (tmp_path / "other.jsonl.seed").write_text("s")
    for name in ("other.jsonl.seed", "other.study.jsonl", "other.jsonl.secrets"):
        result = cli("export", "g.jsonl", "--transcript", "-o", name, plugins=False)
        _refused(result, "-o")
        assert "of other.jsonl" in result.stderr
    result = cli("study", "g.jsonl", "--study", "other.study.jsonl", "--at", "1", "--comment", "x", plugins=False)
    _refused(result, "--study")
    assert not (tmp_path / "other.study.jsonl").exists()


def test_the_referees_files_in_a_game_folder_are_the_logs_own(cli, tmp_path):
    made = cli(
        "pbem", "init", "g", "--game", "glux", "--player", "ann=ann@example.org", "--player", "ben=ben@example.org",
        "--referee", "ref@example.org", "--smtp", "127.0.0.1:1", "--pictures", "svg", plugins=False,
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    before = _files(tmp_path / "g")
    outbox = next((tmp_path / "g" / "outbox").glob("*.eml")).relative_to(tmp_path)
    for name in ("g/referee.json", "g/imap.json", "g/journal.json", "g/press.jsonl", "g/game.jsonl.seed", outbox):
        result = cli("export", "g/game.jsonl", "--transcript", "-o", name, plugins=False)
        _refused(result, "-o")
    assert _files(tmp_path / "g") == before
    done = cli("export", "g/game.jsonl", "--transcript", "-o", "g/game.txt", plugins=False)
    assert done.exit_code == 0, done.output


def test_own_files_are_named_as_the_modules_that_write_them_name_them(tmp_path):
    from tabletop.play.live import seed_file
    from tabletop.play.snapshot import path_of
    from tabletop.review.studyfile import default_path

    log = tmp_path / "game.jsonl"
    own = dict((what, path) for path, what in files.own_files(log))
    assert own["the seed"] == seed_file(log)
    assert own["the snapshot"] == path_of(log)
    assert own["the study"] == default_path(log)
    assert own["the sealed decisions"] == log.with_name("game.jsonl.secrets")


# -- finding 3: text that is not UTF-8 on the command line ------------------------------
def _tabletop(args: list[bytes], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("TABLETOP_PLUGINS", None)
    return subprocess.run(
        [sys.executable.encode(), b"-m", b"tabletop", *args], cwd=cwd, capture_output=True, timeout=120, env=env
    )


BAD = b"x\xffy"
TEXT_OPTIONS = {
    "study --comment": ([b"study", b"g.jsonl", b"--at", b"3", b"--comment", BAD], "--comment"),
    "study --square": ([b"study", b"g.jsonl", b"--at", b"3", b"--square", BAD], "--square"),
    "study --play": ([b"study", b"g.jsonl", b"--at", b"3", b"--play", BAD], "--play"),
    "analyse --seed": ([b"analyse", b"g.jsonl", b"--bot", b"mcts:iterations=2", b"--seed", BAD], "--seed"),
    "analyse --bot": ([b"analyse", b"g.jsonl", b"--bot", BAD], "--bot"),
    "replay --as": ([b"replay", b"g.jsonl", b"--as", BAD], "--as"),
    "play MOVE": ([b"play", b"g.jsonl", BAD], "MOVE"),
    "new GAME": ([b"new", BAD, b"--players", b"a,b", b"-o", b"n.jsonl"], "GAME"),
    "new --players": ([b"new", b"glux", b"--players", b"a" + BAD + b",b", b"-o", b"n.jsonl"], "--players"),
    "export --as": ([b"export", b"g.jsonl", b"--as", BAD, b"-o", b"c.jsonl"], "--as"),
    "selfplay --seed": ([b"selfplay", b"glux", b"--seats", b"2", b"--seed", BAD], "--seed"),
    "pbem seek --to": ([b"pbem", b"seek", b"r", b"ann", b"--to", BAD + b"@example.org"], "--to"),
}


@pytest.fixture
def played(cli, tmp_path) -> Path:
    assert cli("new", "glux", "--players", "ann,ben", "--seed", "7", "-o", "g.jsonl", plugins=False).exit_code == 0
    _setup(cli)
    made = cli(
        "pbem", "init", "r", "--game", "glux", "--player", "ann=ann@example.org", "--player", "ben=ben@example.org",
        "--referee", "ref@example.org", "--smtp", "127.0.0.1:1", "--pictures", "svg", plugins=False,
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    return tmp_path / "g.jsonl"


@pytest.mark.parametrize("case", sorted(TEXT_OPTIONS))
def test_a_text_option_that_is_not_utf8_is_one_line_naming_it(played, tmp_path, case):
    """Finding 3: bytes that are not UTF-8 in any text option or argument:
    one line naming it, exit 2, no file changed."""
    args, name = TEXT_OPTIONS[case]
    before = _files(tmp_path)
    done = _tabletop(args, tmp_path)
    message = done.stderr.decode("utf-8", "replace").strip()
    assert done.returncode == 2, message
    assert "\n" not in message and "Traceback" not in message, message
    assert message == f"tabletop: {name} is not UTF-8 text", message
    assert _files(tmp_path) == before


def test_a_file_name_that_is_not_utf8_is_still_a_file_name(played, tmp_path):
    """File names may be any bytes: they are not text options."""
    os.link(played, os.path.join(os.fsencode(tmp_path), b"g\xff.jsonl"))
    done = _tabletop([b"replay", b"g\xff.jsonl"], tmp_path)
    assert done.returncode == 0, done.stderr
    done = _tabletop([b"export", b"g\xff.jsonl", b"--transcript"], tmp_path)
    assert done.returncode == 0, done.stderr
    # A study records its log's name in UTF-8 JSON: refused in one line, nothing written.
    before = _files(tmp_path)
    for args in ([b"--at", b"3", b"--comment", b"fine"], [b"--at", b"3", b"--play", b"x"]):
        done = _tabletop([b"study", b"g\xff.jsonl", *args], tmp_path)
        assert done.returncode == 2 and b"Traceback" not in done.stderr, done.stderr
        assert b"this name is not UTF-8" in done.stderr and len(done.stderr.splitlines()) == 1
    done = _tabletop([b"analyse", b"g\xff.jsonl", b"--bot", b"mcts:iterations=2"], tmp_path)
    assert done.returncode == 2 and b"this name is not UTF-8" in done.stderr, done.stderr
    assert _files(tmp_path) == before
