"""Mail commands are found, not listed: each module of
``tabletop.referee.commands`` brings its commands (their names, how a mail
writes them, their help), and the help mails list what is found."""

from __future__ import annotations

import pkgutil
import sys

import pytest

from tabletop.referee import commands, mailout

from .conftest import ANN, body, game_copy, plain_registry_cached

ECHO = """
from tabletop.referee.commands import Mail, MasterCommand, PlayerCommand


class Echo(PlayerCommand):
    name = "echo"
    usage = "echo: TEXT"
    does = "the text back to you"

    def run(self, ref, mail: Mail) -> str:
        said = " ".join(value for _, value in mail.letter.values("echo"))
        ref.mail_to(mail.player, "Echo", said + "\\n", mail.key + "-echo", mail.letter)
        return f"{mail.player} echoed {said}"


class Chime(MasterCommand):
    name = "chime"
    usage = "chime"
    does = "nothing at all"

    def run(self, ref, now, stamp, **kwargs) -> str:
        return "chimed"
"""


@pytest.fixture
def fresh_finder():
    commands.found.cache_clear()
    commands.words.cache_clear()
    yield
    commands.found.cache_clear()
    commands.words.cache_clear()


def test_a_command_module_added_to_the_package_is_found(tmp_path, smtp, monkeypatch, fresh_finder):
    """Trust finding 27.5: a module dropped into the commands package is a
    command: a player's mail is read for its line and runs it, the game
    master's by its name, and both help mails list it; nothing else names it."""
    extra = tmp_path / "more"
    extra.mkdir()
    (extra / "echo.py").write_text(ECHO)
    monkeypatch.setattr(commands, "__path__", [*commands.__path__, str(extra)])
    monkeypatch.delitem(sys.modules, "tabletop.referee.commands.echo", raising=False)
    (tmp_path / "game").mkdir()
    game = game_copy(tmp_path / "game", plain_registry_cached(), smtp)
    out = game.receive(game.mail("ann", "echo: hello there"))
    assert "ann echoed hello there" in out, out
    game.send()
    echoed = [m for m in smtp.inbox.to(ANN) if body(m).startswith("Echo")]
    assert len(echoed) == 1 and "hello there" in body(echoed[0])
    assert commands.master_command("chime") is not None
    assert commands.run_master(game.referee(), "chime", 0.0, "s") == "chimed"
    assert "echo: TEXT" in mailout.player_help("g")
    assert "chime" in mailout.master_help("g")
    monkeypatch.delitem(sys.modules, "tabletop.referee.commands.echo", raising=False)


def test_the_help_lists_every_command_found_and_the_command_line_has_the_masters(fresh_finder):
    """Trust finding 27.5: every module of the package brings a command; the
    player's help lists each player's command a mail writes, the game
    master's each of theirs, and each game master's command said to be on
    the command line is a ``tabletop pbem`` command of that name."""
    from tabletop.cli import main

    players, masters = commands.found()
    modules = {m.name for m in pkgutil.iter_modules(commands.__path__)}
    assert modules == {type(c).__module__.rpartition(".")[2] for c in (*players, *masters)}
    helped = mailout.player_help("g")
    for command in players:
        if command.usage:
            assert f"    {command.usage}  " in helped, command.name
        else:
            assert command.runs == commands.FALLBACK  # only the view is asked by no line
    assert sum(c.runs == commands.FALLBACK for c in players) == 1
    told = mailout.master_help("g")
    for command in masters:
        assert command.usage and f"    {command.usage}  " in told, command.name
    pbem = main.get_command(None, "pbem")
    for name in commands.on_the_command_line():
        assert name in pbem.list_commands(None), name
        assert f"{name}|" in told or f"|{name} " in told


def test_each_master_command_is_a_pbem_subcommand_made_from_its_class(fresh_finder):
    """The game master's commands are ``tabletop pbem`` subcommands made from
    their classes: ``pbem --help`` lists each (read from the source, the
    referee not imported) with the first paragraph of the subcommand's own
    help, which says what the mail's help says, and takes the class's
    arguments and options after the game folder."""
    import click

    from tabletop.cli import pbem as pbem_package

    group = pbem_package.pbem
    ctx = click.Context(group)
    listed = pbem_package.masters()
    assert sorted(listed) == sorted(commands.on_the_command_line())
    for name, summary in listed.items():
        master = commands.master_command(name)
        made = group.get_command(ctx, name)
        assert made is not None and made.help is not None and made.name == name
        assert made.help.split("\n\n")[0] == summary == f"Game master: {' '.join(master.does.split())}."
        assert [p.name for p in made.params] == ["directory", *master.takes, *(k for _, k, _ in master.repeats)]
        assert f"tabletop pbem {name} duel" in made.help
