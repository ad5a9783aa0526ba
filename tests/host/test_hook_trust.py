"""Hostile rule hook implementations: one that raises, answers a value of
the wrong type, or None where the rules it wraps answered, is one line
naming the variant, its file and line, and the hook, on every path and
every command; never a traceback, never a wrong answer taken for a right one."""

from __future__ import annotations

import json
import random
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import Header, PluginError, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.play.live import selfplay

# Hooks of both games that any game asks (setup, every turn, the end), by
# game: a hostile implementation of each must be caught.
HOOKS = {
    "glux": [
        "glux_bag",
        "glux_hand_size",
        "glux_directions",
        "glux_turn_order",
        "glux_stack_height",
        "glux_distance",
        "glux_may_pass",
        "glux_draw_after_placing",
        "glux_still_placing",
        "glux_game_over",
        "glux_score_room",
        "glux_winners",
        "glux_decisions",
        "glux_memo",
    ],
    "glyph-chess": [
        "glyph_hand_limit",
        "glyph_coins",
        "glyph_first_player",
        "glyph_move_range",
        "glyph_may_land",
        "glyph_draws",
        "glyph_centre_wins",
        "glyph_spells",
    ],
}
#: What a hostile implementation does: raise; answer a list or a float
#: (where the hook is due a bool, a number, a table, an event...); answer
#: None from a wrapper (what it wraps answered).
BEHAVIOURS = ("raise", "list", "float", "drop")
#: The start of what each behaviour is told as.
SAID = {
    "raise": "raised ValueError: hostile",
    "list": "returned a list, expected ",
    "float": "returned a float (0.5), expected ",
    "drop": "returned None where the rules it wraps gave an answer",
}


def hostile(hook: str, behaviour: str) -> object:
    """Rules implementing ``hook`` the ``behaviour`` way."""
    if behaviour == "drop":

        def implementation(self):
            yield
            return None

        implementation = rulehook(wrapper=True)(implementation)
    else:

        def implementation(self):
            if behaviour == "raise":
                raise ValueError("hostile")
            return [True] if behaviour == "list" else 0.5

        implementation = rulehook(implementation)
    implementation.__name__ = hook
    return type("Hostile", (), {hook: implementation})()


def registry_with(game: str, hook: str, behaviour: str) -> Registry:
    rules = hostile(hook, behaviour)

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("hostile", game, f"{hook} {behaviour}", rules)]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    return Registry(pm)


def play_until_caught(game: str, hook: str, behaviour: str, seed: int) -> PluginError:
    registry = registry_with(game, hook, behaviour)
    bot = registry.bot("random", game)
    players = ["ann", "ben", "cat"][: 3 if seed % 2 else 2]
    with pytest.raises(PluginError) as caught:
        for n in range(3):
            _, match, _ = selfplay(registry, game, players, [bot] * len(players), f"hostile-{seed}-{n}", ("hostile",))
            match.game.outcome(match.state)  # the final scoring asks its hooks
    return caught.value


MATRIX = [(game, hook, behaviour) for game, hooks in HOOKS.items() for hook in hooks for behaviour in BEHAVIOURS]


@pytest.mark.parametrize(("game", "hook", "behaviour"), MATRIX)
def test_a_hostile_rule_hook_is_one_line_naming_the_variant_its_file_and_the_hook(game, hook, behaviour):
    """Trust finding 16: a rule hook implementation that raises, answers the
    wrong type or drops the answer it wraps is refused, in one line naming
    the variant, where it is and the hook, whichever hook of either game."""
    error = play_until_caught(game, hook, behaviour, seed=len(hook))
    message = str(error)
    assert "\n" not in message
    assert f"{__file__}:" in message
    assert f"variant 'hostile': {hook} {SAID[behaviour]}" in message


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(game, hook) for game, hooks in HOOKS.items() for hook in hooks]),
    st.sampled_from(BEHAVIOURS),
    st.integers(0, 2**16),
)
def test_hostile_hooks_never_escape_as_anything_but_a_plugin_error(pair, behaviour, seed):
    """Trust finding 16, fuzzed over seeds and players: whatever game is
    played, the hostile hook is caught as it answers."""
    game, hook = pair
    assert f"{hook} {SAID[behaviour]}" in str(play_until_caught(game, hook, behaviour, seed))


def test_a_list_where_a_bool_is_due_is_not_taken_for_true():
    """Trust finding 16: the issue's own case: rule 4 answered with a list."""

    class Listy:
        @rulehook
        def glux_may_cover(self, state, square):
            return [square]

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("glux-listy", "glux", "a list for a bool", Listy())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    game = registry.game(Header("glux", ("ann", "ben"), ("glux-listy",)))
    with pytest.raises(PluginError, match=r"variant 'glux-listy': glux_may_cover returned a list, expected bool$"):
        game.rules.glux_may_cover(game=game, state=None, seat=0, square=3, face=2, chip="2/5")


def test_a_right_answer_of_a_subclass_passes_and_a_wrong_one_inside_a_table_is_named():
    """Trust finding 16: the check looks inside a table (room points by player)."""

    class Rooms:
        @rulehook
        def glux_score_room(self, pips):
            return {player: "four" for player in pips}

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("glux-words", "glux", "points in words", Rooms())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    game = registry.game(Header("glux", ("ann", "ben"), ("glux-words",)))
    with pytest.raises(PluginError) as caught:
        game.rules.glux_score_room(game=game, state=None, room="A", pips={"ann": 3}, players=2)
    assert str(caught.value).endswith(
        "variant 'glux-words': glux_score_room returned a dict, expected Mapping[str, int] (for 'ann' a str ('four'), not int)"
    )


# -- every command -----------------------------------------------------------------------------
HOUSE = textwrap.dedent(
    """
    import os
    from tabletop import Variant, hookimpl, rulehook


    class Switch:
        @rulehook
        def glux_distance(self, state, square):
            mode = os.environ.get("HOSTILE")
            if mode == "raise":
                raise KeyError(square)
            if mode == "list":
                return [square]
            return None


    @hookimpl
    def register_variants():
        return [Variant("glux-switch", "glux", "hostile when told", Switch())]
    """
)


@pytest.fixture
def house(tmp_path, cli):
    plugin = tmp_path / "switch.py"
    plugin.write_text(HOUSE)
    made = cli(
        "--plugins",
        plugin,
        "selfplay",
        "glux",
        "--seats",
        "2",
        "--games",
        "1",
        "--variant",
        "glux-switch",
        "-o",
        "bots",
    )
    assert made.exit_code == 0, made.output
    log = next(tmp_path.glob("**/*.jsonl"))
    return plugin, log


@pytest.mark.parametrize("mode", ["raise", "list"])
@pytest.mark.parametrize(
    "command",
    [
        ["replay", "LOG"],
        ["replay", "LOG", "--as", "p1-random", "--step"],
        ["verify", "LOG"],
        ["moves", "CUT"],
        ["play", "CUT", "MOVE"],
        ["diff", "LOG", "LOG"],
        ["render", "LOG"],
        ["selfplay", "glux", "--seats", "3", "--games", "2", "--variant", "glux-switch", "-o", "more"],
        ["simulate", "glux", "--seats", "2", "--games", "3", "--variant", "glux-switch", "-o", "sim.jsonl"],
    ],
)
def test_every_command_says_one_line_and_exits_2(cli, house, monkeypatch, tmp_path, command, mode):
    """Trust finding 16, on the command line: replay, play, self-play,
    simulate... each print the one line and exit 2 (a broken plugin, like
    an unreadable input), with no traceback."""
    plugin, log = house
    cut = tmp_path / "cut.jsonl"
    lines = log.read_text().splitlines()
    cut.write_text("\n".join(lines[:12]) + "\n")  # setup done: a placement is due
    before = cut.read_bytes()
    moves = json.loads(cli("--plugins", plugin, "moves", cut, "--json").output)["moves"]
    args = [str(log) if a == "LOG" else str(cut) if a == "CUT" else a for a in command]
    if "MOVE" in args:
        player, legal = next(iter(moves.items()))
        args[args.index("MOVE") :] = [legal[0], "--player", player]
    monkeypatch.setenv("HOSTILE", mode)
    result = cli("--plugins", plugin, *args)
    assert result.exit_code == 2, result.output
    said = "raised KeyError" if mode == "raise" else "returned a list, expected int"
    assert f"{plugin}:" in result.stderr and f"variant 'glux-switch': glux_distance {said}" in result.stderr
    assert "Traceback" not in result.output and result.stderr.count("\n") == 1
    assert cut.read_bytes() == before


def test_hostile_answers_cost_nothing_when_the_variant_answers_right():
    """The guard changes no answer: a house rule answering right plays the
    same games as the official rules it restates."""

    class Same:
        @rulehook
        def glux_distance(self, state, square):
            return state.stacks[square][-1][1] if state.stacks[square] else 0

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("glux-same", "glux", "rule 2 restated", Same())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    bot = registry.bot("random", "glux")
    for seed in range(3):
        tag = f"same-{random.Random(seed).random()}"
        _, _, official = selfplay(registry, "glux", ["ann", "ben"], [bot, bot], tag)
        _, _, restated = selfplay(registry, "glux", ["ann", "ben"], [bot, bot], tag, ("glux-same",))
        assert official == restated


# -- a house rule's own code the game calls (not a rule hook) ----------------------------------------
STEPPED = textwrap.dedent(
    """
    import os
    from typing import ClassVar

    import attrs

    from tabletop import Variant, YesNo, hookimpl, rulehook


    @attrs.frozen
    class Wave(YesNo):
        kind: ClassVar[str] = "wave"


    def options(game, state, player):
        if os.environ.get("HOSTILE"):
            return 1 // 0
        return []


    class Waving:
        @rulehook(wrapper=True)
        def glux_turn_steps(self, players):
            table = dict((yield))
            table["place"] = table["place"].adding(Wave, options, lambda game, state, d: "no", lambda g, w, e: None)
            return table


    @hookimpl
    def register_variants():
        return [Variant("glux-waving", "glux", "a step's listing that fails when told", Waving(), (Wave,))]
    """
)


@pytest.mark.parametrize(
    "command",
    [
        ["moves", "LOG"],
        ["selfplay", "glux", "--seats", "2", "--games", "1", "--variant", "glux-waving", "-o", "more"],
    ],
)
def test_a_house_rules_own_code_that_raises_is_one_line_naming_it(cli, tmp_path, monkeypatch, command):
    """Trust finding 16, beyond the hooks: code a house rule gives the game
    (here a step's listing) that raises is one line naming the variant and
    the line of its file, exit 2."""
    plugin = tmp_path / "waving.py"
    plugin.write_text(STEPPED)
    made = cli(
        "--plugins",
        plugin,
        "selfplay",
        "glux",
        "--seats",
        "2",
        "--games",
        "1",
        "--variant",
        "glux-waving",
        "-o",
        "bots",
    )
    assert made.exit_code == 0, made.output
    log = tmp_path / "cut.jsonl"
    log.write_text("\n".join(next(tmp_path.glob("bots/*.jsonl")).read_text().splitlines()[:12]) + "\n")
    monkeypatch.setenv("HOSTILE", "1")
    result = cli("--plugins", plugin, *[str(log) if a == "LOG" else a for a in command])
    assert result.exit_code == 2, result.output
    line = STEPPED.splitlines().index("        return 1 // 0") + 1
    assert result.stderr == (
        f"tabletop: {plugin}:{line}: variant 'glux-waving': its code raised ZeroDivisionError: integer division or modulo by zero\n"
    )
