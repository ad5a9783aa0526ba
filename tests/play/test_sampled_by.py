"""A step's listing may declare the random bot's draw from it
(``tabletop.play.sampling.sampled_by``); the declaration holds for the function
it decorates alone, and the fast path keeps it by the step's name."""

from __future__ import annotations

import functools

import attrs

from tabletop import Turn, TurnStep
from tabletop.play.sampling import declared_sampler, sampled_by
from tabletop.play.turn import TurnFast


def _draw(game, state, player, rng):
    return None


@sampled_by(_draw)
def _listing(game, state, player):
    return []


def test_a_declared_listing_gives_its_draw_and_a_wrapper_of_it_none():
    assert declared_sampler(_listing) is _draw

    @functools.wraps(_listing)
    def wrapped(game, state, player):
        return _listing(game, state, player)

    assert getattr(wrapped, "tabletop_sampled_by", None) is not None  # copied by wraps, yet not its own
    assert declared_sampler(wrapped) is None
    assert declared_sampler(lambda game, state, player: []) is None


@attrs.define
class _Twin:
    phase: str = "pick"

    @staticmethod
    def thaw(state):
        return state

    @staticmethod
    def freeze(work):
        return work


def test_the_fast_path_keeps_the_draw_of_each_step_whose_listing_declares_one():
    node = lambda game, state: None  # noqa: E731 - never asked here
    declared = TurnStep("pick", node, legal=_listing)
    added = declared.adding(str, lambda game, state, player: [], lambda g, s, e: None, lambda g, w, e: None)
    plain = TurnStep("wait", node)
    assert TurnFast(None, Turn({"pick": declared, "wait": plain}, work=_Twin)).samplers == {"pick": _draw}
    # A decision added to the step makes its listing another: no draw kept.
    assert TurnFast(None, Turn({"pick": added, "wait": plain}, work=_Twin)).samplers == {}
    # A turn whose listing asks the node first is drawn from its listing.
    assert TurnFast(None, Turn({"pick": declared}, work=_Twin, guarded=True)).samplers == {}
