"""glux-joker (variants/house_rules/glux_joker.py): the kinds of chip are data
(``glux_chips``, ``glux_bag``), and a house rule adds a joker chip that shows
the face its player chooses. Played through self-play and replay, the
notation and the log, the views (its holder's secret kept, by twin states)
and the fast path; and what the rulings say of it (docs/rulings.md)."""

from __future__ import annotations

import json
import random

import attrs
import jsonschema
import pytest

from tabletop import Decide, PluginError, Registry, Variant, get_plugin_manager, hookimpl, rulehook, testing
from tabletop.play.engine import Match, Replay
from tabletop.play.live import selfplay
from tabletop.sight import seen
from tabletop_glux import Draw, Place, Start
from tabletop_glux.chips import KIND_NAME

from ..conftest import ROOT
from ..fastpath import compare
from .helpers import make_game, position

HOUSE_RULES = ROOT / "variants" / "house_rules"
JOKER = HOUSE_RULES / "glux_joker.py"
SEEDS = [f"joker-{i}" for i in range(4)]
ANY_FACE = {1, 2, 3, 4, 5, 6}


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry(get_plugin_manager([JOKER, HOUSE_RULES / "glux_two_chips.py"], environment=False))


def joker_states(registry, seed, players=3, variants=("glux-joker",)):
    """A self-played game: each state with the event that follows it, and the final match."""
    names = [f"p{i}" for i in range(1, players + 1)]
    header, played, events = selfplay(
        registry, "glux", names, [registry.bot("random", "glux")] * players, seed, variants
    )
    match = Match(registry, header)
    states = []
    for event in events:
        states.append((match.state, event))
        match.accept(event)  # every event checked as a replay checks it
    assert match.over and match.state == played.state
    return states, match


@pytest.mark.parametrize("seed", SEEDS)
def test_glux_joker_one_joker_a_bag_placed_showing_any_face_it_then_keeps(registry, seed):
    states, match = joker_states(registry, seed)
    game = match.game
    assert game.chips.kinds == ("1/6", "2/5", "3/4", "joker") and game.bag == (8, 8, 8, 1)
    jokers = 0
    for state, event in states:
        if event.kind not in ("place", "start"):
            continue
        seat = game.seats[event.player]
        if state.hands[seat] == "joker":
            jokers += 1
            # Every face is offered for it, wherever it may go.
            square = event.square if event.kind == "place" else None
            offered = {d.face for d in game.legal(state, event.player) if getattr(d, "square", square) == square}
            assert offered == ANY_FACE
            after = game.apply(state, event)
            where = game.board.indices[event.square] if event.kind == "place" else game.start_squares[seat]
            assert after.stacks[where][-1] == (seat, event.face)  # it shows the face chosen, from then on
    assert jokers == len(game.players)  # each player's joker was drawn and placed
    # A player not excluded placed every chip of the bag: 24 and the joker.
    for seat, excluded in enumerate(match.state.excluded):
        placed = sum(chip[0] == seat for stack in match.state.stacks for chip in stack)
        assert placed == 25 or excluded


def test_glux_joker_replayed_from_its_log_and_on_the_command_line(registry, tmp_path, cli):
    log = tmp_path / "joker.jsonl"
    made = cli(
        "--plugins",
        JOKER,
        "selfplay",
        "glux",
        "--seats",
        "2",
        "--games",
        "1",
        "--variant",
        "glux-joker",
        "-o",
        tmp_path,
    )
    assert made.exit_code == 0, made.output
    written = next(tmp_path.glob("glux-*.jsonl"))
    written.rename(log)
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["variants"] == ["glux-joker"]
    draws = [json.loads(line) for line in lines[1:] if json.loads(line)["kind"] == "draw"]
    assert sum(d["payload"]["chip"] == "joker" for d in draws) == 2
    replayed = Replay(registry, log).run()
    assert replayed.over
    result = cli("--plugins", JOKER, "replay", log)
    assert result.exit_code == 0 and "Game over." in result.output
    # Without the house rule the same lines are refused, naming the file and line.
    refused = cli("replay", log)
    assert refused.exit_code != 0 and "unknown variant 'glux-joker'" in refused.output
    # An official game refuses a joker drawn: the chips in force decide what a draw may be.
    official = [lines[0].replace('"variants":["glux-joker"],', "")] + lines[1:]
    first = next(i for i, line in enumerate(official) if '"chip":"joker"' in line)
    (tmp_path / "official.jsonl").write_text("\n".join(official[: first + 1]) + "\n")
    result = cli("replay", tmp_path / "official.jsonl")
    assert result.exit_code == 1 and f"official.jsonl:{first + 1}:" in result.output
    assert "not a possible outcome" in result.output


def test_glux_joker_notation_lists_reads_and_refuses_faces(registry, tmp_path, cli):
    game = make_game(registry, variants=["glux-joker"])
    state = game.apply(game.apply(game.initial(), Draw("ann", "joker")), Draw("ben", "2/5"))
    assert [game.notate(d) for d in game.legal(state, "ann")] == [f"{face}@a1" for face in range(1, 7)]
    assert game.parse("4@a1", "ann", state) == Start("ann", 4) and game.check(state, Start("ann", 4)) is None
    assert game.check(state, Start("ben", 4)) == "your chip is 2/5; face 4 is not on it"
    assert game.format(Draw("ann", "joker"), "ann") == "ann draws joker"
    assert game.format(Draw("ann", "joker"), "ben") == "ann draws a chip"
    line = registry.codec.encode(1, Draw("ann", "joker"))
    assert registry.codec.decode_line("glux", line) == (1, Draw("ann", "joker"))
    # The same on the command line: the joker's six faces listed, one played.
    log = tmp_path / "g.jsonl"
    assert (
        cli(
            "--plugins",
            JOKER,
            "new",
            "glux",
            "--players",
            "ann,ben",
            "--seed",
            "3",
            "--variant",
            "glux-joker",
            "-o",
            log,
        ).exit_code
        == 0
    )
    moves = cli("--plugins", JOKER, "moves", log)
    assert "ann (choose the face of the start chip (joker)):" in moves.output
    assert all(f"  {face}@a1" in moves.output for face in range(1, 7))
    played = cli("--plugins", JOKER, "play", log, "3@a1", "--player", "ann")
    assert played.exit_code == 0, played.output
    assert '"kind":"start","player":"ann","payload":{"face":3}' in log.read_text()


def test_glux_joker_is_a_short_file_the_guide_shows():
    source = JOKER.read_text()
    assert len(source.splitlines()) <= 32  # 26 lines, and 6 that tell all a joker was placed
    guide = (ROOT / "docs" / "house-rules.md").read_text()
    shown = guide.split("`glux_joker.py` adds a kind")[1].split("```python\n")[1].split("```")[0]
    assert shown in source


def test_glux_joker_log_lines_match_the_published_schema(registry):
    schema = json.loads((ROOT / "docs" / "log-format.schema.json").read_text())
    chip = schema["$defs"]["payloads"]["glux"]["draw"]["properties"]["chip"]
    assert chip["pattern"] == f"^{KIND_NAME.pattern}$"  # what glux_chips may name, no more
    draw = jsonschema.Draft202012Validator({**schema, "oneOf": [{"$ref": "#/$defs/payloads/glux/draw"}]})
    draw.validate({"chip": "joker"})
    with pytest.raises(jsonschema.ValidationError):
        draw.validate({"chip": "a joker"})


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_glux_joker_keeps_its_holder_secret_by_twin_states(registry, seed):
    # The conformance kit at every decision: views, texts, pictures, scores,
    # bots' choices and hidden draws alike for twin states and for twin
    # histories (a joker drawn, or another chip); fast path, notation and
    # log lines as the plain rules.
    assert testing.conform(registry, "glux", ("ann", "ben", "cy"), ["glux-joker"], games=1, seed=seed) > 20
    # And a twin made by hand: ann holds the joker, or a 1/6 chip; ben cannot tell.
    game = make_game(registry, ("ann", "ben", "cy"), ["glux-joker"])
    board = {"a1": [("ann", 2)], "m1": [("ben", 3)], "g13": [("cy", 4)]}
    bags = {"ben": (5, 5, 5, 1), "cy": (5, 5, 5, 1)}
    joker = position(game, board, hands={"ann": "joker"}, turn="ben", bags={**bags, "ann": (5, 5, 5, 0)})
    one = position(game, board, hands={"ann": "1/6"}, turn="ben", bags={**bags, "ann": (4, 5, 5, 1)})
    for player in ("ben", "cy"):
        testing.same_for(registry, game, joker, one, player)
        assert "hand hidden; bag and hand: 16 chips (1/6x5 2/5x5 3/4x5 jokerx1)" in seen.text(game, one, player)
    assert seen.text(game, joker, "ann") != seen.text(game, one, "ann")


@pytest.mark.parametrize("variants", [("glux-joker",), ("glux-joker", "glux-two-chips")])
def test_glux_joker_fast_path_agrees_with_the_plain_rules(registry, variants):
    for seed in SEEDS[:2]:
        assert compare(registry, "glux", ["ann", "ben", "cy"], seed, variants) > 50
    _, played, _ = selfplay(registry, "glux", ["ann", "ben"], [registry.bot("random", "glux")] * 2, "fast", variants)
    assert played._fast is not None  # self-play ran on the fast path


def test_glux_joker_with_two_chips_a_face_both_show_is_the_ordinary_chips(registry):
    # Ruling: a face an ordinary chip in hand shows is placed with it; the joker stays in hand.
    game = make_game(registry, variants=["glux-joker", "glux-two-chips"])
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]}, bags={"ann": (5, 5, 5, 0), "ben": (5, 5, 5, 1)})
    state = attrs.evolve(state, hands=("3/4", "3/4"), held=(("joker",), ()))
    placements = game.legal(state, "ann")
    faces = [p.face for p in placements if p.square == "a3"]
    assert faces == [3, 4, 1, 2, 5, 6]  # the 3/4's faces, then those only the joker shows
    after = game.apply(state, Place("ann", "a3", 3))
    assert after.hand(0) == ("joker",)  # the 3/4 was placed
    after = game.apply(state, Place("ann", "a3", 5))
    assert after.hand(0) == ("3/4",)  # only the joker shows a 5


class _Chips:
    def __init__(self, chips):
        self.chips = chips

    @rulehook
    def glux_chips(self, players):
        return self.chips


@pytest.mark.parametrize(
    ("chips", "said"),
    [
        ({}, "glux_chips gave no kind of chip"),
        ({"a joker": (1, 2)}, "glux_chips gave a kind named 'a joker': a kind is 1 to 16 characters"),
        ({"7/0": (0, 7)}, "glux_chips gave the kind 7/0 the faces (0, 7): each face shows 1 to 6 pips"),
        ({"6/1": (6, 1)}, "a kind lists them once each, lowest first"),
        ({"1/6": (1, 6), "x": (2,)}, "glux_bag gave chips of the kind '2/5', which Glüx does not have (kinds: 1/6, x)"),
    ],
)
def test_glux_chips_an_answer_glux_cannot_use_is_refused_naming_the_variant(chips, said):
    class BagOfThree:
        @rulehook
        def glux_bag(self, players):
            return {"1/6": 8, "2/5": 8, "3/4": 8} if "x" in chips else None

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [
                Variant("glux-odd-chips", "glux", "odd chips", _Chips(chips)),
                Variant("glux-three-kinds", "glux", "the official bag, named", BagOfThree()),
            ]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    registry = Registry(pm)
    with pytest.raises(PluginError) as caught:
        make_game(registry, variants=["glux-odd-chips", "glux-three-kinds"])
    assert said in str(caught.value) and "variant 'glux-" in str(caught.value)


def test_glux_chips_a_set_of_kinds_of_its_own_with_the_official_bag(registry):
    # Kinds replaced, not added: the official bag holds 8 of each kind in force.
    class Sevens:
        @rulehook
        def glux_chips(self, players):
            return {"1/6": (1, 6), "2/5": (2, 5), "3/4": (3, 4), "6/6": (6,)}

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("glux-sixes", "glux", "a kind with a six on each side", Sevens())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    game = make_game(Registry(pm), variants=["glux-sixes"])
    assert game.bag == (8, 8, 8, 8) and game.chips.faces["6/6"] == (6,)
    state = game.apply(game.apply(game.initial(), Draw("ann", "6/6")), Draw("ben", "1/6"))
    assert game.legal(state, "ann") == [Start("ann", 6)]
    assert isinstance(game.next(state), Decide)
    rng = random.Random(1)
    assert game.determinize(game.view(state, "ben"), "ben", rng).hands[0] in game.chips.kinds
