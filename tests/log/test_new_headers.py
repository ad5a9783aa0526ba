"""Headers for new games: checked in every part each time they are asked
for, though a run's thousands come from a few checked once."""

from __future__ import annotations

import pytest

from tabletop import TabletopError
from tabletop.log.header import Header
from tabletop.play.live import make_header


def test_a_header_made_again_is_the_header_made_afresh(registry):
    first, seed, game = make_header(registry, "glux", ["ann", "ben"], (), {}, "one")
    again, _, same_game = make_header(registry, "glux", ["ann", "ben"], (), {}, "two")
    assert (first.randomness.seed, again.randomness.seed) == ("one", "two") and seed == "one"
    assert Header.from_json(again.to_json()) == again and same_game is game
    assert again.to_json() == {**first.to_json(), "randomness": {"seed": "two"}}
    again.options["board"] = "changed"  # one header's options are its own
    assert make_header(registry, "glux", ["ann", "ben"], (), {}, "three")[0].options == {}


def test_a_sealed_header_commits_to_its_own_seed(registry):
    sealed, seed, _ = make_header(registry, "glux", ["ann", "ben"], (), {}, "s1", sealed=True)
    other, _, _ = make_header(registry, "glux", ["ann", "ben"], (), {}, "s2", sealed=True)
    assert sealed.randomness.commitment != other.randomness.commitment and sealed.randomness.seed is None


@pytest.mark.parametrize(
    "players,options,seed",
    [(["ann"], {}, "x"), (["ann", "ann"], {}, "x"), (["ann", "ben"], {"nope": "1"}, "x"), (["ann", "ben"], {}, "")],
)
def test_a_bad_part_is_refused_every_time(registry, players, options, seed):
    make_header(registry, "glux", ["ann", "ben"], (), {}, "good")
    for _ in range(2):
        with pytest.raises(TabletopError):
            make_header(registry, "glux", players, (), options, seed)
