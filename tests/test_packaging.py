"""What the package says of itself: its licence, its types, its extras."""

from __future__ import annotations

import tomllib
from importlib import resources

from .conftest import ROOT


def test_license_file_matches_the_metadata():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / "LICENSE").read_text()
    assert project["license"] == "MIT"
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the tabletop authors\n")
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


def test_packages_are_typed():
    for package in ("tabletop", "tabletop_glux", "tabletop_glyph_chess"):
        assert resources.files(package).joinpath("py.typed").is_file(), package


def test_heavy_libraries_are_optional_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    # Heavy libraries stay out of the base install.
    assert any(d.startswith("selenium") for d in extras["viewer"])
    assert any(d.startswith("cairosvg") for d in extras["png"])
    assert not any(d.startswith(("selenium", "cairosvg")) for d in project["dependencies"])
