"""``tabletop cut``: a branch of a log, to continue differently."""

from __future__ import annotations

import json
import os
import stat

import pytest

from tabletop.play import chance

from ..conftest import REPLAYS

GLUX = REPLAYS / "glux" / "two-players.jsonl"


def lines(path) -> list[str]:
    return path.read_text().splitlines()


def test_cut_keeps_the_events_up_to_seq_and_continues_to_the_next_decision(cli, tmp_path):
    result = cli("cut", GLUX, "--until", "40", "-o", "branch.jsonl")
    assert result.exit_code == 0, result.output
    branch = tmp_path / "branch.jsonl"
    original = lines(GLUX)
    # Event 40 is a placement; the draw after it comes from the same seed, as in the original.
    assert lines(branch) == original[:42]
    assert "and 1 event the seed and the rules give after them" in result.stdout
    assert cli("verify", branch).exit_code == 0
    # The branch goes on differently: another legal decision than the original's.
    theirs = json.loads(original[42])
    options = cli("moves", branch, "--player", theirs["player"]).stdout.split()
    mine = next(o for o in options if o != f"{theirs['payload']['face']}@{theirs['payload']['square']}")
    assert cli("play", branch, mine).exit_code == 0
    assert cli("diff", GLUX, branch).exit_code == 1


def test_cut_past_the_end_or_onto_an_existing_file(cli, tmp_path):
    result = cli("cut", GLUX, "--until", "400", "-o", "b.jsonl")
    assert result.exit_code == 2 and "--until 400: the log ends at event 97" in result.stderr
    (tmp_path / "b.jsonl").write_text("mine\n")
    result = cli("cut", GLUX, "--until", "4", "-o", "b.jsonl")
    assert result.exit_code == 2 and "file exists" in result.stderr
    assert (tmp_path / "b.jsonl").read_text() == "mine\n"


def test_cut_inside_a_secret_decision_is_refused(cli, tmp_path):
    result = cli("cut", REPLAYS / "glyph_chess" / "advanced-setup.jsonl", "--until", "1", "-o", "b.jsonl")
    assert result.exit_code == 2 and "a secret decision is open there (ann sealed" in result.stderr
    assert not (tmp_path / "b.jsonl").exists()


def test_cut_of_a_sealed_game_copies_its_seed(cli, tmp_path):
    cli("new", "pile", "--players", "ann,bob", "--sealed", "-o", "s.jsonl")
    cli("play", "s.jsonl", "pick 1", "--player", "ann")
    cli("play", "s.jsonl", "pick 2", "--player", "bob")
    result = cli("cut", "s.jsonl", "--until", "3", "-o", "b.jsonl")
    assert result.exit_code == 0, result.output
    seed = (tmp_path / "b.jsonl.seed").read_text().strip()
    assert seed == (tmp_path / "s.jsonl.seed").read_text().strip()
    assert stat.S_IMODE(os.stat(tmp_path / "b.jsonl.seed").st_mode) == 0o600
    header = json.loads(lines(tmp_path / "b.jsonl")[0])
    assert chance.matches(seed, header["randomness"]["commitment"])
    assert cli("play", "b.jsonl", "pick 3", "--player", "bob").exit_code == 0


def test_view_and_cut_have_help_with_an_example(cli):
    for command in ("view", "cut"):
        out = cli(command, "--help").stdout
        assert "\\b" not in out and f"tabletop {command} game.jsonl" in out.split("Example:", 1)[1]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", [["view"], ["cut", "--until", "1", "-o", "b.jsonl"], ["play"]])
def test_a_fifo_as_the_log_is_refused_without_blocking(tmp_path, command):
    import subprocess
    import sys

    pipe = tmp_path / "g.jsonl"
    os.mkfifo(pipe)
    result = subprocess.run(
        [sys.executable, "-m", "tabletop", command[0], str(pipe), *command[1:]],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == f"tabletop: {pipe}: cannot read: not a regular file"
