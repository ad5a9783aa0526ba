"""Pictures of the board (``tabletop render``) and the log's hash chain (``verify --head``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tabletop import chain

from .conftest import REPLAYS

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("log", ["glux/four-players.jsonl", "glyph_chess/three-players-random.jsonl"])
def test_register_renderers_svg_for_both_games(cli, tmp_path, log):
    result = cli("render", REPLAYS / log, "--as", "ann", "-o", "board.svg")
    assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "board.svg").getroot()
    assert root.tag == f"{SVG}svg" and 400 <= int(root.get("width")) <= 700
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert any("ann" in (t or "") for t in texts)


def test_render_shows_only_what_the_viewer_may_know(cli, tmp_path):
    log = REPLAYS / "glux" / "two-players.jsonl"
    cli("render", log, "--until", "12", "--as", "ben", "-o", "ben.svg")
    cli("render", log, "--until", "12", "-o", "all.svg")
    ben = (tmp_path / "ben.svg").read_text()
    assert "hand hidden" in ben and "hand hidden" not in (tmp_path / "all.svg").read_text()


def test_render_text_to_stdout_and_unknown_format(cli):
    log = REPLAYS / "glux" / "two-players.jsonl"
    assert "Rooms (pips on top chips):" in cli("render", log).stdout
    result = cli("render", log, "--format", "png")
    assert result.exit_code == 2 and "no png picture for glux (formats: text, svg)" in result.stderr


def test_verify_head_proves_the_log_extends_a_head(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_bytes((REPLAYS / "glux" / "two-players.jsonl").read_bytes())
    lines = log.read_bytes().splitlines()
    head = list(chain.heads(lines[:30]))[-1]
    result = cli("verify", log, "--head", head)
    assert result.exit_code == 0 and f"head {head} is event 29's" in result.stdout


def test_verify_head_catches_a_rewritten_history(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    original = (REPLAYS / "glux" / "two-players.jsonl").read_bytes()
    head = chain.head_of(original.splitlines()[:40])
    lines = original.splitlines()
    lines[20] = lines[20] + b" "  # the smallest rewrite: still the same JSON
    log.write_bytes(b"\n".join(lines) + b"\n")
    result = cli("verify", log, "--head", head)
    assert result.exit_code == 1
    assert f"no line of the log has the head {head}" in result.stderr


def test_verify_head_on_a_game_still_sealed(cli, tmp_path):
    assert cli("new", "pile", "--players", "ann,bob", "--sealed", "-o", "s.jsonl").exit_code == 0
    head = chain.head_of((tmp_path / "s.jsonl").read_bytes().splitlines())
    result = cli("verify", "s.jsonl", "--head", head)
    assert result.exit_code == 0
    assert "the seed is not known yet, so draws are not checked" in result.stdout
