"""Rule hooks resolved once per header; variant parameters; a variant's own events;
the engine's fast path."""

from __future__ import annotations

import json
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
from tabletop.host.rules import fast_form, resolve
from tabletop.play.live import selfplay


@pytest.fixture(scope="module")
def pile(registry):
    """The test game's module, as the plugin manager loaded it."""
    import sys

    return sys.modules[registry.games["pile"].__module__]


def test_an_official_rule_is_the_official_function_itself(registry, pile):
    game = registry.game(Header("pile", ("a", "b")))
    assert game.rules.pile_max_take == pile.Pile.official_rules.pile_max_take
    assert isinstance(game.rules.pile_max_take, types.MethodType)  # no pluggy dispatch on the way
    assert game.rules.official("pile_max_take")


def test_a_variants_rule_is_tried_first_and_marked_overridden(registry):
    game = registry.game(Header("pile", ("a", "b"), ("pile-take-three",)))
    assert game.rules.pile_max_take(players=2) == 3
    assert not game.rules.official("pile_max_take")
    with pytest.raises(KeyError):
        game.rules.official("no_such_hook")


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
    assert not rules.official("points")


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


class Declared:
    @rulehook
    @fast_form("the pips")
    def points(self, pips):  # takes some of the arguments: its chain is not the function itself
        return pips


def test_the_fast_form_an_official_rule_declares_holds_while_it_alone_is_in_force():
    """Whether the official rule is in force is asked one way
    (``Rules.official``), and its fast form is read one way (``Rules.form``),
    whatever the rule's chain is: the function itself, a chain of one that
    takes some of the arguments, or variants around it."""
    rules = _resolved(official=Declared())
    assert rules.official("points") and rules.form("points") == "the pips"
    assert rules.points(room="hall", pips=4) == 4
    for variant in (Doubler(), Shy()):  # wrapped or replaced: no form, the rule is asked
        rules = _resolved(variant, official=Declared())
        assert not rules.official("points") and rules.form("points") is None
    assert _resolved().official("points") and _resolved().form("points") is None  # declares none
    with pytest.raises(KeyError):
        _resolved().form("no_such_hook")


def test_each_game_asks_whether_the_official_rule_is_in_force_one_way():
    """No game reads a rule's implementations or plugin names to know
    whether a variant changes it: it asks ``rules.official`` or
    ``rules.form``."""
    from ..conftest import ROOT

    for path in sorted((ROOT / "plugins").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for dialect in ("get_hookimpls", "plugin_name", "overridden", "glux_form", "form_of(rules", "form_of(self"):
            assert dialect not in text, (path, dialect)


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
    from ..fastpath import compare

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
    from tabletop.log.logfile import create

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


# -- the compiled chains against pluggy's own call loop -----------------------------
ARGS = ("a", "b", "c")


class Oops(Exception):
    """What an implementation under test raises."""


class Other(Exception):
    """What a wrapper under test raises in place of what it was thrown."""


def _answer(i, taken):
    return (i, *sorted(taken.items()))


def _plain(i, behaviour, taken):
    if behaviour == "answer":
        return _answer(i, taken)
    if behaviour == "none":
        return None
    if behaviour == "some":  # answers for some arguments, falls through for others
        return _answer(i, taken) if sum(taken.values()) % 2 else None
    raise Oops(i)


def _wrapper(i, behaviour, taken, gathering):
    if behaviour == "raise before":
        raise Oops(("before", i))
    try:
        result = yield
    except Oops as exc:
        if behaviour == "rescue":
            return [("rescued", i)] if gathering else ("rescued", i)
        if behaviour == "replace":
            raise Other(i) from exc
        raise
    if behaviour == "raise after":
        raise Oops(("after", i))
    if behaviour == "drop":
        return None
    if behaviour == "tag":
        return [*result, ("tag", i)] if gathering else ("tag", i, result, *sorted(taken.items()))
    return result


PLAIN = ("answer", "none", "some", "raise")
WRAPPING = ("keep", "tag", "rescue", "replace", "drop", "raise before", "raise after")


@st.composite
def _plugin_sets(draw, trusted):
    """A hook (firstresult or gathering) and a random set of plugins
    implementing it: plain or wrappers, tried first, last or in order,
    each taking some of the arguments (some with a default value), each
    answering, falling through, raising or wrapping in its own way."""
    firstresult = draw(st.booleans())
    plugins = []
    for i in range(draw(st.integers(1, 6))):
        wrapper = draw(st.booleans())
        behaviours = (WRAPPING if trusted else ("keep", "tag")) if wrapper else (PLAIN if trusted else PLAIN[:3])
        behaviour = draw(st.sampled_from(behaviours))
        order = draw(st.sampled_from(["", "tryfirst", "trylast"]))
        taken = draw(st.lists(st.sampled_from(ARGS), unique=True))
        defaulted = draw(st.sets(st.sampled_from(taken))) if taken else set()
        plugins.append((i, wrapper, behaviour, order, tuple(taken), defaulted))
    return firstresult, plugins


def _plugin(i, wrapper, behaviour, order, taken, defaulted, firstresult):
    """A plugin object whose ``hook`` takes exactly ``taken`` (those in
    ``defaulted`` with a default value, as pluggy passes them too)."""
    plain = [name for name in taken if name not in defaulted]
    with_default = [f"{name}=-1" for name in taken if name in defaulted]
    params = ", ".join(["self", *plain, *with_default])
    taking = ", ".join(f"{name!r}: {name}" for name in taken)
    call = "_wrapper" if wrapper else "_plain"
    body = (
        f"return (yield from {call}(i, behaviour, {{{taking}}}, not firstresult))"
        if wrapper
        else (f"return {call}(i, behaviour, {{{taking}}})")
    )
    namespace = {"_wrapper": _wrapper, "_plain": _plain, "i": i, "behaviour": behaviour, "firstresult": firstresult}
    exec(f"def hook({params}):\n    {body}\n", namespace)  # noqa: S102 - the test's own identifiers
    marked = rulehook(wrapper=wrapper, tryfirst=order == "tryfirst", trylast=order == "trylast")(namespace["hook"])
    return type(f"Plugin{i}", (), {"hook": marked})()


class _HookSpecs:
    @rulespec(firstresult=True)
    def hook(self, a: int, b: int, c: int) -> tuple | None:
        """A firstresult hook."""


class _GatheringSpecs:
    @rulespec
    def hook(self, a: int, b: int, c: int) -> tuple | None:
        """A gathering hook."""


def _outcome(call):
    try:
        return "answered", call()
    except Exception as exc:  # the exception itself is compared: its class, and what it holds
        return "raised", type(exc), exc.args


def _managers(firstresult, plugins, trusted):
    import pluggy

    pm = pluggy.PluginManager("tabletop.rules")
    pm.add_hookspecs(_HookSpecs if firstresult else _GatheringSpecs)
    names = []
    for i, *rest in plugins:
        pm.register(_plugin(i, *rest, firstresult), name=f"p{i}")
        names.append(f"p{i}")
    return pm, resolve(pm.hook, names if trusted else names[:1])


@settings(max_examples=300, deadline=None)
@given(_plugin_sets(trusted=True), st.tuples(*[st.integers(0, 3)] * 3))
def test_a_compiled_chain_answers_and_raises_as_pluggy_calls_the_hook(hook, values):
    """The compiled chain of trusted implementations is pluggy's call loop:
    the same order (last registered first, tryfirst and trylast, wrappers
    around every plain implementation), the same answer (the first that is
    not None, or every one in a list), the same exceptions thrown into the
    same wrappers, each implementation given the arguments it takes (those
    with a default value too)."""
    firstresult, plugins = hook
    pm, rules = _managers(firstresult, plugins, trusted=True)
    kwargs = dict(zip(ARGS, values))
    assert _outcome(lambda: rules.hook(**kwargs)) == _outcome(lambda: pm.hook.hook(**kwargs))


@settings(max_examples=200, deadline=None)
@given(_plugin_sets(trusted=False), st.tuples(*[st.integers(0, 3)] * 3))
def test_a_compiled_chain_of_variants_answers_as_pluggy_does(hook, values):
    """The same with every implementation but the first a variant's (behind
    the guard that checks its answers), answering within its contract."""
    firstresult, plugins = hook
    pm, rules = _managers(firstresult, plugins, trusted=False)
    kwargs = dict(zip(ARGS, values))
    assert rules.hook(**kwargs) == pm.hook.hook(**kwargs)


def _a_function(a, b=1, *, c=2):
    pass


class _Reading:
    def method(self, a, b=1):
        pass

    @staticmethod
    def alone(a):
        pass

    @classmethod
    def kind(cls, a):
        pass


def _wrapped(function):
    import functools

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return function(*args, **kwargs)

    return wrapper


@pytest.mark.parametrize(
    "function",
    [_a_function, _Reading.method, _Reading().method, _Reading.alone, _Reading.kind, _wrapped(_a_function)],
    ids=["function", "method of a class", "bound method", "static", "class method", "wrapped"],
)
def test_an_implementations_arguments_are_read_as_pluggy_reads_them(function):
    """Arguments are read with inspect.signature, once per function (not
    pluggy's private ``varnames``): the same as pluggy's, those with a
    default included, keyword-only ones left out."""
    import pluggy

    from tabletop.host.rules import _argnames

    class Reading(pluggy.PluginManager):
        def parse_hookimpl_opts(self, plugin, name):  # every attribute named hook is an implementation
            return (
                pluggy.HookimplOpts(
                    wrapper=False, hookwrapper=False, optionalhook=False, tryfirst=False, trylast=False, specname=None
                )
                if name == "hook"
                else None
            )

    pm = Reading("reading")
    pm.register(types.SimpleNamespace(hook=function), name="one")
    impl = pm.hook.hook.get_hookimpls()[0]
    assert _argnames(function) == (*impl.argnames, *impl.kwargnames)


def test_tabletop_reaches_no_private_name_of_pluggy():
    from ..conftest import ROOT

    for path in (ROOT / "src" / "tabletop").rglob("*.py"):
        assert "pluggy._" not in path.read_text(encoding="utf-8"), path


def test_an_old_style_hookwrapper_among_the_rules_is_refused():
    import pluggy

    class Old:
        @rulehook(hookwrapper=True)
        def points(self, pips):
            yield

    pm = pluggy.PluginManager("tabletop.rules")
    pm.add_hookspecs(Specs)
    pm.register(Official(), name="official")
    pm.register(Old(), name="old")
    with pytest.raises(PluginError, match="'old': rule hook 'points': write @rulehook\\(wrapper=True\\)"):
        resolve(pm.hook, ["official"])
