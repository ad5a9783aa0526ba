"""A plugin file that registers something tabletop cannot use: one line
naming the hook, what is wrong and the file and line at fault, exit 2 (1
for a bot whose decision breaks the rules), and no file written, from the
command a user runs. Each test is named after the hook it exercises."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletop import PluginError, Registry, get_plugin_manager
from tabletop.base.naming import code_of

from ..conftest import PILE, REPLAYS, run_tabletop

LOG = REPLAYS / "glux" / "two-players.jsonl"


def plugin(tmp_path: Path, text: str, name: str = "faulty.py") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def line_of(path: Path, text: str) -> int:
    """The number of the first line of ``path`` that holds ``text``."""
    return next(i for i, line in enumerate(path.read_text().splitlines(), start=1) if text in line)


def one_line(result, code: int, expected: str) -> None:
    assert result.exit_code == code, result.output
    assert result.stderr == f"tabletop: {expected}\n"


def nothing_in(folder: Path, *kept: str) -> None:
    assert sorted(p.name for p in folder.iterdir()) == sorted(kept)


# -- register_bots ------------------------------------------------------------------------
BOTS = """from tabletop import Bot, hookimpl


def first(game, view, player, legal, rng):
    return legal[0]


@hookimpl
def register_bots():
    return BOTS
"""


@pytest.mark.parametrize(
    ("bots", "problem"),
    [
        ('["first"]', "register_bots: a str ('first') is not a tabletop.Bot"),
        ("[None]", "register_bots: None is not a tabletop.Bot"),
        ("5", "register_bots returned an int (5), not a list of tabletop.Bot objects"),
        (
            'Bot("first", "one bot, not a list", first)',
            "register_bots returned a Bot, not a list of tabletop.Bot objects",
        ),
        (
            '[Bot("first:fast", "a name no --bot can give", first)]',
            "register_bots: a bot's name must be a word (no spaces, ':', ',', '='), not a str ('first:fast')",
        ),
        (
            '[Bot("first", "for a game named by a list", first, game=["glux"])]',
            "register_bots: bot 'first': its game is a list, not a game's name (or None: every game)",
        ),
    ],
    ids=["a-name", "none", "no-list", "one-bot", "a-colon-in-its-name", "a-list-for-its-game"],
)
def test_register_bots_something_that_is_not_a_bot_is_one_line(cli, tmp_path, bots, problem):
    path = plugin(tmp_path, BOTS.replace("BOTS", bots))
    result = cli("--plugins", path, "selfplay", "glux", "--seats", "2", "--bot", "first", "-o", "out", plugins=False)
    one_line(result, 2, f"{path}:{line_of(path, '@hookimpl')}: {problem}")
    nothing_in(tmp_path, path.name)


@pytest.mark.parametrize(
    ("choose", "problem"),
    [
        ("5", "its choose is an int (5), not a function"),
        ("lambda legal: legal[0]", "its choose <lambda>(legal) is not called as (game, view, player, legal, rng)"),
    ],
    ids=["a-number", "one-argument"],
)
def test_register_bots_a_choose_that_cannot_be_called_is_one_line(cli, tmp_path, choose, problem):
    """Found when the bots are gathered, before any game is played (it was
    a TypeError inside self-play, with the game half written)."""
    path = plugin(tmp_path, BOTS.replace("BOTS", f'[Bot("first", "cannot be asked", {choose})]'))
    result = cli("--plugins", path, "selfplay", "glux", "--seats", "2", "--bot", "first", "-o", "out", plugins=False)
    where = line_of(path, "@hookimpl") if choose == "5" else line_of(path, "return [Bot")
    one_line(result, 2, f"{path}:{where}: register_bots: bot 'first': {problem}")
    nothing_in(tmp_path, path.name)


def test_register_bots_two_bots_of_one_name_for_one_game_is_one_line(cli, tmp_path):
    """A plugin's 'random' would have been played instead of the core's,
    silently, by every command that names it."""
    from tabletop.play import builtin

    path = plugin(tmp_path, BOTS.replace("BOTS", '[Bot("random", "the first, not at random", first)]'))
    result = cli("--plugins", path, "selfplay", "glux", "--seats", "2", "-o", "out", plugins=False)
    one_line(
        result,
        2,
        f"{path}:{line_of(path, '@hookimpl')}: two plugins register a bot named 'random' for every game "
        f"(the other at {code_of(builtin.register_bots)})",
    )
    nothing_in(tmp_path, path.name)


def test_register_bots_a_bot_that_raises_is_named_as_a_plugin(cli, tmp_path):
    path = plugin(
        tmp_path, BOTS.replace("return legal[0]", "return {}[player]").replace("BOTS", '[Bot("first", "", first)]')
    )
    result = cli("--plugins", path, "selfplay", "glux", "--seats", "2", "--bot", "first", "-o", "out", plugins=False)
    one_line(
        result, 2, f"{path}:{line_of(path, '{}[player]')}: plugin {path.name}: its code raised KeyError: 'p1-first'"
    )
    nothing_in(tmp_path, path.name)


def test_register_bots_a_tournament_names_the_bot_at_its_own_code(cli, tmp_path):
    """A tournament times each bot through a wrapper of its own: the bad
    decision is still named at the bot's code, not the wrapper's."""
    path = plugin(tmp_path, BOTS.replace("return legal[0]", "return None").replace("BOTS", '[Bot("first", "", first)]'))
    result = cli(
        "--plugins", path, "tournament", "glux", "--bot", "first", "--bot", "random", "--games", "1", "--workers", "1",
        plugins=False,
    )  # fmt: skip
    one_line(
        result, 1, f"{path}:{line_of(path, 'def first')}: bot 'first' chose None for p1-first: not a decision of glux"
    )


CONFIGURED = """from tabletop import Bot, hookimpl


def first(game, view, player, legal, rng):
    return legal[0]


def configured(settings):
    return "first"


first.configured = configured


@hookimpl
def register_bots():
    return [Bot("first", "settings that give no bot", first)]
"""


def test_register_bots_settings_that_give_no_choose_are_one_line(cli, tmp_path):
    """A bot's ``choose.configured`` (what ``--bot NAME:key=value`` asks)
    that gives something the core cannot call: one line naming it."""
    path = plugin(tmp_path, CONFIGURED)
    result = cli(
        "--plugins", path, "selfplay", "glux", "--seats", "2", "--bot", "first:fast=1", "-o", "out", plugins=False
    )
    where = f"{path}:{line_of(path, 'def configured')}"
    one_line(
        result, 2, f"{where}: bot 'first': its choose.configured gave a choose that is a str ('first'), not a function"
    )
    nothing_in(tmp_path, path.name)


# -- register_renderers -------------------------------------------------------------------
RENDERERS = """from tabletop import Legend, Renderer, Symbol, hookimpl


def draw(game, view, viewer):
    return "<svg/>"


def legend(game):
    return LEGEND


@hookimpl
def register_renderers():
    return RENDERERS
"""


@pytest.mark.parametrize(
    ("renderers", "problem"),
    [
        ('["svg"]', "register_renderers: a str ('svg') is not a tabletop.Renderer"),
        ("7", "register_renderers returned an int (7), not a list of tabletop.Renderer objects"),
        (
            '[Renderer("glux", "plain", "text/plain", "draw")]',
            "register_renderers: a plain renderer for glux: its render is a str ('draw'), not a function",
        ),
        (
            '[Renderer("glux", "text", "text/plain", draw)]',
            "register_renderers: a text renderer for glux: the text picture is the core's own "
            "(a png is made from the svg one)",
        ),
        (
            '[Renderer("glux", "plain", "text/plain", draw, Legend(("red", "blue")))]',
            "register_renderers: a plain renderer for glux: its legend is a Legend, not a function",
        ),
    ],
    ids=["a-name", "no-list", "a-name-for-render", "text", "a-legend-not-a-function"],
)
def test_register_renderers_something_that_is_not_a_renderer_is_one_line(cli, tmp_path, renderers, problem):
    path = plugin(tmp_path, RENDERERS.replace("RENDERERS", renderers))
    result = cli("--plugins", path, "render", LOG, "--format", "plain", "-o", "board.txt", plugins=False)
    one_line(result, 2, f"{path}:{line_of(path, '@hookimpl')}: {problem}")
    nothing_in(tmp_path, path.name)


def test_register_renderers_a_render_that_cannot_be_called_is_one_line(cli, tmp_path):
    path = plugin(
        tmp_path, RENDERERS.replace("RENDERERS", '[Renderer("glux", "plain", "text/plain", lambda view: "")]')
    )
    result = cli("--plugins", path, "view", LOG, "-o", "page.html", plugins=False)
    one_line(
        result,
        2,
        f"{path}:{line_of(path, 'return [Renderer')}: register_renderers: a plain renderer for glux: "
        "its render <lambda>(view) is not called as (game, view, viewer)",
    )
    nothing_in(tmp_path, path.name)


def test_register_renderers_two_of_one_format_for_one_game_read_naturally(cli, tmp_path):
    from tabletop_glux import about

    path = plugin(tmp_path, RENDERERS.replace("RENDERERS", '[Renderer("glux", "svg", "image/svg+xml", draw)]'))
    result = cli("--plugins", path, "render", LOG, "-o", "board.svg", plugins=False)
    one_line(
        result,
        2,
        f"{path}:{line_of(path, '@hookimpl')}: two plugins register an svg renderer for glux "
        f"(the other at {about.__file__}:{line_of(Path(about.__file__), 'PICTURES')})",
    )
    nothing_in(tmp_path, path.name)


@pytest.mark.parametrize(
    ("legend", "problem"),
    [
        ('{"seats": ["red", "blue"]}', "its legend gave a dict, not a tabletop.Legend"),
        (
            'Legend(("red", "blue"), ("star",))',
            "its legend gave a str ('star') among its symbols, not a tabletop.Symbol of text",
        ),
        ('Legend(("red", 7))', "its legend gave seats that are a tuple, not a colour (text) for each seat"),
        (
            'Legend(("red", "blue"), turn=lambda state: None)',
            "its legend gave a turn that <lambda>(state) is not called as (game, state)",
        ),
    ],
    ids=["a-dict", "a-symbol-by-name", "a-number-for-a-colour", "a-turn-of-one-argument"],
)
def test_register_renderers_a_legend_that_is_no_legend_is_one_line(cli, tmp_path, legend, problem):
    """The viewer's key: Pile has no picture of its own, so the plugin's is the game's svg."""
    path = plugin(
        tmp_path,
        RENDERERS.replace("LEGEND", legend).replace(
            "RENDERERS", '[Renderer("pile", "svg", "image/svg+xml", draw, legend)]'
        ),
    )
    played = cli("selfplay", "pile", "--seats", "2", "-o", "games")
    assert played.exit_code == 0, played.output
    log = next((tmp_path / "games").iterdir())
    result = cli("--plugins", path, "view", log, "-o", "page.html")
    one_line(result, 2, f"{path}:{line_of(path, 'def legend')}: an svg renderer for pile: {problem}")
    nothing_in(tmp_path, path.name, "games")


# -- register_variants --------------------------------------------------------------------
VARIANTS = """import attrs

from tabletop import Variant, hookimpl


class Rules:
    def __init__(self, limit):
        self.limit = limit


@attrs.frozen
class Limited:
    limit: list = attrs.field(factory=list)


@hookimpl
def register_variants():
    return VARIANTS
"""


@pytest.mark.parametrize(
    ("variants", "problem", "at"),
    [
        ('["glux-x"]', "register_variants: a str ('glux-x') is not a tabletop.Variant", "@hookimpl"),
        ("3", "register_variants returned an int (3), not a list of tabletop.Variant objects", "@hookimpl"),
        (
            '[Variant("glux-x:limit=1", "glux", "a name no header can enable", Rules(1))]',
            "register_variants: a variant's name must be a word (no spaces, ':', ',', '='), not a str ('glux-x:limit=1')",
            "@hookimpl",
        ),
        (
            '[Variant("glux-x", "glux", "no rules", None)]',
            "register_variants: variant 'glux-x': its rules are None, not a module, an object or a class "
            "with @rulehook methods",
            "@hookimpl",
        ),
        (
            '[Variant("glux-x", "glux", "a class made with an argument", Rules)]',
            "register_variants: variant 'glux-x': its rules class Rules cannot be made without arguments "
            "(a variant with parameters gives an attrs class: its fields are the parameters)",
            "class Rules",
        ),
        (
            '[Variant("glux-x", "glux", "an event by name", Rules(1), events=("push",))]',
            "register_variants: variant 'glux-x': its events hold a str ('push'), not an event class "
            "(an attrs subclass of tabletop.Event)",
            "@hookimpl",
        ),
        (
            '[Variant("glux-x", "glux", "a list as a parameter", Limited)]',
            "variant 'glux-x': parameter 'limit' must be int, float, bool or str, not <class 'list'>",
            "@attrs.frozen",
        ),
    ],
    ids=[
        "a-name",
        "no-list",
        "a-colon-in-its-name",
        "no-rules",
        "a-class-needing-arguments",
        "an-event-by-name",
        "a-list-parameter",
    ],
)
def test_register_variants_something_that_is_not_a_variant_is_one_line(cli, tmp_path, variants, problem, at):
    """Found by any command, even one that lists the variants."""
    path = plugin(tmp_path, VARIANTS.replace("VARIANTS", variants))
    result = cli("--plugins", path, "new", "glux", "--players", "a,b", "-o", "game.jsonl", plugins=False)
    one_line(result, 2, f"{path}:{line_of(path, at)}: {problem}")
    nothing_in(tmp_path, path.name)


def test_register_variants_two_of_one_name_name_both_places(cli, tmp_path):
    from tabletop_variants import glux_second_place_2p as shipped

    path = plugin(tmp_path, VARIANTS.replace("VARIANTS", '[Variant("glux-second-place-2p", "glux", "mine", Rules(1))]'))
    result = cli("--plugins", path, "variants", "glux", plugins=False)
    one_line(
        result,
        2,
        f"{path}:{line_of(path, '@hookimpl')}: two plugins register a variant named 'glux-second-place-2p' "
        f"(the other at {code_of(shipped.register_variants)})",
    )


# -- register_games -----------------------------------------------------------------------
GAMES = """from tabletop import Game, hookimpl


class Coin(Game):
    name = "coin"
    title = "Coin"
    PARTS

    def initial(self):
        return 0

    def outcome(self, state):
        return None


@hookimpl
def register_games():
    return GAMES
"""


@pytest.mark.parametrize(
    ("parts", "games", "problem", "at"),
    [
        ("", '["coin"]', "register_games: a str ('coin') is not a game (a subclass of tabletop.Game)", "@hookimpl"),
        (
            "",
            "[Coin(('a', 'b'), {}, None)]",
            "register_games: a Coin is not a game (a subclass of tabletop.Game)",
            "@hookimpl",
        ),
        ("", "4", "register_games returned an int (4), not a list of game classes", "@hookimpl"),
        (
            "name = 7",
            "[Coin]",
            "register_games: game Coin: its name must be a word (no spaces), not an int (7)",
            "class Coin",
        ),
        (
            "min_players = '2'",
            "[Coin]",
            "register_games: game 'coin': min_players and max_players must be whole numbers with "
            "1 <= min_players <= max_players, not a str ('2') and an int (2)",
            "class Coin",
        ),
        (
            "options = ['size']",
            "[Coin]",
            "register_games: game 'coin': its options are a list, not a table of each option's name and help",
            "class Coin",
        ),
        (
            "events = ('flip',)",
            "[Coin]",
            "register_games: game 'coin': its events hold a str ('flip'), not an event class "
            "(an attrs subclass of tabletop.Event)",
            "class Coin",
        ),
        (
            "initial = Game.initial",
            "[Coin]",
            "register_games: game 'coin' has no initial() of its own (every game writes it)",
            "class Coin",
        ),
    ],
    ids=[
        "a-name",
        "an-instance",
        "no-list",
        "a-number-for-a-name",
        "text-for-players",
        "a-list-of-options",
        "an-event-by-name",
        "no-initial",
    ],
)
@pytest.mark.parametrize("command", ["games", "new"])
def test_register_games_something_that_is_not_a_game_is_one_line(cli, tmp_path, parts, games, problem, at, command):
    """``games`` lists the games a plugin registers by itself, and says the same."""
    text = GAMES.replace("PARTS", parts).replace("GAMES", games)
    if parts == "initial = Game.initial":
        text = text.replace("    def initial(self):\n        return 0\n", "")
    path = plugin(tmp_path, text)
    args = ["games"] if command == "games" else ["new", "coin", "--players", "a,b", "-o", "game.jsonl"]
    result = cli("--plugins", path, *args, plugins=False)
    one_line(result, 2, f"{path}:{line_of(path, at)}: {problem}")
    nothing_in(tmp_path, path.name)


@pytest.mark.parametrize(
    ("parts", "problem"),
    [
        (
            "",
            "game 'coin' has no turn (tabletop.Turn, made in __init__) and no next(), check(), apply(), legal() of its own",
        ),
        (
            "rule_specs = 5",
            "game 'coin': its rule_specs and official_rules do not go together: did not find any 'tabletop.rules' hooks in 5",
        ),
    ],
    ids=["no-turn", "no-rule-specs"],
)
def test_register_games_a_game_that_cannot_answer_the_engine_is_one_line(cli, tmp_path, parts, problem):
    """Found when the game is first made for a header, before anything is written."""
    path = plugin(tmp_path, GAMES.replace("PARTS", parts).replace("GAMES", "[Coin]"))
    result = cli("--plugins", path, "new", "coin", "--players", "a,b", "-o", "game.jsonl", plugins=False)
    one_line(result, 2, f"{path}:{line_of(path, 'class Coin')}: {problem}")
    nothing_in(tmp_path, path.name)


# -- register_commands --------------------------------------------------------------------
def test_register_commands_something_that_is_not_a_command_is_one_line(tmp_path):
    """Plugin commands come from TABLETOP_PLUGINS, read as the command line is: a process of its own."""
    path = plugin(
        tmp_path,
        "from tabletop import hookimpl\n\n\n@hookimpl\ndef register_commands(cli):\n    cli.add_command('hello', 'hello')\n",
    )
    result = run_tabletop("hello", cwd=tmp_path, env={"TABLETOP_PLUGINS": str(path)})
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"tabletop: {path}:4: register_commands added a str ('hello') as the command 'hello', not a click command\n"
    )
    nothing_in(tmp_path, path.name)


# -- register_numberings ------------------------------------------------------------------
def test_register_numberings_a_words_that_cannot_be_called_is_one_line(tmp_path):
    """The action numbers of the learning adapters (no command asks them)."""
    from tabletop.ai.actions import numbering_of

    path = plugin(
        tmp_path,
        "from tabletop import hookimpl\nfrom tabletop.model.numbering import Numbering\n\n\n"
        "@hookimpl\ndef register_numberings():\n    return [Numbering('glux', lambda: ['a'])]\n",
    )
    registry = Registry(get_plugin_manager([path, PILE], environment=False))
    with pytest.raises(PluginError) as raised:
        numbering_of(registry, "glux")
    assert str(raised.value) == (
        f"{path}:7: register_numberings: the numbering of glux: its words <lambda>() is not called as (game)"
    )
    assert re.fullmatch(r"[^\n]+", str(raised.value))


# -- a game its about declares (tabletop.host.abouts) -------------------------------------
def game_package(tmp_path: Path, about: str) -> Path:
    """A folder for --plugins holding one package, ``tabletop_fault_N``,
    with ``about`` as its about.py (a name of its own: a package once
    imported stays imported)."""
    name = f"tabletop_fault_{abs(hash((str(tmp_path), about))) % 10**8}"
    package = tmp_path / "games" / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "about.py").write_text(about.replace("PACKAGE", name))
    return package / "about.py"


ABOUT = "TITLE = 'Faulty'\nDESCRIPTION = 'a game'\nPLAYERS = (2, 2)\n"


@pytest.mark.parametrize(
    ("declared", "problem"),
    [
        ("", "a game's about.py in a plugin folder says where its game is: GAME = 'module:Class'"),
        ("GAME = 'PACKAGE.game'\n", "GAME must be 'package.module:Name', not 'PACKAGE.game'"),
        (
            "GAME = 'PACKAGE.game:Faulty'\n",
            "cannot load PACKAGE.game:Faulty: ModuleNotFoundError: No module named 'PACKAGE.game'",
        ),
        (
            "GAME = 'PACKAGE.game:Faulty'\nPICTURES = {'png': 'PACKAGE.picture'}\n",
            "PICTURES names the format 'png' (formats: svg)",
        ),
    ],
    ids=["no-game", "no-class", "no-module", "unknown-format"],
)
def test_a_game_its_about_declares_wrongly_is_one_line(cli, tmp_path, declared, problem):
    about = game_package(tmp_path, ABOUT + declared)
    result = cli("--plugins", tmp_path / "games", "games", plugins=False)
    one_line(result, 2, f"{about}: {problem.replace('PACKAGE', about.parent.name)}")
    nothing_in(tmp_path, "games")
