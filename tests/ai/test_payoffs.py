"""A game's declared payoffs, rewards during play and their bounds, through
the OpenSpiel and PettingZoo adapters: Leduc poker (tests/plugins/leduc.py)
pays its chips, as OpenSpiel's own ``leduc_poker`` does; the shipped games
keep the default, a share of the victory."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import tabletop.ai.openspiel  # noqa: E402
from tabletop import PluginError  # noqa: E402
from tabletop.ai.pettingzoo import env  # noqa: E402
from tabletop.ai.returns import Payout, returns_of  # noqa: E402
from tabletop.model.game import Game, shares  # noqa: E402

HERE = Path(__file__).resolve().parent
LEDUC = str(HERE.parent / "plugins" / "leduc.py")
#: Leduc paying each chip as it goes into the pot (rewards during play).
PAID = str(HERE / "leduc_paid.py")

tabletop.ai.openspiel.register([LEDUC, PAID])

RANKS = "JQK"


def leduc(name: str = "leduc") -> pyspiel.Game:
    return pyspiel.load_game(f"tabletop_{name.replace('-', '_')}", {"plugins": PAID if "paid" in name else LEDUC})


def word(state, text: str) -> int:
    """The action spelt ``text`` (fold, call, raise) open now."""
    found = [a for a in state.legal_actions() if state.action_to_string(state.current_player(), a) == text]
    assert found, (
        f"{text} is not open: {[state.action_to_string(state.current_player(), a) for a in state.legal_actions()]}"
    )
    return found[0]


def hand(game: pyspiel.Game, cards: str, board: str, moves: str):
    """A hand: the cards dealt (p1's, p2's), the board card, and the moves
    in turn (``r`` raise, ``c`` call, ``f`` fold; ``/`` where the board card
    comes)."""
    state = game.new_initial_state()
    for card in cards:
        state.apply_action(RANKS.index(card))
    for move in moves:
        if move == "/":
            assert state.is_chance_node()
            state.apply_action(RANKS.index(board))
        else:
            state.apply_action(word(state, {"r": "raise", "c": "call", "f": "fold"}[move]))
    assert state.is_terminal()
    return state


# -- OpenSpiel: the chips ------------------------------------------------------------


def test_leduc_declares_its_chips_to_openspiel():
    game = leduc()
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-13.0, 13.0, 0.0)
    kind = game.get_type()
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    # The same as OpenSpiel's own Leduc poker.
    theirs = pyspiel.load_game("leduc_poker")
    assert (theirs.min_utility(), theirs.max_utility()) == (game.min_utility(), game.max_utility())


@pytest.mark.parametrize("name", ["leduc", "leduc-paid"])
def test_random_sim_test_with_the_declared_bounds(name):
    # OpenSpiel's consistency check holds every return within the declared
    # bounds, and (rewards during play) the rewards read before each
    # decision and at the end add up to the returns.
    pyspiel.random_sim_test(leduc(name), num_sims=30, serialize=True, verbose=False)


HANDS = [
    # cards, board, moves, returns (p1, p2)
    ("JQ", "K", "rf", [1.0, -1.0]),  # a fold after a raise: p2 loses the ante
    ("JQ", "K", "rrf", [-3.0, 3.0]),  # p1 raises, p2 raises again, p1 folds
    ("KJ", "Q", "cc/cc", [1.0, -1.0]),  # checked through: the king wins the antes
    ("JQ", "Q", "cc/rc", [-5.0, 5.0]),  # p2 pairs the board and calls a raise of 4
    ("KQ", "J", "rrc/rrc", [13.0, -13.0]),  # every raise called: the most there is
    ("JQ", "K", "rc/rrf", [-7.0, 7.0]),  # p1 folds to a re-raise in the second round
    ("QQ", "K", "rc/rc", [0.0, 0.0]),  # equal cards split the pot
]


@pytest.mark.parametrize(("cards", "board", "moves", "chips"), HANDS)
def test_scripted_hands_return_their_chips(cards, board, moves, chips):
    state = hand(leduc(), cards, board, moves)
    assert state.returns() == chips
    assert state.rewards() == chips  # all at the end
    # And OpenSpiel's own Leduc poker pays the same on the same hand.
    assert openspiel_leduc(cards, board, moves).returns() == chips


def openspiel_leduc(cards: str, board: str, moves: str):
    """The same hand in ``pyspiel.load_game("leduc_poker")``: card c is of
    rank c // 2; its actions are 0 fold, 1 call, 2 raise."""
    state = pyspiel.load_game("leduc_poker").new_initial_state()
    dealt: list[int] = []

    def deal(rank: str) -> None:
        card = next(c for c in range(6) if c // 2 == RANKS.index(rank) and c not in dealt)
        dealt.append(card)
        state.apply_action(card)

    for card in cards:
        deal(card)
    for move in moves:
        deal(board) if move == "/" else state.apply_action("fcr".index(move))
    assert state.is_terminal()
    return state


def test_every_hand_pays_what_openspiels_leduc_poker_pays():
    """Both games walked together over every deal (by rank) and every line
    of betting: the same moves open at each decision, the same chance of
    each rank, and the same returns at every end."""
    ours, theirs = leduc().new_initial_state(), pyspiel.load_game("leduc_poker").new_initial_state()
    ends = walk(ours, theirs, [])
    assert ends > 1000


def walk(ours, theirs, dealt: list[int]) -> int:
    if ours.is_terminal():
        assert theirs.is_terminal()
        assert ours.returns() == theirs.returns()
        return 1
    ends = 0
    if ours.is_chance_node():
        assert theirs.is_chance_node()
        by_rank: dict[int, float] = {}
        for card, p in theirs.chance_outcomes():
            by_rank[card // 2] = by_rank.get(card // 2, 0.0) + p
        assert dict(ours.chance_outcomes()) == pytest.approx(by_rank)
        for rank in by_rank:
            card = next(c for c, _ in theirs.chance_outcomes() if c // 2 == rank)
            ends += walk(ours.child(rank), theirs.child(card), [*dealt, card])
        return ends
    assert ours.current_player() == theirs.current_player()
    mine = {ours.action_to_string(a): a for a in ours.legal_actions()}
    assert sorted(mine) == sorted(theirs.action_to_string(a).lower() for a in theirs.legal_actions())
    for action in theirs.legal_actions():
        ends += walk(ours.child(mine[theirs.action_to_string(action).lower()]), theirs.child(action), dealt)
    return ends


# -- OpenSpiel: rewards during play --------------------------------------------------


def test_rewards_during_play_are_an_advance_on_the_payoffs():
    """Leduc paid as it goes: each chip is taken as it goes into the pot,
    and the pot comes back at the end; the returns are the same chips."""
    game = leduc("leduc-paid")
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    state = game.new_initial_state()
    for card in "JQ":
        state.apply_action(RANKS.index(card))
    state.apply_action(word(state, "raise"))
    assert state.rewards() == [-2.0, 0.0] and state.returns() == [-2.0, 0.0]
    state.apply_action(word(state, "call"))
    assert state.rewards() == [0.0, -2.0] and state.returns() == [-2.0, -2.0]
    state.apply_action(RANKS.index("Q"))  # a chance outcome adds to what the call paid
    assert state.rewards() == [0.0, -2.0]
    again = game.deserialize_state(state.serialize())
    assert (again.rewards(), again.returns()) == (state.rewards(), state.returns())
    state.apply_action(word(state, "raise"))
    state.apply_action(word(state, "call"))
    assert state.is_terminal()
    # p2 pairs the board: p1 loses 1 + 2 + 4. The last call took 4 from p2,
    # and the end pays the rest: p1 the ante (never taken during play), p2 13.
    assert state.returns() == [-7.0, 7.0]
    assert state.rewards() == [-1.0, 13.0 - 4.0]
    for cards, board, moves, chips in HANDS:
        assert hand(game, cards, board, moves).returns() == chips


def test_random_games_pay_in_rewards_what_they_return():
    game = leduc("leduc-paid")
    rng = random.Random(3)
    for _ in range(30):
        state, total = game.new_initial_state(), [0.0, 0.0]
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                total = [a + b for a, b in zip(total, state.rewards())]
                state.apply_action(rng.choice(state.legal_actions()))
        total = [a + b for a, b in zip(total, state.rewards())]
        assert total == pytest.approx(state.returns())
        assert sum(state.returns()) == 0 and -13 <= min(state.returns())


# -- the default: win/loss -----------------------------------------------------------


@pytest.mark.parametrize(("players", "low"), [(2, -1.0), (3, -0.5), (4, -1 / 3)])
def test_a_game_that_declares_nothing_keeps_win_loss(players, low):
    game = pyspiel.load_game("tabletop_glux", {"players": players})
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (pytest.approx(low), 1.0, 0.0)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    made = game.setup.game
    assert type(made).payoffs is Game.payoffs and type(made).rewards is Game.rewards
    assert Payout(made).kind == "zero-sum"


def test_the_default_payoffs_are_the_share_of_the_victory():
    from tabletop import Outcome

    players = ("a", "b", "c")
    assert shares(Outcome({}, ("a",)), players) == [1.0, -0.5, -0.5]
    assert shares(Outcome({}, ("a", "b")), players) == [0.25, 0.25, -0.5]
    assert shares(Outcome({}, ()), players) == [0.0, 0.0, 0.0]
    assert returns_of(Outcome({}, ("c",)), players) == shares(Outcome({}, ("c",)), players)


# -- a game that declares wrongly --------------------------------------------------


@pytest.mark.parametrize(
    ("payoffs", "message"),
    [
        (lambda self, state: [20, -20], "outside its payoff_bounds"),
        (lambda self, state: [1, 1], "add up to 2"),
        (lambda self, state: {"p1": 1}, "gives p2 nothing"),
        (lambda self, state: [1, -1, 0], "3 values for 2 players"),
    ],
)
def test_payoffs_the_game_declares_wrongly_are_one_clear_error(monkeypatch, payoffs, message):
    game = leduc()
    monkeypatch.setattr(type(game.setup.game), "payoffs", payoffs)
    state = game.new_initial_state()
    for card in "JQ":
        state.apply_action(RANKS.index(card))
    state.apply_action(word(state, "raise"))
    state.apply_action(word(state, "fold"))
    with pytest.raises(PluginError, match=message):
        state.returns()


def test_bounds_the_game_declares_wrongly_are_one_clear_error(monkeypatch):
    game = leduc()
    monkeypatch.setattr(type(game.setup.game), "payoff_bounds", lambda self: (1, 1))
    with pytest.raises(PluginError, match="the least must be below the most"):
        Payout(game.setup.game)


# -- PettingZoo ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["leduc", "leduc-paid"])
def test_pettingzoo_api_test_on_declared_payoffs(name):
    api_test(env(name, plugins=[LEDUC, PAID]), num_cycles=200)


def episode(table, seed: int) -> tuple[dict[str, float], list[dict[str, float]]]:
    """A random episode: each agent's rewards summed, and the rewards of
    every step before the end."""
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    total = dict.fromkeys(table.possible_agents, 0.0)
    during = []
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        total[agent] += reward
        if terminated or truncated:
            table.step(None)
        else:
            during.append(dict(table.rewards))
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return total, during


@pytest.mark.parametrize("name", ["leduc", "leduc-paid"])
def test_pettingzoo_rewards_add_up_to_the_payoffs(name):
    """Each agent's rewards over an episode are its chips won or lost; a
    game that pays during play pays some before the end, the other none."""
    table = env(name, plugins=[LEDUC, PAID])
    paid_before_the_end = False
    for seed in range(20):
        total, during = episode(table, seed)
        match = table.table.match
        chips = dict(match.game.outcome(match.state).scores)
        assert total == pytest.approx(chips)
        assert dict(zip(table.possible_agents, table.payout.at_end(match.state))) == chips
        paid_before_the_end |= any(any(step.values()) for step in during)
    assert paid_before_the_end == (name == "leduc-paid")


def test_pettingzoo_rewards_at_the_end_are_the_payoffs():
    table = env("leduc", plugins=[LEDUC])
    table.reset(seed=1)
    while not table.table.over:
        mask = table.observe(table.agent_selection)["action_mask"]
        table.step(int(np.flatnonzero(mask)[0]))
    match = table.table.match
    assert table.rewards == match.game.payoffs(match.state)
    assert all(table.terminations.values())


@pytest.mark.parametrize(
    ("total", "utility"),
    [(0, "ZERO_SUM"), (1, "CONSTANT_SUM"), (None, "GENERAL_SUM")],
)
def test_the_utility_kind_is_the_games_payoff_sum(total, utility):
    leduc_class = type(leduc().setup.game)
    declared = type("Declared", (leduc_class,), {"payoff_sum": total})
    assert tabletop.ai.openspiel.game_type(declared).utility == getattr(pyspiel.GameType.Utility, utility)
    assert Payout(declared(("p1", "p2"), {}, None)).total == total
