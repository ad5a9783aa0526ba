"""Liar's Dice, the template game of docs/writing-a-game.md (examples/liars_dice):
its rules, the conformance kit, every command, and the AI adapters; where
OpenSpiel is installed, the same games as OpenSpiel's own ``liars_dice``."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

import tabletop.api
from tabletop import Header, IllegalEventError, Match, NotationError, PluginError, Randomness, UsageError, testing
from tabletop.ai.actions import actions_for
from tabletop.ai.returns import returns_of
from tabletop.play.live import make_header

from ..conftest import ROOT, run_tabletop

EXAMPLE = ROOT / "examples" / "liars_dice"
HOUSE = EXAMPLE / "house_rules"
LOADED = ("--plugins", str(EXAMPLE), "--plugins", str(HOUSE))
NAMES = ("ann", "ben", "cy", "dee")


def registry(*more: Path):
    return tabletop.api.registry([EXAMPLE, HOUSE, *more])


def at_the_table(rolls: dict[str, tuple[int, ...]], variants=(), dice: int = 2, sides: int = 6) -> Match:
    """A game whose dice are the ``rolls`` given (entered by hand, as at a real table)."""
    reg = registry()
    players = tuple(rolls)
    match = Match(reg, Header("liars-dice", players, variants, {"dice": dice, "sides": sides}, Randomness()))
    roll = reg.codec.kinds["liars-dice"]["roll"]
    for player, faces in rolls.items():
        for face in faces:
            match.accept(roll(player, face))
    return match


def play(match: Match, *moves: str) -> Match:
    for move in moves:
        player = match.node.players[0]
        match.accept(match.game.parse(move, player, match.state))
    return match


# -- the rules ------------------------------------------------------------------------
def test_the_highest_face_is_wild_as_in_openspiel_and_a_house_rule_can_say_none_is():
    # ann 2 6, ben 2 5: three dice count as 2 with the sixes wild, two without.
    wild = play(at_the_table({"ann": (6, 2), "ben": (5, 2)}), "3x2", "liar")
    outcome = wild.game.outcome(wild.state)
    assert outcome.winners == ("ann",) and outcome.scores == {"ann": 1, "ben": -1}
    assert "3 dice count as 2: 3x2 was true" in outcome.note
    plain = play(at_the_table({"ann": (6, 2), "ben": (5, 2)}, ("liars-dice-no-wild",)), "3x2", "liar")
    assert plain.game.outcome(plain.state).winners == ("ben",)


def test_a_bid_must_rise_and_liar_needs_a_bid():
    match = at_the_table({"ann": (1, 4), "ben": (3, 3)})
    with pytest.raises(IllegalEventError, match="no bid to call yet"):
        play(match, "liar")
    play(match, "2x4")
    with pytest.raises(IllegalEventError, match="2x3 does not outbid 2x4"):
        play(match, "2x3")
    with pytest.raises(IllegalEventError, match="no such bid with 4 dice of 6 faces"):
        play(match, "5x1")
    with pytest.raises(IllegalEventError, match="not ann's turn"):
        match.accept(match.game.parse("3x1", "ann", match.state))
    play(match, "3x1", "liar")  # a higher count of a lower face outbids (OpenSpiel's reset-face)
    assert match.over and match.game.outcome(match.state).winners == ("ann",)  # one 1 and no six: a lie


def test_a_house_rule_changes_the_order_of_bids():
    match = at_the_table({"ann": (1, 4), "ben": (3, 3)}, ("liars-dice-reset-quantity",))
    play(match, "1x5")
    with pytest.raises(IllegalEventError, match="4x4 does not outbid 1x5"):
        play(match, "4x4")
    play(match, "2x5")
    assert [match.game.notate(d) for d in match.legal("ann")][:3] == ["3x5", "4x5", "1x6"]


def test_three_and_four_players_take_turns_and_one_call_ends_the_game():
    match = play(at_the_table({"ann": (1,), "ben": (2,), "cy": (6,), "dee": (2,)}, dice=1), "1x3", "2x2", "4x2")
    assert match.node.players == ("dee",)
    play(match, "liar")
    outcome = match.game.outcome(match.state)
    # Three dice count as 2 (the six is wild): cy's bid was a lie; dee wins, cy loses.
    assert outcome.winners == ("dee",) and outcome.scores == {"ann": 0, "ben": 0, "cy": -1, "dee": 1}


def test_others_dice_are_hidden_until_liar_is_called():
    match = play(at_the_table({"ann": (6, 2), "ben": (5, 2)}), "3x2")
    game, state = match.game, match.state
    view = game.view(state, "ben")
    assert view.dice[1] == (2, 5) and all(isinstance(d, tabletop.Hidden) for d in view.dice[0])
    assert "[? ?]" in game.render(view, "ben") and "6" not in game.render(view, "ben").split("\n")[1]
    play(match, "liar")
    assert game.view(match.state, "ben") == match.state  # the cups are lifted


def test_notation():
    match = at_the_table({"ann": (1, 4), "ben": (3, 3)})
    game = match.game
    bid = game.parse(" 3 X 5 ", "ann", match.state)
    assert game.notate(bid) == "3x5" and game.format(bid) == "ann bids 3x5"
    assert game.notate(game.parse("LIAR", "ann", match.state)) == "liar"
    with pytest.raises(NotationError, match="COUNTxFACE"):
        game.parse("three fives", "ann", match.state)


def test_options_are_checked_with_one_line(tmp_path):
    for option, said in (("dice=6", "from 1 to 5"), ("sides=x", "not a number"), ("colour=red", "unknown option")):
        done = run_tabletop(
            *LOADED, "new", "liars-dice", "--players", "ann,ben", "--option", option, "-o", "x.jsonl", cwd=tmp_path
        )
        assert done.returncode == 2 and said in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert not list(tmp_path.iterdir())


def test_a_house_rule_that_answers_what_the_game_cannot_play_is_refused(tmp_path):
    rule = tmp_path / "too_many.py"
    rule.write_text(
        "from tabletop import Variant, hookimpl, rulehook\n\n\n"
        "class TooMany:\n"
        "    @rulehook\n"
        "    def liars_dice_dice(self, game, seat):\n"
        "        return 99\n\n\n"
        "@hookimpl\n"
        "def register_variants():\n"
        "    return [Variant('too-many', 'liars-dice', 'far too many dice', TooMany())]\n"
    )
    with pytest.raises(PluginError, match=r"variant 'too-many': liars_dice_dice gave \[99, 99\]"):
        make_header(registry(rule), "liars-dice", ("ann", "ben"), ("too-many",))


# -- the conformance kit --------------------------------------------------------------
@pytest.mark.parametrize("count", [2, 3, 4])
def test_it_conforms(count):
    assert testing.conform(registry(), "liars-dice", NAMES[:count], games=6, seed=f"template {count}") > 15


@pytest.mark.parametrize("variant", ["liars-dice-no-wild", "liars-dice-reset-quantity"])
def test_it_conforms_with_each_house_rule_and_more_dice(variant):
    options = {"dice": "3", "sides": "4"}
    assert testing.conform(registry(), "liars-dice", NAMES[:3], [variant], options, games=3, seed=variant) > 10


# -- every command ----------------------------------------------------------------------
def test_every_command_runs(tmp_path):
    def ok(*args: str) -> str:
        done = run_tabletop(*LOADED, *args, cwd=tmp_path)
        assert done.returncode == 0, f"{args}: {done.stdout}{done.stderr}"
        return done.stdout

    assert "liars-dice" in ok("games")
    ok("new", "liars-dice", "--players", "ann,ben", "--option", "dice=2", "--seed", "7", "-o", "game.jsonl")
    moves = ok("moves", "game.jsonl").split()
    assert "1x1" in moves and "4x6" in moves and "liar" not in moves
    ok("play", "game.jsonl", "2x3", "--player", "ann")
    ok("play", "game.jsonl", "liar", "--player", "ben")
    assert "Game over" in ok("replay", "game.jsonl", "--as", "ben")
    assert "verified" in ok("verify", "game.jsonl")
    ok("view", "game.jsonl", "--as", "ann", "-o", "game-ann.html")
    assert (tmp_path / "game-ann.html").stat().st_size > 1000
    ok("selfplay", "liars-dice", "--seats", "3", "--games", "5", "-o", "bots/")
    assert "5 games" in ok("replay", "bots/")
    ok("simulate", "liars-dice", "--seats", "2", "--games", "20", "--workers", "2", "--compare", "liars-dice-no-wild")
    bots = ("--bot", "random", "--bot", "counting")
    assert "counting" in ok("tournament", "liars-dice", "--seats", "2", *bots, "--games", "4")
    addresses = ("--player", "ann=ann@example.org", "--player", "ben=ben@example.org")
    ok("pbem", "init", "duel", "--game", "liars-dice", *addresses)
    assert (tmp_path / "duel" / "outbox" / "welcome-ann.eml").is_file()


def test_replay_and_view_as_a_player_show_the_same_whatever_the_others_rolled(tmp_path):
    """Twin logs that differ only in ann's die read the same to ben, as text and as a page."""
    for face in (2, 5):
        log = tmp_path / f"twin{face}.jsonl"
        header = '{"tabletop":1,"game":"liars-dice","players":["ann","ben"],"variants":[],"options":{},"randomness":{}}'
        events = [
            '{"seq":1,"kind":"roll","player":"ann","payload":{"face":%d}}' % face,
            '{"seq":2,"kind":"roll","player":"ben","payload":{"face":3}}',
            '{"seq":3,"kind":"bid","player":"ann","payload":{"count":1,"face":3}}',
        ]
        log.write_text("\n".join([header, *events]) + "\n")
    shown = [run_tabletop(*LOADED, "replay", f"twin{f}.jsonl", "--as", "ben", "--step", cwd=tmp_path) for f in (2, 5)]
    assert shown[0].returncode == 0 and shown[0].stdout.replace("twin2", "twin5") == shown[1].stdout
    for face in (2, 5):
        done = run_tabletop(*LOADED, "view", f"twin{face}.jsonl", "--as", "ben", "-o", f"twin{face}.html", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "twin2.html").read_bytes() == (tmp_path / "twin5.html").read_bytes()


# -- the package ------------------------------------------------------------------------
def test_the_package_says_of_itself_what_the_game_class_says():
    """What `pip install ./examples/liars_dice` registers: one entry point,
    its ``about``, which says what ``tabletop games`` lists and where the
    game and its bots are; the game is made from it. No loader file and no
    plugin module: the folder given to ``--plugins`` is found the same way."""
    from tabletop.host.abouts import Declared
    from tabletop.host.installed import EntryPoint

    registry()  # the folder's package is on the import path once loaded
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    points = project["entry-points"]
    assert list(points) == ["tabletop.games"]
    about = EntryPoint("liars-dice", points["tabletop.games"]["liars-dice"], project["name"]).load()
    declared = Declared(about)
    [game] = declared.register_games()
    assert (game.name, game.title, game.description) == ("liars-dice", about.TITLE, about.DESCRIPTION)
    assert (game.min_players, game.max_players) == about.PLAYERS and game.options == about.OPTIONS
    ours = {name for name, bots in registry().bots.items() if any(bot.game == "liars-dice" for bot in bots)}
    assert {bot.name for bot in declared.register_bots()} == ours and ours
    assert not list(EXAMPLE.glob("*.py")) and not (EXAMPLE / "tabletop_liars_dice" / "plugin.py").exists()


# -- the AI adapters --------------------------------------------------------------------
def test_pettingzoo(tmp_path):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from tabletop.ai.pettingzoo import env

    api_test(env("liars-dice", players=4, options={"dice": "2"}, plugins=[EXAMPLE]), num_cycles=100)
    table = env("liars-dice", players=2, plugins=[EXAMPLE])
    table.reset(seed=3)
    for _ in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        open_ = [i for i, allowed in enumerate(observation["action_mask"]) if allowed]
        table.step(None if terminated or truncated else open_[-1])  # the last word open: liar, once it is
    log = table.save(tmp_path / "episode.jsonl")
    match = tabletop.Replay(registry(), log).run()
    assert match.over and match.game.outcome(match.state) == table.table.outcome
    kinds = [line.split('"kind":"')[1].split('"')[0] for line in log.read_text().splitlines()[1:]]
    assert kinds == ["roll", "roll", "bid", "liar"]  # the highest bid, then liar


@pytest.fixture(scope="module")
def pyspiel():
    spiel = pytest.importorskip("pyspiel")
    import tabletop.ai.openspiel

    tabletop.ai.openspiel.register([EXAMPLE, HOUSE])
    return spiel


#: OpenSpiel's parameters, and the same game in tabletop: options and house rules.
SAME = [
    ({}, {}, ()),
    ({"numdice": 2}, {"dice": "2"}, ()),
    ({"numdice": 3, "dice_sides": 4}, {"dice": "3", "sides": "4"}, ()),
    ({"numdice": 2, "bidding_rule": "reset-quantity"}, {"dice": "2"}, ("liars-dice-reset-quantity",)),
]


def as_openspiel_writes(notation: str) -> str:
    """A tabletop decision as OpenSpiel's ``action_to_string`` writes it: ``3-5``, ``Liar``."""
    return "Liar" if notation == "liar" else notation.replace("x", "-")


def same_games(spiel, params, options, variants, games: int, seed: int) -> int:
    """Play ``games`` random games of OpenSpiel's ``liars_dice`` and of
    tabletop's, side by side: the same roller and die at each chance node,
    the same legal bids at each decision (as OpenSpiel writes them and as
    action numbers, tabletop's being OpenSpiel's plus the core's end word),
    the same dice and returns at the end. Returns the decisions compared."""
    theirs = spiel.load_game("liars_dice", params)
    reg = registry()
    header, _, game = make_header(reg, "liars-dice", ("ann", "ben"), variants, options, "same")
    actions = actions_for(reg, header, game)
    rng = random.Random(seed)
    compared = 0
    for _ in range(games):
        state, match = theirs.new_initial_state(), Match(reg, header, game)
        while not state.is_terminal():
            node = match.node
            if state.is_chance_node():
                outcomes = [action for action, _ in state.chance_outcomes()]
                assert len(node.outcomes) == len(outcomes) and node.weights is None
                action = rng.choice(outcomes)
                roll = node.outcomes[action]
                roller = int(re.search(r"current roller is player (\d)", str(state)).group(1))
                assert (roll.player, roll.face) == (game.players[roller], action + 1)
                state.apply_action(action)
                match.accept(roll)
                continue
            assert node.players == (game.players[state.current_player()],)
            legal = state.legal_actions()
            mine = list(match.legal(node.players[0]))
            assert [as_openspiel_writes(game.notate(d)) for d in mine] == [state.action_to_string(a) for a in legal]
            assert [actions.of(d) for d in mine] == [(a + 1,) for a in legal]
            action = rng.choice(legal)
            state.apply_action(action)
            match.accept(mine[legal.index(action)])
            compared += 1
        assert match.over
        assert str(state).split(" ")[:2] == ["".join(map(str, dice)) for dice in match.state.dice]
        assert returns_of(game.outcome(match.state), game.players) == state.returns()
    return compared


@pytest.mark.parametrize(("params", "options", "variants"), SAME, ids=lambda p: str(p or ""))
def test_the_same_games_as_openspiels_liars_dice(pyspiel, params, options, variants):
    assert same_games(pyspiel, params, options, variants, games=2500, seed=1) > 5000


@pytest.mark.slow
@pytest.mark.parametrize(
    ("dice", "sides", "rule"),
    [(d, s, r) for d in (1, 2, 3, 4, 5) for s in (2, 3, 6, 9) for r in ("reset-face", "reset-quantity")],
)
def test_the_same_games_as_openspiels_liars_dice_sweep(pyspiel, dice, sides, rule):
    variants = ("liars-dice-reset-quantity",) if rule == "reset-quantity" else ()
    params = {"numdice": dice, "dice_sides": sides, "bidding_rule": rule}
    same_games(pyspiel, params, {"dice": str(dice), "sides": str(sides)}, variants, games=4000, seed=dice * sides)


def test_the_openspiel_adapter_plays_openspiels_game(pyspiel):
    """Through tabletop.ai.openspiel: OpenSpiel's checks pass, and the adapter's
    actions, chance outcomes and returns are ``liars_dice``'s (actions shifted
    by the core's end word)."""
    plugins = f"{EXAMPLE};{HOUSE}"
    ours = pyspiel.load_game("tabletop_liars_dice", {"players": 2, "options": "dice=2", "plugins": plugins})
    pyspiel.random_sim_test(ours, num_sims=3, serialize=True, verbose=False)
    more = pyspiel.load_game(
        "tabletop_liars_dice", {"players": 4, "variants": "liars-dice-no-wild", "options": "dice=2", "plugins": plugins}
    )
    pyspiel.random_sim_test(more, num_sims=3, serialize=True, verbose=False)
    theirs = pyspiel.load_game("liars_dice", {"numdice": 2})
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() + 1
    assert ours.max_chance_outcomes() == theirs.max_chance_outcomes()
    rng = random.Random(5)
    for _ in range(200):
        mine, state = ours.new_initial_state(), theirs.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                assert mine.chance_outcomes() == state.chance_outcomes()
                action = rng.choice(state.chance_outcomes())[0]
                mine.apply_action(action)
            else:
                assert mine.current_player() == state.current_player()
                assert mine.legal_actions() == [a + 1 for a in state.legal_actions()]
                action = rng.choice(state.legal_actions())
                mine.apply_action(action + 1)
            state.apply_action(action)
        assert mine.is_terminal() and mine.returns() == state.returns()


def test_rules_and_numbering_agree_without_openspiel():
    """What the comparison with OpenSpiel rests on, checked everywhere: the
    words are every bid in the order of the rules in force, then liar."""
    reg = registry()
    for variants in ((), ("liars-dice-reset-quantity",)):
        header, _, game = make_header(reg, "liars-dice", ("ann", "ben"), variants, {"dice": "2"}, "words")
        words = actions_for(reg, header, game).words
        assert len(words) == 1 + 4 * 6 + 1 and words[-1] == "liar"
        ranks = [game.rank[tuple(map(int, w.split("x")))] for w in words[1:-1]]
        assert ranks == sorted(ranks)
    with pytest.raises(UsageError, match="option 'dice'"):
        make_header(reg, "liars-dice", ("ann", "ben"), (), {"dice": "0"})


# -- docs/writing-a-game.md -------------------------------------------------------------
GUIDE = ROOT / "docs" / "writing-a-game.md"
EXCERPT = re.compile(r"<!-- (from: (\S+)|run) -->\n```python\n(.*?)```", re.S)


def test_the_guide_quotes_the_template_as_it_is():
    """Every Python block the guide says is from a file is in that file, word for word."""
    quoted = [(path, code) for _, path, code in EXCERPT.findall(GUIDE.read_text()) if path]
    assert len(quoted) >= 8
    for path, code in quoted:
        assert code in (ROOT / path).read_text(), f"docs/writing-a-game.md quotes {path} as it is not"


def test_the_guides_python_runs(tmp_path, monkeypatch, pyspiel):
    pytest.importorskip("pettingzoo")
    [code] = [code for run, _, code in EXCERPT.findall(GUIDE.read_text()) if run == "run"]
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(code, str(GUIDE), "exec"), namespace)
    assert namespace["table"].agents == ["p1", "p2", "p3"]
