"""The Python API beyond its page: refusals change nothing, branches replay,
bots repeat the command line's self-play."""

from __future__ import annotations

import attrs
import pytest

import tabletop
from tabletop import IllegalEventError, UsageError
from tabletop.play.live import selfplay

from .conftest import REPLAYS


def test_an_illegal_decision_changes_nothing():
    table = tabletop.start("glux", ["ann", "ben"], seed="9")
    before = (table.events, table.state)
    wrong = attrs.evolve(table.legal("ann")[0], face=9)
    with pytest.raises(IllegalEventError, match="event 3 .*face 9 is not on it"):
        table.play(wrong)
    with pytest.raises(UsageError, match="several players may decide now"):
        table.legal()
    with pytest.raises(UsageError, match="'cat' is not a player"):
        table.legal("cat")
    assert (table.events, table.state) == before


def test_a_table_run_by_bots_is_the_self_play_of_the_same_seed():
    """Table.run and the selfplay command play the same game for a seed,
    secret setup included (sealed decisions, salts from the seed)."""
    table = tabletop.start("glyph-chess", ["ann", "ben"], variants=["glyph-advanced-setup"], seed="s")
    table.run(["greedy", "random"], max_events=3_000)
    registry = tabletop.api.registry()
    bots = [registry.bot("greedy", "glyph-chess"), registry.bot("random", "glyph-chess")]
    header, match, events = selfplay(registry, "glyph-chess", ["ann", "ben"], bots, "s", ["glyph-advanced-setup"])
    assert table.lines() == registry.codec.log(header, events)


@pytest.mark.parametrize(("game", "seats"), [("glux", 4), ("glyph-chess", 2)])
def test_a_table_run_by_random_bots_is_the_self_play_of_the_same_seed(game, seats):
    """Bots that read no state play a table on the fast path, as self-play
    does: the same game for a seed."""
    players = [f"p{k}" for k in range(seats)]
    table = tabletop.start(game, players, seed="r")
    table.run("random")
    registry = tabletop.api.registry()
    header, match, events = selfplay(registry, game, players, [registry.bot("random", game)] * seats, "r")
    assert table.over and table.lines() == registry.codec.log(header, events)


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_a_run_stops_where_a_seat_has_no_bot(tmp_path, bot):
    """On the plain path (greedy reads its view) and the fast one (random):
    the run stops at ben's decision, ben plays, the run goes on, and the
    game is the one the log replays."""
    table = tabletop.start("glux", ["ann", "ben"], seed="3")
    table.run({"ann": bot})
    assert table.deciding == ("ben",) and not table.over
    while not table.over:
        table.play(table.legal("ben")[-1])
        table.run({"ann": bot})
        assert table.over or table.deciding == ("ben",)
    record = tabletop.open(table.save(tmp_path / "game.jsonl"))
    assert [m.event for m in record] == list(table.events)
    assert record.outcome() == table.outcome


def _for_zed(game, view, player, legal, rng):
    return attrs.evolve(legal[0], player="zed")


def _face_nine(game, view, player, legal, rng):
    return attrs.evolve(legal[0], face=9)


@pytest.mark.parametrize("reads_state", [True, False])
@pytest.mark.parametrize(
    ("choose", "why"), [(_for_zed, "a decision of zed's, not ben's"), (_face_nine, "face 9 is not on it")]
)
def test_a_bots_decision_the_rules_refuse_stops_the_run_naming_the_bot(choose, why, reads_state):
    """A bot's decision is held to the rules, on the plain path and the fast
    one: one the rules refuse stops the run with one line naming the bot,
    where its code is, what it chose and the rules' reason; the events
    played so far stay the table's, and nothing is played for it."""
    table = tabletop.start("glux", ["ann", "ben"], seed="5")
    before = table.events
    astray = tabletop.Bot("astray", "plays what it may not", choose, reads_state=reads_state)
    with pytest.raises(IllegalEventError) as raised:
        table.run({"ann": "random", "ben": astray})
    error = raised.value
    assert error.where == f"{__file__}:{choose.__code__.co_firstlineno}"
    assert (
        error.message.startswith("bot 'astray' chose ") and "for ben: " in error.message and error.message.endswith(why)
    )
    assert table.events[: len(before)] == before and table.deciding == ("ben",)
    replayed = tabletop.Match(table.match.registry, table.header)
    for event in table.events:
        replayed.accept(event)
    assert replayed.state == table.state


def test_a_branch_is_a_new_log_that_replays(tmp_path):
    record = tabletop.open(REPLAYS / "glux" / "three-players.jsonl")
    branch = record.cut(12)
    assert branch.events == tuple(m.event for m in record)[:12]
    branch.run("random")
    path = branch.save(tmp_path / "branch.jsonl")
    again = tabletop.open(path)
    assert [m.event for m in again][:12] == [m.event for m in record][:12]
    assert again.outcome() == branch.outcome
    with pytest.raises(UsageError, match="file exists"):
        branch.save(path)
    with pytest.raises(UsageError, match="cannot be cut at event 100000"):
        record.cut(100_000)


def test_moments_show_each_player_only_their_view():
    record = tabletop.open(REPLAYS / "glyph_chess" / "two-players-random.jsonl")
    hidden = 0
    for moment in record:
        for player in record.players:
            for seat, hand in enumerate(moment.view(player).hands):
                if record.players[seat] != player:
                    assert isinstance(hand, tabletop.Hidden)
                    hidden += 1
        if moment.seq > 60:
            break
    assert hidden > 100


def test_an_illegal_log_names_file_and_line(tmp_path):
    lines = (REPLAYS / "glux" / "two-players.jsonl").read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace('"chip":"1/6"', '"chip":"7/0"')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines))
    with pytest.raises(tabletop.TabletopError, match=r"bad.jsonl:6"):
        list(tabletop.open(bad))
