"""Small things the command line got wrong once, each pinned by a test; and
the ``--json`` shapes docs/guide.md promises."""

from __future__ import annotations

import json

import pytest

from ..conftest import REPLAYS, ROOT

GLUX = REPLAYS / "glux" / "two-players.jsonl"


@pytest.fixture
def two_seeds(cli, tmp_path):
    cli("selfplay", "glux", "--seats", "2", "--seed", "x", "-o", "a")
    cli("selfplay", "glux", "--seats", "2", "--seed", "y", "-o", "b")
    return tmp_path / "a" / "glux-00001.jsonl", tmp_path / "b" / "glux-00001.jsonl"


def test_replay_dash_reads_standard_input(cli):
    text = GLUX.read_text()
    from_stdin = cli("replay", "-", input=text)
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == cli("replay", GLUX).stdout
    bad = cli("replay", "-", input=text.replace('"seq":5,', '"seq":6,'))
    assert bad.exit_code == 1 and bad.stderr.startswith("tabletop: <stdin>:6: event 6: wrong sequence number")


def test_replay_json_step_lists_every_event(cli):
    data = json.loads(cli("replay", GLUX, "--json", "--step", "--as", "ann").stdout)
    steps = data["steps"]
    assert len(steps) == data["events"] == 97
    assert set(steps[0]) == {"seq", "kind", "origin", "player", "text"}
    assert [s["seq"] for s in steps] == list(range(1, 98))
    draws = [s for s in steps if s["kind"] == "draw"]
    assert {s["text"] for s in draws if s["player"] == "ben"} == {"ben draws a chip"}
    assert all(s["text"] != "ann draws a chip" for s in draws)
    assert "steps" not in json.loads(cli("replay", GLUX, "--json").stdout)


def test_diff_prints_header_values_as_written_not_as_python(cli, two_seeds):
    out = cli("diff", *two_seeds).stdout
    assert out.splitlines()[2] == "header randomness: seed x-1 | seed y-1"  # after each game's result
    assert "{" not in out and "'" not in out


def test_diff_lists_squares_only_in_b_among_the_squares(cli, two_seeds):
    out = cli("diff", *two_seeds).stdout
    end = out.split("at the end")[1].splitlines()[1:]
    keys = [line.split(":")[0].strip() for line in end]
    only_b = [k for k, line in zip(keys, end) if line.split(": ", 1)[1].startswith("- |")]
    assert any(k.startswith("square") for k in only_b)
    assert max(keys.index(k) for k in keys if k.startswith("square")) < keys.index(
        next(k for k in keys if not k.startswith("square"))
    )


def test_diff_json(cli, two_seeds):
    result = cli("diff", *two_seeds, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert set(data) == {"results", "identical", "header", "prefix", "first", "after_first", "at_end", "events"}
    assert data["header"] == [{"field": "randomness", "a": "seed x-1", "b": "seed y-1"}]
    assert data["first"]["a"] == {"file": str(two_seeds[0]), "line": 2, "event": data["first"]["a"]["event"]}
    assert set(data["at_end"][0]) == {"facet", "a", "b"}
    same = cli("diff", two_seeds[0], two_seeds[0], "--json")
    assert same.exit_code == 0 and json.loads(same.stdout)["identical"] is True


def test_moves_json(cli, tmp_path):
    cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl")
    data = json.loads(cli("moves", "g.jsonl", "--json").stdout)
    assert data == {
        "file": "g.jsonl",
        "next": {"kind": "decision", "players": ["ann", "bob"]},
        "moves": {"ann": ["pick 1", "pick 2", "pick 3"], "bob": ["pick 1", "pick 2", "pick 3"]},
        "outcomes": [],
    }
    assert json.loads(cli("moves", "g.jsonl", "--json", "--player", "bob").stdout)["moves"] == {
        "bob": ["pick 1", "pick 2", "pick 3"]
    }


def test_verify_json(cli):
    data = json.loads(cli("verify", GLUX, "--json").stdout)
    assert data == {"file": str(GLUX), "events": 97, "legal": True, "checked": data["checked"], "heads": []}
    assert data["checked"] > 40


def test_games_and_variants_json(cli):
    games = {g["name"]: g for g in json.loads(cli("games", "--json").stdout)}
    assert games["glux"] == {
        "name": "glux",
        "title": "Glüx",
        "players": [2, 4],
        "description": games["glux"]["description"],
        "options": games["glux"]["options"],
    }
    variants = json.loads(cli("variants", "glux", "--json").stdout)
    assert {
        "name": "glux-second-place-2p",
        "game": "glux",
        "description": variants[0]["description"],
        "parameters": [],
    } in variants
    assert all(v["game"] == "glux" for v in variants)
    house = json.loads(cli("--plugins", ROOT / "variants" / "house_rules", "variants", "glux", "--json").stdout)
    points = next(v for v in house if v["name"] == "glux-room-points")
    assert points["parameters"][0] == {"name": "first", "type": "int", "default": 5, "help": ""}


def test_selfplay_json(cli):
    data = json.loads(cli("selfplay", "pile", "--seats", "2", "--games", "3", "--seed", "j", "--json").stdout)
    assert set(data) == {"game", "games", "events", "seeds", "bots", "wins", "logs"}
    assert data["games"] == 3 and sum(data["wins"].values()) >= 3 and data["seeds"] == "j-1..j-3"
    assert data["bots"] == {"p1-random": "random", "p2-random": "random"} and data["logs"] is None


def test_new_warns_that_an_open_seed_can_be_foreseen(cli):
    out = cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").stdout
    assert (
        "The seed is open: whoever has the log can foresee every draw. For a live game between people, use --sealed."
        in out
    )
    sealed = cli("new", "pile", "--players", "ann,bob", "--sealed", "-o", "s.jsonl").stdout
    assert "The seed is open" not in sealed


def test_replay_dash_streams_a_long_log_from_a_pipe(tmp_path):
    import subprocess
    import sys

    # A real pipe, as from `cat game.jsonl | tabletop replay -`.
    with open(REPLAYS / "glyph_chess" / "three-players-random.jsonl", "rb") as log:
        done = subprocess.run(
            [sys.executable, "-m", "tabletop", "replay", "-", "--json"],
            stdin=log,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["file"] == "-" and summary["events"] == 1288 and summary["finished"]
