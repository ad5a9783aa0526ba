"""docs/api.md's examples run: each Python block in order, in one namespace,
and its printed output must be the text block that follows it."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import pytest

from .conftest import REPLAYS, ROOT

PAGE = ROOT / "docs" / "api.md"
BLOCK = re.compile(r"```(python|text)\n(.*?)```", re.S)
#: The page plays a thousand games; the test plays fewer (the same code otherwise).
GAMES = ("games = 1_000", "games = 24")


def blocks() -> list[tuple[str, str | None]]:
    found = BLOCK.findall(PAGE.read_text())
    pairs = []
    for i, (kind, code) in enumerate(found):
        if kind == "python":
            after = found[i + 1] if i + 1 < len(found) else None
            pairs.append((code, after[1] if after and after[0] == "text" else None))
    return pairs


def test_the_page_has_examples():
    assert len(blocks()) >= 8


def test_api_examples_run_and_print_what_the_page_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    shutil.copytree(REPLAYS, tmp_path / "replays")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TABLETOP_PLUGINS", raising=False)
    namespace: dict = {}
    scaled = False
    for code, expected in blocks():
        if GAMES[0] in code:
            code = code.replace(*GAMES)
            scaled = True
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(PAGE), "exec"), namespace)
        if expected is not None and not (scaled and "games" in expected):
            assert out.getvalue() == expected, code
    assert scaled
    assert len(list((tmp_path / "games").glob("*.jsonl"))) == 24
