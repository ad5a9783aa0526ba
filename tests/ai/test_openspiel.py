"""The OpenSpiel adapter, checked by OpenSpiel's own functions."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import tabletop.ai.openspiel  # noqa: E402
from tabletop import Replay  # noqa: E402
from tabletop.ai.openspiel import returns_of  # noqa: E402
from tabletop.api import registry  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HOUSE = str(ROOT / "variants" / "house_rules")
PEEK = str(Path(__file__).resolve().parent / "ai_games" / "peek.py")
BIG_DEAL = str(Path(__file__).resolve().parent / "ai_games" / "glux_big_deal.py")

tabletop.ai.openspiel.register([HOUSE, PEEK, BIG_DEAL])


def load(name: str, players: int, variants: str = "") -> pyspiel.Game:
    return pyspiel.load_game(name, {"players": players, "variants": variants, "plugins": HOUSE})


CONFIGS = [
    ("tabletop_glux", 2, ""),
    ("tabletop_glux", 3, ""),
    ("tabletop_glux", 4, ""),
    ("tabletop_glux", 4, "glux-room-points:first=5,second=3"),
    ("tabletop_glux", 2, "glux-redraw"),
    ("tabletop_glyph_chess", 2, ""),
    ("tabletop_glyph_chess", 3, ""),
    ("tabletop_glyph_chess", 2, "glyph-push"),
]


@pytest.mark.parametrize(("name", "players", "variants"), CONFIGS)
def test_random_sim_test_with_serialization(name, players, variants):
    # OpenSpiel's consistency check: legal actions, chance probabilities,
    # clones, information and observation strings and tensors, returns, and
    # serialization of every state along random games.
    pyspiel.random_sim_test(load(name, players, variants), num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "players", "variants"),
    [
        *CONFIGS,
        ("tabletop_glux", 2, "glux-room-points"),
        ("tabletop_glux", 3, "glux-room-points:first=6,second=1"),
        ("tabletop_glyph_chess", 3, "glyph-push"),
        ("tabletop_glyph_chess", 2, "glyph-advanced-setup"),
        ("tabletop_glyph_chess", 3, "glyph-hand-limit:limit=7"),
    ],
)
def test_random_sim_test_many_games(name, players, variants):
    pyspiel.random_sim_test(load(name, players, variants), num_sims=5, serialize=True, verbose=False)


def test_the_issue_example_loads_with_a_house_rule():
    game = pyspiel.load_game(
        "tabletop_glux", {"players": 4, "variants": "glux-room-points:first=5,second=3", "plugins": HOUSE}
    )
    assert game.num_players() == 4
    assert game.setup.header.variants == ("glux-room-points:first=5,second=3",)
    # The game's own string (with ',' and '=' percent-encoded) loads the same game again.
    again = pyspiel.load_game(str(game))
    assert again.setup.header == game.setup.header


def test_unknown_variant_is_one_clear_error():
    with pytest.raises(tabletop.TabletopError, match="no-such-rule"):
        pyspiel.load_game("tabletop_glux", {"players": 2, "variants": "no-such-rule"})


def play_randomly(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_serialize_is_a_tabletop_log_that_replays(tmp_path):
    import random

    game = load("tabletop_glux", 3, "glux-room-points:first=6,second=1")
    state = play_randomly(game.new_initial_state(), random.Random(3), 10_000)
    assert state.is_terminal()
    log = tmp_path / "game.jsonl"
    log.write_text(state.serialize())
    replay = Replay(registry([HOUSE]), log)
    match = replay.run()
    assert match.over
    outcome = match.game.outcome(match.state)
    assert returns_of(outcome, match.header.players) == pytest.approx(state.returns())
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.returns() == state.returns()


def test_deserialize_continues_a_decision_being_spelt():
    import random

    game = load("tabletop_glyph_chess", 2)
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node() or not state.prefix:
        play_randomly(state, rng, 1)
    assert state.serialize().splitlines()[-1].startswith("#spelling ")
    again = game.deserialize_state(state.serialize())
    assert again.prefix == state.prefix
    assert again.legal_actions() == state.legal_actions()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_a_bad_log_is_refused_naming_its_line():
    game = load("tabletop_glux", 2)
    text = game.new_initial_state().serialize() + '{"seq":1,"kind":"place","player":"p1","payload":{}}\n'
    with pytest.raises(tabletop.TabletopError, match="line 2"):
        game.deserialize_state(text)


def first_private_draw(game):
    """A state at a chance node drawing a coin for p1 (hidden from p2)."""
    import random

    rng = random.Random(1)
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            node = state.match.node
            if type(node.outcomes[0]).__name__ == "Draw" and node.outcomes[0].player == "p1":
                outcomes = [a for a, p in state.chance_outcomes()]
                if len({node.outcomes[a].glyph for a in outcomes}) > 1:
                    return state
        play_randomly(state, rng, 1)


def test_no_hidden_information_leaks_into_information_states():
    game = load("tabletop_glyph_chess", 2)
    state = first_private_draw(game)
    node = state.match.node
    actions = [a for a, _ in state.chance_outcomes()]
    a = next(x for x in actions)
    b = next(x for x in actions if node.outcomes[x].glyph != node.outcomes[a].glyph)
    one, two = state.clone(), state.clone()
    one.apply_action(a)
    two.apply_action(b)
    # p2 (player 1) cannot tell the two apart: same strings and tensors ...
    assert one.information_state_string(1) == two.information_state_string(1)
    assert one.information_state_tensor(1) == two.information_state_tensor(1)
    assert one.observation_string(1) == two.observation_string(1)
    assert one.observation_tensor(1) == two.observation_tensor(1)
    # ... and p1 (player 0) can.
    assert one.information_state_string(0) != two.information_state_string(0)
    assert one.observation_string(0) != two.observation_string(0)


def test_states_with_the_same_view_look_the_same():
    import random

    game = load("tabletop_glyph_chess", 3)
    state = play_randomly(game.new_initial_state(), random.Random(2), 200)
    while state.is_chance_node():
        play_randomly(state, random.Random(0), 1)
    player = state.current_player()
    other = (player + 1) % 3
    for seed in range(3):
        world = state.resample_from_infostate(player, lambda s=seed: (s + 0.5) / 3)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_string(player) == state.observation_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
    # The other players' coins were drawn anew: some world differs from the real one.
    worlds = [state.resample_from_infostate(player, lambda s=s: s / 7) for s in range(7)]
    assert any(w.match.state != state.match.state for w in worlds)
    assert all(w.observation_string(player) == state.observation_string(player) for w in worlds)
    del other


def test_ismcts_and_evaluate_bots_play_a_game_with_a_house_rule():
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    class ISMCTS(ismcts.ISMCTSBot):
        # evaluate_bots restarts every bot; ISMCTS searches afresh at each step anyway.
        def restart_at(self, state):
            pass

    game = load("tabletop_glux", 2, "glux-room-points:first=5,second=3")
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ISMCTS(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng, allow_inconsistent_action_sets=True),
        UniformRandomBot(1, rng),
    ]
    returns = evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2 and sum(returns) == pytest.approx(0)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_sealed_setup_is_secret_to_the_others_and_survives_serialization():
    import random

    game = load("tabletop_glyph_chess", 2, "glyph-advanced-setup")
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.events or type(state.events[-1]).__name__ != "Seal":
        play_randomly(state, rng, 1)
    sealer = state.setup.seats[state.events[-1].player]
    other = 1 - sealer
    assert "arrange" in state.information_state_string(sealer).splitlines()[-1]
    assert state.information_state_string(other).splitlines()[-1].endswith("seals")
    again = game.deserialize_state(state.serialize())
    assert again.information_state_string(sealer) == state.information_state_string(sealer)
    assert again.information_state_string(other) == state.information_state_string(other)
    # Both go on to the same reveal.
    while not any(type(e).__name__ == "Unseal" for e in state.events):
        action = random.Random(len(state.events)).choice(state.legal_actions())
        state.apply_action(action)
        again.apply_action(action)
    assert again.serialize() == state.serialize()


# -- observations a network can learn from, and a true bound on length ---------------


def test_tensors_are_the_games_planes():
    """The observation tensor of a game that declares planes is those planes
    (with the words being spelt), by name in the observer's dict; the
    information state adds the hashed history."""
    from open_spiel.python.observation import make_observation

    game = load("tabletop_glux", 2)
    state = play_randomly(game.new_initial_state(), __import__("random").Random(1), 20)
    size = state.setup.observation.size
    assert game.observation_tensor_shape() == [size]
    assert game.information_state_tensor_shape() == [size + tabletop.ai.openspiel.INFORMATION_SIZE]
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    observer.set_from(state, 0)
    assert observer.dict["chips"].shape == (6, 2, 9, 13)
    assert observer.dict["chips"].sum() == sum(1 for stack in state.match.state.stacks if stack)
    assert list(observer.tensor) == state.observation_tensor(0)
    spelt = load("tabletop_glyph_chess", 2).new_initial_state()
    assert "spelt" in make_observation(spelt.get_game(), pyspiel.IIGObservationType(perfect_recall=False)).dict


def test_a_game_without_planes_keeps_its_hashed_tensors():
    game = pyspiel.load_game("tabletop_peek", {"players": 2, "plugins": PEEK})
    assert game.observation_tensor_shape() == [tabletop.ai.openspiel.OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [tabletop.ai.openspiel.INFORMATION_SIZE]


@pytest.mark.parametrize(("players", "variants", "longest"), [(2, "", 48), (3, "", 72), (4, "", 96)])
def test_max_game_length_is_the_bound_of_the_rules_in_force(players, variants, longest):
    assert load("tabletop_glux", players, variants).max_game_length() == longest


def test_a_game_the_rules_do_not_bound_is_stopped_at_the_limit():
    """Glyph Chess has no end but a win: with limit=N a game is stopped
    unfinished after N decision words (returns 0), never later, and a state
    read back from its log is stopped too."""
    import random

    game = pyspiel.load_game("tabletop_glyph_chess", {"players": 2, "limit": 60})
    assert game.max_game_length() == 60
    assert load("tabletop_glyph_chess", 2).max_game_length() == tabletop.base.limits.LIMIT
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = play_randomly(game.new_initial_state(), random.Random(6), 100_000)
    assert state.is_terminal() and not state.match.over
    assert sum(1 for step in state.full_history() if step.player >= 0) == 60
    assert state.returns() == [0.0, 0.0] and state.legal_actions() == []
    again = game.deserialize_state(state.serialize())
    assert again.is_terminal() and again.play.words == 60


def test_a_bound_the_game_declares_wrongly_is_one_clear_error(monkeypatch):
    import random

    from tabletop_glux.game import Glux

    monkeypatch.setattr(Glux, "most_words", lambda self: 10)
    game = pyspiel.load_game("tabletop_glux", {"players": 2, "options": "board=two-players"})
    assert game.max_game_length() == 10
    with pytest.raises(tabletop.PluginError, match="most_words"):
        play_randomly(game.new_initial_state(), random.Random(1), 1000)


def test_a_house_rules_big_deal_is_numbered_and_passes_openspiels_checks():
    # 6 of 12 goals dealt to each player: 924 hands, far more chance outcomes
    # than Glüx's own (a chip kind or a start player); each reads apart.
    game = pyspiel.load_game("tabletop_glux", {"players": 2, "variants": "glux-big-deal", "plugins": BIG_DEAL})
    assert game.max_chance_outcomes() == 924
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 924
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "p1 goals a,b,c,d,e,f"
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
