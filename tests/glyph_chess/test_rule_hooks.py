"""Every Glyph Chess rule hook, changed by a small variant, changes that rule."""

from __future__ import annotations

import textwrap
from typing import ClassVar

import attrs
import pytest

from tabletop import Decide, Event, NotationError, Outcome, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.log.header import Header, Randomness
from tabletop.play.engine import Match
from tabletop.play.live import selfplay, settle
from tabletop_glyph_chess import Cast, recall, remember
from tabletop_glyph_chess.actions import finish

from ..fastpath import compare
from .helpers import act, game_at, position, spot, to_action, why_not


class CloseQuarters:
    @rulehook
    def glyph_start_edges(self, game, players):
        rows = ("b2 b3 b4 b5 b6 b7 b8", "l8 l7 l6 l5 l4 l3 l2")
        return [[game.geo.spot(n) for n in row.split()] for row in rows[:players]]


class SilverStarts:
    @rulehook
    def glyph_first_player(self, players):
        return 1


class RichStart:
    @rulehook
    def glyph_starting_coins(self, players, seat, first):
        return 2


class ThreeOfEach:
    @rulehook
    def glyph_coins(self, players):
        return (3,) * 6


class NoRerollStep:
    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        table = dict((yield))
        table["awaken"] = attrs.evolve(table["awaken"], follows=lambda game, work: "draw")
        return table


class NoRerolls:
    @rulehook
    def glyph_rerollable(self, game, state, seat):
        return ()


class NoDrawWhenAhead:
    @rulehook
    def glyph_draws(self, game, state, seat):
        if sum(state.hands[seat]) >= 3:
            return False


class EastOnly:
    @rulehook
    def glyph_move_directions(self, game, state, seat, piece, source):
        return {"e": game.geo.rays[source]["e"]}


class Jumpers:
    @rulehook
    def glyph_may_pass(self, game, state, seat, piece, spot):
        if piece == "N":
            return True


class ScepterTakesNothing:
    @rulehook
    def glyph_may_land(self, game, state, seat, piece, spot):
        if piece == "K" and state.board[spot] is not None:
            return False


class NoSwaps:
    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        table = dict((yield))
        del table["swap"]
        return table


class BlindSeeress:
    @rulehook
    def glyph_may_use_coins(self, game, state, spot):
        return True


class NoWildCoins:
    @rulehook
    def glyph_wild_coins(self, state, seat):
        return frozenset()


class Trophies:
    @rulehook
    def glyph_strike(self, game, state, spot, burn):
        remember(state, "trophies", recall(state, "trophies", 0) + 1)


class NoEscape:
    @rulehook
    def glyph_escape_coins(self, game, state, spot):
        return []


class CentreOrNextToIt:
    @rulehook
    def glyph_centre_wins(self, game, state, seat):
        near = (game.geo.center, *game.geo.neighbours[game.geo.center])
        return any(state.board[s] == (seat, "K") for s in near)


class SuddenDeath:
    @rulehook
    def glyph_eliminate(self, game, state, seat):
        state.eliminated[seat] = True
        state.phase, state.winner = "over", state.turn
        state.steps.clear()
        return True


class LoudOutcome:
    @rulehook(wrapper=True)
    def glyph_outcome(self, game, state):
        outcome = yield
        return Outcome(outcome.scores, outcome.winners, outcome.note.upper())


class EveryoneWins:
    @rulehook
    def glyph_outcome(self, game, state):
        if state.phase == "over":
            return Outcome(dict.fromkeys(game.players, 1), tuple(game.players), "shared")


def documented(hook: str) -> type:
    """The rules class of ``hook``'s example in its hookspec's docstring, run as written."""
    from tabletop_glyph_chess import hookspecs

    example = getattr(hookspecs, hook).__doc__.split("Example", 1)[1].split("::", 1)[1]
    namespace = {"rulehook": rulehook, "Outcome": Outcome, "recall": recall, "remember": remember}
    exec(textwrap.dedent(example), namespace)
    return next(value for value in namespace.values() if isinstance(value, type) and value is not Outcome)


@attrs.frozen
class Rest(Event):
    """A variant's own decision: the player rests instead of acting."""

    kind: ClassVar[str] = "rest"
    player: str


class Resting:
    @rulehook
    def glyph_parse(self, game, text, player, state):
        return Rest(player) if text.strip() == "rest" else None

    @rulehook
    def glyph_notate(self, game, decision):
        return "rest" if isinstance(decision, Rest) else None

    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        table = dict((yield))
        act = table["act"]

        def check(game, state, decision):
            return None if isinstance(decision, Rest) else act.check(game, state, decision)

        def apply(game, work, event):
            if isinstance(event, Rest):
                finish(work)  # the action step ends, as after an action
            else:
                act.apply(game, work, event)

        def legal(game, state, player):
            return [*act.legal(game, state, player), Rest(player)]

        table["act"] = attrs.evolve(act, accepts=(*act.accepts, Rest), check=check, apply=apply, legal=legal)
        return table


VARIANTS = {
    "close": CloseQuarters,
    "silver-starts": SilverStarts,
    "rich": RichStart,
    "three-each": ThreeOfEach,
    "no-reroll-step": NoRerollStep,
    "no-rerolls": NoRerolls,
    "no-draw-ahead": NoDrawWhenAhead,
    "east-only": EastOnly,
    "jumpers": Jumpers,
    "scepter-takes-nothing": ScepterTakesNothing,
    "no-swaps": NoSwaps,
    "blind-seeress": BlindSeeress,
    "no-wild": NoWildCoins,
    "trophies": Trophies,
    "no-escape": NoEscape,
    "near-centre": CentreOrNextToIt,
    "sudden-death": SuddenDeath,
    "loud": LoudOutcome,
    "placings": documented("glyph_outcome"),
    "everyone-wins": EveryoneWins,
}


class Plugin:
    @hookimpl
    def register_variants(self):
        return [Variant(name, "glyph-chess", name, cls()) for name, cls in VARIANTS.items()] + [
            Variant("resting", "glyph-chess", "a player may rest instead of acting", Resting(), events=(Rest,))
        ]


@pytest.fixture(scope="module")
def house() -> Registry:
    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    return Registry(pm)


def started(house, variants, players=("ann", "ben"), seed="hooks") -> Match:
    match = Match(house, Header("glyph-chess", players, tuple(variants), {}, Randomness(seed=seed)))
    settle(match, seed, {})
    return match


def test_glyph_start_edges_a_variant_sets_where_the_pieces_start(house):
    match = started(house, ["close"])
    assert spot(match.game, match.state, "b5") == ("ann", "K")  # the scepter is 4th of 7
    assert spot(match.game, match.state, "l5") == ("ben", "K")
    assert {match.state.board[s][0] for s in match.game.edges[0]} == {0}


def test_glyph_first_player_silver_takes_the_first_turn(house):
    match = started(house, ["silver-starts"])
    assert match.state.turn == 1 and match.node == Decide(("ben",))
    assert sum(match.state.hands[0]) == 1  # gold, second now, drew one coin in setup


def test_glyph_starting_coins_everyone_draws_two(house):
    match = started(house, ["rich"])
    assert match.game.initial().owed == (2, 2)
    assert sum(match.state.hands[1]) == 2


def test_glyph_coins_three_of_each_type(house):
    assert started(house, ["three-each"]).game.initial().bags == ((3,) * 6, (3,) * 6)


DEAD_FORCE_MAGE = {"pieces": {"ann": {"g3": "E"}}, "dice": "F F S S S", "fates": {"ann": {"F": "killed"}}}


def test_glyph_turn_steps_a_variant_changes_a_step(house):
    data = position(**DEAD_FORCE_MAGE)
    _, state = game_at(house, data)
    assert state.phase == "awaken"
    _, state = game_at(house, data, ["no-reroll-step"])
    assert state.phase == "draw"


def test_glyph_rerollable_no_dice_to_reroll(house):
    _, state = game_at(house, position(**DEAD_FORCE_MAGE), ["no-rerolls"])
    assert state.phase == "draw"


def test_glyph_draws_no_draw_with_three_coins(house):
    data = position({}, hands={"ann": "S S I"})
    assert game_at(house, data)[1].phase == "draw"
    assert game_at(house, data, ["no-draw-ahead"])[1].phase == "act"


def test_glyph_move_directions_pieces_move_east_only(house):
    game, state = game_at(house, position({"ann": {"g3": "E"}}, hands={"ann": "E E"}), ["east-only"])
    state = to_action(game, state)
    assert why_not(game, state, "ann", "g3-h3 / E") == "h3 is not in a straight line from g3"
    targets = {e.target for e in game.legal(state, "ann") if e.kind == "move" and e.source == "g3"}
    assert targets == {"g4", "g5"}


def test_glyph_may_pass_the_necromancer_jumps(house):
    data = position({"ann": {"g3": "N"}, "ben": {"g4": "E"}}, hands={"ann": "N N"})
    game, state = game_at(house, data)
    assert why_not(game, to_action(game, state), "ann", "g3-g5 / N N") == "g4 is in the way"
    game, state = game_at(house, data, ["jumpers"])
    state = act(game, to_action(game, state), "ann", "g3-g5 / N N")
    assert spot(game, state, "g5") == ("ann", "N") and spot(game, state, "g4") == ("ben", "E")


def test_glyph_may_land_the_scepter_takes_nothing(house):
    data = position({"ann": {"g3": "K"}, "ben": {"g4": "S"}})
    game, state = game_at(house, data, ["scepter-takes-nothing"])
    state = to_action(game, state)
    assert why_not(game, state, "ann", "g3-g4 / D1") == "g4 holds a piece of yours"
    assert all(e.target != "g4" for e in game.legal(state, "ann") if e.kind == "move")


def test_glyph_spells_a_variant_removes_a_spell(house):
    game, state = game_at(house, position({"ann": {"g3": "I", "g5": "E"}}, hands={"ann": "I"}), ["no-swaps"])
    state = to_action(game, state)
    swap = Cast("ann", "swap", "g3", ("g5",), "", (), ("I",))
    assert game.check(state, swap).startswith("unknown spell 'swap'")
    with pytest.raises(NotationError):
        game.parse("swap g3 g5 / I", "ann", state)
    assert not any(getattr(e, "spell", "") == "swap" for e in game.legal(state, "ann"))


def test_glyph_may_use_coins_a_blind_seeress(house):
    data = position({"ann": {"g3": "E"}, "ben": {"g6": "S"}}, hands={"ann": "E E"})
    game, state = game_at(house, data)
    assert why_not(game, to_action(game, state), "ann", "g3-g4 / E") is not None
    game, state = game_at(house, data, ["blind-seeress"])
    assert why_not(game, to_action(game, state), "ann", "g3-g4 / E") is None


def test_glyph_wild_coins_no_coin_is_wild(house):
    data = position({"ann": {"g3": "E"}}, hands={"ann": "F F"}, fates={"ann": {"F": "killed"}})
    game, state = game_at(house, data, ["no-wild"])
    assert why_not(game, to_action(game, state), "ann", "g3-g4 / F") == "an F coin pays only for F (it is not wild)"


def test_glyph_strike_a_variant_counts_the_pieces_taken_in_its_memo(house):
    data = position({"ann": {"g3": "F"}, "ben": {"g5": "E"}}, hands={"ann": "F F"})
    game, state = game_at(house, data, ["trophies"])
    state = act(game, to_action(game, state), "ann", "g3-g5 / F F")
    assert recall(state, "trophies") == 1 and state.memo.public == (("trophies", 1),)
    assert game.describe(state)["memo trophies"] == "1"  # diff shows it
    assert state.fates[1][2] == "killed"  # the official rule went on


def test_glyph_escape_coins_the_necromancer_cannot_escape(house):
    data = position({"ann": {"g3": "F"}, "ben": {"g5": "N"}}, hands={"ann": "F F", "ben": "N"})
    game, state = game_at(house, data)
    assert act(game, to_action(game, state), "ann", "g3-g5 / F F").phase == "escape"
    game, state = game_at(house, data, ["no-escape"])
    state = act(game, to_action(game, state), "ann", "g3-g5 / F F")
    assert state.phase != "escape" and state.fates[1][4] == "killed"


def test_glyph_centre_wins_next_to_the_centre_wins(house):
    data = position({"ann": {"h7": "K"}})
    assert game_at(house, data)[1].winner is None
    game, state = game_at(house, data, ["near-centre"])
    assert state.phase == "over" and state.winner == 0


def test_glyph_eliminate_the_first_scepter_taken_ends_the_game(house):
    pieces = {"ann": {"g3": "F"}, "ben": {"g5": "K"}, "cat": {"j5": "K"}}
    data = position(pieces, players=("ann", "ben", "cat"), hands={"ann": "F F"})
    game, state = game_at(house, data, ["sudden-death"])
    state = act(game, to_action(game, state), "ann", "g3-g5 / F F")
    assert state.phase == "over" and state.winner == 0 and not state.eliminated[2]


def test_glyph_outcome_a_variant_rewrites_the_result(house):
    game, state = game_at(house, position({"ann": {"g7": "K"}}), ["loud"])
    outcome = game.outcome(state)
    assert outcome.winners == ("ann",) and outcome.note == outcome.note.upper() != ""


def test_glyph_outcome_a_whole_score_from_the_whole_state(house):
    bots = [house.bot("random", "glyph-chess")] * 3
    header, match, events = selfplay(house, "glyph-chess", ("ann", "ben", "cat"), bots, "placings-4", ["placings"])
    fallen = recall(match.state, "fallen", ())
    assert len(fallen) == 2  # the last one standing won: two fell first, in an order
    outcome = match.game.outcome(match.state)
    assert outcome.winners == (match.game.players[match.state.winner],)
    assert sorted(outcome.scores.values()) == [0, 1, 2] and outcome.scores[match.game.players[fallen[0]]] == 0
    official = house.game(Header("glyph-chess", header.players)).outcome(match.state)
    assert official.winners == outcome.winners and sorted(official.scores.values()) == [0, 0, 1]


def test_glyph_outcome_the_observation_shows_the_winners_the_rules_in_force_name(house):
    import numpy as np

    bots = [house.bot("random", "glyph-chess")] * 2
    for variants, winners in (((), 1), (("everyone-wins",), 2)):
        _, match, _ = selfplay(house, "glyph-chess", ("ann", "ben"), bots, "shared", list(variants))
        planes = match.game.planes()
        out = {name: np.zeros(shape, np.float32) for name, shape, _ in planes.describe()}
        planes.fill(match.game.view(match.state, "ann"), "ann", out)
        assert out["winner"].sum() == winners == len(match.game.outcome(match.state).winners)


@pytest.mark.parametrize(
    "variants", [("trophies",), ("jumpers", "blind-seeress"), ("east-only", "no-wild"), ("no-escape", "near-centre")]
)
def test_rule_hooks_changed_on_the_fast_path_too(house, variants):
    # A variant that changes a rule the fast path writes in sends it the long way.
    assert compare(house, "glyph-chess", ["ann", "ben"], "hooked", variants, max_events=150, strangers=3) > 0


def test_glyph_parse_and_glyph_notate_a_variants_own_decision_is_written_listed_and_replayed(house, tmp_path):
    match = started(house, ["resting"], seed="rest")
    game = match.game
    while match.node.players != ("ann",) or match.state.phase != "act":
        match.accept(game.parse("skip", match.node.players[0], match.state))
        settle(match, "rest", {})
    assert "rest" in [game.notate(e) for e in match.legal("ann")]
    rest = game.parse("rest", "ann", match.state)
    assert rest == Rest("ann") and game.format(rest) == "ann rest"
    match.accept(rest)
    events = settle(match, "rest", {})
    assert match.state.turn == 1 and not any(e.kind == "roll" for e in events)  # nothing spent, nothing re-rolled
    assert compare(house, "glyph-chess", ["ann", "ben"], "resting", ("resting",), max_events=60, strangers=3) > 0
    official = started(house, [], seed="rest").game
    with pytest.raises(NotationError):
        official.parse("rest", "ann", official.initial())


# -- a variant's decision in a core shape, with no notation of its own ---------------------------
# Written as docs/house-rules.md and docs/hooks.md tell: a decision added to
# a step of the turn (glyph_turn_steps, TurnStep.adding) in the core's
# shape tabletop.One, declared secret (a coin named from one's hidden hand).
PLEDGE = '''
"""glyph-pledge: once per game, at the start of the action, a player may
secretly pledge one of the coins in hand (``pledge E``)."""

import textwrap
from typing import ClassVar

import attrs

from tabletop import One, Variant, hookimpl, rulehook
from tabletop_glyph_chess import GLYPHS, recall, remember

NAME = "glyph-pledge"


@attrs.frozen
class Pledge(One):
    kind: ClassVar[str] = "pledge"
    secret: ClassVar[bool] = True  # the others see that a coin was pledged, not which


def coins(game, state, player):
    seat = game.seats[player]
    if state.turn != seat or seat in recall(state, NAME, ()):
        return ()
    return tuple(glyph for glyph, count in zip(GLYPHS, state.hands[seat]) if count)


def pledge(game, work, event):
    seat = game.seats[event.player]
    remember(work, NAME, (*recall(work, NAME, ()), seat))
    remember(work, NAME, event.option, player=event.player)


class PledgeOnce:
    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        table = dict((yield))
        table["act"] = table["act"].adding(
            Pledge,
            lambda game, state, player: Pledge.options(player, coins(game, state, player)),
            lambda game, state, decision: Pledge.error(decision, coins(game, state, decision.player)),
            pledge,
        )
        return table


@hookimpl
def register_variants():
    return [Variant(NAME, "glyph-chess", "once per game: pledge a coin in secret", PledgeOnce(), (Pledge,))]
'''


@pytest.fixture(scope="module")
def pledging(tmp_path_factory):
    plugin = tmp_path_factory.mktemp("house") / "glyph_pledge.py"
    plugin.write_text(PLEDGE)
    return plugin, Registry(get_plugin_manager([plugin], environment=False))


def pledge_due(registry, seed="pledge"):
    """A self-played game under glyph-pledge, replayed to the first state
    where a pledge of two coins or more is open: the match, and the log's lines up to there."""
    from tabletop.play.live import selfplay

    bots = [registry.bot("random", "glyph-chess")] * 2
    header, _, events = selfplay(registry, "glyph-chess", ["ann", "ben"], bots, seed, ["glyph-pledge"])
    match = Match(registry, header)
    for n, event in enumerate(events):
        node = match.node
        if isinstance(node, Decide) and len([d for d in match.legal(node.players[0]) if d.kind == "pledge"]) > 1:
            return match, registry.codec.log(header, events[:n])
        match.accept(event)
    raise AssertionError("no pledge was open")


def test_a_variants_shape_decision_brings_its_notation_to_moves_parse_and_play(pledging, tmp_path, cli):
    """Trust finding 22: in Glyph Chess a decision of a core shape without
    glyph_notate is listed by 'tabletop moves', read and written by the shape."""
    plugin, registry = pledging
    match, lines = pledge_due(registry)
    log = tmp_path / "pledge.jsonl"
    log.write_text("\n".join(lines) + "\n")
    player = match.node.players[0]
    pledges = [d for d in match.legal(player) if d.kind == "pledge"]
    result = cli("--plugins", plugin, "moves", log, plugins=False)
    assert result.exit_code == 0, result.output
    for decision in pledges:
        assert f"pledge {decision.option}" in result.output
        assert match.game.notate(decision) == f"pledge {decision.option}"
        assert match.game.parse(f"pledge {decision.option}", player, match.state) == decision
    played = cli("--plugins", plugin, "play", log, f"pledge {pledges[0].option}", "--player", player, plugins=False)
    assert played.exit_code == 0, played.output
    assert f'"kind":"pledge","player":"{player}","payload":{{"option":"{pledges[0].option}"}}' in log.read_text()


def test_a_secret_shape_decision_is_the_same_to_the_other_player_whichever_coin(pledging):
    """Trust finding 22: twin states: the other player's view and account of
    the pledge are identical whichever coin was pledged."""
    from tabletop.sight import seen

    _, registry = pledging
    for seed in ("pledge", "pledge-2", "pledge-3"):
        match, _ = pledge_due(registry, seed)
        game = match.game
        player = match.node.players[0]
        other = next(p for p in game.players if p != player)
        pledges = [d for d in match.legal(player) if d.kind == "pledge"]
        states = [game.apply(match.state, d) for d in pledges]
        assert {match.describe(d, other) for d in pledges} == {f"{player} pledge (hidden)"}
        assert len({game.view(state, other) for state in states}) == 1
        assert len({seen.text(game, state, other) for state in states}) == 1
        assert len({tuple(sorted(seen.facets(game, state, other).items())) for state in states}) == 1
        assert len({match.describe(d, player) for d in pledges}) == len(pledges)  # its player sees each whole
        assert len({game.view(state, player) for state in states}) == len(pledges)
