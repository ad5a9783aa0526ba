"""The core's turn (``tabletop.play.turn``): every path asks the same step, and
the engine's fast loops call a fast path's own ``apply`` whenever it does
more at each event than the turn."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tabletop import Turn, TurnFast
from tabletop.play.engine import Match, Replay
from tabletop.play.live import selfplay


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


def test_the_turns_own_apply_is_written_out_and_folds_the_same(registry):
    """Glüx's fast path adds nothing at each event: the fast fold writes the
    turn's apply out, and ends where the plain fold does."""
    header, events = _played(registry, "glux", 4, "same")
    made = registry.game(header)
    fast = made.fast()
    assert fast.apply is fast.stepping
    quick = Match(registry, header)
    assert quick.hurry()
    quick.follow(enumerate(events, start=1))
    plain = Match(registry, header)
    for seq, event in enumerate(events, start=1):
        plain.accept(event, seq)
    assert quick.state == plain.state and quick.over


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
