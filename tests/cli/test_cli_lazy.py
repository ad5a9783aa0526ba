"""The command line starts without importing what it does not use."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import click
import pytest

import tabletop.cli
from tabletop.cli import declared, main
from tabletop.cli import pbem as pbem_package

FOLDER = Path(tabletop.cli.__file__).parent
#: The commands the modules of the package declare, found as ``--help`` finds them.
FOUND = declared.find(FOLDER)
COMMANDS = {name: command.summary for name, command in FOUND.items()}


def module(name: str) -> str:
    """The module of command ``name`` (``import``, a Python keyword, is in ``import_``)."""
    return f"tabletop.cli.{FOUND[name].module}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_lives_in_the_module_named_after_it(name):
    command = getattr(importlib.import_module(module(name)), FOUND[name].module)
    assert isinstance(command, click.Command) and command.name == name
    # The help listed without importing the module is the command's own.
    assert COMMANDS[name] == inspect.cleandoc(command.help).split("\n\n")[0].replace("\n", " ")
    assert declared.look_up(FOLDER, name) == FOUND[name]
    assert tabletop.cli.COMMANDS[name] == COMMANDS[name]


def test_every_module_with_its_command_is_found_and_no_helper_is():
    stems = {path.stem for path in FOLDER.glob("*.py")} | {path.parent.name for path in FOLDER.glob("*/__init__.py")}
    commands = {
        stem
        for stem in stems - {"__init__"}
        if isinstance(getattr(importlib.import_module(f"tabletop.cli.{stem}"), stem, None), click.Command)
    }
    assert {command.module for command in FOUND.values()} == commands
    assert {"common", "shapes", "terminal", "adding", "history", "hotseat", "declared"} <= stems - commands
    assert {"bots", "import", "pbem", "play", "replay"} <= set(FOUND)


def test_a_module_is_a_command_when_it_declares_one(tmp_path):
    def write(name: str, text: str) -> None:
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(inspect.cleandoc(text) + "\n")

    write(
        "plain.py",
        '''
        """A command."""
        import click


        @click.command()
        @click.option(
            "--x",
            help="x",
        )
        # a comment
        @click.pass_obj
        def plain(env, x) -> None:  # a comment
            r"""Do it: on
            two lines.

            And more."""
    ''',
    )
    write("with_.py", '@click.command("with")\ndef with_():\n    """With."""')
    write("named_cmd.py", '@click.command(name="other")\ndef named_cmd(\n    a: int = 1,\n):\n    "Named."')
    write("snake_case.py", "@click.command()\ndef snake_case():\n    pass")
    write("group/__init__.py", '@click.group(cls=Group)\ndef group():\n    """A group."""')
    # Helpers: a command named otherwise, a function named after the module
    # that is no command, a click decorator of another function.
    write("helper.py", '@click.command()\ndef other():\n    """Other."""\n\n\ndef helper():\n    """Helper."""')
    write("lookalike.py", '@click.command()\ndef first():\n    pass\n\n\n@cache\ndef lookalike():\n    """No."""')
    write("broken.py", '@click.command(\ndef broken(:\n    """')
    found = declared.find(tmp_path)
    # Listed as it says, though cut short: running it shows what is wrong.
    assert found.pop("broken").summary == ""
    assert {name: (c.module, c.summary) for name, c in found.items()} == {
        "plain": ("plain", "Do it: on two lines."),
        "with": ("with_", "With."),
        "other": ("named_cmd", "Named."),
        "snake-case": ("snake_case", ""),
        "group": ("group", "A group."),
    }
    assert declared.look_up(tmp_path, "with") == found["with"]
    assert declared.look_up(tmp_path, "snake-case") == found["snake-case"]
    assert declared.look_up(tmp_path, "helper") is declared.look_up(tmp_path, "with_") is None


def test_help_lists_every_command_as_click_would():
    ctx = click.Context(main)
    listed = main.get_help(ctx)
    flat = " ".join(listed.split())
    for name in COMMANDS:
        assert f" {name} {' '.join(COMMANDS[name].split()[:4])}" in flat


def _loaded_after(*args: str) -> set[str]:
    code = (
        "import sys\nfrom tabletop.cli import main\n"
        f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return set(done.stdout.split())


def test_help_imports_no_command_no_plugin_and_no_engine():
    loaded = _loaded_after("--help")
    assert not {module(name) for name in COMMANDS} & loaded
    assert not {"tabletop.play.engine", "tabletop.host.registry", "tabletop_glux", "email", "smtplib", "ssl"} & loaded


def test_a_command_imports_only_its_own_module():
    loaded = _loaded_after("replay", "--help")
    assert "tabletop.cli.replay" in loaded
    assert not {module(name) for name in COMMANDS if name != "replay"} & loaded
    assert "tabletop_glux" not in loaded and "smtplib" not in loaded


def pbem_module(name: str) -> str:
    """The module of ``pbem`` subcommand ``name`` (``set``, a Python builtin, is in ``set_``)."""
    return f"tabletop.cli.pbem.{pbem_package.MODULES.get(name, name)}"


@pytest.mark.parametrize("name", sorted(pbem_package.COMMANDS))
def test_each_pbem_subcommand_lives_in_the_module_named_after_it(name):
    module = importlib.import_module(pbem_module(name))
    command = getattr(module, pbem_package.MODULES.get(name, name))
    assert isinstance(command, click.Command) and command.name == name
    assert pbem_package.pbem.get_command(click.Context(pbem_package.pbem), name) is command
    # The help listed without importing the module is the subcommand's own.
    assert pbem_package.COMMANDS[name] == inspect.cleandoc(command.help).split("\n\n")[0].replace("\n", " ")


def test_pbem_help_lists_every_subcommand_as_click_would():
    listed = " ".join(pbem_package.pbem.get_help(click.Context(pbem_package.pbem)).split())
    for name in pbem_package.COMMANDS:
        assert f" {name} {' '.join(pbem_package.COMMANDS[name].split()[:4])}" in listed
    # Every module of the package but the shared one is a subcommand in the table.
    folder = Path(pbem_package.__file__).parent
    found = {path.stem for path in folder.glob("*.py")} - {"__init__", "common"}
    assert found == {pbem_package.MODULES.get(name, name) for name in pbem_package.COMMANDS}


def test_pbem_help_imports_no_subcommand_and_no_referee():
    loaded = _loaded_after("pbem", "--help")
    assert "tabletop.cli.pbem" in loaded
    assert not {m for m in loaded if m.startswith("tabletop.cli.pbem.") or m.startswith("tabletop.referee")}


def test_a_pbem_subcommand_imports_only_its_own_module():
    loaded = _loaded_after("pbem", "status", "--help")
    assert {m for m in loaded if m.startswith("tabletop.cli.pbem.")} == {
        "tabletop.cli.pbem.status",
        "tabletop.cli.pbem.common",
    }
    assert "smtplib" not in loaded and "imaplib" not in loaded


def test_the_viewer_does_not_import_the_command_line():
    code = "import sys, tabletop.viewer\nprint(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.split())
    assert "tabletop.viewer" in loaded
    assert not {m for m in loaded if m.startswith("tabletop.cli") or m.startswith("tabletop.referee")}


def test_the_package_imports_its_names_on_first_use():
    code = (
        "import sys, tabletop\nbefore = 'tabletop.play.engine' in sys.modules\n"
        "from tabletop import Match, hookimpl\nprint(before, 'tabletop.play.engine' in sys.modules, Match.__name__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "True", "Match"]
    import tabletop

    assert set(tabletop.__all__) <= set(dir(tabletop))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        tabletop.nothing  # noqa: B018


def test_a_command_whose_module_cannot_load_here_is_one_line(tmp_path):
    # As on a system without the POSIX calls the referee locks its folders with.
    code = "import sys\nsys.modules['fcntl'] = None\nfrom tabletop.cli import main\nmain(['pbem', 'status', 'x'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("tabletop: 'pbem' does not work on this system")
    assert "Traceback" not in done.stderr
