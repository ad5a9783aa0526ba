"""Games at a real table (chance outcomes entered by hand) and hot-seat play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.play.engine import Replay

from ..conftest import REPLAYS


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def table(cli, tmp_path) -> Path:
    result = cli("new", "glux", "--players", "ann,ben", "--table", "-o", "t.jsonl")
    assert result.exit_code == 0, result.output
    assert "Chance outcomes are entered by hand" in result.stdout
    return tmp_path / "t.jsonl"


def test_new_table_game_has_no_seed_and_waits_for_the_first_draw(table):
    assert rows(table) == [
        {"tabletop": 1, "game": "glux", "players": ["ann", "ben"], "variants": [], "options": {}, "randomness": {}}
    ]


def test_moves_lists_the_possible_chance_outcomes(cli, table):
    assert cli("moves", table).stdout.splitlines() == ["draw 1/6", "draw 2/5", "draw 3/4"]


def test_play_enters_a_chance_outcome_in_the_games_notation(cli, table):
    result = cli("play", table, "draw 2/5", "--player", "ann")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "ann draws 2/5"
    # The game's own description is read too, in any case, with or without the player's name.
    assert cli("play", table, "Ben  Draws 3/4").exit_code == 0
    assert cli("play", table, "draws 3/4").exit_code == 2  # both have drawn: a decision is due
    assert [r.get("payload") for r in rows(table)[1:]] == [{"chip": "2/5"}, {"chip": "3/4"}]


def test_play_refuses_an_outcome_the_rules_do_not_allow(cli, table):
    before = table.read_bytes()
    result = cli("play", table, "draw 9/9")
    assert result.exit_code == 2
    assert "'draw 9/9' is not a possible outcome now; possible: draw 1/6, draw 2/5, draw 3/4" in result.stderr
    result = cli("play", table, "draw 2/5", "--player", "ben")
    assert result.exit_code == 2 and "--player ben: this chance outcome is ann's" in result.stderr
    assert table.read_bytes() == before


def test_chance_outcomes_follow_a_decision_only_by_hand(cli, table):
    cli("play", table, "draw 2/5")
    cli("play", table, "draw 3/4")
    cli("play", table, "5", "--player", "ann")
    result = cli("play", table, "4", "--player", "ben")
    assert result.exit_code == 0, result.output
    # Both start chips placed: the hand draws are due, and nothing was drawn for the players.
    assert rows(table)[-1]["kind"] == "start"
    assert "A chance outcome for ann is due." in result.stdout  # whose draw it is


@pytest.mark.parametrize(
    "log", [REPLAYS / "glux" / "two-players.jsonl", REPLAYS / "glyph_chess" / "two-players-centre.jsonl"]
)
def test_a_physical_game_recorded_event_by_event(cli, registry, tmp_path, log):
    """Every event of a recorded game, entered by hand, gives the same game."""
    header = rows(log)[0]
    assert (
        cli("new", header["game"], "--players", ",".join(header["players"]), "--table", "-o", "t.jsonl").exit_code == 0
    )
    match = Replay(registry, log).run()
    game = match.game
    recorded = tmp_path / "t.jsonl"
    replay = Replay(registry, log)
    written = len(rows(recorded)) - 1
    for _, seq, event in replay:
        if seq <= written:  # already appended by the play before (rules events)
            continue
        if event.origin == "chance":
            text = game.notate_outcome(event)
        elif event.origin == "decision":
            text = game.notate(event)
        else:
            continue
        result = cli("play", recorded, text, "--player", getattr(event, "player", None) or header["players"][0])
        assert result.exit_code == 0, (seq, text, result.output)
        written = len(rows(recorded)) - 1
    assert [(r["kind"], r.get("payload")) for r in rows(recorded)[1:]] == [
        (r["kind"], r.get("payload")) for r in rows(log)[1:]
    ]
    assert Replay(registry, recorded).run().over and match.over
    result = cli("verify", recorded)
    assert result.exit_code == 1 and "its chance outcomes were recorded, not drawn" in result.stderr


def test_glyph_chess_rolls_and_draws_at_the_table(cli, tmp_path):
    cli("new", "glyph-chess", "--players", "ann,ben", "--table", "-o", "t.jsonl")
    listed = cli("moves", "t.jsonl").stdout.splitlines()
    assert len(listed) == 720 and listed[0] == "shuffle S I E F N U"
    assert cli("play", "t.jsonl", "shuffle U N F E I S").exit_code == 0
    assert cli("play", "t.jsonl", "ben's glyph cards: S I E | F N U").exit_code == 0
    assert cli("moves", "t.jsonl").stdout.splitlines() == [f"roll {g}" for g in "SIEFNU"]
    assert cli("play", "t.jsonl", "D1 rolls E").exit_code == 0


# -- hot-seat ------------------------------------------------------------------


@pytest.fixture
def pile(cli, tmp_path) -> Path:
    assert cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl").exit_code == 0
    return tmp_path / "g.jsonl"


def test_hot_seat_numbers_the_decisions_and_reads_a_number_or_notation(cli, pile):
    result = cli("play", pile, input="1\npick 3\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "ann to pick a number" in out and "  1. pick 1   2. pick 2   3. pick 3\n" in out
    assert "3. ann picks 1" in out and "4. bob picks 3" in out
    assert [(r["kind"], r.get("player"), r["payload"]) for r in rows(pile)[3:]] == [
        ("pick", "ann", {"number": 1}),
        ("pick", "bob", {"number": 3}),
    ]


def test_hot_seat_says_what_is_wrong_and_goes_on(cli, pile):
    result = cli("play", pile, input="9\npick 7\nnonsense\n2\n")
    assert result.exit_code == 0
    assert "No decision 9: choose 1 to 3." in result.stdout
    assert "Not played: " in result.stdout
    assert [r["payload"] for r in rows(pile)[3:]] == [{"number": 2}]  # input ended: play stops cleanly


def test_hot_seat_says_a_mistake_under_the_board_and_guesses_a_misspelt_word(cli, pile):
    result = cli("play", pile, input="pick 7\nundoo\nquit\n")
    screens = result.stdout.split("ann> ")
    # Said after the board, the list and the status, just above the next prompt.
    assert screens[1].rstrip().splitlines()[-1].startswith("Not played: ")
    assert screens[1].index("ann to pick a number") < screens[1].index("Not played")
    assert screens[2].rstrip().splitlines()[-1] == "Did you mean 'undo'?"
    assert "Did you mean" not in screens[1]  # a decision that can be read but is not legal: no guess


def test_hot_seat_lists_many_decisions_in_columns():
    from tabletop.cli.hotseat import columns

    items = [f"{n}. {n}@b{n}" for n in range(1, 31)]
    rows = columns(items, width=80)
    assert len(rows) <= 8 and all(len(row) <= 80 for row in rows)
    assert (
        sorted(cell for row in rows for cell in row.split("  ") if cell.strip()) == sorted(i.strip() for i in items)
        or sum(len(row.split(". ")) - 1 for row in rows) == 30
    )
    assert rows[0].split()[0:2] == ["1.", "1@b1"] and rows[1].split()[0] == "2."  # numbered down each column


def test_hot_seat_plays_a_game_to_its_end(cli, tmp_path):
    cli("new", "pile", "--players", "ann,bob", "--seed", "s", "--option", "stones=3", "-o", "g.jsonl")
    result = cli("play", "g.jsonl", input="1\n1\n" + "1\n" * 5)
    assert "Game over." in result.stdout
    assert json.loads(cli("replay", "g.jsonl", "--json").stdout)["finished"] is True


def test_hot_seat_undo_takes_back_the_last_decision(cli, pile):
    result = cli("play", pile, input="1\nundo\n2\nquit\n")
    assert "Undone: ann picks 1 (and the 0 events after it)." in result.stdout
    assert [r["payload"] for r in rows(pile)[3:]] == [{"number": 2}]


def test_undo_refused_once_a_hidden_draw_came_out(cli, tmp_path):
    cli("new", "glux", "--players", "ann,ben", "--seed", "7", "-o", "g.jsonl")
    log = tmp_path / "g.jsonl"
    first = cli("moves", log, "--player", "ann").stdout.split()[0]
    second = cli("moves", log, "--player", "ben").stdout.split()[0]
    cli("play", log, first, "--player", "ann")
    cli("play", log, second, "--player", "ben")  # the hand draws follow: hidden from the other player
    before = log.read_bytes()
    result = cli("play", log, input="undo\nquit\n")
    assert "Not played: " in result.stdout and "is hidden information that came out since" in result.stdout
    assert log.read_bytes() == before


def test_undo_with_nothing_to_undo(cli, pile):
    result = cli("play", pile, input="undo\n")
    assert "Not played: no decision to undo" in result.stdout


def test_hot_seat_on_a_real_terminal(cli, tmp_path):
    """The loop as a person meets it: a pseudo-terminal, prompts, typed lines."""
    import os
    import pty
    import select
    import subprocess
    import sys

    from ..conftest import PILE

    cli("new", "pile", "--players", "ann,bob", "--seed", "s", "-o", "g.jsonl")
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_PLUGINS"} | {"TERM": "xterm"}
    process = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "--plugins", str(PILE), "play", "g.jsonl"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=tmp_path,
        env=env,
    )
    os.close(follower)
    seen = b""

    def until(text: bytes) -> None:
        nonlocal seen
        while text not in seen:
            ready, _, _ = select.select([leader], [], [], 30)
            assert ready, f"no {text!r} after {seen.decode()[-500:]!r}"
            seen += os.read(leader, 65536)

    try:
        until(b"ann> ")
        os.write(leader, b"2\n")
        # The screen is cleared and handed over: ann's view is gone before bob's is shown.
        until(b"Pass to bob, then press Enter")
        handed = len(seen)
        os.write(leader, b"\n")
        until(b"bob> ")
        assert b"\x1b[2J" in seen[handed:] and b"ann: ?" in seen[handed:]
        os.write(leader, b"pick 1\n")
        until(b"4. bob picks 1")
        until(b"Pass to ann")
        os.write(leader, b"\n")
        until(b"ann> ")
        os.write(leader, b"quit\n")
        assert process.wait(timeout=30) == 0
    finally:
        process.kill() if process.poll() is None else None
        process.wait()
        os.close(leader)
    assert "3. ann picks 2" in seen.decode()
    assert [r["payload"] for r in rows(tmp_path / "g.jsonl")[3:]] == [{"number": 2}, {"number": 1}]
