"""Rule hooks resolved once per header; variant parameters; a variant's own events;
the engine's fast path."""

from __future__ import annotations

import json
import types

import pytest

from tabletop import (
    Bot,
    Header,
    Match,
    PluginError,
    Randomness,
    Registry,
    Replay,
    UsageError,
    get_plugin_manager,
    rulehook,
    rulespec,
)
from tabletop.live import selfplay
from tabletop.rules import resolve


@pytest.fixture(scope="module")
def pile(registry):
    """The test game's module, as the plugin manager loaded it."""
    import sys

    return sys.modules[registry.games["pile"].__module__]


def test_an_official_rule_is_the_official_function_itself(registry, pile):
    game = registry.game(Header("pile", ("a", "b")))
    assert game.rules.pile_max_take == pile.Pile.official_rules.pile_max_take
    assert isinstance(game.rules.pile_max_take, types.MethodType)  # no pluggy dispatch on the way
    assert not game.rules.overridden("pile_max_take")


def test_a_variants_rule_is_tried_first_and_marked_overridden(registry):
    game = registry.game(Header("pile", ("a", "b"), ("pile-take-three",)))
    assert game.rules.pile_max_take(players=2) == 3
    assert game.rules.overridden("pile_max_take")
    with pytest.raises(KeyError):
        game.rules.overridden("no_such_hook")


class Specs:
    @rulespec(firstresult=True)
    def points(self, room: str, pips: int) -> int | None:
        """Points."""


class Official:
    @rulehook
    def points(self, room, pips):
        return pips


class Shy:
    @rulehook
    def points(self, room):  # takes only some of the arguments, as pluggy allows
        return 100 if room == "middle" else None  # None: the rule below decides


class Doubler:
    @rulehook(wrapper=True)
    def points(self, pips):
        result = yield
        return 2 * result


def _resolved(*variants, official=None):
    import pluggy

    pm = pluggy.PluginManager("tabletop.rules")
    pm.add_hookspecs(Specs)
    pm.register(official or Official(), name="official")
    for i, variant in enumerate(variants):
        pm.register(variant, name=f"v{i}")
    return resolve(pm.hook, ["official"])


def test_resolved_rules_fall_through_on_none_and_take_a_subset_of_arguments():
    rules = _resolved(Shy())
    assert rules.points(room="middle", pips=3) == 100
    assert rules.points(room="hall", pips=3) == 3


def test_resolved_rules_run_wrappers_around_everything_below():
    rules = _resolved(Shy(), Doubler())
    assert rules.points(room="middle", pips=3) == 200
    assert rules.points(room="hall", pips=3) == 6
    assert rules.overridden("points")


def test_resolved_rules_agree_with_pluggys_own_dispatch():
    import pluggy

    for variants in [(), (Shy(),), (Doubler(),), (Shy(), Doubler()), (Doubler(), Shy())]:
        pm = pluggy.PluginManager("tabletop.rules")
        pm.add_hookspecs(Specs)
        pm.register(Official(), name="official")
        for i, variant in enumerate(variants):
            pm.register(variant, name=f"v{i}")
        rules = resolve(pm.hook, ["official"])
        for room in ("middle", "hall"):
            assert rules.points(room=room, pips=5) == pm.hook.points(room=room, pips=5)


class Clashing:
    """A hook whose arguments bear the names the compiled chains use themselves."""

    @rulespec(firstresult=True)
    def clash(self, found: int, result: int, inner: int, rule0: int) -> tuple | None:
        """Clash."""

    @rulespec
    def heap(self, found: int, generator: int) -> int | None:
        """Heap (gathered)."""


class ClashingOfficial:
    @rulehook
    def clash(self, found, result, inner, rule0):
        return (found, result, inner, rule0)

    @rulehook
    def heap(self, found, generator):
        return found + generator


class ClashingVariant:
    @rulehook(wrapper=True)
    def clash(self, inner):
        answer = yield
        return (*answer, inner)

    @rulehook
    def heap(self, generator):
        return generator


def test_resolved_rules_whose_arguments_share_the_chains_own_names_agree_with_pluggy():
    import pluggy

    for variants in [(), (ClashingVariant(),)]:
        pm = pluggy.PluginManager("tabletop.rules")
        pm.add_hookspecs(Clashing)
        pm.register(ClashingOfficial(), name="official")
        for i, variant in enumerate(variants):
            pm.register(variant, name=f"v{i}")
        rules = resolve(pm.hook, ["official"])
        args = {"found": 1, "result": 2, "inner": 3, "rule0": 4}
        assert rules.clash(**args) == pm.hook.clash(**args) == (1, 2, 3, 4, *([3] if variants else []))
        assert sorted(rules.heap(found=5, generator=6)) == sorted(pm.hook.heap(found=5, generator=6))


class Rescuer:
    @rulehook(wrapper=True)
    def points(self, room):
        try:
            return (yield)
        except ZeroDivisionError:
            return -1 if room == "middle" else None


class Failing:
    @rulehook
    def points(self, pips):
        return pips // 0


class Twice:
    @rulehook(wrapper=True)
    def points(self):
        yield
        yield


class Silent:
    @rulehook(wrapper=True)
    def points(self):
        return 7
        yield  # a generator that returns before its yield


def test_a_wrapper_is_thrown_what_the_official_rule_raises_and_may_answer_instead():
    rules = _resolved(Rescuer(), official=Failing())
    assert rules.points(room="middle", pips=3) == -1
    assert rules.points(room="hall", pips=3) is None
    with pytest.raises(ZeroDivisionError):  # the game's own code: its error goes on as it is
        _resolved(official=Failing()).points(room="middle", pips=3)


def test_what_a_variant_raises_is_one_line_naming_it_its_line_and_the_hook():
    """Trust finding 16: a variant's implementation that raises is a PluginError
    naming the variant, the line of its file it raised at, and the hook."""
    with pytest.raises(PluginError) as caught:
        _resolved(Failing(), Rescuer()).points(room="middle", pips=3)
    line = Failing.points.__code__.co_firstlineno + 2
    assert str(caught.value) == (
        f"{__file__}:{line}: variant 'v0': points raised ZeroDivisionError: integer division or modulo by zero"
    )


def test_a_wrapper_that_yields_twice_or_never_is_a_plugin_error():
    with pytest.raises(PluginError, match="yields more than once"):
        _resolved(Twice()).points(room="hall", pips=1)
    with pytest.raises(PluginError, match="returns without yielding"):
        _resolved(Silent()).points(room="hall", pips=1)


def test_one_implementation_taking_some_arguments_keeps_what_it_declares_of_itself():
    class Declared:
        @rulehook
        def points(self, pips):
            return pips

    Declared.points.declared = "a form"
    import pluggy

    pm = pluggy.PluginManager("tabletop.rules")
    pm.add_hookspecs(Specs)
    pm.register(Declared(), name="official")
    rules = resolve(pm.hook, ["official"])
    assert rules.points(room="hall", pips=4) == 4 and rules.points.declared == "a form"
    assert not hasattr(_resolved(Doubler()).points, "declared")


def test_rules_say_which_arguments_the_implementations_in_force_take():
    assert _resolved().takes("points", "pips") and not _resolved().takes("points", "colour")
    assert not _resolved(Doubler()).takes("points", "colour")
    assert _resolved(Shy()).takes("points", "room")
    with pytest.raises(KeyError):
        _resolved().takes("no_such_hook", "room")


class GatherSpecs:
    @rulespec
    def extras(self, seat: int) -> str | None:
        """Gathered."""


class GiveA:
    @rulehook
    def extras(self, seat):
        return f"a{seat}"


class GiveNothing:
    @rulehook
    def extras(self):
        return None


class Tagged:
    @rulehook(wrapper=True)
    def extras(self, seat):
        found = yield
        return [*found, f"tag{seat}"]


def test_a_gathering_hook_agrees_with_pluggy_with_wrappers_and_fall_throughs():
    import pluggy

    for variants in [(), (GiveA(),), (GiveA(), GiveNothing()), (GiveA(), Tagged()), (Tagged(), GiveA(), GiveA())]:
        pm = pluggy.PluginManager("tabletop.rules")
        pm.add_hookspecs(GatherSpecs)
        for i, variant in enumerate(variants):
            pm.register(variant, name=f"v{i}")
        rules = resolve(pm.hook, [])
        assert rules.extras(seat=2) == pm.hook.extras(seat=2)


# -- authoring errors, found when the plugin loads -----------------------------
def _load(tmp_path, text):
    plugin = tmp_path / "house.py"
    plugin.write_text(text)
    return plugin, lambda: Registry(get_plugin_manager([plugin], environment=False))


HOUSE = """from tabletop import Variant, hookimpl, rulehook
class House:
    @rulehook
    def glux_score_room(self, room, pip, players):
        return {}
@hookimpl
def register_variants():
    return [Variant("house", "glux", "a typo", House())]
"""


def test_a_rule_hook_with_a_wrong_argument_name_is_one_line_naming_file_and_line(tmp_path):
    plugin, load = _load(tmp_path, HOUSE)
    with pytest.raises(PluginError) as caught:
        load()
    assert str(caught.value) == (
        f"{plugin}:3: variant 'house': rule hook 'glux_score_room' has no argument 'pip' "
        "(it passes: game, state, room, pips, players)"
    )


def test_an_unknown_core_hook_name_lists_the_hooks_that_exist(tmp_path):
    plugin, load = _load(tmp_path, "from tabletop import hookimpl\n@hookimpl\ndef register_variant():\n    return []\n")
    with pytest.raises(PluginError) as caught:
        load()
    message = str(caught.value)
    assert message.startswith(f"{plugin}:2: 'register_variant' is not a tabletop hook (hooks: register_bots, ")
    assert "register_variants" in message and "\n" not in message


def test_a_core_hook_with_a_wrong_argument_names_it(tmp_path):
    plugin, load = _load(
        tmp_path, "from tabletop import hookimpl\n@hookimpl\ndef register_commands(cli, group):\n    pass\n"
    )
    with pytest.raises(
        PluginError, match=r"house.py:2: hook 'register_commands' has no argument 'group' \(it passes: cli\)"
    ):
        load()


def test_authoring_errors_are_one_line_on_the_command_line(cli, tmp_path):
    plugin = tmp_path / "house.py"
    plugin.write_text(HOUSE)
    result = cli("--plugins", plugin, "variants", plugins=False)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert "house.py:3: variant 'house'" in result.output


# -- variant parameters -------------------------------------------------------------
def test_variant_parameters_are_typed_and_written_in_canonical_form(cli, tmp_path):
    result = cli(
        "new",
        "pile",
        "--players",
        "a,b",
        "--seed",
        "1",
        "--variant",
        "pile-take:card_counts=no, most=5",
        "-o",
        "g.jsonl",
    )
    assert result.exit_code == 0, result.output
    header = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])
    assert header["variants"] == ["pile-take:most=5,card_counts=false"]


def test_variant_parameters_reach_the_rules(registry):
    assert registry.game(Header("pile", ("a", "b"), ("pile-take:most=7",))).max_take == 7
    assert registry.game(Header("pile", ("a", "b"), ("pile-take",))).max_take == 4  # the default


@pytest.mark.parametrize(
    "entry, message",
    [
        ("pile-take:most=many", "variant 'pile-take': most='many' is not a whole number"),
        (
            "pile-take:least=1",
            "variant 'pile-take' has no parameter 'least' (parameters: most: int = 4, card_counts: bool = true)",
        ),
        ("pile-take:most", "variant 'pile-take': 'most' is not key=value"),
        ("pile-take:most=1,most=2", "variant 'pile-take': parameter 'most' is given twice"),
        ("pile-take:card_counts=maybe", "variant 'pile-take': card_counts='maybe' is not true or false"),
        ("pile-take-three:most=2", "variant 'pile-take-three' takes no parameters"),
        ("pile-take:most=" + "9" * 5000, "is not a value of at most 64 characters"),
    ],
)
def test_a_wrong_variant_parameter_is_one_clear_line(cli, entry, message):
    result = cli("new", "pile", "--players", "a,b", "--variant", entry, "-o", "g.jsonl")
    assert result.exit_code == 2
    assert message in result.output and result.output.count("\n") == 1


def test_a_wrong_variant_parameter_in_a_log_names_the_file_and_line(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    header = {
        "tabletop": 1,
        "game": "pile",
        "players": ["a", "b"],
        "variants": ["pile-take:most=x"],
        "options": {},
        "randomness": {"seed": "1"},
    }
    log.write_text(json.dumps(header) + "\n")
    result = cli("replay", log)
    assert result.exit_code == 2
    assert result.output == f"tabletop: {log}:1: variant 'pile-take': most='x' is not a whole number\n"


def test_variants_lists_parameters_with_types_and_defaults(cli):
    result = cli("variants", "pile")
    assert "pile-take " in result.output
    assert "most: int = 4" in result.output and "card_counts: bool = true" in result.output


# -- a variant's own events -------------------------------------------------------------
def test_a_variants_event_kind_is_read_in_logs_of_its_game(registry, pile):
    seq, event = registry.codec.decode("pile", {"seq": 3, "kind": "shout", "player": "a", "payload": {"word": "hey"}})
    assert event == pile.Shout("a", "hey")
    assert registry.codec.encode(3, event) == '{"seq":3,"kind":"shout","player":"a","payload":{"word":"hey"}}'


def test_a_variants_event_is_illegal_where_the_variant_is_not_enabled(registry, pile):
    match = Match(registry, Header("pile", ("a", "b"), randomness=Randomness(seed="1")))
    assert match.why_illegal(pile.Shout("a", "hey")) == (
        "'shout' belongs to the variant 'pile-shout', which this game does not enable"
    )


# -- the fast path ---------------------------------------------------------------------------
def test_replay_run_folds_on_the_games_fast_path_and_gives_the_same_state(registry, pile, tmp_path):
    header, match, events = selfplay(registry, "pile", ["a", "b"], [registry.bot("random", "pile")] * 2, "s1")
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(registry.codec.log(header, events)) + "\n")
    before = pile.PileFast.applied
    fast = Replay(registry, log).run()
    assert pile.PileFast.applied - before == len(events)
    plain = Replay(registry, log)
    for _ in plain:  # iterating keeps every immutable state: the plain path
        pass
    assert pile.PileFast.applied - before == len(events)
    assert fast.state == plain.match.state == match.state


def test_selfplay_runs_on_the_fast_path_when_no_bot_reads_the_state(registry, pile):
    random = registry.bot("random", "pile")
    assert not random.reads_state
    before = pile.PileFast.applied
    _, match, events = selfplay(registry, "pile", ["a", "b"], [random, random], "s2")
    assert pile.PileFast.applied - before == len(events)
    reader = Bot("reader", "random, but given the state", random.choose)
    _, plain, plain_events = selfplay(registry, "pile", ["a", "b"], [reader, reader], "s2")
    assert pile.PileFast.applied - before == len(events)  # the plain path this time
    assert events == plain_events and match.state == plain.state


def test_an_unknown_variant_in_a_header_is_a_usage_error(registry):
    with pytest.raises(UsageError, match="unknown variant 'nope'"):
        registry.game(Header("pile", ("a", "b"), ("nope:x=1",)))


def test_the_fast_path_comparison_helper_plays_whole_games(registry):
    from .fastpath import compare

    for seed in ("a", "b", "c"):
        assert compare(registry, "pile", ["a", "b", "c"], seed) > 3


def test_the_fast_fold_refuses_an_illegal_event_in_the_same_words_as_the_plain_one(registry, tmp_path):
    from tabletop import IllegalEventError

    header, match, events = selfplay(registry, "pile", ["a", "b"], [registry.bot("random", "pile")] * 2, "s3")
    lines = registry.codec.log(header, events)
    take = next(i for i, line in enumerate(lines) if '"kind":"take"' in line)
    lines[take] = lines[take].replace('"stones":', '"stones":9') if '"stones":9' not in lines[take] else lines[take]
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(IllegalEventError) as fast:
        Replay(registry, log).run()
    with pytest.raises(IllegalEventError) as plain:
        for _ in Replay(registry, log):
            pass
    assert str(fast.value) == str(plain.value)
    assert str(fast.value).startswith(f"{log}:{take + 1}: event {take} (")


def test_selfplay_goes_back_to_the_fast_loop_after_a_sealed_decision(registry, monkeypatch):
    # Glyph Chess's advanced setup is a secret one (sealed decisions): the
    # fast loop stops there, the engine seals and reveals, and the rest of
    # the game races again; the log is the one the long way plays.
    from tabletop import Decide

    asked = []
    legal = Match.legal

    def counted(self, player):
        asked.append(self.node)
        return legal(self, player)

    monkeypatch.setattr(Match, "legal", counted)
    random = registry.bot("random", "glyph-chess")
    advanced = ("glyph-advanced-setup",)
    _, match, events = selfplay(registry, "glyph-chess", ["a", "b"], [random, random], "sealed", advanced)
    assert asked and all(isinstance(node, Decide) and node.sealed for node in asked)
    assert len(asked) < 5 < len(events)
    reader = Bot("reader", "random, but given the state", random.choose)
    _, plain, plain_events = selfplay(registry, "glyph-chess", ["a", "b"], [reader, reader], "sealed", advanced)
    assert events == plain_events and match.state == plain.state


def test_a_games_own_kind_of_chance_node_stays_on_the_fast_loops(registry, monkeypatch, tmp_path):
    # Glyph Chess draws its card orders from a chance node of its own class
    # (a Chance that looks outcomes up by dict): replay and self-play fold it
    # in their fast loops, not the long way through accept.
    from tabletop.logfile import create

    random = registry.bot("random", "glyph-chess")
    header, _, events = selfplay(registry, "glyph-chess", ["a", "b"], [random, random], "own-chance")
    path = tmp_path / "game.jsonl"
    create(path, registry.codec.log(header, events))
    accepted = []
    accept = Match.accept

    def counted(self, event, *args):
        accepted.append(event)
        return accept(self, event, *args)

    monkeypatch.setattr(Match, "accept", counted)
    assert Replay(registry, path).run().seq == len(events)
    assert accepted == []
    _, again, replayed = selfplay(registry, "glyph-chess", ["a", "b"], [random, random], "own-chance")
    assert replayed == events and accepted == []
