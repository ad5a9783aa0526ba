"""The Glüx house rules under variants/house_rules/, each played to the end by
bots over several seeds, checking after every placement that its rule held."""

from __future__ import annotations

import pytest

from tabletop import Header, Hidden, Registry, get_plugin_manager
from tabletop.play.engine import Match
from tabletop.play.live import selfplay
from tabletop.sight import seen
from tabletop_glux import FACES, Place, recall

from ..conftest import ROOT

HOUSE_RULES = ROOT / "variants" / "house_rules"
SEEDS = [f"house-{i}" for i in range(6)]


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry(get_plugin_manager(sorted(HOUSE_RULES.glob("glux_*.py")), environment=False))


def play(registry, variant, seed, players=4, bot="random"):
    """A whole self-played game under ``variant``: the states before each
    placement, with the placement, and the final match (replayed from the log)."""
    names = [f"p{i}" for i in range(1, players + 1)]
    bots = [registry.bot(bot, "glux")] * players
    header, match, events = selfplay(registry, "glux", names, bots, seed, [variant])
    replay = Match(registry, header)
    placed = []
    for event in events:
        if event.kind == "place":
            placed.append((replay.state, event))
        replay.accept(event)
    assert replay.over and replay.state == match.state
    return placed, replay


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_glux_may_cover_no_covering_another_players_chip(registry, seed, bot):
    placed, match = play(registry, "glux-no-cover", seed, players=3, bot=bot)
    assert len(placed) > 30
    assert covers_of_others(match.game, placed) == 0


def covers_of_others(game, placed) -> int:
    """How many placements went on top of another player's chip."""
    found = 0
    for state, event in placed:
        stack = state.stacks[game.board.indices[event.square]]
        found += bool(stack) and stack[-1][0] != game.seats[event.player]
    return found


def test_the_same_games_under_the_official_rules_do_cover(registry):
    # So the check above is not empty: these seeds do cover others' chips officially.

    total = 0
    for seed in SEEDS[:3]:
        names = ["p1", "p2", "p3"]
        header, match, events = selfplay(registry, "glux", names, [registry.bot("random", "glux")] * 3, seed)
        replay = Match(registry, header)
        placed = []
        for event in events:
            if event.kind == "place":
                placed.append((replay.state, event))
            replay.accept(event)
        total += covers_of_others(replay.game, placed)
    assert total > 0


def test_glux_no_cover_refuses_covering_in_a_log(registry, cli):
    from tabletop_glux.events import Place

    from .helpers import make_game, position

    game = make_game(registry, variants=["glux-no-cover"])
    state = position(game, {"a1": [("ann", 2)], "a3": [("ben", 5)], "c1": [("ann", 1)], "m9": [("ben", 3)]})
    assert game.check(state, Place("ann", "a3", 4)) == "the chip on a3 may not be covered with a 4"
    assert game.check(state, Place("ann", "c1", 4)) is None  # one's own chip still may be
    assert "a3" not in {game.board.name_of(s) for s in game.targets(state, 0)}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("entry", "first", "second"), [("glux-room-points", 5, 3), ("glux-room-points:first=6,second=1", 6, 1)]
)
def test_glux_score_room_rooms_score_5_and_3(registry, seed, entry, first, second):
    from tabletop_glux import rank_room

    _, match = play(registry, entry, seed, players=3)
    game, state = match.game, match.state
    outcome = game.outcome(state)
    expected = {p: 0 for p in game.players}
    found = set()
    for pips in game.room_pips(state).values():
        for player, vp in rank_room(pips, second_place=True, first=first, second=second).items():
            expected[player] += vp
            found.add(vp)
    assert outcome.scores == expected
    assert found <= {0, first, second} and first in found
    assert match.header.variants == (entry,)


def test_glux_room_points_keeps_first_place_only_with_two_players(registry):
    _, match = play(registry, "glux-room-points", "two", players=2)
    points = match.game.room_points(match.state)
    assert {vp for room in points.values() for vp in room.values()} <= {0, 5}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("entry", "height"), [("glux-stack-height", 3), ("glux-stack-height:height=4", 4)])
def test_glux_stack_height_stacks_may_be_three_high(registry, seed, entry, height):
    placed, match = play(registry, entry, seed, players=4)
    tallest = max(len(stack) for stack in match.state.stacks)
    assert tallest <= height
    for state, event in placed:
        assert len(state.stacks[match.game.board.indices[event.square]]) < height


def test_glux_stack_height_is_reached_in_play(registry):
    # Over a few games, some stack does grow past the official two.
    tallest = 0
    for seed in SEEDS:
        _, match = play(registry, "glux-stack-height", seed, players=4)
        tallest = max(tallest, *(len(stack) for stack in match.state.stacks))
    assert tallest == 3


def test_a_wrong_parameter_is_refused_with_one_line(registry):
    from tabletop import UsageError

    with pytest.raises(UsageError, match="glux-stack-height.*height='x' is not a whole number"):
        play(registry, "glux-stack-height:height=x", "bad")


@pytest.mark.parametrize("seed", SEEDS)
def test_glux_redraw_a_new_decision_played_to_the_end(registry, seed):
    names = ["p1", "p2", "p3"]
    header, match, events = selfplay(
        registry, "glux", names, [registry.bot("random", "glux")] * 3, seed, ["glux-redraw"]
    )
    redraws = [e for e in events if e.kind == "redraw"]
    assert len({e.player for e in redraws}) == len(redraws)  # once per game each
    lines = registry.codec.log(header, events)
    replay = Match(registry, header)
    for line in lines[1:]:
        replay.accept(registry.codec.decode_line("glux", line)[1])
    assert replay.over and replay.state == match.state
    assert dict(replay.state.memo.items()).get("glux-redraw", ()) == tuple(
        header.players.index(e.player) for e in redraws
    )


def test_glux_redraw_on_the_command_line(cli):
    def run(*args):
        result = cli("--plugins", HOUSE_RULES / "glux_redraw.py", *args, plugins=False)
        assert result.exit_code == 0, result.output
        return result.output

    run("new", "glux", "--players", "ann,ben", "--variant", "glux-redraw", "--seed", "r", "-o", "g.jsonl")
    run("play", "g.jsonl", "6@a1", "--player", "ann")
    run("play", "g.jsonl", "5@m9", "--player", "ben")  # the seed makes ben the start player
    assert run("moves", "g.jsonl").split()[-1] == "redraw"
    assert "ben redraw" in run("play", "g.jsonl", "redraw", "--player", "ben")
    assert run("moves", "g.jsonl").startswith("ann")  # the draw ended ben's turn
    assert "After 9 events" in run("replay", "g.jsonl")
    again = cli(
        "--plugins", HOUSE_RULES / "glux_redraw.py", "play", "g.jsonl", "redraw", "--player", "ben", plugins=False
    )
    assert again.exit_code == 1 and "not ben's turn" in again.output + (again.stderr or "")


def test_the_guides_end_to_end_test_runs_as_written(monkeypatch):
    import re

    guide = (ROOT / "docs" / "house-rules.md").read_text()
    code = re.search(r"## Testing a house rule.*?```python\n(.*?)```", guide, re.DOTALL).group(1)
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    exec(compile(code, "docs/house-rules.md", "exec"), scope)
    scope["test_no_covering_another_players_chip"]()


def official_twin(registry, game):
    """The same players under the official rules (the same states fit it)."""
    from tabletop import Header

    return registry.game(Header("glux", game.players, ()))


def refused_officially_legal(registry, game, placed) -> int:
    """How many placements the official rules listed, in the positions
    played, that the variant did not list."""
    official = official_twin(registry, game)
    refused = 0
    for state, event in placed:
        refused += len(set(official.legal(state, event.player)) - set(game.legal(state, event.player)))
    return refused


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_glux_may_cover_by_face_cover_only_a_chip_showing_fewer_pips(registry, seed):
    placed, match = play(registry, "glux-cover-fewer", seed)
    game = match.game
    covers = 0
    for state, event in placed:
        stack = state.stacks[game.board.indices[event.square]]
        if stack:
            covers += 1
            assert stack[-1][1] < event.face, (event, stack)
    assert covers > 5  # covering still happens, with a higher face
    assert refused_officially_legal(registry, game, placed) > 0  # and the rule refused placements


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_glux_may_cover_by_chip_a_1_6_chip_covers_nothing(registry, seed):
    placed, match = play(registry, "glux-soft-ones", seed)
    game = match.game
    covers = 0
    for state, event in placed:
        stack = state.stacks[game.board.indices[event.square]]
        assert not (stack and event.face in (1, 6)), event  # the start-square option included
        covers += bool(stack)
    assert covers > 5
    assert refused_officially_legal(registry, game, placed) > 0


def test_glux_soft_ones_the_start_square_option_asks_rule_4(registry):
    from tabletop import Header

    from .helpers import position

    game = registry.game(Header("glux", ("ann", "ben"), ("glux-soft-ones",)))
    state = position(game, {"a1": [("ann", 6)], "m9": [("ben", 3)]}, hands={"ann": "1/6"})
    assert not any(p.start for p in game.legal(state, "ann"))
    assert game.check(state, Place("ann", "a1", 6, start=True)) == "the chip on a1 may not be covered with a 6"
    fast = game.fast()
    assert fast.check(fast.thaw(state), Place("ann", "a1", 6, start=True)) == game.check(
        state, Place("ann", "a1", 6, start=True)
    )
    state = position(game, {"a1": [("ann", 6)], "m9": [("ben", 3)]}, hands={"ann": "2/5"})
    assert {p.face for p in game.legal(state, "ann") if p.start} == {2, 5}


@pytest.mark.parametrize("players", [2, 4])
def test_glux_score_room_by_game_the_middle_room_scores_double(registry, players):
    changed = 0
    for seed in SEEDS[:4]:
        _, match = play(registry, "glux-middle-double", seed, players=players)
        game, state = match.game, match.state
        official = official_twin(registry, game)
        points = official.room_points(state)
        middle = points[game.board.middle]
        expected = {p: sum(room[p] for room in points.values() if p in room) + middle.get(p, 0) for p in game.players}
        assert game.outcome(state).scores == expected
        assert game.room_points(state)[game.board.middle] == {p: 2 * vp for p, vp in middle.items()}
        changed += game.outcome(state).scores != official.outcome(state).scores
    assert changed == 4  # the middle room scores in every game


# -- glux-lucky-chip: a secret the variant keeps -----------------------------------------
def test_glux_memo_a_secret_kept_for_one_player_is_in_their_view_only(registry):
    header, match, events = selfplay(
        registry, "glux", ["ann", "ben", "cy"], [registry.bot("random", "glux")] * 3, "lucky-0", ["glux-lucky-chip"]
    )
    replay = Match(registry, header)
    game = replay.game
    first_hand = {}
    for event in events:
        replay.accept(event)
        if event.kind == "draw" and replay.state.started[game.seats[event.player]]:
            first_hand.setdefault(event.player, event.chip)
        state = replay.state
        for player in header.players:
            memo = game.view(state, player).memo
            for other in header.players:
                secret = recall(memo, "glux-lucky-chip", player=other)
                assert secret == (first_hand.get(other) if other == player else None)
            facets = seen.facets(game, state, player)
            assert not [k for k in facets if k.startswith("memo") and not k.endswith(f"({player})")]
    # Everything is known to the game itself: each player's first hand chip.
    assert {p: recall(replay.state, "glux-lucky-chip", player=p) for p in header.players} == first_hand
    assert len(first_hand) == 3


def test_glux_room_pips_lucky_chips_count_double_and_change_results(registry):
    official = Registry(get_plugin_manager([], environment=False))
    changed = 0
    for seed in SEEDS:
        _, match = play(registry, "glux-lucky-chip", seed, players=2)
        game, state = match.game, match.state
        plain = official.game(Header("glux", match.header.players)).room_pips(state)
        lucky = game.room_pips(state)
        for room, pips in lucky.items():
            for player, total in pips.items():
                kind = recall(state, "glux-lucky-chip", player=player)
                doubled = sum(
                    face
                    for square in game.room_squares[room]
                    if state.stacks[square] and game.players[state.stacks[square][-1][0]] == player
                    for face in [state.stacks[square][-1][1]]
                    if face in FACES[kind]
                )
                assert total == plain[room].get(player, 0) + doubled
        changed += lucky != plain
    assert changed >= len(SEEDS) // 2


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_glux_hand_size_two_chips_held_either_placed_drawn_back_to_two(registry, seed):
    placed, match = play(registry, "glux-two-chips", seed)
    game = match.game
    assert game.hand_size == 2
    second_chip_placed = 0
    for state, event in placed:
        seat = game.seats[event.player]
        hand = state.hand(seat)
        # A hand of two while the bag lasted (setup drew two; each placement drew back).
        assert len(hand) == 2 or not state.bag_size(seat), (hand, event)
        assert any(event.face in FACES[kind] for kind in hand)
        second_chip_placed += event.face not in FACES[hand[0]]
        # Both chips' faces are offered wherever the placement is legal.
        faces = {p.face for p in game.legal(state, event.player) if p.square == event.square and not p.start}
        if not event.start:
            assert faces == {face for kind in hand for face in FACES[kind]}, (hand, faces)
    assert second_chip_placed > 5  # either chip is placed
    _, official = play(registry, "glux-wrapped-cover", seed)
    assert official.state.stacks != match.state.stacks  # and the games differ from the official ones


def test_glux_two_chips_others_see_neither_chip_and_the_fast_path_agrees(registry):
    from ..fastpath import compare

    placed, match = play(registry, "glux-two-chips", "hands", players=3)
    game = match.game
    state, event = placed[10]
    seat = game.seats[event.player]
    other = game.players[(seat + 1) % 3]
    view = game.view(state, other)
    assert all(isinstance(kind, Hidden) for kind in view.hand(seat)) and len(view.hand(seat)) == 2
    # Bag and hand together: the viewer counts the two hidden chips as still in the bag.
    assert sum(view.bags[seat]) == sum(state.bags[seat]) + 2
    assert view.hand(game.seats[other]) == state.hand(game.seats[other])
    assert compare(registry, "glux", ["ann", "ben", "cat"], "two-chips", ("glux-two-chips",)) > 20


def eager_to_put_back():
    """A bot that puts back as soon as it may (the largest subset), else places at random."""
    from tabletop import Bot

    def choose(game, state, player, legal, rng):
        subsets = [d for d in legal if d.kind == "putback"]
        return max(subsets, key=lambda d: len(d.items)) if subsets else legal[rng.randrange(len(legal))]

    return Bot("eager", "puts back at once", choose, "glux", reads_state=False)


@pytest.mark.parametrize("variants", [("glux-put-back",), ("glux-put-back", "glux-two-chips")])
@pytest.mark.parametrize("seed", SEEDS[:3])
def test_glux_put_back_a_subset_decision_offered_applied_and_mattering(registry, variants, seed):
    from itertools import combinations

    names = ["p1", "p2", "p3"]
    header, match, events = selfplay(registry, "glux", names, [eager_to_put_back()] * 3, seed, variants)
    assert match._fast is not None  # the house rule stays on the fast path
    game = match.game
    state, offered, put_back = game.initial(), 0, []
    for i, event in enumerate(events):
        if state.began and state.turn is not None and not state.drawing and not state.step:
            seat, player = state.turn, game.players[state.turn]
            kinds = tuple(kind for kind in ("1/6", "2/5", "3/4") if kind in state.hand(seat))
            subsets = [d.items for d in game.legal(state, player) if d.kind == "putback"]
            if player not in {e.player for e in put_back}:
                # Offered as a subset: every non-empty subset of the kinds in hand, once per game.
                assert subsets == [c for n in range(1, len(kinds) + 1) for c in combinations(kinds, n)]
                offered += 1
            else:
                assert subsets == []  # once per game
        if event.kind == "putback":
            put_back.append(event)
            seat = game.seats[event.player]
            before, after = state, game.apply(state, event)
            # Applied: the chosen kinds went back into the bag, the rest stay in hand.
            assert all(kind not in after.hand(seat) for kind in event.items)
            assert after.bag_size(seat) == before.bag_size(seat) + len(before.hand(seat)) - len(after.hand(seat))
            assert after.step == "refill" and game.next(after).__class__.__name__ == "Chance"
            # Then as many are drawn, and the same player places.
            then = next(j for j in range(i + 1, len(events)) if events[j].kind != "draw")
            assert events[then].kind == "place" and events[then].player == event.player
            assert then - i - 1 == len(before.hand(seat)) - len(after.hand(seat))
        state = game.apply(state, event)
    assert len(put_back) == 3 and offered >= 3  # each player put back once
    assert state == match.state
    _, official, _ = selfplay(registry, "glux", names, [eager_to_put_back()] * 3, seed, variants[1:])
    assert official.state.stacks != match.state.stacks  # it mattered


def test_glux_put_back_refused_twice_and_read_from_its_notation(registry):
    header, match, events = selfplay(
        registry, "glux", ["p1", "p2"], [eager_to_put_back()] * 2, "twice", ["glux-put-back"]
    )
    game = match.game
    first = next(e for e in events if e.kind == "putback")
    state = game.initial()
    for event in events[: events.index(first) + 1]:
        state = game.apply(state, event)
    assert (
        game.notate(first) == f"putback {first.items[0]}"
        and game.format(first) == f"{first.player} {game.notate(first)}"
    )
    assert game.parse(game.notate(first), first.player, state) == first
    later = state
    for event in events[events.index(first) + 1 :]:
        if later.turn == game.seats[first.player] and not later.drawing and not later.step and later.began:
            break
        later = game.apply(later, event)
    again = first.__class__(first.player, later.hand(game.seats[first.player])[:1])
    assert game.check(later, again) is not None  # once per game


def test_glux_two_chips_the_board_shows_both_chips_to_their_holder_and_counts_them_for_others(registry):
    # The text board and `diff`'s facets name every chip held, not only the first.
    placed, match = play(registry, "glux-two-chips", "hands", players=3)
    game = match.game
    state, event = placed[10]
    seat = game.seats[event.player]
    hand = state.hand(seat)
    assert len(hand) == 2
    own = seen.text(game, state, event.player)
    assert f"{event.player}: hand {hand[0]} {hand[1]}; bag:" in own
    assert seen.facets(game, state, event.player)[f"hand {event.player}"] == f"{hand[0]} {hand[1]}"
    other = game.players[(seat + 1) % 3]
    text = seen.text(game, state, other)
    assert f"{event.player}: hand hidden (2 chips); bag and hand:" in text
    assert str(hand[1]) not in game.describe(game.view(state, other), other)[f"hand {event.player}"]


# -- a variant's own secret decision, written from the docs --------------------------------------
# Written as docs/house-rules.md and docs/hooks.md tell: a step of the turn
# replaced (glux_turn_steps), its decision in one of the core's shapes
# (tabletop.One), declared secret: which kind of chip one takes tells what
# is in one's hidden hand.
CHOOSE_DRAW = HOUSE_RULES / "glux_choose_draw.py"


@pytest.fixture(scope="module")
def choose_draw(tmp_path_factory) -> Registry:
    return Registry(get_plugin_manager([CHOOSE_DRAW], environment=False))


def test_a_secret_decision_shape_shows_the_others_the_same_whichever_kind_is_taken(choose_draw):
    """Trust finding 22: a variant's decision in a core shape declared secret
    (which kind of chip to take from one's bag) is shown whole to its player
    only: every other player's view, board, facets and account of the event
    are identical whichever kind was taken (twin states)."""
    registry = choose_draw
    players = ["ann", "ben", "cy"]
    twins = shown_to_owner = 0
    for seed in range(3):
        header, _, events = selfplay(
            registry, "glux", players, [registry.bot("random", "glux")] * 3, f"take-{seed}", ["glux-choose-draw"]
        )
        match = Match(registry, header)
        game = match.game
        for event in events:
            if event.kind == "take":
                chooser = event.player
                options = match.legal(chooser)
                states = [game.apply(match.state, option) for option in options]
                for other in players:
                    if other == chooser:
                        continue
                    said = {match.describe(option, other) for option in options}
                    assert said == {f"{chooser} take (hidden)"}
                    assert len({seen.history(game, [option], other)[0] for option in options}) == 1
                    assert len({game.view(state, other) for state in states}) == 1
                    assert len({seen.text(game, state, other) for state in states}) == 1
                    assert len({tuple(sorted(seen.facets(game, state, other).items())) for state in states}) == 1
                    twins += len(options) > 1
                assert match.describe(event, chooser) == f"{chooser} take {event.option}"
                assert match.describe(event) == f"{chooser} take {event.option}"  # everything, asked for by name
                shown_to_owner += 1
            match.accept(event)
        assert match.over
    assert twins > 30 and shown_to_owner > 30


def test_a_secret_decision_reads_back_from_its_notation_and_its_log_line(choose_draw, tmp_path, cli):
    """The shape brings its notation: 'take 2/5' is listed,
    read and written, and the log keeps it whole."""
    registry = choose_draw
    header, _, events = selfplay(
        registry, "glux", ["ann", "ben"], [registry.bot("random", "glux")] * 2, "take-notation", ["glux-choose-draw"]
    )
    taken = next(event for event in events if event.kind == "take")
    game = registry.game(header)
    assert game.notate(taken) == f"take {taken.option}"
    assert game.parse(f"take {taken.option}", taken.player, None) == taken
    line = registry.codec.encode(9, taken)
    assert registry.codec.decode_line("glux", line) == (9, taken)


@pytest.mark.parametrize(
    ("bag", "said"),
    [
        ({"1/6": 8, "2/5": 8, "7/0": 8}, "glux_bag gave chips of the kind '7/0', which Glüx does not have"),
        ({"1/6": 8, "2/5": -1}, "glux_bag gave -1 chips of 2/5: a bag holds 0 to 99 of a kind"),
        ({"1/6": 0}, "glux_bag gave an empty bag"),
    ],
)
def test_glux_bag_with_a_kind_glux_has_not_is_refused_naming_the_variant(bag, said):
    """Trust finding 22: a kind of chip the game has not is refused, never dropped."""
    from tabletop import PluginError, Variant, hookimpl, rulehook

    class OddBag:
        @rulehook
        def glux_bag(self, players):
            return bag

    class Plugin:
        @hookimpl
        def register_variants(self):
            return [Variant("glux-odd-bag", "glux", "an odd bag", OddBag())]

    pm = get_plugin_manager(environment=False)
    pm.register(Plugin())
    with pytest.raises(PluginError) as caught:
        Registry(pm).game(Header("glux", ("ann", "ben"), ("glux-odd-bag",)))
    message = str(caught.value)
    assert f"{__file__}:" in message and f"variant 'glux-odd-bag': {said}" in message and "\n" not in message
