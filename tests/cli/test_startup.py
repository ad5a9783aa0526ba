"""Start-up: a command loads only what it needs. ``games`` lists the games
from what they say of themselves (their ``about``), a command on a log loads
the log's game only, and a plugin that says nothing of itself still works."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.host import installed

from ..conftest import PILE, REPLAYS

GLUX_LOG = REPLAYS / "glux" / "four-players.jsonl"


def _loaded_after(
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
    probe: str = "",
) -> tuple[set[str], str]:
    """The modules loaded by running ``tabletop ARGS`` in a fresh process, and
    what it printed; then, when given, what the expression ``probe`` is worth
    in that process (after the command), printed last."""
    code = (
        "import sys\nfrom tabletop.cli import main\n"
        f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
        "print('MODULES', ' '.join(sorted(sys.modules)))\n" + (f"print('PROBE', {probe})" if probe else "")
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        input=stdin,
    )
    out, _, modules = done.stdout.rpartition("MODULES ")
    modules, _, found = modules.partition("PROBE ")
    return set(modules.split()), out + (f"PROBE {found}{done.stderr}" if probe else "")


def test_entry_points_are_those_importlib_metadata_finds():
    for group in (installed.PLUGIN_GROUP, installed.ABOUT_GROUP):
        expected = sorted((e.name, e.value) for e in importlib.metadata.entry_points(group=group))
        assert sorted((e.name, e.value) for e in installed.entry_points(group)) == expected
        assert expected, group


def test_entry_points_are_read_as_the_packaging_spec_writes_them():
    text = (
        "[console_scripts]\nx = nowhere:main\n\n[tabletop]\n# a comment\n"
        "plain = os.path\nattr = os:path.join\nextra = os:sep [speed]\nbare = json [speed]\n"
    )
    found = {e.name: e for _, e in installed._parse(text, "dist")}
    assert set(found) == {"plain", "attr", "extra", "bare"}
    assert found["attr"].load() is os.path.join and found["extra"].load() == os.sep
    assert found["plain"].load() is os.path and found["bare"].load().__name__ == "json"


@pytest.mark.parametrize("game", ["glux", "glyph-chess"])
def test_what_a_game_says_of_itself_is_what_its_class_says(registry, game):
    about = installed.abouts()[game]
    cls = registry.games[game]
    assert (about.title, about.description, about.players, about.options) == (
        cls.title,
        cls.description,
        (cls.min_players, cls.max_players),
        dict(cls.options),
    )
    # The plugins it claims are installed; the game itself is its about's to declare.
    names = {e.name for e in installed.entry_points(installed.PLUGIN_GROUP)}
    assert set(about.plugins) <= names and game not in names
    assert [e.value for e in installed.abouts_for(game)] == [f"{cls.__module__.rpartition('.')[0]}.about"]


def test_games_imports_no_game_and_no_engine():
    loaded, out = _loaded_after("games")
    assert "glux " in out and "glyph-chess " in out
    assert not {"tabletop_glux.game", "tabletop_glyph_chess.game", "tabletop.play.engine", "cattrs"} & loaded
    assert "importlib.metadata" not in loaded


def test_a_command_on_a_log_loads_that_game_only():
    loaded, out = _loaded_after("moves", str(GLUX_LOG))
    assert "tabletop_glux.game" in loaded
    # Of another game, only what it says of itself (its package's __init__ and about).
    assert {m for m in loaded if m.startswith("tabletop_glyph_chess")} <= {
        "tabletop_glyph_chess",
        "tabletop_glyph_chess.about",
    }
    assert "tabletop_variants.glyph_advanced_setup" not in loaded


#: What no command on a short log needs, each loaded by a path it does not take:
#: reading a built-in board through importlib.resources (with zipfile), time
#: zones, signal handling, cattrs (for an error's words only), the pictures,
#: the game at one screen (``play`` with no decision) and its "did you mean".
NOT_ON_A_SHORT_LOG = {
    "tabletop.cli.hotseat",
    "difflib",
    "importlib.resources",
    "zipfile",
    "zoneinfo",
    "signal",
    "cattrs",
    "tabletop_glux.picture",
    "tabletop.referee",
}

#: The Glüx tables made per board: built when first needed, not at import.
TABLES = "[sys.modules['tabletop_glux.fast'].crossings.cache_info().currsize, sys.modules['tabletop_glux.fast'].masked_paths.cache_info().currsize]"


def _short_log(folder: Path) -> tuple[str, str]:
    """A new two-player Glüx log in ``folder``, and one player with a legal decision."""
    _, out = _loaded_after("new", "glux", "--players", "ann,ben", "--seed", "1", "-o", "game.jsonl", cwd=folder)
    assert (folder / "game.jsonl").is_file(), out
    _, out = _loaded_after("moves", "game.jsonl", "--json", cwd=folder)
    who, options = next(iter(json.loads(out)["moves"].items()))
    return who, options[-1]


def test_moves_and_play_on_a_short_log_load_only_what_they_use(tmp_path):
    who, decision = _short_log(tmp_path)
    for args in (("moves", "game.jsonl"), ("play", "game.jsonl", decision, "--player", who)):
        loaded, out = _loaded_after(*args, cwd=tmp_path, probe=TABLES)
        assert "tabletop_glux.game" in loaded, out
        assert not NOT_ON_A_SHORT_LOG & loaded, (args, NOT_ON_A_SHORT_LOG & loaded)
        # No chip is placed yet: the placement tables are not made (a start chip's face is chosen).
        assert out.endswith("PROBE [0, 0]\n"), out


def test_the_placement_tables_are_made_when_a_chip_is_placed(tmp_path):
    # The other side of the test above: a self-played game keeps each seat's
    # reach as chips are placed, which makes them, once.
    loaded, out = _loaded_after("selfplay", "glux", "--seats", "2", cwd=tmp_path, probe=TABLES)
    assert out.endswith("PROBE [1, 1]\n"), out


def test_importing_the_glux_game_builds_no_table():
    code = (
        "import sys, tabletop_glux.game, tabletop_glux.fast as fast, tabletop_glux.board as board\n"
        "print(fast.crossings.cache_info().currsize, fast.masked_paths.cache_info().currsize,"
        " board.built_in_text.cache_info().currsize, board.Board.rays.cache_info().currsize,"
        " 'importlib.resources' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["0", "0", "0", "0", "False"]


def test_receive_loads_no_mail_sending_and_no_clock_zones(tmp_path):
    players = ("--player", "ann=ann@example.org", "--player", "ben=ben@example.org")
    _, out = _loaded_after("pbem", "init", "duel", "--game", "glux", *players, cwd=tmp_path)
    assert (tmp_path / "duel").is_dir(), out
    mail = "From: someone@example.org\nTo: referee@example.org\nSubject: move\nMessage-ID: <s@example.org>\n\nhello\n"
    loaded, out = _loaded_after("pbem", "receive", "duel", cwd=tmp_path, stdin=mail)
    assert "tabletop.referee.inbox" in loaded and "someone@example.org" in out, out
    # Sending (smtplib, ssl), fetching (imaplib), time zones, HTML mail and signals are other paths'.
    unused = {
        "smtplib",
        "ssl",
        "imaplib",
        "zoneinfo",
        "html",
        "signal",
        "cattrs",
        "importlib.resources",
        "tabletop.referee.delivery",
        "tabletop.referee.imap",
    }
    assert not unused & loaded, unused & loaded


def test_a_log_that_cannot_be_read_is_still_said_so(cli, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": 7\n')
    result = cli("moves", bad)
    assert result.exit_code == 2 and f"{bad}:1:" in result.stderr


def _third_party(site: Path, about: bool) -> None:
    """An installed distribution that registers the Pile game, with or without an ``about``."""
    (site / "pile_plugin.py").write_text(PILE.read_text())
    info = site / "pile_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pile-game\nVersion: 1.0\n")
    groups = "[tabletop]\npile = pile_plugin\n"
    if about:
        groups += "\n[tabletop.games]\npile = pile_about\n"
        (site / "pile_about.py").write_text(
            "TITLE = 'Pile'\nDESCRIPTION = 'take chips from a pile'\nPLAYERS = (2, 3)\nPLUGINS = ('pile',)\n"
        )
    (info / "entry_points.txt").write_text(groups)


@pytest.mark.parametrize("about", [False, True], ids=["without-about", "with-about"])
def test_a_third_party_game_is_listed_and_played(tmp_path, about):
    site = tmp_path / "site"
    site.mkdir()
    _third_party(site, about)
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    loaded, out = _loaded_after("games", env=env, cwd=tmp_path)
    assert "pile " in out
    # Without an about the plugin is imported to find its game; with one it is not.
    assert ("pile_plugin" in loaded) is not about
    loaded, out = _loaded_after("new", "pile", "--players", "a,b", "-o", "pile.jsonl", env=env, cwd=tmp_path)
    assert (tmp_path / "pile.jsonl").is_file(), out
    loaded, out = _loaded_after("moves", "pile.jsonl", env=env, cwd=tmp_path)
    assert "a (pick a number):" in out and "pick 3" in out
    # A log of another game never loads a game its about declares (Glüx), about or not.
    assert "tabletop_glux.game" not in loaded
    # A Glüx log loads the unclaimed plugin (it may serve any game), an about's only with its game.
    loaded, _ = _loaded_after("moves", str(GLUX_LOG), env=env, cwd=tmp_path)
    assert ("pile_plugin" in loaded) is not about
