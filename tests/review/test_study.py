"""Studies (issue 28, part 1): notes, marks and variations in a file beside
the log, anchored to event numbers and chain hashes, checked on load; the
log is never changed; a study of another game, a corrupt one, or one that
cannot be written is one line and changes nothing. ``tabletop view`` shows a
study read only, to each seat only what was made with its eyes."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import jsonschema
import pytest

from tabletop.model.nodes import Decide
from tabletop.play import chance
from tabletop.play.engine import Match
from tabletop.review.study import default_path, load
from tabletop.sight import seen
from tabletop.testing import same_for, twins

from ..conftest import REPLAYS, ROOT

SCHEMA = json.loads((ROOT / "docs" / "study.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(SCHEMA)
HEADER = jsonschema.Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": "#/$defs/header"}]})
RECORD = jsonschema.Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": "#/$defs/record"}]})
DUEL = REPLAYS / "glux" / "two-players.jsonl"


def schema_valid(path: Path) -> list[dict]:
    """The study's records, each checked against the published schema."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    HEADER.validate(lines[0])
    for line in lines[1:]:
        RECORD.validate(line)
    return lines


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.jsonl"
    shutil.copyfile(DUEL, path)
    return path


def one_line(result) -> str:
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_note_and_a_variation_are_written_beside_the_log_and_read_back(cli, registry, duel, tmp_path):
    """Issue 28 part 1: a comment, a mark, squares and arrows at one event; a
    variation of legal decisions from another; both in duel.study.jsonl,
    valid against the published schema, and read back checked. The log's
    bytes never change."""
    before = duel.read_bytes()
    note = cli("study", "duel.jsonl", "--at", "11", "--comment", "ben's chip", "--mark", "?!", "--square", "m3",
               "--arrow", "m3-g9")  # fmt: skip
    assert note.exit_code == 0, note.output
    assert note.stdout == "Note n1 at event 11 (ann draws 3/4).\nWritten to duel.study.jsonl.\n"
    played = cli("study", "duel.jsonl", "--at", "11", "--play", "6@g9", "--play", "3@f1", "--seed", "s1")
    assert played.exit_code == 0, played.output
    assert "6@g9 at event 11: on variation v1, to event 13:" in played.stdout
    assert duel.read_bytes() == before
    lines = schema_valid(tmp_path / "duel.study.jsonl")
    assert [line.get("kind") for line in lines] == [None, "note", "variation", "more"]
    study = load(registry, duel)
    (note,) = study.notes
    assert (note.at.seq, note.comment, note.mark, note.squares, note.arrows) == (
        11,
        "ben's chip",
        "?!",
        ("m3",),
        (("m3", "g9"),),
    )
    variation = study.variations["v1"]
    assert [study.game.notate(e) for e in variation.events if e.origin == "decision"] == ["6@g9", "3@f1"]
    # Its chance outcomes are the variation's seed's, as a live game's are its seed's.
    match = Match(registry, study.header, study.game)
    for event in study.events[:11]:
        match.apply(event)
    for seq, event in enumerate(variation.events, start=12):
        node = match.node
        if event.origin == "chance":
            assert event == node.pick(chance.number("s1", seq))
        match.apply(event)
    # The heads go on from the game's at the variation's start.
    assert variation.heads[0] == study.heads[11] and len(set(variation.heads)) == len(variation.heads)


def test_playing_the_games_own_next_decision_goes_on_along_it(cli, duel, tmp_path):
    """Issue 28 part 1: a decision the line holds next is no variation."""
    result = cli("study", "duel.jsonl", "--at", "11", "--play", "1@m3")
    assert result.exit_code == 0, result.output
    assert "the game goes on with it, to event 12" in result.stdout
    assert not (tmp_path / "duel.study.jsonl").exists()


def test_an_illegal_decision_is_refused_with_the_rules_reason_and_nothing_is_written(cli, duel, tmp_path):
    """Issue 28 part 1: a variation holds only decisions legal where they are played."""
    result = cli("study", "duel.jsonl", "--at", "11", "--play", "5@g9")
    assert result.exit_code == 1
    assert one_line(result) == "tabletop: ben 5@g9: your chip is 1/6; face 5 is not on it"
    unreadable = cli("study", "duel.jsonl", "--at", "11", "--play", "9@g9")
    assert unreadable.exit_code == 2 and "write FACE@SQUARE" in one_line(unreadable)
    chance_due = cli("study", "duel.jsonl", "--at", "12", "--play", "6@g9")
    assert chance_due.exit_code == 1 and "no decision is due here" in one_line(chance_due)
    # Several decisions at once: one refused, none is written.
    part_way = cli("study", "duel.jsonl", "--at", "11", "--play", "6@g9", "--play", "6@f1")
    assert part_way.exit_code == 1 and "ann 6@f1: your chip is" in one_line(part_way)
    assert not (tmp_path / "duel.study.jsonl").exists()


def written(cli, duel: Path) -> Path:
    assert cli("study", duel.name, "--at", "11", "--comment", "a first note").exit_code == 0
    assert cli("study", duel.name, "--at", "11", "--play", "6@g9", "--play", "3@f1", "--seed", "s1").exit_code == 0
    assert cli("study", duel.name, "--at", "14", "--line", "v1", "--comment", "in the variation").exit_code == 0
    return default_path(duel)


def rewrite(path: Path, number: int, change) -> None:
    lines = path.read_text().splitlines()
    data = json.loads(lines[number - 1])
    change(data)
    lines[number - 1] = json.dumps(data, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("number", "change", "said"),
    [
        (2, lambda d: d["at"].update(seq=12), "study.jsonl:2: note n1 at event 12: its chain hash differs"),
        (
            3,
            lambda d: d["events"][1]["payload"].update(chip="1/6"),
            "variation v1, event 13 (ben draws 1/6): the variation's seed gives 'ben draws 3/4' here",
        ),  # fmt: skip
        (3, lambda d: d["events"][0]["payload"].update(face=5), "variation v1, event 12 (ben 5@g9): your chip is 1/6"),
        (5, lambda d: d["at"].update(seq=99), "note n2 at event 99 of variation v1: it holds events 11 to 15"),
        (2, lambda d: d["at"].update(seq=500), "note n1 at event 500: duel.jsonl has only 97 events"),
    ],
)
def test_a_record_that_does_not_match_the_log_is_one_line_naming_it(cli, duel, tmp_path, number, change, said):
    """Issue 28 part 1: every anchor is checked against the log's chain and
    every variation against the rules and its seed, on load: a record at
    fault is one line naming the study file's line and the record, exit 1,
    and no file is changed (the page is not written)."""
    study = written(cli, duel)
    rewrite(study, number, change)
    kept = study.read_bytes(), duel.read_bytes()
    result = cli("view", "duel.jsonl", "-o", "page.html")
    assert result.exit_code == 1
    line = one_line(result)
    assert line.startswith(f"tabletop: {study.name}:{number}: ") and said in line, line
    assert (study.read_bytes(), duel.read_bytes()) == kept
    assert not (tmp_path / "page.html").exists()
    assert cli("study", "duel.jsonl", "--at", "3", "--comment", "more").exit_code == 1
    assert study.read_bytes() == kept[0]


def test_a_study_of_another_game_is_refused(cli, duel, tmp_path):
    """Issue 28 part 1: a study never attaches to another game, even one of
    the same game and players (their header differs, and so its chain)."""
    study = written(cli, duel)
    other = tmp_path / "other.jsonl"
    shutil.copyfile(REPLAYS / "glux" / "second-place-2p.jsonl", other)
    shutil.copyfile(study, default_path(other))
    result = cli("analyse", "other.jsonl", "--bot", "mcts:iterations=5")
    assert result.exit_code == 1
    assert one_line(result) == (
        "tabletop: other.study.jsonl:1: a study of another game: its header's chain hash differs from "
        "other.jsonl's (another game of the same players, or a header since rewritten)"
    )
    three = tmp_path / "three.jsonl"
    shutil.copyfile(REPLAYS / "glux" / "three-players.jsonl", three)
    shutil.copyfile(study, default_path(three))
    result = cli("study", "three.jsonl", "--at", "2", "--comment", "x")
    assert result.exit_code == 1 and "a study of another game (glux: ann, ben)" in one_line(result)
    assert default_path(three).read_bytes() == study.read_bytes()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (b'{"kind":"note"', "study.jsonl:4: truncated last line (no newline at the end)"),
        (b"not json\n", "study.jsonl:4: not JSON"),
        (b'{"kind":"sticker","id":"n9"}\n', "study.jsonl:4: unknown record kind 'sticker'"),
        (b'{"kind":"note","id":"n9","at":{"line":"main","seq":1,"head":"x"}}\n', "'head' must be a chain hash"),
        (b'{"kind":"note","id":"n9","at":{}}\n', "study.jsonl:4: note n9's 'at' has no 'head'"),
        (b'{"kind":"note","id":"n1","at":{}}\n', "study.jsonl:4: note n1: the id is taken by an earlier record"),
        (
            b'{"kind":"note","id":"n9","at":{"line":"main","seq":0,"head":"chain:' + b"0" * 64 + b'"},"x":1}\n',
            "study.jsonl:4: a note: unknown field 'x'",
        ),  # fmt: skip
    ],
)
def test_a_corrupt_study_is_one_line_exit_2_and_nothing_changes(cli, duel, tmp_path, text, said):
    """Issue 28 part 1: a study file that cannot be read is one line naming its line."""
    study = written(cli, duel)
    lines = study.read_bytes().splitlines(keepends=True)
    study.write_bytes(b"".join(lines[:3]) + text)
    kept = study.read_bytes()
    result = cli("study", "duel.jsonl", "--at", "3", "--comment", "more")
    assert result.exit_code == 2
    assert said in one_line(result)
    assert study.read_bytes() == kept


def test_a_study_that_cannot_be_written_is_refused_before_any_work(cli, duel, tmp_path):
    """Issue 28 part 1: a study file that cannot be written is said at once, in one line, exit 2."""
    (tmp_path / "folder.jsonl").mkdir()
    result = cli("study", "duel.jsonl", "--study", "folder.jsonl", "--at", "3", "--comment", "x")
    assert result.exit_code == 2 and "'folder.jsonl' is a directory" in one_line(result)
    os.mkfifo(tmp_path / "duel.study.jsonl")
    result = cli("study", "duel.jsonl", "--at", "3", "--comment", "x")
    assert result.exit_code == 2
    assert one_line(result) == "tabletop: duel.study.jsonl: cannot read the study: not a regular file"
    os.unlink(tmp_path / "duel.study.jsonl")
    result = cli("analyse", "duel.jsonl", "--study", "nowhere/duel.study.jsonl", "--bot", "mcts:iterations=5")
    assert result.exit_code == 2
    assert one_line(result) == "tabletop: nowhere/duel.study.jsonl: cannot write the study: no such folder: nowhere"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["duel.jsonl", "folder.jsonl"]


def test_folders_of_logs_leave_studies_out(cli, duel, tmp_path):
    """Issue 28 part 1: a study beside logs is not taken for a log by replay or stats of the folder."""
    written(cli, duel)
    result = cli("replay", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "study" not in result.stdout


def test_a_sealed_games_study_takes_the_chain_salted_with_its_seed(cli, tmp_path):
    """Issue 28 part 1: a sealed game's chain is salted with its seed; its
    holder's FILE.seed anchors the study, and without it the study says why."""
    assert cli("new", "pile", "--players", "ann,bob", "--sealed", "-o", "s.jsonl").exit_code == 0
    assert cli("play", "s.jsonl", "pick 2", "--player", "ann").exit_code == 0
    assert cli("study", "s.jsonl", "--at", "3", "--comment", "hi").exit_code == 0
    (tmp_path / "s.jsonl.seed").rename(tmp_path / "kept.seed")
    result = cli("study", "s.jsonl", "--at", "3", "--comment", "again")
    assert result.exit_code == 1 and "its heads need the seed" in one_line(result)


# -- the static page -------------------------------------------------------------------
def study_data(html: str) -> dict:
    start = html.index('<script type="application/json" id="study-data">') + len(
        '<script type="application/json" id="study-data">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_view_shows_the_study_read_only_and_each_seat_only_its_own(cli, duel, tmp_path):
    """Issue 28 part 2: ``tabletop view`` puts a study's notes and
    variations in the static page, with no form to write; a seat's page
    holds only what was made as that seat."""
    written(cli, duel)
    assert cli("study", "duel.jsonl", "--as", "ann", "--at", "11", "--comment", "ann's own thought").exit_code == 0
    result = cli("view", "duel.jsonl", "-o", "all.html")
    assert result.exit_code == 0 and "with its study duel.study.jsonl" in result.stdout
    html = (tmp_path / "all.html").read_text()
    everything = study_data(html)
    assert [n["comment"] for n in everything["notes"]] == ["a first note", "in the variation", "ann's own thought"]
    assert [v["id"] for v in everything["variations"]] == ["v1"] and everything["editable"] is None
    assert 'id="note-form"' not in html and "connect-src" not in html
    for seat, comments in (("ann", ["ann's own thought"]), ("ben", [])):
        assert cli("view", "duel.jsonl", "--as", seat, "-o", f"{seat}.html").exit_code == 0
        page = (tmp_path / f"{seat}.html").read_text()
        shown = study_data(page)
        assert [n["comment"] for n in shown["notes"]] == comments
        assert shown["variations"] == [] and "in the variation" not in page and "a first note" not in page


# -- twin states: a variation made as a player tells nothing hidden ---------------------
def test_a_variation_made_as_a_player_shows_the_same_for_twin_states(registry):
    """Issue 28 part 1: a variation made as ben starts from a world made up
    from ben's view alone: twin positions that differ only in what ben may
    not see give ben the same world, the same legal decisions and the same
    pictures (the conformance kit's twins and same_for)."""
    from tabletop.play.engine import Replay
    from tabletop.review.study import made_up

    rng = random.Random("twins")
    replay = Replay(registry, DUEL)
    states = []
    for _ in replay:
        node = replay.match.node
        if isinstance(node, Decide) and node.players == ("ann",) and len(states) < 3:
            states.append(replay.match.state)
    game = replay.match.game
    assert len(states) == 3
    for state in states:
        for twin in twins(game, state, "ben", rng, count=2):
            same_for(registry, game, state, twin, "ben")
            world, other = made_up(game, state, "ben", "v-seed"), made_up(game, twin, "ben", "v-seed")
            assert world == other
            assert seen.view(game, world, "ben") == seen.view(game, state, "ben")
            assert list(game.legal(world, "ann")) == list(game.legal(other, "ann"))
    # The twins do differ where ben may not see (ann's hand): the checks above are not idle.
    assert any(twin != states[1] for twin in twins(game, states[1], "ben", random.Random(1), count=8))


class _Counted(list):
    """A list of notes that counts how often it is walked through."""

    walks = 0

    def __iter__(self):
        _Counted.walks += 1
        return super().__iter__()


def test_a_study_is_read_in_time_linear_in_its_notes(cli, registry, duel, monkeypatch):
    """Each note's id was checked against every earlier note: 4x the notes
    took 11x the time, and 100,000 notes gave no answer in a minute. An id
    is now looked up, and the notes are not walked once per note."""
    from tabletop.review import study as study_module

    cli("study", duel, "--at", 3, "--comment", "first")
    path = default_path(duel)
    header, note = path.read_text().splitlines()
    record = json.loads(note)
    lines = [header]
    for number in range(1, 501):
        record.update(id=f"n{number}", comment=f"note {number}")
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n")

    made = study_module.Study.__init__

    def counted(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.notes = _Counted()

    monkeypatch.setattr(study_module.Study, "__init__", counted)
    _Counted.walks = 0
    study = load(registry, duel)
    assert len(study.notes) == 500
    assert _Counted.walks < 10

    # The id is still refused when taken, however far back.
    record.update(id="n7", comment="again")
    path.write_text("\n".join([*lines, json.dumps(record)]) + "\n")
    refused = cli("study", duel, "--at", 3, "--comment", "more")
    assert refused.exit_code == 2 and "n7: the id is taken by an earlier record" in refused.output


def test_a_variation_through_an_outcome_the_rules_force_is_written_and_read_back(cli, tmp_path):
    """A house rule whose setup forces the first player (a chance event the
    rules give, not drawn): a variation that plays through it is checked as
    every other path checks it, the event the rules force there."""
    plugin = ROOT / "tests" / "plugins" / "glux_first_seat.py"
    made = cli(
        "--plugins",
        plugin,
        "new",
        "glux",
        "--players",
        "ann,ben",
        "--seed",
        "3",
        "--variant",
        "glux-first-seat",
        "-o",
        "g.jsonl",
        plugins=False,
    )
    assert made.exit_code == 0, made.output
    assert cli("--plugins", plugin, "play", "g.jsonl", "2@a1", "--player", "ann", plugins=False).exit_code == 0
    played = cli("--plugins", plugin, "study", "g.jsonl", "--at", "3", "--play", "5@m9", plugins=False)
    assert played.exit_code == 0, played.output
    assert "7. ann is the start player" in played.stdout
    again = cli(
        "--plugins", plugin, "study", "g.jsonl", "--at", "7", "--line", "v1", "--comment", "forced", plugins=False
    )
    assert again.exit_code == 0, again.output
