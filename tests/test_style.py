"""The tree stays lint-clean and formatted (ruff, configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT

FOLDERS = ["src", "plugins", "variants", "tests", "bench", "scripts", "examples"]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", *args, *FOLDERS], cwd=ROOT, capture_output=True, text=True)


def test_lint_and_format():
    check = ruff("check")
    assert check.returncode == 0, check.stdout
    form = ruff("format", "--check")
    assert form.returncode == 0, form.stdout
