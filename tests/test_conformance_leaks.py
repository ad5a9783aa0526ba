"""The conformance kit finds a card leaked, however it leaks: Leduc poker
(tests/plugins/leduc.py), written from the guide, passes it; three copies
of it (tests/plugins/leduc_leaks.py) that each leak a card fail it, each
with a message naming the check, the seat and where.

Two of the leaks agree with the seat's own view, so twin states made from
that view (``tabletop.testing.twins``) cannot find them; twin histories
(``tabletop.testing.histories``), each played on a game object of its own
and parting where the seat may not see, do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tabletop.api
from tabletop import testing
from tabletop.sight import seen

PLUGINS = Path(__file__).parent / "plugins"
PLAYERS = ("ann", "ben")
#: Each leaky copy: the check that finds it, and what it gives a seat.
LEAKS = {
    "leduc-line": ("a hidden event shows", r"events (ann|ben) may not see read differently"),
    "leduc-memory": ("a secret shows later", r"give ann different text: line \d+ 'last card dealt: [JQK]'"),
    "leduc-peek": ("a secret shows later", r"give (ann|ben) different view: State\.cards"),
}


def registry():
    return tabletop.api.registry([PLUGINS / "leduc.py", PLUGINS / "leduc_leaks.py"])


def test_the_honest_game_conforms():
    assert testing.conform(registry(), "leduc", PLAYERS, games=40) > 100


@pytest.mark.parametrize("game", sorted(LEAKS))
def test_each_leak_fails_the_kit_naming_the_check_the_seat_and_where(game):
    check, said = LEAKS[game]
    with pytest.raises(testing.Nonconformance) as caught:
        testing.conform(registry(), game, PLAYERS, games=40)
    message = str(caught.value)
    assert message.startswith(f"{check}: {game} (official rules), seed 'conform-"), message
    assert re.search(r"seed 'conform-\d+', event \d+: ", message), message
    assert re.search(said, message), message
    assert "\n" not in message


@pytest.mark.parametrize("game", ["leduc-memory", "leduc-peek"])
def test_twin_states_made_from_the_view_miss_what_the_view_agrees_with(game):
    """Why the kit plays twin histories: these two leaks pass every check
    made on one game object and on twins filled in from the seat's view."""
    assert testing.conform(registry(), game, PLAYERS, games=40, pairs=0) > 100


@pytest.mark.parametrize("game", sorted(LEAKS))
def test_twin_histories_alone_find_every_leak(game):
    """The line that names the card shows in the information state (the
    log as the seat reads it, as the OpenSpiel adapter gives it)."""
    found = []
    for number in range(40):
        header, choices = testing.random_history(registry(), game, PLAYERS, seed=f"alone-{number}")
        try:
            testing.histories(registry(), header, choices, pairs=2, where=f"game {number}")
        except testing.Nonconformance as exc:
            found.append(str(exc))
    assert found and all(m.startswith("a secret shows later: game ") for m in found), found
    if game == "leduc-line":
        assert any("different information state" in m for m in found), found


def test_a_memory_leak_is_shown_with_the_pair_that_finds_it():
    """A minimal reproduction, as a report would give one: ben's card dealt
    J or Q, which ann may not see, and ann's board says which."""
    header, choices = testing.random_history(registry(), "leduc-memory", PLAYERS, seed="conform-0")
    at = next(i for i, c in enumerate(choices) if getattr(c.event, "player", None) == "ben")
    other = next(o for o in choices[at].others if o != choices[at].event)
    with pytest.raises(testing.Nonconformance, match=r"give ann different text: line \d+ 'last card dealt"):
        testing.histories_alike(registry(), header, choices, testing.Branch(at, other, "ann"), where="leduc-memory")


def test_the_honest_game_shows_twin_histories_alike_until_the_cards_are_shown():
    """Honest Leduc: twins parting at ben's card look the same to ann at
    every decision to the end of the game (the showdown shows the cards)."""
    compared = 0
    for number in range(20):
        header, choices = testing.random_history(registry(), "leduc", PLAYERS, seed=f"honest-{number}")
        at = next(i for i, c in enumerate(choices) if getattr(c.event, "player", None) == "ben")
        for other in choices[at].others:
            if other != choices[at].event:
                branch = testing.Branch(at, other, "ann")
                compared += testing.histories_alike(registry(), header, choices, branch, steps=40)
    assert compared > 40


def test_twins_part_only_where_the_seat_may_not_see():
    header, choices = testing.random_history(registry(), "leduc", PLAYERS, seed="branches")
    game = registry().game(header)
    for seat in PLAYERS:
        for at, others in testing.branches(game, choices, seat):
            assert not seen.sees(game, choices[at].event, seat)
            assert all(not seen.sees(game, o, seat) and o != choices[at].event for o in others)
            assert choices[at].event.player != seat
