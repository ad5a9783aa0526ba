"""The core's turn (``tabletop.play.turn``): every path asks the same step,
through the one dispatch (``Turn`` on a state, ``TurnFast`` on a live twin,
whose fast loops the engine calls), and those loops fold with a fast path's
own ``apply`` whenever it does more at each event than the turn."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import tabletop.api
from tabletop import Turn, TurnFast
from tabletop.model.steps import Steps
from tabletop.play.engine import Match, Replay
from tabletop.play.live import selfplay
from tabletop.play.turn import Stepped

from ..conftest import ROOT


def _played(registry, game: str, players: int, seed: str):
    names = [f"p{i}" for i in range(players)]
    header, _, events = selfplay(registry, game, names, [registry.bot("random", game)] * players, seed)
    return header, events


@pytest.mark.parametrize("game,players", [("glux", 3), ("glyph-chess", 2)])
def test_both_games_run_on_the_cores_turn(registry, game, players):
    header, _ = _played(registry, game, players, "turn")
    made = registry.game(header)
    assert isinstance(made.turn, Turn) and isinstance(made.fast(), TurnFast)
    state = made.initial()
    assert made.next(state) == made.turn.next(made, state)


def test_a_fast_path_doing_more_at_each_event_is_called_for_each_by_the_fast_fold(registry, monkeypatch):
    """Glyph Chess's fast path forgets its kept node and listing at each
    event: a replay that wrote the turn's apply out in its place would keep
    them past the event that changed the state."""
    header, events = _played(registry, "glyph-chess", 2, "more")
    made = registry.game(header)
    cls = type(made)
    own = cls.fast
    calls = []

    def counted(game):
        fast = own(game)
        apply = fast.apply

        def counting(live, event):
            calls.append(event)
            apply(live, event)

        fast.apply = counting
        return fast

    monkeypatch.setattr(cls, "fast", counted)
    text = "\n".join(registry.codec.log(header, events)) + "\n"
    match = Replay(registry, Path("more.jsonl"), io.BytesIO(text.encode())).run()
    assert match.seq == len(events) and len(calls) == len(events)


def test_the_fast_fold_ends_where_the_plain_fold_does(registry):
    """Glüx's fast path adds nothing at each event: the fast fold (the turn's
    own ``TurnFast.follow``) writes the turn's apply out, and ends where the
    plain fold does."""
    header, events = _played(registry, "glux", 4, "same")
    fast = registry.game(header).fast()
    assert fast.apply is fast.stepping
    quick = Match(registry, header)
    assert quick.hurry()
    quick.follow(enumerate(events, start=1))
    plain = Match(registry, header)
    for seq, event in enumerate(events, start=1):
        plain.accept(event, seq)
    assert quick.state == plain.state and quick.over


@pytest.mark.parametrize("game,players", [("glux", 3), ("glyph-chess", 2), ("liars-dice", 2)])
def test_each_games_turn_and_fast_path_declare_the_engines_contract(registry, game, players):
    """The engine reads what ``Steps`` and ``Stepped`` declare, and nothing else."""
    if game == "liars-dice":  # the template game, loaded from its folder
        registry = tabletop.api.registry([ROOT / "examples" / "liars_dice"])
    header, _ = _played(registry, game, players, "contract")
    made = registry.game(header)
    fast = made.fast()
    for declared, value in ((Steps, made.turn), (Stepped, fast)):
        for name in _members(declared):
            assert hasattr(value, name), (declared.__name__, name)
    assert fast.game is made and fast.turn is made.turn


def _members(protocol: type) -> set[str]:
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")}
    return names


def test_the_engine_reaches_the_turn_by_no_getattr():
    import inspect

    from tabletop.play import engine

    assert "getattr(" not in inspect.getsource(engine)


def test_the_fast_fold_stops_at_an_illegal_event_and_names_its_line(registry, tmp_path):
    """``TurnFast.follow`` hands the first event it finds illegal back to the
    engine, which says why (``Match.accept``), the events before it folded."""
    header, events = _played(registry, "glux", 2, "stop")
    text = registry.codec.log(header, events)
    # The same decision twice: the second comes when a draw is due.
    at = next(i for i, event in enumerate(events) if type(event).__name__ == "Place")
    lines = [*text[: at + 2], text[at + 1].replace(f'"seq":{at + 1}', f'"seq":{at + 2}')]
    log = tmp_path / "stop.jsonl"
    log.write_text("\n".join(lines) + "\n")
    from tabletop import TabletopError

    with pytest.raises(TabletopError) as raised:
        Replay(registry, log).run()
    assert str(raised.value).startswith(f"{log}:{at + 3}: event {at + 2} (")
    assert "no decision is open now" in str(raised.value)


def test_a_fast_path_of_a_games_own_is_folded_an_event_at_a_time(registry, monkeypatch):
    """A fast path that is no ``TurnFast`` (a plain ``tabletop.Fast``) is
    folded through ``Match.accept``, which asks its own answers."""
    header, events = _played(registry, "glux", 2, "own")
    made = registry.game(header)
    turn_fast = made.fast()

    class Own:  # the general fast path: its answers only
        def __init__(self):
            self.applied = 0

        def thaw(self, state):
            return turn_fast.thaw(state)

        def freeze(self, live):
            return turn_fast.freeze(live)

        def next(self, live):
            return turn_fast.next(live)

        def check(self, live, decision):
            return turn_fast.check(live, decision)

        def legal(self, live, player):
            return turn_fast.legal(live, player)

        def apply(self, live, event):
            self.applied += 1
            turn_fast.apply(live, event)

    own = Own()
    match = Match(registry, header, made)
    monkeypatch.setattr(made, "fast", lambda: own)
    assert match.hurry()
    match.follow(enumerate(events, start=1))
    assert own.applied == len(events) and match.over
    plain = Match(registry, header)
    for seq, event in enumerate(events, start=1):
        plain.accept(event, seq)
    assert match.state == plain.state


def _to_nowhere(game, work):
    return "nowhere"


def test_a_step_leading_to_no_step_of_the_turn_is_one_line_naming_where_it_says_so():
    """A step's ``follows`` (a house rule's, say) naming a step the table
    does not hold: one line naming both steps, the steps there are, and the
    file and line of the ``follows`` that named it."""
    import types

    from tabletop import Over, PluginError
    from tabletop.model.steps import TurnStep

    table = {
        "deal": TurnStep("deal", lambda game, state: Over(), follows=_to_nowhere),
        "play": TurnStep("play", lambda game, state: Over()),
    }
    work = types.SimpleNamespace(phase="deal")
    with pytest.raises(PluginError) as raised:
        Turn(table).settle(None, work)
    assert raised.value.message == "turn step 'deal' leads to 'nowhere', which is no step of the turn ('deal', 'play')"
    assert raised.value.where == f"{__file__}:{_to_nowhere.__code__.co_firstlineno}"
