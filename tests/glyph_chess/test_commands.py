"""The command line on Glyph Chess, for 2 and 3 players."""

from __future__ import annotations

import json
import re

import pytest


@pytest.mark.parametrize("players", ["ann,ben", "ann,ben,cat"])
def test_new_moves_play_replay_diff_and_selfplay(cli, tmp_path, players):
    assert cli("new", "glyph-chess", "--players", players, "--seed", "7", "-o", "a.jsonl").exit_code == 0
    assert cli("new", "glyph-chess", "--players", players, "--seed", "7", "-o", "b.jsonl").exit_code == 0
    moves = cli("moves", "a.jsonl", "--player", "ann").stdout.splitlines()
    assert moves and cli("moves", "a.jsonl").stdout.startswith("ann (move a piece or cast a spell):")
    scepter = next(m for m in moves if m.startswith("a4-"))
    assert cli("play", "a.jsonl", scepter, "--player", "ann").exit_code == 0
    other = next(m for m in moves if m.startswith("a4-") and m != scepter)
    assert cli("play", "b.jsonl", other, "--player", "ann").exit_code == 0
    step = cli("replay", "a.jsonl", "--step", "--as", "ben")
    assert step.exit_code == 0 and f"ann {scepter}" in step.stdout
    assert "ben draws a coin" not in step.stdout and re.search(
        r"ben draws an? [SIEFNU] coin", step.stdout
    )  # ben sees his own coin
    assert "ben draws a coin" in cli("replay", "a.jsonl", "--step", "--as", "ann").stdout
    diff = cli("diff", "a.jsonl", "b.jsonl")
    assert diff.exit_code == 1 and f"ann {scepter}" in diff.stdout and f"ann {other}" in diff.stdout
    count = len(players.split(","))
    result = cli("selfplay", "glyph-chess", "--seats", str(count), "--bot", "greedy", "--games", "2", "-o", "out")
    assert result.exit_code == 0 and cli("replay", "out").exit_code == 0


def test_replay_json_for_glyph_chess(cli, tmp_path):
    cli("selfplay", "glyph-chess", "--seats", "2", "--bot", "greedy", "-o", "out")
    summary = json.loads(cli("replay", "out/glyph-chess-00001.jsonl", "--json").stdout)
    assert summary["finished"] and len(summary["winners"]) == 1


def test_illegal_glyph_chess_move_names_the_reason(cli, tmp_path):
    cli("new", "glyph-chess", "--players", "ann,ben", "--seed", "7", "-o", "g.jsonl")
    before = (tmp_path / "g.jsonl").read_bytes()
    result = cli("play", "g.jsonl", "a4-c4 / D1", "--player", "ann")
    assert result.exit_code == 1 and "the scepter moves exactly 1 spot" in result.stderr
    assert (tmp_path / "g.jsonl").read_bytes() == before
