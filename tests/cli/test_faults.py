"""Every write path under failing disks: a full device, a file-size limit, an
I/O error on fsync, a read-only or impossible place, a process killed at each
step. Each failure is one line, exit 2, and changes no file; a decision that
was made is never reported as failed; a sealed decision is never lost."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ..base.test_errors import fails
from ..conftest import PILE, REPLAYS, Cli

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX limits and signals")
GLUX = REPLAYS / "glux" / "two-players.jsonl"


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) and its bytes."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "ref"
    }


def run(*args: str, cwd: Path, limit: int | None = None, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """``tabletop`` in its own process, with a file-size limit (bytes) if given."""

    def limited() -> None:
        if limit is not None:
            import resource

            # Past the limit a write fails with EFBIG instead of killing the process.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "tabletop", "--plugins", str(PILE), *map(str, args)],
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        preexec_fn=limited,
    )


def one_line(result, code: int = 2, *phrases: str) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    message = result.stderr.strip()
    assert "\n" not in message and "Traceback" not in message, message
    for phrase in phrases:
        assert phrase in message, message
    return message


def started(cwd: Path, *extra: str) -> Path:
    assert run("new", "pile", "--players", "ann,bob", "--seed", "s", *extra, "-o", "g.jsonl", cwd=cwd).returncode == 0
    return cwd / "g.jsonl"


# -- a file-size limit (a full disk, as seen by the writer) ---------------------
@posix_only
@pytest.mark.parametrize(
    "argv",
    [
        ["new", "glux", "--players", "a,b", "--seed", "1", "-o", "n.jsonl"],
        ["new", "pile", "--players", "a,b", "--sealed", "-o", "n.jsonl"],
        ["play", "g.jsonl", "pick 1", "--player", "ann"],
        ["render", "g.jsonl", "-o", "board.txt"],
        ["selfplay", "pile", "--seats", "2", "--games", "3", "-o", "out"],
    ],
    ids=["new", "new-sealed", "play", "render", "selfplay"],
)
def test_a_file_size_limit_changes_no_file(tmp_path, argv):
    started(tmp_path)
    (tmp_path / "board.txt").write_text("the old picture\n")
    before = snapshot(tmp_path)
    limit = (tmp_path / "g.jsonl").stat().st_size + 10 if argv[0] == "play" else 20
    result = run(*argv, cwd=tmp_path, limit=limit)
    one_line(result, 2, "cannot write", "file too large")
    assert snapshot(tmp_path) == before
    assert sorted(os.listdir(tmp_path)) == sorted(before)


@pytest.fixture
def tiny_disk(tmp_path):
    """A real 64 KiB tmpfs (needs the right to mount; skipped otherwise)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.name != "posix" or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_changes_no_file(tiny_disk):
    log = started(tiny_disk)
    # Fill the disk to the last few bytes.
    fd = os.open(tiny_disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"x" * 512)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    before = snapshot(tiny_disk)
    # (An append may still fit in the log's last page: the size limit above
    # covers play.)
    for argv in (
        ["new", "glux", "--players", "a,b", "-o", "n.jsonl"],
        ["render", "g.jsonl", "-o", "board.txt"],
        ["selfplay", "pile", "--seats", "2", "--games", "2", "-o", "out"],
    ):
        one_line(run(*argv, cwd=tiny_disk), 2, "no space left on the device")
        assert snapshot(tiny_disk) == before, argv
        assert sorted(os.listdir(tiny_disk)) == sorted(before), argv
    assert log.read_bytes() == before["g.jsonl"]


@posix_only
def test_a_full_stdout_after_the_append_says_the_move_was_made(tmp_path):
    log = started(tmp_path)
    with open("/dev/full", "w") as full:
        result = run("play", "g.jsonl", "pick 1", "--player", "ann", cwd=tmp_path, stdout=full)
    assert result.returncode == 0
    message = result.stderr.strip()
    assert "\n" not in message and "'pick 1' was played and logged (event 3)" in message, message
    assert json.loads(log.read_text().splitlines()[-1])["kind"] == "pick"


@posix_only
@pytest.mark.parametrize(
    "argv, made",
    [
        (["new", "pile", "--players", "a,b", "-o", "n.jsonl"], "n.jsonl"),
        (["render", "g.jsonl", "-o", "board.txt"], "board.txt"),
        (["selfplay", "pile", "--seats", "2", "--games", "2", "-o", "out"], "out/pile-00002.jsonl"),
    ],
    ids=["new", "render", "selfplay"],
)
def test_a_full_stdout_after_a_write_says_the_file_was_written(tmp_path, argv, made):
    started(tmp_path)
    with open("/dev/full", "w") as full:
        result = run(*argv, cwd=tmp_path, stdout=full)
    assert result.returncode == 0
    message = result.stderr.strip()
    assert "\n" not in message and "written" in message and "the report could not be printed" in message, message
    assert (tmp_path / made).stat().st_size > 0


@posix_only
def test_a_full_stdout_on_a_reading_command_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        result = run("replay", GLUX, cwd=tmp_path, stdout=full)
    one_line(result, 2, "cannot write the output", "no space left on the device")


# -- EIO on fsync, through the one seam every durable write passes ----------------
def eio(monkeypatch, after: int = 0) -> None:
    calls = []

    def fsync(fd):
        calls.append(fd)
        if len(calls) > after:
            raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.parametrize(
    "argv",
    [
        ["new", "glux", "--players", "a,b", "--seed", "1", "-o", "n.jsonl"],
        ["new", "pile", "--players", "a,b", "--sealed", "-o", "n.jsonl"],
        ["play", "g.jsonl", "pick 1", "--player", "ann"],
        ["render", "g.jsonl", "-o", "board.txt"],
        ["selfplay", "pile", "--seats", "2", "--games", "3", "-o", "out"],
    ],
    ids=["new", "new-sealed", "play", "render", "selfplay"],
)
@pytest.mark.parametrize("after", [0, 1])
def test_eio_on_fsync_changes_no_file(cli, tmp_path, monkeypatch, argv, after):
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    (tmp_path / "board.txt").write_text("the old picture\n")
    before = snapshot(tmp_path)
    eio(monkeypatch, after)
    result = cli(*argv)
    monkeypatch.undo()
    if result.exit_code == 0:  # the write needed no more syncs than ``after``
        assert after > 0
        return
    fails(result, 2, "cannot write", "Input/output error")
    assert snapshot(tmp_path) == before
    assert sorted(os.listdir(tmp_path)) == sorted(before)


# -- places that cannot be written ---------------------------------------------------
@pytest.mark.parametrize(
    "output, phrase",
    [
        ("a-file/x.jsonl", "no such folder: a-file"),
        ("/proc/x.jsonl", "cannot write"),
        ("nowhere/x.jsonl", "no such folder"),
    ],
)
def test_output_where_nothing_can_be_written(cli, tmp_path, output, phrase):
    (tmp_path / "a-file").write_text("")
    before = snapshot(tmp_path)
    fails(cli("new", "glux", "--players", "a,b", "-o", output), 2, phrase)
    if not output.startswith("nowhere"):  # selfplay makes the folders it is given
        fails(cli("selfplay", "pile", "--seats", "2", "-o", output), 2, output)
    assert snapshot(tmp_path) == before


@posix_only
def test_render_into_proc_is_one_line(cli, tmp_path):
    fails(cli("render", GLUX, "-o", "/proc/board.svg"), 2, "/proc/board.svg", "cannot write")


@pytest.fixture
def read_only(tmp_path):
    """A folder the process cannot write: a read-only tmpfs as root, else permissions."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.name == "posix" and os.geteuid() == 0:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)]).returncode != 0:
            pytest.skip("cannot mount a read-only tmpfs")
        yield folder
        subprocess.run(["umount", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)


def test_a_read_only_folder(cli, read_only):
    for argv in (
        ["new", "glux", "--players", "a,b", "-o", read_only / "x.jsonl"],
        ["render", GLUX, "-o", read_only / "b.svg"],
        ["selfplay", "pile", "--seats", "2", "-o", read_only / "out"],
    ):
        message = fails(cli(*argv), 2, str(read_only))
        assert "Read-only file system" in message or "Permission denied" in message, message
    assert os.listdir(read_only) == []


# -- failures that must not change files -----------------------------------------------
def test_selfplay_meeting_an_existing_file_writes_nothing(cli, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "pile-00003.jsonl").write_text("mine\n")
    fails(cli("selfplay", "pile", "--seats", "2", "--games", "5", "-o", "out"), 2, "pile-00003.jsonl", "file exists")
    assert os.listdir(tmp_path / "out") == ["pile-00003.jsonl"]


def test_selfplay_failing_midway_removes_what_it_wrote(cli, tmp_path, monkeypatch):
    calls = []
    real = os.fsync

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 5:  # the third game's log (a file and its folder are synced per game)
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    fails(cli("selfplay", "pile", "--seats", "2", "--games", "5", "-o", "new/out"), 2, "no space left")
    assert not (tmp_path / "new").exists()


def test_render_failing_leaves_the_old_picture(cli, tmp_path, monkeypatch):
    (tmp_path / "board.txt").write_text("the old picture\n")
    eio(monkeypatch)
    fails(cli("render", GLUX, "-o", "board.txt"), 2, "cannot write")
    monkeypatch.undo()
    assert os.listdir(tmp_path) == ["board.txt"]
    assert (tmp_path / "board.txt").read_text() == "the old picture\n"
    assert cli("render", GLUX, "-o", "board.txt").exit_code == 0
    assert (tmp_path / "board.txt").read_text() != "the old picture\n"


def test_a_killed_new_leaves_no_temporary_file(tmp_path):
    """``new --sealed`` killed at each durable step: never a stray file (the
    one that would hold the secret seed least of all)."""
    for step in range(1, 20):
        folder = tmp_path / str(step)
        folder.mkdir()
        result = killed_at(step, ["new", "pile", "--players", "a,b", "--sealed", "-o", "g.jsonl"], folder)
        names = sorted(os.listdir(folder))
        assert names in ([], ["g.jsonl.seed"], ["g.jsonl", "g.jsonl.seed"]), names
        if result.returncode == 0:
            break
    else:
        pytest.fail("new never finished")


# -- a sealed decision, killed at every step ----------------------------------------------
KILLER = """
import os, signal, sys
step = int(sys.argv[1])
count = 0

def wrap(name):
    real = getattr(os, name)

    def patched(*args, **kwargs):
        global count
        count += 1
        if count == step:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)

    setattr(os, name, patched)

for name in ("write", "fsync", "replace", "link", "unlink", "ftruncate", "rename"):
    wrap(name)
from tabletop.cli import main
main(sys.argv[2:], prog_name="tabletop")
"""


def killed_at(step: int, argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``tabletop ARGV`` killed (SIGKILL) just before its ``step``-th call
    that changes a file (write, fsync, rename, link, unlink, truncate)."""
    return subprocess.run(
        [sys.executable, "-c", KILLER, str(step), "--plugins", str(PILE), *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


ANN, BEN = "arrange F N U K S I E", "arrange K S I E F N U"


@posix_only
@pytest.mark.parametrize("who", ["first", "last"])
def test_a_sealed_decision_killed_at_each_step_never_deadlocks(tmp_path, who):
    """The secret is durable before its seal is logged, and dropped only after
    its unseal is: whatever step the process dies at, the game goes on."""
    start = tmp_path / "start"
    start.mkdir()
    setup = Cli(start)
    made = setup(
        "new", "glyph-chess", "--players", "ann,ben", "--variant", "glyph-advanced-setup", "--sealed", "-o", "g.jsonl"
    )
    assert made.exit_code == 0
    if who == "last":
        assert setup("play", "g.jsonl", ANN, "--player", "ann").exit_code == 0
    player, move = ("ann", ANN) if who == "first" else ("ben", BEN)
    for step in range(1, 40):
        folder = tmp_path / str(step)
        shutil.copytree(start, folder)
        result = killed_at(step, ["play", "g.jsonl", move, "--player", player], folder)
        finished = result.returncode == 0
        assert result.returncode in (0, -signal.SIGKILL), result.stderr
        # Whatever was left, the game goes on: each player's decision is made
        # at most once more, and then the sealed choices are revealed.
        cli = Cli(folder)
        for name, choice in (("ann", ANN), ("ben", BEN)):
            if "unseal" not in kinds(folder):
                again = cli("play", "g.jsonl", choice, "--player", name)
                if again.exit_code != 0:
                    assert "not ann's turn" in again.stderr, again.stderr
        assert kinds(folder).count("unseal") == 2, (step, kinds(folder))
        assert cli("replay", "g.jsonl").exit_code == 0
        # A temporary secrets file a kill left is the owner's only, and the
        # next play (here one that is refused) removes it.
        for name in os.listdir(folder):
            if name.endswith(".tmp"):
                assert (folder / name).stat().st_mode & 0o077 == 0
        cli("play", "g.jsonl", "zzz", "--player", "ann")
        assert not [n for n in os.listdir(folder) if n.endswith(".tmp")]
        if finished:
            break
    else:
        pytest.fail("the decision never finished")


def kinds(folder: Path) -> list[str]:
    return [json.loads(line)["kind"] for line in (folder / "g.jsonl").read_text().splitlines()[1:]]
