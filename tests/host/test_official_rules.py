"""A game's official rules implement every rule hook its rule specs declare:
a hook they leave out would answer None (a gathering hook, []) in silence,
and the game run without the rule (an official module whose functions are
not marked ``@rulehook``: Glyph Chess games that never end). Found when the
game's rules are first made (``Registry.game``), in one line naming the
game, the hook and where the official rules are."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop import PluginError, Registry, get_plugin_manager
from tabletop.log.header import Header, Randomness

from .test_plugin_faults import line_of, nothing_in, one_line

TICK = '''from typing import ClassVar

import attrs

from tabletop import Decide, Event, Game, Outcome, Over, hookimpl, rulehook, rulespec


@attrs.frozen
class Tick(Event):
    kind: ClassVar[str] = "tick"
    player: str


class TickSpecs:
    @rulespec(firstresult=True)
    def tick_rounds(self, players: int) -> int | None:
        """How many ticks a game lasts."""

    @rulespec(firstresult=True)
    def tick_points(self, players: int) -> int | None:
        """The points a tick scores."""


OFFICIAL


class TickGame(Game):
    name = "tick"
    title = "Tick"
    min_players = 2
    max_players = 2
    events = (Tick,)
    rule_specs = TickSpecs
    official_rules = RULES

    def __init__(self, players, options, rules):
        super().__init__(players, options, rules)
        self.rounds = rules.tick_rounds(players=len(players))
        self.points = rules.tick_points(players=len(players))

    def initial(self):
        return 0

    def next(self, state):
        return Over() if self.rounds is not None and state >= self.rounds else Decide((self.players[state % 2],))

    def check(self, state, decision):
        return None

    def apply(self, state, event):
        return state + 1

    def legal(self, state, player):
        return [Tick(player)]

    def outcome(self, state):
        return Outcome({p: 0 for p in self.players}, ())


@hookimpl
def register_games():
    return [TickGame]
'''

#: The official rules as an object, one of its methods not marked ``@rulehook``.
AN_OBJECT = """class OfficialTick:
    @rulehook
    def tick_rounds(self, players):
        return 4

    def tick_points(self, players):  # not marked: pluggy does not take it
        return 1
"""

#: The official rules as a module of their own, one function not marked.
MODULE = """from tabletop import rulehook


@rulehook
def tick_points(players):
    return 1


def tick_rounds(players):  # not marked: pluggy does not take it
    return 4
"""

LOAD_MODULE = """import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location("tick_official", pathlib.Path(__file__).with_name("tick_official.py"))
tick_official = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tick_official)
"""


def _plugin(tmp_path: Path, official: str, rules: str) -> Path:
    path = tmp_path / "tick.py"
    path.write_text(TICK.replace("OFFICIAL", official).replace("RULES", rules))
    return path


def test_official_rules_missing_a_hook_of_the_specs_are_one_line_naming_game_hook_and_rules(cli, tmp_path):
    path = _plugin(tmp_path, AN_OBJECT, "OfficialTick()")
    result = cli("--plugins", path, "new", "tick", "--players", "a,b", "-o", "game.jsonl", plugins=False)
    one_line(
        result,
        2,
        f"{path}:{line_of(path, 'class OfficialTick')}: game 'tick': its official rules (OfficialTick) implement "
        "no 'tick_points', a rule hook its rule_specs declare (a function or method named tick_points, marked "
        "@rulehook)",
    )
    nothing_in(tmp_path, path.name)


def test_an_official_module_whose_function_is_not_a_hook_implementation_is_named_by_its_file(tmp_path):
    (tmp_path / "tick_official.py").write_text(MODULE)
    path = _plugin(tmp_path, LOAD_MODULE, "tick_official")
    registry = Registry(get_plugin_manager([path], environment=False))
    header = Header("tick", ("a", "b"), (), {}, Randomness(seed="s"), 1)
    with pytest.raises(PluginError) as raised:
        registry.game(header)
    assert raised.value.message == (
        "game 'tick': its official rules (module tick_official) implement no 'tick_rounds', a rule hook its "
        "rule_specs declare (a function or method named tick_rounds, marked @rulehook)"
    )
    assert raised.value.where == str(tmp_path / "tick_official.py")
    assert "\n" not in str(raised.value)


def test_official_rules_implementing_every_hook_make_the_game(tmp_path):
    (tmp_path / "tick_official.py").write_text(MODULE.replace("def tick_rounds", "@rulehook\ndef tick_rounds"))
    path = _plugin(tmp_path, LOAD_MODULE, "tick_official")
    registry = Registry(get_plugin_manager([path], environment=False))
    game = registry.game(Header("tick", ("a", "b"), (), {}, Randomness(seed="s"), 1))
    assert (game.rounds, game.points) == (4, 1)


def test_the_shipped_games_official_rules_implement_every_hook_of_their_specs(registry):
    for name, cls in registry.games.items():
        players = tuple(f"p{i}" for i in range(cls.min_players))
        registry.game(Header(name, players, (), cls.normalize_options({}, players), Randomness(seed="s"), 1))
