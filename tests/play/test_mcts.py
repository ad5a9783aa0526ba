"""The MCTS bot: it plans from its own player's view alone, repeats with a
seed, and finds what a search should find."""

from __future__ import annotations

import random
from typing import ClassVar

import attrs
import pytest

import tabletop
from tabletop import MCTS, Decide, Event, Outcome, Over, UsageError
from tabletop.api import bot_named
from tabletop.many.intervals import wilson

from ..conftest import PILE


def positions(game: str, players: int, seeds: range, every: int = 7):
    """Tables at many points of random games: (table, player to decide)."""
    for seed in seeds:
        table = tabletop.start(game, [f"p{i}" for i in range(1, players + 1)], seed=f"mcts-{seed}")
        rng = random.Random(seed)
        step = 0
        while not table.over and step < 400:
            who = table.deciding[0]
            if step % every == 0:
                yield table, who
            legal = table.legal(who)
            table.play(legal[rng.randrange(len(legal))])
            step += 1


@pytest.mark.parametrize(("game", "players"), [("glux", 2), ("glux", 4), ("glyph-chess", 2), ("glyph-chess", 3)])
def test_determinize_is_consistent_with_the_view(game, players):
    """A determinized state shows the player exactly the view it came from,
    and every hidden item is drawn from what the player knows remains."""
    rng = random.Random(7)
    checked = differed = 0
    for table, _ in positions(game, players, range(4)):
        for player in table.players:
            view = table.view(player)
            world = table.game.determinize(view, player, rng)
            assert table.game.view(world, player) == view
            # The filled-in state is a full state: every player's view of it works.
            for other in table.players:
                table.game.view(world, other)
            checked += 1
            differed += world != table.state
    assert checked > 20
    assert differed > 0  # hidden items were really drawn, not copied from the true state


@pytest.mark.parametrize(("game", "players"), [("glux", 2), ("glux", 3), ("glyph-chess", 2)])
def test_mcts_decides_the_same_on_two_states_with_the_same_view(game, players):
    """The bot never uses what its player may not know: two states that its
    player cannot tell apart give the same decision."""
    bot = MCTS(iterations=25)
    compared = 0
    for table, player in positions(game, players, range(3), every=9):
        legal = table.legal(player)
        if len(legal) < 2:
            continue
        other = table.game.determinize(table.view(player), player, random.Random(compared))
        if other == table.state or list(table.game.legal(other, player)) != legal:
            continue
        assert table.game.view(other, player) == table.view(player)
        first = bot(table.game, table.state, player, legal, random.Random(5))
        second = bot(table.game, other, player, legal, random.Random(5))
        assert first == second
        compared += 1
    assert compared >= 3


def test_mcts_repeats_with_the_same_seed():
    logs = []
    for _ in range(2):
        table = tabletop.start("glux", ["ann", "ben"], seed="again")
        table.run(["mcts:iterations=20", "greedy"])
        logs.append(table.lines())
    assert logs[0] == logs[1]


def test_mcts_takes_the_last_stones():
    """Pile: with 2 stones left and 2 allowed, taking both wins at once."""
    table = tabletop.start("pile", ["ann", "ben"], seed="1", options={"stones": "5"}, plugins=[PILE])
    table.play("pick 3", player="ann")
    table.play("pick 1", player="ben")
    table.play("1")
    table.play("2")
    assert table.state.pile == 2 and table.deciding == ("ann",)
    for seed in range(5):
        choice = MCTS(iterations=40)(table.game, table.state, "ann", table.legal(), random.Random(seed))
        assert choice.stones == 2


def test_mcts_leaves_the_opponent_a_losing_pile():
    """Pile without cards in play: taking to a multiple of 3 wins; from 4 stones, take 1."""
    table = tabletop.start("pile", ["ann", "ben"], seed="1", options={"stones": "7"}, plugins=[PILE])
    table.play("pick 3", player="ann")
    table.play("pick 1", player="ben")
    table.play("1")
    table.play("2")
    assert table.state.pile == 4
    legal = [d for d in table.legal() if not d.card]
    wins = sum(
        MCTS(iterations=300)(table.game, table.state, "ann", legal, random.Random(s)).stones == 1 for s in range(5)
    )
    assert wins >= 4


def test_the_mcts_bot_is_registered_for_every_game():
    registry = tabletop.api.registry()
    for game in ("glux", "glyph-chess"):
        bot = registry.bot("mcts", game)
        assert isinstance(bot.choose, MCTS)


def test_mcts_settings():
    registry = tabletop.api.registry()
    bot = bot_named(registry, "mcts:iterations=12,playout=0,exploration=1.5", "glux")
    assert bot.choose == MCTS(iterations=12, playout=0, exploration=1.5)
    with pytest.raises(UsageError, match="bot 'mcts:depth=3': no setting 'depth'"):
        bot_named(registry, "mcts:depth=3", "glux")
    with pytest.raises(UsageError, match="bot 'mcts:iterations=many': iterations=many: expected a whole number"):
        bot_named(registry, "mcts:iterations=many", "glux")
    for bad in ("iterations=0", "seconds=-1", "seconds=nan", "seconds=inf", "exploration=-0.5"):
        with pytest.raises(UsageError, match=f"bot 'mcts:{bad}': {bad}: out of range"):
            bot_named(registry, f"mcts:{bad}", "glux")
    with pytest.raises(UsageError, match="bot 'greedy' has no settings"):
        bot_named(registry, "greedy:depth=3", "glux")


def test_mcts_with_a_time_budget_decides():
    table = tabletop.start("glux", ["ann", "ben"], seed="t")
    player = table.deciding[0]
    legal = table.legal(player)
    choice = MCTS(seconds=0.05)(table.game, table.state, player, legal, random.Random(1))
    assert choice in legal
    assert isinstance(table.match.node, Decide)


@pytest.mark.parametrize(("game", "players"), [("glux", 3), ("glyph-chess", 2)])
def test_views_mark_what_a_player_may_not_see_as_hidden(game, players):
    """Another player's hand is a tabletop.Hidden in a view, never a value."""
    from tabletop import Hidden

    found = 0
    for table, _ in positions(game, players, range(2), every=11):
        for player in table.players:
            hands = table.view(player).hands
            for seat, hand in enumerate(hands):
                if table.players[seat] == player:
                    assert not isinstance(hand, Hidden)
                elif isinstance(hand, Hidden):
                    found += 1
                    if game == "glyph-chess":
                        assert hand == Hidden("coins", sum(table.state.hands[seat]))
                else:
                    assert hand is None  # a Glüx player holding no chip: nothing to hide
    assert found > 5


def mcts_wins_against_greedy(games: int, bot: str = "mcts", game: str = "glux") -> int:
    """Two-player games that MCTS wins (alone or shared) against greedy, seats alternating."""
    won = 0
    for i in range(games):
        bots = [bot, "greedy"] if i % 2 == 0 else ["greedy", bot]
        table = tabletop.start(game, ["ann", "ben"], seed=f"strength-{i}")
        outcome = table.run(bots)
        won += table.players[i % 2] in outcome.winners
    return won


def test_mcts_beats_greedy_at_glux_in_a_few_games():
    """A quick check, at a tenth of the default budget: it wins some 70% of
    such games, so at least half of 12 fails about once in 25 draws of the
    bots' numbers, and a bot that wins a quarter passes about once in 20
    (the slow test below measures its strength)."""
    assert mcts_wins_against_greedy(12, "mcts:iterations=100") >= 6


@pytest.mark.slow
def test_mcts_beats_greedy_at_glux_at_its_default_budget():
    """bench/mcts.py measures 200 games against the 75% target; this sample
    of 40 holds the bot to being clearly better than greedy: the whole 95%
    interval of its win rate lies above one half (29 of 40 when measured)."""
    won = mcts_wins_against_greedy(40)
    assert wilson(won, 40)[0] > 0.5, won


def test_mcts_beats_greedy_at_glyph_chess_in_a_few_games():
    """At its default budget (400 iterations, judged leaves): greedy against
    greedy wins about half of such games in either seat."""
    assert mcts_wins_against_greedy(4, game="glyph-chess") >= 3


@pytest.mark.slow
def test_mcts_beats_greedy_at_glyph_chess_at_its_default_budget():
    """As the Glüx test above: the 95% interval of the win rate over 40 games
    lies above one half."""
    won = mcts_wins_against_greedy(40, game="glyph-chess")
    assert wilson(won, 40)[0] > 0.5, won


def test_mcts_playouts_follow_the_policy_given():
    """``policy`` chooses the playouts' decisions (here: always the first), instead of chance."""
    asked = []

    def first(game, state, player, legal, rng):
        asked.append(player)
        return legal[0]

    table = tabletop.start("glux", ["ann", "ben"], seed="p")
    player = table.deciding[0]
    MCTS(iterations=10, playout=6, policy=first)(table.game, table.state, player, table.legal(player), random.Random(1))
    assert asked and set(asked) <= {"ann", "ben"}


@attrs.frozen
class Say(Event):
    kind: ClassVar[str] = "say"
    player: str
    word: str


class Trap(tabletop.Game):
    """ann says ``safe`` (the victory is shared) or takes one of nine baits;
    after a bait, ben has ten replies and one of them, ``refute``, wins for
    him, while any other loses. A position is judged even (0.5 each)."""

    name = "trap"

    def initial(self):
        return ()

    def next(self, state):
        if state == ("safe",) or len(state) == 2:
            return Over()
        return Decide(("ann",) if not state else ("ben",))

    def legal(self, state, player):
        if not state:
            return [Say("ann", "safe"), *(Say("ann", f"bait{i}") for i in range(9))]
        return [*(Say("ben", f"reply{i}") for i in range(9)), Say("ben", "refute")]

    def check(self, state, decision):
        return None if decision in self.legal(state, decision.player) else "not now"

    def apply(self, state, event):
        return (*state, event.word)

    def outcome(self, state):
        if state == ("safe",):
            return Outcome({"ann": 1, "ben": 1}, ("ann", "ben"))
        winner = "ben" if state[-1] == "refute" else "ann"
        return Outcome({"ann": 0, "ben": 0} | {winner: 1}, (winner,))

    def evaluate(self, state):
        return {"ann": 0.5, "ben": 0.5}


class SeenTrap(Trap):
    """The same, with ben's refutation the reply the game prefers."""

    def prefer(self, state, player, options, rng):
        return next((d for d in options if d.word == "refute"), None)


def test_mcts_widening_tries_the_preferred_reply_first():
    """Against nine of ten replies a bait wins, so a search that tries replies
    at random takes the bait; a game that prefers the refutation has it
    searched first, and the bait is seen to lose."""
    blind = Trap(["ann", "ben"], {}, None)
    seen = SeenTrap(["ann", "ben"], {}, None)
    bot = MCTS(iterations=200)
    blind_choices = [bot(blind, (), "ann", blind.legal((), "ann"), random.Random(s)).word for s in range(5)]
    seen_choices = [bot(seen, (), "ann", seen.legal((), "ann"), random.Random(s)).word for s in range(5)]
    assert all(word.startswith("bait") for word in blind_choices), blind_choices
    assert seen_choices == ["safe"] * 5


class Fork(tabletop.Game):
    """ann goes ``left`` or ``right``; then the players say ``on`` in turn for
    forty events and the victory is shared. Only the game's judgement tells
    the two ways apart: ``good`` is the way it judges ann likely to win."""

    name = "fork"
    good = "left"

    def initial(self):
        return ()

    def next(self, state):
        if len(state) > 40:
            return Over()
        return Decide(("ann",) if len(state) % 2 == 0 else ("ben",))

    def legal(self, state, player):
        if not state:
            return [Say("ann", "left"), Say("ann", "right")]
        return [Say(player, "on"), Say(player, "on and on")]

    def check(self, state, decision):
        return None

    def apply(self, state, event):
        return (*state, event.word)

    def outcome(self, state):
        return Outcome({"ann": 0, "ben": 0}, ("ann", "ben") if len(state) > 40 else ())

    def evaluate(self, state):
        ann = 0.8 if state[0] == self.good else 0.2
        return {"ann": ann, "ben": 1 - ann}


@pytest.mark.parametrize("good", ["left", "right"])
def test_mcts_values_leaves_by_the_games_judgement(good):
    """Playouts and standings cannot tell left from right; the judgement can,
    and the bot follows it either way."""
    game = type("Judged", (Fork,), {"good": good})(["ann", "ben"], {}, None)
    for seed in range(3):
        choice = MCTS(iterations=60)(game, (), "ann", game.legal((), "ann"), random.Random(seed))
        assert choice.word == good


@pytest.mark.parametrize(("game", "players"), [("glux", 2), ("glux", 3), ("glyph-chess", 2)])
def test_mcts_playouts_on_the_fast_path_weigh_as_on_the_plain_rules(monkeypatch, game, players):
    # Playouts run on the game's fast path: the same worlds, the same draws,
    # so the same visits and values as the plain rules give.
    search = MCTS(iterations=25, playout=8)
    # (game, view, player, legal) at some points of two games: a table moves on.
    taken = [(t.game, t.view(who), who, t.legal(who)) for t, who in positions(game, players, range(2), every=23)][:4]
    assert taken

    def weighed():
        return [search.weigh(made, view, who, legal, random.Random(3)) for made, view, who, legal in taken]

    assert taken[0][0].fast() is not None
    fast = weighed()
    monkeypatch.setattr(type(taken[0][0]), "fast", lambda game: None)
    assert weighed() == fast
    assert any(w.visits for found in fast for w in found)
