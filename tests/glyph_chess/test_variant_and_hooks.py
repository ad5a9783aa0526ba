"""The advanced-setup variant (sealed choices) and Glyph Chess's rule hooks."""

from __future__ import annotations

import json

import pytest

from tabletop import Decide, IllegalEventError, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.log.header import Header, Randomness
from tabletop.play.engine import Match
from tabletop.play.live import decide

from .helpers import act, game_at, position, to_action, why_not

ADVANCED = ("glyph-advanced-setup",)


def advanced(registry):
    return Match(registry, Header("glyph-chess", ("ann", "ben"), ADVANCED, {}, Randomness(seed="s")))


def test_glyph_secret_setup_variant_players_arrange_their_own_edge(registry):
    match = advanced(registry)
    assert match.node == Decide(("ann", "ben"), sealed=True)
    secrets = {}
    decide(match, match.game.parse("arrange K S I E F N U", "ann", match.state), "s", secrets)
    assert match.node == Decide(("ben",), sealed=True)
    events = decide(match, match.game.parse("arrange S I E F N U K", "ben", match.state), "s", secrets)
    assert [e.kind for e in events[:3]] == ["seal", "unseal", "unseal"]
    row = [match.state.board[s][1] for s in match.game.edges[0]]
    assert row == ["K", "S", "I", "E", "F", "N", "U"]  # the scepter need not be central
    assert [match.state.board[s][1] for s in match.game.edges[1]] == ["S", "I", "E", "F", "N", "U", "K"]


def test_advanced_setup_a_later_chooser_cannot_read_an_earlier_choice(cli, tmp_path):
    new_advanced(cli, "--sealed")
    assert cli("play", "g.jsonl", "arrange F N U K S I E", "--player", "ann").exit_code == 0
    log = (tmp_path / "g.jsonl").read_text()
    assert "arrange" not in log and '"F","N","U","K"' not in log
    assert json.loads(log.splitlines()[1])["kind"] == "seal"
    out = cli("replay", "g.jsonl", "--as", "ben", "--step").stdout
    assert "ann seals a secret decision" in out and "F N U" not in out
    assert cli("play", "g.jsonl", "arrange K S I E F N U", "--player", "ben").exit_code == 0
    kinds = [json.loads(line).get("kind") for line in (tmp_path / "g.jsonl").read_text().splitlines()[1:]]
    assert kinds[:4] == ["seal", "seal", "unseal", "unseal"]
    assert cli("replay", "g.jsonl").exit_code == 0


def new_advanced(cli, *seed: str) -> None:
    result = cli(
        "new",
        "glyph-chess",
        "--players",
        "ann,ben",
        "--variant",
        "glyph-advanced-setup",
        *(seed or ("--seed", "x")),
        "-o",
        "g.jsonl",
    )
    assert result.exit_code == 0, result.output


def test_advanced_setup_a_revealed_choice_must_match_its_commitment(cli, tmp_path):
    new_advanced(cli)
    cli("play", "g.jsonl", "arrange F N U K S I E", "--player", "ann")
    cli("play", "g.jsonl", "arrange K S I E F N U", "--player", "ben")
    path = tmp_path / "g.jsonl"
    text = path.read_text().replace('"order":["F","N","U","K","S","I","E"]', '"order":["K","N","U","F","S","I","E"]')
    path.write_text(text)
    result = cli("replay", "g.jsonl")
    assert result.exit_code == 1 and "does not open ann's sealed decision" in result.stderr


def test_advanced_setup_a_wrong_arrangement_is_refused_before_sealing(cli, tmp_path):
    new_advanced(cli)
    before = (tmp_path / "g.jsonl").read_bytes()
    result = cli("play", "g.jsonl", "arrange K K I E F N U", "--player", "ann")
    assert result.exit_code == 1 and "once each" in result.stderr
    assert (tmp_path / "g.jsonl").read_bytes() == before


def test_an_unsealed_decision_is_refused_where_a_sealed_one_is_due(registry):
    match = advanced(registry)
    with pytest.raises(IllegalEventError, match="this decision is secret: it must be sealed first"):
        match.accept(match.game.parse("arrange K S I E F N U", "ann", match.state))


class Costs:
    @rulehook(wrapper=True)
    def glyph_costs(self):
        costs = dict((yield))
        costs["replica"] = "item"
        return costs


class Hands:
    @rulehook
    def glyph_hand_limit(self, players):
        return 7


class HouseRules:
    @hookimpl
    def register_variants(self):
        return [
            Variant("cheap-replica", "glyph-chess", "a coin pays for the replica", Costs()),
            Variant("big-hands", "glyph-chess", "draw up to 7 coins", Hands()),
        ]


@pytest.fixture(scope="module")
def house() -> Registry:
    pm = get_plugin_manager(environment=False)
    pm.register(HouseRules())
    return Registry(pm)


def test_glyph_costs_a_variant_changes_a_spells_cost(house):
    data = position({"ann": {"g3": "I"}}, hands={"ann": "I I S S E"})
    official, state = game_at(house, data)
    assert why_not(official, to_action(official, state), "ann", "replica g3 g4 / I") is not None
    cheap, state = game_at(house, data, ["cheap-replica"])
    state = act(cheap, to_action(cheap, state), "ann", "replica g3 g4 / I")


def test_glyph_hand_limit_a_variant_draws_up_to_more_coins(house):
    data = position({}, hands={"ann": "S S I I E"})
    game, state = game_at(house, data)
    assert state.phase == "act"
    game, state = game_at(house, data, ["big-hands"])
    assert state.phase == "draw"
