"""A bot's analysis of every decision (issue 28, part 3): each decision
weighed from its mover's view alone (twin states that differ only in what
the mover may not see give the same estimate), marked by the drop in
winning chance, summarised per player, written into the study, resumed
where it stopped, the same from a seed on any number of workers."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.model.nodes import Decide
from tabletop.play.engine import Replay
from tabletop.play.mcts import MCTS
from tabletop.review.analysis import summary, weigh
from tabletop.review.study import THRESHOLDS, default_path, judged, load
from tabletop.testing import same_for, twins

from ..conftest import PILE, REPLAYS

GLUX = REPLAYS / "glux" / "two-players.jsonl"
CHESS = REPLAYS / "glyph_chess" / "two-players-centre.jsonl"
#: A small budget: the same verdict for the same key, in a few milliseconds a search.
SMALL = "mcts:iterations=25"


def decisions_with_states(registry, log: Path, count: int):
    """The first ``count`` decisions of ``log`` with the state before each."""
    replay = Replay(registry, log)
    found = []

    def before(match, seq, event):
        if event.origin == "decision" and isinstance(match.node, Decide) and len(found) < count:
            found.append((seq, match.state, event))

    replay.before = before
    replay.run()
    return replay.match.game, found


@pytest.mark.parametrize("log", [GLUX, CHESS], ids=["glux", "glyph-chess"])
def test_the_estimate_is_the_same_for_twin_states(registry, log):
    """Issue 28 part 3: the analysis of a decision reads its mover's view
    alone: twin states (the conformance kit's: the mover's view filled in
    with the game's determinize) give the same winning chances and the same
    preferred decision, with a seeded iteration budget."""
    game, found = decisions_with_states(registry, log, 10)
    searcher = MCTS(iterations=25)
    rng = random.Random("twins")
    differed = 0
    for seq, state, event in found:
        verdict = weigh(game, state, event.player, event, searcher, f"twins {seq}")
        for twin in twins(game, state, event.player, rng, count=2):
            differed += twin != state
            same_for(registry, game, state, twin, event.player, f"event {seq}")
            assert weigh(game, twin, event.player, event, searcher, f"twins {seq}") == verdict, seq
    assert differed, "the twins never differed: the check would prove nothing"


def test_a_search_of_the_state_would_tell_twins_apart(registry):
    """Issue 28 part 3: the twin check above can fail: a search handed the
    state (its hidden items as they are) instead of the view weighs twins
    differently; the analysis's never does."""
    game, found = decisions_with_states(registry, GLUX, 20)

    class Peeking(MCTS):
        def weigh(self, game, view, player, legal, rng):
            return super().weigh(game, peeked[0], player, legal, rng)

    peeking, honest = Peeking(iterations=25), MCTS(iterations=25)
    apart = 0
    for seq, state, event in found:
        for twin in twins(game, state, event.player, random.Random(seq), count=2):
            verdicts = []
            for world in (state, twin):
                peeked = [world]
                verdicts.append(weigh(game, world, event.player, event, peeking, f"k {seq}"))
                assert weigh(game, world, event.player, event, honest, f"k {seq}") == weigh(
                    game, state, event.player, event, honest, f"k {seq}"
                )
            apart += verdicts[0] != verdicts[1]
    assert apart


def test_marks_follow_the_documented_thresholds():
    """Issue 28 part 3: an inaccuracy from a drop of 0.05, a mistake from 0.10, a blunder from 0.15."""
    assert dict(THRESHOLDS) == {"blunder": 0.15, "mistake": 0.10, "inaccuracy": 0.05}
    assert [judged(d) for d in (None, 0.0, 0.0499, 0.05, 0.0999, 0.10, 0.1499, 0.15, 0.9)] == [
        None,
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def analysed(cli, tmp_path: Path, log: Path, *args: str) -> dict:
    name = log.name
    if not (tmp_path / name).exists():
        shutil.copyfile(log, tmp_path / name)
    result = cli("analyse", name, "--bot", SMALL, "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_analyse_writes_its_judgements_and_summary(cli, registry, tmp_path):
    """Issue 28 part 3: every decision judged (before, after, drop, mark,
    the bot's preference), a summary per player that counts them, and all
    of it in the study file, read back checked."""
    data = analysed(cli, tmp_path, CHESS, "--workers", "1")
    study = load(registry, tmp_path / CHESS.name)
    replayed = [e for e in study.events if e.origin == "decision"]
    assert [d["seq"] for d in data["decisions"]] == [
        seq for seq, e in enumerate(study.events, 1) if e.origin == "decision"
    ]
    assert len(data["decisions"]) == len(replayed) > 5
    for d in data["decisions"]:
        assert 0 <= d["after"] <= 1 and 0 <= d["before"] <= 1
        assert d["drop"] == pytest.approx(max(0.0, d["before"] - d["after"]), abs=1e-3)
        assert d["mark"] == judged(d["drop"])
        assert (d["best"] == d["played"]) <= (d["drop"] == 0)
    for player, s in data["summary"].items():
        mine = [d for d in data["decisions"] if d["player"] == player]
        assert s["decisions"] == len(mine)
        assert s["mistakes"] == sum(d["mark"] == "mistake" for d in mine)
        assert s["average_drop"] == pytest.approx(sum(d["drop"] for d in mine) / len(mine), abs=1e-3)
    (ran,) = study.analyses.values()
    assert (ran.bot, ran.seed) == (SMALL, "analyse")
    assert summary(study.judgements_of(ran.id), study.header.players) == data["summary"]
    text = cli("analyse", CHESS.name, "--bot", SMALL)
    assert text.exit_code == 0 and "Summary:" in text.stdout
    # Run again, it has nothing left to do: the judgements written are shown.
    assert f"resuming: {len(replayed)} of {len(replayed)} decisions already judged" in text.stderr
    assert "Written to two-players-centre.study.jsonl." in text.stdout


def test_analysis_is_reproducible_and_resumes_where_it_stopped(cli, tmp_path):
    """Issue 28 part 3: the same seed and iteration budget give the same
    analysis on one worker or two; an analysis stopped part way (here: its
    last judgements gone) is continued, what is done is not redone, and ends
    as one never stopped."""
    whole = analysed(cli, tmp_path, CHESS, "--workers", "1")
    (tmp_path / "two").mkdir()
    pooled = analysed(cli, tmp_path / "two", CHESS, "--workers", "2")
    assert pooled["decisions"] == whole["decisions"] and pooled["summary"] == whole["summary"]
    study = default_path(tmp_path / CHESS.name)
    lines = study.read_text().splitlines(keepends=True)
    study.write_text("".join(lines[:5]))
    kept = study.read_text()
    again = cli("analyse", CHESS.name, "--bot", SMALL, "--json", "--workers", "1")
    assert again.exit_code == 0, again.output
    assert f"resuming: 3 of {len(whole['decisions'])} decisions already judged" in again.stderr
    assert json.loads(again.stdout)["decisions"] == whole["decisions"]
    assert study.read_text().startswith(kept)
    other_seed = analysed(cli, tmp_path, CHESS, "--workers", "1", "--seed", "another")
    assert other_seed["seed"] == "another" and len(other_seed["decisions"]) == len(whole["decisions"])


def test_analyse_as_a_player_judges_and_shows_only_their_decisions(cli, tmp_path):
    """Issue 28 part 3: --as judges that player's decisions and shows nothing of the others'."""
    data = analysed(cli, tmp_path, CHESS, "--as", "ben", "--workers", "1")
    assert {d["player"] for d in data["decisions"]} == {"ben"} and list(data["summary"]) == ["ben"]
    everyone = analysed(cli, tmp_path, CHESS, "--workers", "1")
    assert [d for d in everyone["decisions"] if d["player"] == "ben"] == data["decisions"]


def test_a_bot_that_estimates_nothing_is_refused_and_nothing_is_written(cli, tmp_path):
    """Issue 28 part 3: analysis needs a searching bot; a wrong one is one line, exit 2, no file."""
    shutil.copyfile(CHESS, tmp_path / CHESS.name)
    for spec, said in (
        ("random", "--bot random: analysis needs a bot that estimates winning chances (mcts)"),
        ("mcts:depth=3", "no setting 'depth'"),
    ):
        result = cli("analyse", CHESS.name, "--bot", spec)
        assert result.exit_code == 2 and said in result.stderr and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [CHESS.name]


def test_the_viewer_draws_the_analysis_as_a_graph_with_its_marks(cli, tmp_path):
    """Issue 28 part 3: the page shows the winning chance after each decision
    as an SVG graph, the marked decisions drawn as marks, and the summary;
    a seat's page only its own decisions."""
    data = analysed(cli, tmp_path, GLUX, "--workers", "2")
    assert cli("view", GLUX.name, "-o", "page.html").exit_code == 0
    html = (tmp_path / "page.html").read_text()
    graph = html[html.index('<svg id="graph"') : html.index("</svg>", html.index('<svg id="graph"'))]
    assert graph.count("<circle") == len(data["decisions"])
    for mark in ("inaccuracy", "mistake", "blunder"):
        assert graph.count(f'class="point {mark}"') == sum(d["mark"] == mark for d in data["decisions"])
    assert 'id="analysis-summary"' in html
    assert cli("view", GLUX.name, "--as", "ann", "-o", "ann.html").exit_code == 0
    ann = (tmp_path / "ann.html").read_text()
    graph = ann[ann.index('<svg id="graph"') : ann.index("</svg>", ann.index('<svg id="graph"'))]
    assert graph.count("<circle") == sum(d["player"] == "ann" for d in data["decisions"])
    assert 'data-player="ben"' not in graph


# -- whole logs that differ only in what a seat may not see -----------------------------
def pile_log(path: Path, bob_card: int) -> None:
    """A Pile game at a real table, bob's hidden card ``bob_card``: ann's view
    is the same whatever it is, as long as bob does not play it."""
    lines = [
        {"tabletop": 1, "game": "pile", "players": ["ann", "bob"], "variants": [], "options": {}, "randomness": {}},
        {"seq": 1, "kind": "deal", "player": "ann", "payload": {"card": 2}},
        {"seq": 2, "kind": "deal", "player": "bob", "payload": {"card": bob_card}},
        {"seq": 3, "kind": "pick", "player": "ann", "payload": {"number": 3}},
        {"seq": 4, "kind": "pick", "player": "bob", "payload": {"number": 1}},
        {"seq": 5, "kind": "take", "player": "ann", "payload": {"stones": 1, "card": False}},
        {"seq": 6, "kind": "take", "player": "bob", "payload": {"stones": 1, "card": False}},
        {"seq": 7, "kind": "take", "player": "ann", "payload": {"stones": 2, "card": True}},
        {"seq": 8, "kind": "take", "player": "bob", "payload": {"stones": 2, "card": False}},
        {"seq": 9, "kind": "skip", "player": "ann", "payload": {}},
        {"seq": 10, "kind": "take", "player": "bob", "payload": {"stones": 1, "card": False}},
        {"seq": 11, "kind": "take", "player": "ann", "payload": {"stones": 2, "card": False}},
        {"seq": 12, "kind": "take", "player": "bob", "payload": {"stones": 1, "card": False}},
    ]
    path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))


def test_logs_that_differ_only_in_a_hidden_card_are_analysed_alike_for_the_player_who_cannot_see_it(cli, tmp_path):
    """Issue 28 part 3: ann's decisions, analysed from ann's view, do not
    change when only bob's hidden card differs (the analysis never reads the
    true hidden state); bob's own, who sees his card, may."""
    reports = []
    for card in (1, 3):
        folder = tmp_path / f"bob-{card}"
        folder.mkdir()
        pile_log(folder / "pile.jsonl", card)
        result = cli("analyse", f"bob-{card}/pile.jsonl", "--as", "ann", "--bot", "mcts:iterations=60", "--json")
        assert result.exit_code == 0, result.output
        reports.append(json.loads(result.stdout))
    assert reports[0]["decisions"] == reports[1]["decisions"] and len(reports[0]["decisions"]) == 4


# -- an interrupted analysis --------------------------------------------------------------
def test_an_interrupted_analysis_keeps_what_it_judged_and_says_so(tmp_path):
    """Issue 28 part 3: Ctrl-C stops an analysis between batches of
    judgements already in the study file, and says so: the same command
    continues it (as the test above shows)."""
    log = tmp_path / GLUX.name
    shutil.copyfile(GLUX, log)
    command = [sys.executable, "-m", "tabletop", "--plugins", str(PILE), "analyse", log.name, "--workers", "1"]
    slow = [*command, "--bot", "mcts:iterations=1500"]
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_PLUGINS"}
    process = subprocess.Popen(slow, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    study = default_path(log)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and (not study.exists() or study.read_text().count("judgement") < 1):
            time.sleep(0.1)
        assert study.exists(), process.stderr.read() if process.poll() is not None else "no study in time"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signal.SIGINT, err
    assert "Traceback" not in err
    kept = study.read_text().count('"judgement"')
    assert f"interrupted by SIGINT: {kept} of 48 decisions are judged in {study.name}" in err
    assert 0 < kept < 48
