"""tabletop tune: the search finds what a house rule written here makes
best by construction, keeps every game in its folder, resumes to the answer
of a search never stopped, on the process pool and on Dask; bad input is one
line before any game.

The game and its house rule are written below as a plugin file (Coin): its
balance, its length and how often a bot that knows better wins are known
exactly, so the right answer of each search is too.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop import Registry, get_plugin_manager
from tabletop.base.errors import UsageError
from tabletop.host.rules import Parameter
from tabletop.many import targets as aims
from tabletop.many import tuning
from tabletop.many.results import iter_rows
from tabletop.many.simulation import Plan
from tabletop.many.stats import GameRow

from ..conftest import run_tabletop

COIN = '''"""Coin: a test game whose balance and length are known by construction.

If the rules give players a choice (``coin_choices`` above 1), each player
in seat order first guesses a number from 1 to that many; guessing 1
*calls it*. Then the players flip in turn, seat 1 first, each flip followed
by a toss of a ten-sided die, until a toss of at most ``coin_stop``: the
game lasts 10/stop flips on average. A player who called it alone wins;
otherwise a last toss decides: seat 1 wins on at most ``coin_edge``, so with
probability edge/10, seat 2 on the rest.

The house rule ``coin-tuned`` sets the three numbers. Known by construction:
edge=5 makes the seats even; stop=s gives games of 10/s flips; a bot that
always calls it (``caller``) against ``random`` wins 1 - 1/(2 choices) of
the games over both seatings.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop import CHANCE, Bot, Chance, Decide, Event, Game, Outcome, Over, Variant, hookimpl, rulehook, rulespec


@attrs.frozen
class Guess(Event):
    kind: ClassVar[str] = "guess"
    player: str
    number: int


@attrs.frozen
class Flip(Event):
    kind: ClassVar[str] = "flip"
    player: str


@attrs.frozen
class Toss(Event):
    kind: ClassVar[str] = "toss"
    origin: ClassVar[str] = CHANCE
    number: int


@attrs.frozen
class Verdict(Event):
    kind: ClassVar[str] = "verdict"
    origin: ClassVar[str] = CHANCE
    number: int


@attrs.frozen
class State:
    guesses: tuple = ()
    flips: int = 0
    tossed: bool = False
    stopped: bool = False
    verdict: int | None = None


class CoinSpecs:
    @rulespec(firstresult=True)
    def coin_edge(self, players: int) -> int | None:
        """Seat 1 wins the last toss on at most this (of 10)."""

    @rulespec(firstresult=True)
    def coin_stop(self, players: int) -> int | None:
        """The flipping stops on a toss of at most this (of 10)."""

    @rulespec(firstresult=True)
    def coin_choices(self, players: int) -> int | None:
        """How many numbers a player guesses from (1: no guessing)."""


class OfficialCoin:
    @rulehook
    def coin_edge(self, players):
        return 8

    @rulehook
    def coin_stop(self, players):
        return 10

    @rulehook
    def coin_choices(self, players):
        return 1


class Coin(Game):
    name = "coin"
    title = "Coin"
    description = "flip until a toss stops it; a last toss decides (a test game)"
    min_players = 2
    max_players = 2
    events = (Guess, Flip, Toss, Verdict)
    rule_specs = CoinSpecs
    official_rules = OfficialCoin()

    def __init__(self, players, options, rules):
        super().__init__(players, options, rules)
        n = len(players)
        self.edge = rules.coin_edge(players=n)
        self.stop = rules.coin_stop(players=n)
        self.choices = rules.coin_choices(players=n)
        if self.choices < 1:
            raise rules.refuse("coin_choices", f"gave {self.choices} choices: a player guesses from 1 or more")

    def initial(self):
        return State()

    def callers(self, state):
        return [p for p, g in zip(self.players, state.guesses) if g == 1]

    def next(self, state):
        if self.choices > 1 and len(state.guesses) < len(self.players):
            return Decide((self.players[len(state.guesses)],))
        if not state.stopped:
            if state.tossed or state.flips == 0:
                return Decide((self.players[state.flips % 2],))
            return Chance(tuple(Toss(k) for k in range(1, 11)))
        if len(self.callers(state)) != 1 and state.verdict is None:
            return Chance(tuple(Verdict(k) for k in range(1, 11)))
        return Over()

    def check(self, state, event):
        if isinstance(event, Guess):
            return None if 1 <= event.number <= self.choices else f"guess 1 to {self.choices}"
        return None if isinstance(event, Flip) else "not a decision of this game"

    def apply(self, state, event):
        if isinstance(event, Guess):
            return attrs.evolve(state, guesses=state.guesses + (event.number,))
        if isinstance(event, Flip):
            return attrs.evolve(state, flips=state.flips + 1, tossed=False)
        if isinstance(event, Toss):
            return attrs.evolve(state, tossed=True, stopped=event.number <= self.stop)
        return attrs.evolve(state, verdict=event.number)

    def legal(self, state, player):
        if self.choices > 1 and len(state.guesses) < len(self.players):
            return [Guess(player, k) for k in range(1, self.choices + 1)]
        return [Flip(player)]

    def winner(self, state):
        callers = self.callers(state)
        if len(callers) == 1:
            return callers[0]
        if state.verdict is None:
            return None
        return self.players[0] if state.verdict <= self.edge else self.players[1]

    def outcome(self, state):
        won = self.winner(state)
        return Outcome({p: int(p == won) for p in self.players}, (won,) if won else ())

    def format(self, event, viewer=None):
        if isinstance(event, Guess):
            return f"{event.player} guesses {event.number}"
        if isinstance(event, Flip):
            return f"{event.player} flips"
        return f"{event.kind} {event.number}"

    def notate(self, decision):
        return f"guess {decision.number}" if isinstance(decision, Guess) else "flip"

    def parse(self, text, player, state):
        word = text.strip()
        return Guess(player, int(word[6:])) if word.startswith("guess ") else Flip(player)

    def render(self, state, viewer=None, color=False):
        return f"flips: {state.flips}"

    def describe(self, state, viewer=None):
        return {"flips": str(state.flips)}


@attrs.frozen
class Tuned:
    edge: int = 8
    stop: int = 10
    choices: int = 1

    @rulehook
    def coin_edge(self, players):
        return self.edge

    @rulehook
    def coin_stop(self, players):
        return self.stop

    @rulehook
    def coin_choices(self, players):
        return self.choices


def call_it(game, view, player, legal, rng):
    return next((d for d in legal if isinstance(d, Guess) and d.number == 1), legal[0])


@hookimpl
def register_games():
    return [Coin]


@hookimpl
def register_variants():
    return [Variant("coin-tuned", "coin", "the edge, the stop and the choices of Coin", Tuned)]


@hookimpl
def register_bots():
    return [Bot("caller", "always calls it", call_it, game="coin", reads_state=False)]
'''


@pytest.fixture
def coin(tmp_path: Path) -> Path:
    """The Coin plugin file, in the folder the commands run in."""
    path = tmp_path / "coin.py"
    path.write_text(COIN)
    return path


def tune(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_tabletop("--plugins", "coin.py", "tune", "coin", "--variant", "coin-tuned", *args, cwd=cwd)


def answer(done: subprocess.CompletedProcess[str]) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# -- the known optimum found ------------------------------------------------------


def test_the_search_finds_the_edge_that_makes_the_seats_even(coin, tmp_path):
    """Seat 1 wins with probability edge/10: edge=5 and no other makes the
    seats even. 4,000 games over 11 candidates find it (20 seeds of 20 when
    this test was written); the answer says how even, with its interval."""
    found = answer(
        tune(
            tmp_path,
            "--param",
            "edge=0..10",
            "--target",
            "even-seats",
            "--budget",
            "4000",
            "--workers",
            "2",
            "--results",
            "tuned",
            "--json",
        )
    )
    assert found["best"]["params"] == {"edge": 5}
    assert found["best"]["variant"] == "coin-tuned:edge=5"
    low, high = found["best"]["ci95"]
    assert low <= 0.0 <= high or found["best"]["value"] < 0.1
    assert [p["place"] for p in found["best"]["places"]] == ["seat 1", "seat 2"]
    # Every candidate is in the table, the best first; the halving kept half each round.
    assert len(found["candidates"]) == 11 and found["candidates"][0]["params"] == {"edge": 5}
    assert [r["candidates"] for r in found["schedule"]] == [11, 6, 3, 2]
    assert [len(r["kept"]) for r in found["rounds"]] == [6, 3, 2, 1]
    assert found["played"] <= 4000
    # Every game is kept, as simulate writes rows; each round's candidates played the same seeds.
    folder = tmp_path / "tuned"
    assert sorted(p.name for p in folder.iterdir()) == [
        "round-1.csv",
        "round-2.csv",
        "round-3.csv",
        "round-4.csv",
        "tune.json",
    ]
    rows = list(iter_rows(folder / "round-1.csv"))
    assert len(rows) == 11 * found["schedule"][0]["seeds"]
    seeds = {}
    for row in rows:
        seeds.setdefault(row.variants, []).append(row.seed)
    assert len(seeds) == 11 and len({tuple(s) for s in seeds.values()}) == 1
    # The rows say what the search measured: edge=5's seat-1 wins over every round.
    wins = sum(
        row.players[0] in row.winners
        for k in range(1, 5)
        for row in iter_rows(folder / f"round-{k}.csv")
        if row.variants == ("coin-tuned:edge=5",)
    )
    assert wins == round(found["best"]["places"][0]["win_rate"] * found["best"]["games"])
    manifest = json.loads((folder / "tune.json").read_text())
    assert manifest["finished"] and manifest["best"]["params"] == {"edge": 5}


def test_the_search_finds_the_stop_that_gives_the_length(coin, tmp_path):
    """The flipping stops on a toss of at most stop (of 10): games last 10/stop
    flips on average, so length=5 is stop=2."""
    found = answer(tune(tmp_path, "--param", "stop=1..10", "--target", "length=5", "--budget", "1000", "--json"))
    assert found["best"]["params"] == {"stop": 2}
    low, high = found["best"]["ci95"]
    assert low < 5 < high
    assert found["folder"] is None and not [p for p in tmp_path.iterdir() if p.name != "coin.py"]


def test_a_stronger_bot_is_measured_in_every_seat(coin, tmp_path):
    """caller always calls it; random does with 1/choices. caller wins
    1 - 1/(2 choices) over both seatings whatever the edge (8 here: seat 1
    wins the last toss 80% of the time), so stronger=caller:0.75 is
    choices=2. Seat 1 alone would give 1 - 0.2/choices: choices=1 (80%)."""
    found = answer(
        tune(
            tmp_path,
            "--param",
            "choices=1..4",
            "--target",
            "stronger=caller:0.75",
            "--bot",
            "caller",
            "--bot",
            "random",
            "--budget",
            "2600",
            "--json",
        )
    )
    assert found["seatings"] == [["caller", "random"], ["random", "caller"]]
    assert found["best"]["params"] == {"choices": 2}
    low, high = found["best"]["ci95"]
    assert low < 0.75 < high


def test_the_text_names_the_best_and_every_candidate(coin, tmp_path):
    done = tune(tmp_path, "--param", "stop=1..4", "--target", "length=2.5", "--budget", "400", "--results", "out")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Tuning coin-tuned in coin, 2 players, bots random: games of 2.5 turns on average")
    assert "Best: stop=4  (coin-tuned:stop=4)" in done.stdout
    table = lines[lines.index(next(line for line in lines if line.startswith("candidate"))) :]
    # The best first, then by rounds reached and loss: stop=2 and stop=1 (5 and 10 turns) went in round 1.
    assert [line.split()[:2] for line in table[1:5]] == [
        ["stop=4", "2"],
        ["stop=3", "2"],
        ["stop=2", "1"],
        ["stop=1", "1"],
    ]
    assert "Round 1: 4 candidates x 50 games (seeds tune-r1-1..50)" in done.stdout
    assert "Results written to out" in done.stdout


# -- kept, resumed -------------------------------------------------------------------

SEARCH = ("--param", "edge=0..10", "--target", "even-seats", "--budget", "2000", "--workers", "2")


def rows_in(path: Path) -> int:
    try:
        return max(0, path.read_bytes().count(b"\n") - 2)
    except OSError:
        return 0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGKILL])
def test_a_search_stopped_and_run_again_gives_the_answer_of_one_never_stopped(coin, tmp_path, signum):
    """Ctrl-C (or kill -9) in the middle of round 2; the same command run
    again continues it: the same answer, the same rows byte for byte, as a
    search that ran through (in batches of another size)."""
    # One seed a task, so that the signal comes in the middle of a round.
    args = ["--plugins", "coin.py", "tune", "coin", "--variant", "coin-tuned", *SEARCH, "--batch", "1", "--json"]
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_PLUGINS"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", *args, "--results", "stopped"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while rows_in(tmp_path / "stopped" / "round-2.csv") < 12 and proc.poll() is None:
            assert time.monotonic() < deadline, "the search never reached round 2"
            time.sleep(0.02)
        assert proc.poll() is None, "the search ended before it could be stopped"
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    if signum == signal.SIGINT:
        assert proc.returncode == 130 and out == ""
        assert err.strip().splitlines()[-1].startswith("tabletop: interrupted by SIGINT: ")
        assert "games of the search are in stopped (round 2 of 4); run the same command again to continue" in err
    else:
        assert proc.returncode == -signal.SIGKILL
    manifest = json.loads((tmp_path / "stopped" / "tune.json").read_text())
    assert not manifest["finished"] and len(manifest["rounds"]) == 1

    again = subprocess.run(
        [sys.executable, "-m", "tabletop", *args, "--results", "stopped"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert "resuming: " in again.stderr and " games of the search already in stopped" in again.stderr
    through = answer(tune(tmp_path, *SEARCH, "--results", "through", "--json"))
    resumed = json.loads(again.stdout)
    assert resumed["resumed"] > 0 and through["resumed"] == 0
    for key in ("best", "candidates", "rounds", "schedule", "played"):
        assert resumed[key] == through[key], key
    for k in range(1, 5):
        name = f"round-{k}.csv"
        assert (tmp_path / "stopped" / name).read_bytes() == (tmp_path / "through" / name).read_bytes(), name
    # A finished search run again plays nothing and says the same.
    same = answer(tune(tmp_path, *SEARCH, "--results", "through", "--json"))
    assert same["best"] == through["best"] and same["resumed"] == same["played"]


def test_a_folder_holding_another_search_is_refused(coin, tmp_path):
    assert (
        tune(tmp_path, "--param", "stop=1..4", "--target", "length=3", "--budget", "200", "--results", "out").returncode
        == 0
    )
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    done = tune(tmp_path, "--param", "stop=1..4", "--target", "length=2", "--budget", "200", "--results", "out")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        'tabletop: out: holds another search (target "length=3", not "length=2"); choose another folder'
    )
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    done = tune(tmp_path, "--param", "stop=1..4", "--target", "length=2", "--budget", "200", "--results", "full")
    assert done.returncode == 2 and "the folder is not empty and holds no search (tune.json)" in done.stderr
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["notes.txt"]


def test_on_a_dask_cluster_the_search_is_the_one_on_the_pool(coin, tmp_path):
    """The workers of the cluster run in another folder and never see coin.py:
    the house rule reaches them with the tasks."""
    distributed = pytest.importorskip("distributed")
    search = ("--param", "stop=1..4", "--target", "length=2", "--budget", "400", "--batch", "7")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, protocol="tcp"
    ) as cluster:
        on_dask = answer(
            tune(tmp_path, *search, "--scheduler", cluster.scheduler_address, "--results", "dask", "--json")
        )
    on_pool = answer(tune(tmp_path, *search, "--workers", "2", "--results", "pool", "--json"))
    assert on_dask["best"] == on_pool["best"] and on_dask["candidates"] == on_pool["candidates"]
    for k in (1, 2):
        assert (tmp_path / "dask" / f"round-{k}.csv").read_bytes() == (
            tmp_path / "pool" / f"round-{k}.csv"
        ).read_bytes()


# -- the picture --------------------------------------------------------------------


def test_plot_draws_the_search(coin, tmp_path):
    pytest.importorskip("matplotlib")
    done = tune(tmp_path, "--param", "stop=1..4", "--target", "length=2", "--budget", "200", "--plot", "search.png")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "search.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Picture written to search.png." in done.stdout
    done = tune(
        tmp_path,
        "--param",
        "edge=3..5",
        "--param",
        "stop=1..2",
        "--target",
        "even-seats",
        "--budget",
        "300",
        "--plot",
        "two.svg",
    )
    assert done.returncode == 0, done.stderr
    assert b"<svg" in (tmp_path / "two.svg").read_bytes()


# -- bad input: one line naming the option, before any game --------------------------

BAD = [
    (
        ["--variant", "coin-untuned", "--param", "edge=1..3", "--target", "even-seats"],
        "--variant coin-untuned: unknown variant 'coin-untuned'",
    ),
    (
        ["--variant", "coin-tuned", "--param", "height=1..3", "--target", "even-seats"],
        "--param height=1..3: variant 'coin-tuned' has no parameter 'height'",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=7..3", "--target", "even-seats"],
        "--param edge=7..3: LOW (7) is above HIGH (3)",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1-3", "--target", "even-seats"],
        "--param edge=1-3: write key=LOW..HIGH",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=a..3", "--target", "even-seats"],
        "--param edge=a..3: 'a' is not a whole number",
    ),
    (
        ["--variant", "coin-tuned:edge=3", "--param", "edge=1..3", "--target", "even-seats"],
        "--param edge=1..3: 'edge' is also fixed",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=0..100000", "--target", "even-seats"],
        "--param edge=0..100000: 100,001 values",
    ),
    (["--variant", "coin-tuned", "--target", "even-seats"], "missing option '--param'"),
    (
        ["--variant", "coin-tuned", "--param", "choices=0..2", "--target", "even-seats"],
        "--param choices=0: variant 'coin-tuned': coin_choices gave 0 choices",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "fair"],
        "--target fair: one of even-seats, even-turn-order",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "shared=2"],
        "--target shared=2: a share is from 0 to 1",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "length=-1"],
        "--target length=-1: the length is a number of turns above 0",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "stronger=mcts:0.6"],
        "--target stronger=mcts:0.6: mcts plays no seat",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "stronger=random:0.6"],
        "--target stronger=random:0.6: random plays every seat",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=0..10", "--target", "even-seats", "--budget", "40"],
        "--budget 40: too few games for 11 candidates in 4 rounds (at least 44",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "even-seats", "--seats", "3"],
        "--seats: coin is for 2 to 2 players, not 3",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "even-seats", "--plot", "p.bmp"],
        "--plot: cannot draw '.bmp' pictures",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "even-seats", "--bot", "nobody"],
        "--bot nobody: unknown bot 'nobody'",
    ),
    (
        ["--variant", "coin-tuned", "--param", "edge=1..3", "--target", "even-seats", "--option", "x=1"],
        "--option: unknown option 'x'",
    ),
]


@pytest.mark.parametrize("args, message", BAD, ids=[b[1].split(":")[0] for b in BAD])
def test_bad_input_is_one_line_naming_the_option_before_any_game(cli, coin, tmp_path, args, message):
    done = cli("--plugins", "coin.py", "tune", "coin", *args, "--results", "tuned")
    assert done.exit_code == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert message in done.stderr
    assert not (tmp_path / "tuned").exists()


# -- the parts ------------------------------------------------------------------------


def row(players=("a", "b"), winners=("a",), order=None, turns=3, finished=True, bots=("random", "random")):
    return GameRow(
        game="coin",
        variants=(),
        players=players,
        bots=bots,
        scores=(0, 0),
        winners=winners,
        events=5,
        finished=finished,
        order=order or players,
        turns=turns,
    )


def test_even_seats_is_the_gap_between_the_most_and_the_least_winning_seat():
    tally = aims.parse("even-seats", ("random", "random")).tally(2)
    for winners in [("a",), ("a",), ("a",), ("b",), ("a", "b")]:
        tally.add(row(winners=winners))
    tally.add(row(winners=("b",), finished=False))  # left out
    m = tally.measure()
    # seat 1 won 4 of 5 (the shared victory counts for both), seat 2 won 2 of 5.
    assert m.games == 5 and m.loss == pytest.approx(0.4) and m.value == pytest.approx(0.4)
    assert m.text.startswith("seat 1 - seat 2: +40.0 points")
    # The interval is that of the per-game difference of the two seats' wins (1, 1, 1, -1, 0).
    diffs = [1, 1, 1, -1, 0]
    mean = sum(diffs) / 5
    sd = (sum((d - mean) ** 2 for d in diffs) / 4) ** 0.5
    assert m.low == pytest.approx(mean - 1.959963984540054 * sd / 5**0.5)
    assert m.high == pytest.approx(min(1.0, mean + 1.959963984540054 * sd / 5**0.5))


def test_even_turn_order_counts_places_in_turn_order_not_seats():
    tally = aims.parse("even-turn-order", ("random", "random")).tally(2)
    # The start player always wins, whichever seat it is: seats are even, turn order is not.
    tally.add(row(winners=("a",), order=("a", "b")))
    tally.add(row(winners=("b",), order=("b", "a")))
    assert tally.measure().loss == pytest.approx(1.0)
    seats = aims.parse("even-seats", ("random", "random")).tally(2)
    seats.add(row(winners=("a",), order=("a", "b")))
    seats.add(row(winners=("b",), order=("b", "a")))
    assert seats.measure().loss == 0


def test_shared_length_and_stronger_are_distances_to_the_aim():
    shared = aims.parse("shared=10%", ("random", "random")).tally(2)
    for winners in [("a", "b"), ("a",), ("b",), ("a",)]:
        shared.add(row(winners=winners))
    assert shared.measure().value == 0.25 and shared.measure().loss == pytest.approx(0.15)
    length = aims.parse("length=5", ("random", "random")).tally(2)
    for turns in (4, 6, 8):
        length.add(row(turns=turns))
    length.add(row(turns=100, finished=False))
    m = length.measure()
    assert m.value == 6 and m.loss == 1 and m.low < 6 < m.high
    target = aims.parse("stronger=mcts:0.5", ("mcts:iterations=50", "random"))
    assert target.lineups(("mcts", "random")) == (("mcts", "random"), ("random", "mcts"))
    assert target.lineups(("mcts", "random", "random")) == (
        ("mcts", "random", "random"),
        ("random", "random", "mcts"),
        ("random", "mcts", "random"),
    )
    stronger = target.tally(2)
    stronger.add(row(bots=("mcts", "random"), winners=("a",)))
    stronger.add(row(bots=("random", "mcts"), winners=("b",)))
    stronger.add(row(bots=("random", "mcts"), winners=("a",)))
    stronger.add(row(bots=("mcts", "random"), winners=("a", "b")))
    assert stronger.measure().value == 0.75 and stronger.measure().loss == pytest.approx(0.25)


def test_ranges_give_the_grid():
    edge = Parameter("edge", int, 8)
    weight = Parameter("weight", float, 1.0)
    assert tuning.read_param("edge=2..8:3", "v", [edge], ()).values == (2, 5, 8)
    assert tuning.read_param("edge=4..4", "v", [edge], ()).values == (4,)
    assert tuning.read_param("weight=0..1", "v", [weight], ()).values == tuple(k / 10 for k in range(11))
    assert tuning.read_param("weight=0.5..1:0.25", "v", [weight], ()).values == (0.5, 0.75, 1.0)
    with pytest.raises(UsageError, match="STEP must be above 0"):
        tuning.read_param("edge=1..3:0", "v", [edge], ())
    with pytest.raises(UsageError, match="only int and float ones are tuned"):
        tuning.read_param("flag=0..1", "v", [Parameter("flag", bool, False)], ())


def test_each_round_spends_about_the_same_share_of_the_budget(tmp_path):
    (tmp_path / "coin.py").write_text(COIN)
    registry = Registry(get_plugin_manager([tmp_path / "coin.py"], environment=False))
    plan = Plan(game="coin", players=2, bots=("random", "random"), plugins=(str(tmp_path / "coin.py"),))
    search = tuning.search_of(registry, plan, "coin-tuned", ["edge=0..10"], aims.parse("even-seats", plan.bots), 800)
    assert search.schedule() == [(11, 18), (6, 33), (3, 66), (2, 103)]
    assert sum(n * g for n, g in search.schedule()) == 800
    one = tuning.search_of(registry, plan, "coin-tuned", ["edge=5..5"], aims.parse("even-seats", plan.bots), 30)
    assert one.schedule() == [(1, 30)]


def test_the_pages_python_example_runs(tmp_path, monkeypatch, capsys):
    """docs/tuning.md's example, as written but for a smaller budget."""
    import re

    from ..conftest import ROOT

    (code,) = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "tuning.md").read_text(), re.S)
    assert "budget=800" in code
    (tmp_path / "variants").symlink_to(ROOT / "variants")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TABLETOP_PLUGINS", raising=False)
    exec(compile(code.replace("budget=800", "budget=16"), "tuning.md", "exec"), {})
    assert capsys.readouterr().out.startswith("height=")
    assert json.loads((tmp_path / "skill" / "tune.json").read_text())["finished"]


def test_progress_runs_over_every_game_of_the_search(tmp_path):
    """On a terminal the bar counts every game of every round, as simulate's does."""
    import io

    from tabletop.base.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    (tmp_path / "coin.py").write_text(COIN)
    registry = Registry(get_plugin_manager([tmp_path / "coin.py"], environment=False))
    plan = Plan(game="coin", players=2, bots=("random", "random"), plugins=(str(tmp_path / "coin.py"),))
    search = tuning.search_of(registry, plan, "coin-tuned", ["stop=1..4"], aims.parse("length=2", plan.bots), 200)
    out = Terminal()
    with Progress(200, "tune coin", out) as bar:
        tuned = tuning.tune(registry, search, tuning.Where(workers=1), progress=bar)
    assert tuned.played == 200
    last = out.getvalue().rstrip().split("\r")[-1]
    assert last.startswith("tune coin round 2/2") and last.rstrip().endswith("100%  200/200")
