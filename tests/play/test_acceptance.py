"""Every path accepts the same events: self-play, the fast fold, the plain
fold, a replay, ``moves`` and ``play``, whatever a house rule's step offers
or leaves out.

- A step's node may be a ``Forced`` node whose event is of any origin (a
  house rule forcing the start player, a chance event in the official
  rules): the event is taken where it is forced, on every path.
- A step that lists its decisions and declares no check (or ``check=None``,
  given positionally) takes exactly the decisions its listing gives, on
  every path (``TurnStep.checking``).
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

from tabletop import (
    Chance,
    Decide,
    Event,
    Forced,
    IllegalEventError,
    Registry,
    Turn,
    TurnStep,
    get_plugin_manager,
    testing,
)
from tabletop.log import logfile
from tabletop.model import steps
from tabletop.model.steps import NOT_NOW, not_now, wait
from tabletop.play import chance
from tabletop.play.engine import Match, Replay
from tabletop.play.live import make_header, selfplay, settle

from ..conftest import PILE

PLUGINS = Path(__file__).resolve().parent.parent / "plugins"
FIRST_SEAT = PLUGINS / "glux_first_seat.py"
UNCHECKED = PLUGINS / "glux_unchecked.py"


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry(get_plugin_manager([PILE, FIRST_SEAT, UNCHECKED], environment=False))


def _selfplayed(registry, variant: str, seed: str, players: int = 2):
    names = [f"p{i}" for i in range(1, players + 1)]
    bots = [registry.bot("random", "glux")] * players
    return selfplay(registry, "glux", names, bots, seed, [variant])


def _folds(registry, header, events, tmp_path: Path) -> tuple[Match, Match]:
    """The log written as a file and replayed from it on the fast fold
    (``Replay.run``, as ``tabletop replay`` does) and on the plain fold (an
    event at a time, ``Match.accept`` on immutable states)."""
    path = tmp_path / "game.jsonl"
    path.unlink(missing_ok=True)
    logfile.create(path, registry.codec.log(header, events))
    fast = Replay(registry, path).run()
    replay = Replay(registry, path)
    for _ in replay:
        pass
    return fast, replay.match


# -- 1. a Forced node's event, of whatever origin, is taken where it is forced ---------------
@pytest.mark.parametrize("players", [2, 3])
def test_a_forced_chance_event_self_played_replays_on_every_path(registry, tmp_path, players):
    header, played, events = _selfplayed(registry, "glux-first-seat", f"forced {players}", players)
    first = [event for event in events if event.kind == "first-player"]
    assert [event.starter for event in first] == [header.players[0]]  # forced, not drawn
    fast, plain = _folds(registry, header, events, tmp_path)
    assert fast.seq == plain.seq == len(events)
    assert fast.state == plain.state == played.state and fast.over and plain.over


def test_a_forced_event_is_accepted_by_the_plain_and_the_fast_match_and_another_refused_alike(registry):
    header, _, made = make_header(registry, "glux", ("ann", "ben"), ["glux-first-seat"], seed="alike")
    plain, fast = Match(registry, header, made), Match(registry, header, made)
    assert fast.hurry()
    for match in (plain, fast):
        # Up to the start player: draws, then each start chip's face, then the hands.
        while not isinstance(node := match.node, Forced):
            if isinstance(node, Chance):
                match.accept(node.pick(chance.number("alike", match.seq + 1)))
            else:
                match.accept(match.legal(node.players[0])[0])
    assert plain.node == fast.node and plain.node.event.kind == "first-player"
    forced = plain.node.event
    other = type(forced)("ben")
    reasons = {match.why_illegal(other) for match in (plain, fast)}
    assert reasons == {"the rules give 'ann is the start player' here"}
    for match in (plain, fast):
        match.accept(forced)
    assert plain.state == fast.state


def test_the_conformance_kit_replays_a_game_with_a_forced_chance_event(registry):
    checked = testing.conform(registry, "glux", ("ann", "ben"), ["glux-first-seat"], games=1, every=50, pairs=0)
    assert checked > 0


# -- 2. a step without a check takes what it lists, on every path ------------------------------
@pytest.mark.parametrize("variant", ["glux-unchecked", "glux-unchecked-none"])
def test_a_step_without_a_check_self_plays_and_replays_on_every_path(registry, tmp_path, variant):
    header, played, events = _selfplayed(registry, variant, "unchecked")
    fast, plain = _folds(registry, header, events, tmp_path)
    assert fast.state == plain.state == played.state and fast.over and plain.over


@pytest.mark.parametrize("variant", ["glux-unchecked", "glux-unchecked-none"])
def test_a_step_without_a_check_accepts_every_decision_it_lists_and_nothing_else_on_both_paths(registry, variant):
    header, _, made = make_header(registry, "glux", ("ann", "ben"), [variant], seed="listed")
    plain, fast = Match(registry, header, made), Match(registry, header, made)
    assert fast.hurry()
    settle(plain, "listed")
    settle(fast, "listed")
    for _ in range(12):  # setup, then some placements
        node = plain.node
        assert fast.node == node
        player = node.players[0]
        listing = list(plain.legal(player))
        assert listing == list(fast.legal(player))
        for decision in listing:
            assert plain.why_illegal(decision) is None and fast.why_illegal(decision) is None, decision
        if plain.state.began:
            # A placement the listing leaves out: refused alike, in one line.
            refused = next(
                type(listing[0])(player, square, face)
                for square in made.indices
                for face in range(1, 7)
                if type(listing[0])(player, square, face) not in listing
            )
            assert plain.why_illegal(refused) == fast.why_illegal(refused) == steps.NOT_LISTED
            with pytest.raises(IllegalEventError):
                fast.accept(refused)
        for match in (plain, fast):
            match.accept(listing[-1])
            settle(match, "listed")
        assert plain.state == fast.state


def test_moves_lists_what_play_accepts_in_a_step_without_a_check(cli, tmp_path):
    loaded = ("--plugins", str(UNCHECKED))
    made = cli(
        *loaded, "new", "glux", "--players", "ann,ben", "--variant", "glux-unchecked", "--seed", "7", "-o", "g.jsonl"
    )
    assert made.exit_code == 0, made.output
    for _ in range(4):  # the start chips, then the first placements
        shown = cli(*loaded, "moves", "g.jsonl")
        assert shown.exit_code == 0, shown.output
        lines = shown.output.splitlines()
        player = lines[0].split(" ")[0]
        move = lines[1].strip()
        played = cli(*loaded, "play", "g.jsonl", move, "--player", player)
        assert played.exit_code == 0, played.output + played.stderr
    assert cli(*loaded, "replay", "g.jsonl").exit_code == 0


@attrs.frozen
class Pick(Event):
    kind: ClassVar[str] = "pick"
    player: str
    number: int


def _picks(game, state, player):
    return [Pick(player, 1), Pick(player, 2)]


def _picked(game, work, event):
    work.picked = event.number


@pytest.mark.parametrize("how", ["keyword", "positional None"])
def test_a_step_without_a_check_takes_what_it_lists_and_check_none_is_not_given(how):
    """``check=None`` given positionally is the same step as no check at
    all: the turn checks a decision by the step's listing, on the state
    either path holds (never ``None`` called deep in the engine)."""
    node = lambda game, state: Decide(("ann",))  # noqa: E731
    keyword = TurnStep("pick", node, (Pick,), _picked, legal=_picks)
    step = keyword if how == "keyword" else TurnStep("pick", node, (Pick,), _picked, wait, None, _picks)
    assert step == keyword and step.check is None
    turn = Turn({"pick": step}, work=_Twin)
    state = types.SimpleNamespace(phase="pick", picked=None)
    assert turn.check(None, state, Pick("ann", 2)) is None
    assert turn.check(None, state, Pick("ann", 3)) == steps.NOT_LISTED
    fast = turn.fast(None)
    live = fast.thaw(state)
    assert fast.check(live, Pick("ann", 2)) is None and fast.check(live, Pick("ann", 3)) == steps.NOT_LISTED
    # Neither a check nor a listing: the step takes no decision, as before.
    assert TurnStep("pick", node, (Pick,), _picked).checking is not_now
    assert Turn({"pick": TurnStep("pick", node, (Pick,), _picked)}).check(None, state, Pick("ann", 1)) == NOT_NOW


class _Twin:
    @staticmethod
    def thaw(state):
        return types.SimpleNamespace(**vars(state))

    @staticmethod
    def freeze(work):
        return work
