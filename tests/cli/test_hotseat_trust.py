"""Hot-seat play shows each player only their own view: the screen before the
hand-over, the screen after it, and what ``undo`` says.

Each test plays twin games that differ only in something the player at the
screen may not see, and asserts that this player's screen is the same in both.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from click.testing import CliRunner

from tabletop import start
from tabletop.cli.hotseat import hot_seat
from tabletop.cli.terminal import WIPE
from tabletop.play.engine import Replay

from ..conftest import Cli


def at_the_screen(registry, log: Path, typed: str) -> str:
    """Everything hot-seat play at a terminal prints for ``typed``, hand-overs included."""
    runner = CliRunner()
    here = os.getcwd()
    os.chdir(log.parent)  # the file is named as a player names it: twins in two folders read alike
    try:
        with runner.isolation(input=typed) as (out, _err, _both):
            hot_seat(registry, Path(log.name), None, False, handover=True)
    finally:
        os.chdir(here)
    return out.getvalue().decode()


def events(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()[1:]]


def twins(registry, folder: Path, log: Path, seq: int, field: str, values: str | list[str]) -> tuple[Path, Path]:
    """``log`` copied to ``folder/a`` and ``folder/b`` under one name, the
    second with event ``seq``'s ``field`` changed to another of ``values``
    that the rules allow there (the log still replays)."""
    lines = log.read_text().splitlines(keepends=True)
    row = json.loads(lines[seq])
    assert row["seq"] == seq
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    first = folder / "a" / log.name
    first.write_text("".join(lines))
    second = folder / "b" / log.name
    for value in values:
        if value == row["payload"][field]:
            continue
        other = {**row, "payload": {**row["payload"], field: value}}
        second.write_text("".join(lines[:seq] + [json.dumps(other, separators=(",", ":")) + "\n"] + lines[seq + 1 :]))
        try:
            Replay(registry, second).run()
        except Exception:  # not possible there: try the next value
            continue
        return first, second
    raise AssertionError(f"no other value of {field} replays at event {seq}")


def test_the_screen_before_the_hand_over_is_the_same_whatever_the_next_player_drew(registry, tmp_path):
    """Trust finding 1: in Glyph Chess the player who just moved is shown the
    events before the hand-over, and the next player's secret draw is among
    them; two games that differ only in the next player's coins give the
    player at the screen the same screen, up to the hand-over."""
    table = start("glyph-chess", ["ann", "ben"], seed="3", registry=registry)
    log = table.save(tmp_path / "g.jsonl")
    assert table.deciding == ("ann",)
    drawn = max(e["seq"] for e in events(log) if e["kind"] == "draw" and e["player"] == "ben")
    a, b = twins(registry, tmp_path, log, drawn, "glyph", "SIEFNU")
    screens = [at_the_screen(registry, log, "1\n\nquit\n") for log in (a, b)]
    befores = [screen[: screen.index("Pass to ben")] for screen in screens]
    assert befores[0] == befores[1]
    # The draw that followed ann's move is listed before the hand-over, without its coin...
    new = [e for e in events(a) if e["seq"] > len(table.events)]
    ben_draw = next(e for e in new if e["kind"] == "draw" and e["player"] == "ben")
    listed = re.search(rf"^{ben_draw['seq']}\. ben draws.*$", befores[0], re.M)
    assert listed and ben_draw["payload"]["glyph"] + " coin" not in listed.group()
    # ... and ben reads it in full once the screen is his: the twins differ there.
    afters = [screen[screen.index("Pass to ben") :] for screen in screens]
    assert re.search(rf"^{ben_draw['seq']}\. ben draws an? {ben_draw['payload']['glyph']} coin$", afters[0], re.M)
    assert afters[0] != afters[1]


def test_the_hand_over_screen_keeps_the_movers_own_draw_from_the_next_player(cli, tmp_path, registry):
    """What is on the screen when the next player sits down is the same
    whatever the player who just moved drew into their hand: at a real Glüx
    table ann places, types the chip she drew, and the screen goes to ben."""
    assert cli("new", "glux", "--players", "ann,ben", "--table", "-o", "t.jsonl").exit_code == 0
    game = tmp_path / "t.jsonl"
    while not events(game) or events(game)[-1]["kind"] != "first-player":  # the setup, by hand
        listed = json.loads(cli("moves", game, "--json").stdout)
        if listed["outcomes"]:
            assert cli("play", game, listed["outcomes"][0]).exit_code == 0
        else:
            who, options = next(iter(listed["moves"].items()))
            assert cli("play", game, options[0], "--player", who).exit_code == 0
    assert json.loads(cli("moves", game, "--json").stdout)["next"]["players"] == ["ann"]
    handed = []
    for chip in ("2/5", "3/4"):
        folder = tmp_path / chip.replace("/", "")
        folder.mkdir()
        (folder / "t.jsonl").write_bytes(game.read_bytes())
        screen = at_the_screen(registry, folder / "t.jsonl", f"1\ndraw {chip}\n\nquit\n")
        drawn = events(folder / "t.jsonl")[len(events(game)) :]
        assert [(e["kind"], e.get("player"), e["payload"]) for e in drawn][1] == ("draw", "ann", {"chip": chip})
        # What ben finds at the screen: everything since it was last cleared, up to the prompt.
        before = screen[: screen.index("Pass to ben")]
        handed.append(before[before.rindex(WIPE) :])
    assert handed[0] == handed[1]


def test_undo_names_the_hidden_event_as_the_player_at_the_screen_sees_it(registry, tmp_path):
    """Trust finding 2: ``undo`` refused because of a hidden draw names that
    draw as the player at the screen may see it (never the chip in another
    player's hand), and by its own number (not the first equal event's)."""
    table = start("glux", ["ann", "ben"], seed="7", registry=registry)
    # Play until a decision is followed by a hidden draw equal to an earlier event.
    while True:
        assert len(table.events) < 200
        who = table.deciding[0]
        before = len(table.events)
        table.play(table.legal(who)[0], who)
        new = table.events[before + 1 :]
        hidden = [e for e in new if not all(table.match.game.sees(e, p) for p in ("ann", "ben"))]
        if hidden and hidden[0] in table.events[:before] and hidden[0].player not in table.deciding:
            break
    log = table.save(tmp_path / "g.jsonl")
    seq = before + 2 + new.index(hidden[0])
    a, b = twins(registry, tmp_path, log, seq, "chip", ["1/6", "2/5", "3/4"])
    said = []
    for copy in (a, b):
        kept = copy.read_bytes()
        result = Cli(copy.parent)("play", copy.name, input="undo\nquit\n")
        assert result.exit_code == 0 and copy.read_bytes() == kept
        said.append(result.stdout)
    assert said[0] == said[1]
    refusal = next(line for line in said[0].splitlines() if "hidden information" in line)
    assert refusal.startswith(f"Not played: event {seq} ({hidden[0].player} ")


def test_a_chance_outcome_for_nobody_at_the_start_shows_no_seats_view(cli, tmp_path, registry):
    """At a real table a die may be due when hot-seat play starts: no seat has
    the screen yet, so no board is shown (it used to be the whole state,
    every player's coins), only the possible outcomes."""
    assert cli("new", "glyph-chess", "--players", "ann,ben", "--table", "-o", "t.jsonl").exit_code == 0
    game = tmp_path / "t.jsonl"
    while True:  # the setup, by hand, then ann's first move: a die is due
        listed = json.loads(cli("moves", game, "--json").stdout)
        if listed["outcomes"]:
            assert cli("play", game, listed["outcomes"][0]).exit_code == 0
            continue
        who, options = next(iter(listed["moves"].items()))
        assert cli("play", game, options[0], "--player", who).exit_code == 0
        break
    assert json.loads(cli("moves", game, "--json").stdout)["outcomes"][0].startswith("roll ")
    drawn = max(e["seq"] for e in events(game) if e["kind"] == "draw" and e["player"] == "ben")
    a, b = twins(registry, tmp_path, game, drawn, "glyph", "SIEFNU")
    screens = [at_the_screen(registry, log, "quit\n") for log in (a, b)]
    assert screens[0] == screens[1] and "roll " in screens[0]
