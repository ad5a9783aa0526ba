"""The plugin host: discovery, rule hooks per game, and the hook reference."""

from __future__ import annotations

import inspect
import re

import pluggy
import pytest

from tabletop import PluginError, Registry, UsageError, get_plugin_manager
from tabletop.host import hookspecs
from tabletop.log.header import Header

from ..conftest import PILE, ROOT

HOOK_DOC = (ROOT / "docs" / "hooks.md").read_text()


def all_hooks(registry) -> dict[str, object]:
    """Every hook a plugin can implement: the core's and each game's rule hooks."""
    found = {name: fn for name, fn in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("register_")}
    for cls in registry.games.values():
        specs = cls.rule_specs
        for name in dir(specs):
            fn = getattr(specs, name)
            if hasattr(fn, "tabletop.rules_spec"):
                found[name] = fn
    return found


def documented() -> set[str]:
    return set(re.findall(r"^### `(\w+)`", HOOK_DOC, re.MULTILINE))


def test_every_hook_is_documented(registry):
    hooks = {n for n in all_hooks(registry) if not n.startswith("pile_")}  # the test game is not published
    assert hooks - documented() == set(), "hooks missing from docs/hooks.md"


def test_every_documented_hook_exists(registry):
    assert documented() - set(all_hooks(registry)) == set(), "docs/hooks.md names hooks that do not exist"


def test_every_hook_is_documented_with_its_signature(registry):
    for name, fn in all_hooks(registry).items():
        if name.startswith("pile_"):
            continue
        params = [p for p in inspect.signature(fn).parameters if p != "self"]
        section = HOOK_DOC.split(f"### `{name}`", 1)[1].split("\n### ", 1)[0]
        assert f"{name}({', '.join(params)})" in section.replace("\n", " "), name
        assert "```python" in section, f"{name} has no example"


def test_every_hook_has_a_test_named_after_it(registry):
    tests = "".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    names = re.findall(r"^\s*def (test_\w+)", tests, re.MULTILINE)
    for hook in all_hooks(registry):
        assert any(hook in name for name in names), f"no test is named after the hook {hook}"


def test_built_in_games_come_from_entry_points_like_any_plugin():
    pm = get_plugin_manager(environment=False)
    assert "glux" in [pm.get_name(p) for p in pm.get_plugins()]
    assert "glux" in Registry(pm).games


def test_plugin_manager_is_fresh_each_time():
    assert get_plugin_manager(environment=False) is not get_plugin_manager(environment=False)


def test_a_variant_is_registered_only_in_its_own_games_rule_manager_pile_max_take(registry):
    three = registry.game(Header("pile", ("a", "b"), ("pile-take-three",)))
    plain = registry.game(Header("pile", ("a", "b")))
    assert three.max_take == 3 and plain.max_take == 2
    glux = registry.game(Header("glux", ("a", "b"), ("glux-second-place-2p",)))
    assert not hasattr(glux.rules, "pile_max_take")


def test_a_rule_hook_with_no_spec_in_that_game_is_an_error(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text(
        "from tabletop import Variant, hookimpl, rulehook\n"
        "class Stray:\n"
        "    @rulehook\n"
        "    def glux_no_such_rule(self):\n"
        "        return 1\n"
        "@hookimpl\n"
        "def register_variants():\n"
        "    return [Variant('stray', 'glux', 'a typo', Stray())]\n"
    )
    # Found when the plugin loads, not when a game first enables the variant.
    with pytest.raises(PluginError) as caught:
        Registry(get_plugin_manager([stray], environment=False))
    assert str(caught.value).startswith(f"{stray}:3: variant 'stray': 'glux_no_such_rule' is not a rule hook of glux")
    assert "(rule hooks: glux_apply, glux_bag, " in str(caught.value)


def test_a_variant_enabled_twice(registry):
    with pytest.raises(UsageError, match="enabled twice"):
        registry.game(Header("pile", ("a", "b"), ("pile-take-three", "pile-take-three")))


def test_two_plugins_registering_one_name(tmp_path):
    twin = tmp_path / "twin.py"
    twin.write_text(PILE.read_text())
    with pytest.raises(PluginError, match="two plugins register a game named 'pile'"):
        Registry(get_plugin_manager([PILE, twin], environment=False))


def test_register_commands_adds_a_command(tmp_path, monkeypatch):
    plugin = tmp_path / "hello.py"
    plugin.write_text(
        "import click\nfrom tabletop import hookimpl\n"
        "@hookimpl\ndef register_commands(cli):\n"
        "    @cli.command()\n    def hello():\n        '''Say hello.'''\n        click.echo('hello from a plugin')\n"
    )
    from ..conftest import run_tabletop

    result = run_tabletop("hello", cwd=tmp_path, env={"TABLETOP_PLUGINS": str(plugin)})
    assert result.returncode == 0 and result.stdout == "hello from a plugin\n"


HELLO_FILE = """import click
from tabletop import hookimpl


@hookimpl
def register_commands(cli):
    @cli.command()
    def hello():
        "Say hello."
        click.echo("hello from a file")
"""


def test_register_commands_from_a_file_given_with_plugins(tmp_path):
    """A plugin file given with --plugins adds its commands too (the option
    is read before the command's name is looked up); without it, the name
    is no command."""
    from ..conftest import run_tabletop

    plugin = tmp_path / "hello.py"
    plugin.write_text(HELLO_FILE)
    given = run_tabletop("--plugins", plugin, "hello", cwd=tmp_path)
    assert given.returncode == 0 and given.stdout == "hello from a file\n", given.stderr
    without = run_tabletop("hello", cwd=tmp_path)
    assert without.returncode == 2 and "No such command 'hello'" in without.stderr


def test_register_bots_adds_a_bot(registry):
    assert registry.bot("random", "pile").name == "random"
    assert registry.bot("greedy", "glux").game == "glux"
    with pytest.raises(UsageError, match="unknown bot 'greedy' for pile"):
        registry.bot("greedy", "pile")


BOT_ASTRAY = """from tabletop import Bot, hookimpl


def nonsense(game, view, player, legal, rng):
    return "e5"


@hookimpl
def register_bots():
    return [Bot("nonsense", "answers in words", nonsense, reads_state=READS)]
"""


@pytest.mark.parametrize("reads_state", [True, False])
def test_register_bots_a_bot_deciding_outside_its_listing_is_one_line(tmp_path, reads_state):
    """A plugin's bot that answers with something that is no decision of
    the game: one line naming the bot's file and line, exit 1, no log
    written (on the fast path too, where bots read no state)."""
    from ..conftest import run_tabletop

    plugin = tmp_path / "astray.py"
    plugin.write_text(BOT_ASTRAY.replace("READS", str(reads_state)))
    out = tmp_path / "games"
    result = run_tabletop(
        "--plugins", plugin, "selfplay", "glux", "--seats", "2", "--bot", "nonsense", "-o", out, cwd=tmp_path
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr == (
        f"tabletop: {plugin}:4: bot 'nonsense' chose 'e5' for p1-nonsense: not a decision of glux\n"
    )
    assert not out.exists() or not any(out.iterdir())


RENDERER_ASTRAY = """from tabletop import Renderer, hookimpl


def draw(game, view, viewer):
    return DRAWN


@hookimpl
def register_renderers():
    return [Renderer("glux", "plain", "text/plain", draw)]
"""


@pytest.mark.parametrize("drawn", ["None", "b'<svg/>'"])
def test_register_renderers_a_picture_that_is_not_text_is_one_line(tmp_path, drawn):
    """A plugin's renderer that draws something other than text: one line
    naming the renderer, its file and line, exit 2, no picture written."""
    from ..conftest import run_tabletop

    plugin = tmp_path / "drawing.py"
    plugin.write_text(RENDERER_ASTRAY.replace("DRAWN", drawn))
    out = tmp_path / "board.txt"
    log = ROOT / "replays" / "glux" / "two-players.jsonl"
    result = run_tabletop("--plugins", plugin, "render", log, "--format", "plain", "-o", out, cwd=tmp_path)
    kind = type(eval(drawn)).__name__
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"tabletop: {plugin}:4: renderer 'plain' of glux drew {kind}, not text\n"
    assert not out.exists()


def test_register_games_and_register_variants(registry):
    assert registry.game_class("pile").title == "Pile"
    assert [v.name for v in registry.variants_of("pile")] == ["pile-shout", "pile-take", "pile-take-three"]


def test_hookimpl_is_re_exported_so_plugins_never_import_pluggy():
    import tabletop

    assert isinstance(tabletop.hookimpl, pluggy.HookimplMarker)
    assert "pluggy" not in PILE.read_text()


def test_a_game_is_made_once_per_header_less_its_seed(registry):
    """Reading many logs of one set-up makes their game once; a header that
    differs in game, players, variants or options (but for the seed) gets
    its own, and options that cannot be kept by value get a fresh one."""
    from tabletop.host.registry import GAMES_KEPT
    from tabletop.log.header import Randomness

    one = registry.game(Header("glux", ("a", "b"), (), {}, Randomness(seed="1")))
    assert registry.game(Header("glux", ("a", "b"), (), {}, Randomness(seed="2"))) is one
    others = [
        Header("glux", ("a", "c")),
        Header("glux", ("a", "b"), ("glux-second-place-2p",)),
        Header("glux", ("a", "b", "c"), (), {"board": "three-four-players"}),
        Header("pile", ("a", "b")),
    ]
    made = [registry.game(header) for header in others]
    assert all(game is not one for game in made) and len({id(game) for game in made}) == len(made)
    assert made[2].board is not one.board
    # A board kept in the header as an object: made afresh each time, and right.
    text = (ROOT / "plugins" / "tabletop_glux" / "boards" / "two-players.txt").read_text()
    own = Header("glux", ("a", "b"), (), {"board": {"file": "mine.txt", "text": text}})
    first, second = registry.game(own), registry.game(own)
    assert first is not second and first.board.names == one.board.names
    # Values JSON tells apart are told apart (Python finds 1 == 1.0 == True).
    assert len({id(registry.game(Header("pile", ("a", "b"), (), {"stones": v}))) for v in (1, 1.0, True)}) == 3
    # The registry keeps a bounded number of games.
    for i in range(GAMES_KEPT + 4):
        registry.game(Header("glux", (f"p{i}", "q")))
    assert len(registry._games) <= GAMES_KEPT
