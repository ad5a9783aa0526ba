"""How the one move generator reads a per-move rule: by asking it, or by a
table form the rule itself declares.

An official predicate asked on every event (is the game over, who plays
next, does a chip count over this square) declares with :func:`reads` the
part of the state its answer is: "the squares holding no chip", "the
player's own top chips" (``tabletop.host.rules.fast_form``, in Glüx's words).
While that official rule alone is in force, ``game.rules.form(name)`` names
its form, and the generator (``placement.Placement``, ``turn.Turns``), which
both the plain fold and the fast path use, reads that part directly, kept as
a table (the squares holding a chip as one integer's bits, each seat's top
chips). A variant's implementation, or a wrapper around the official one,
makes the form None, so the rule is asked, on both paths alike, and the game
stays on its fast path.

``tests/glux/test_forms.py`` holds every declared form to its predicate over
whole games, with and without the shipped house rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from tabletop.host.rules import declared_form, fast_form

F = TypeVar("F", bound=Callable[..., Any])

#: The forms the generator knows, and what each says the predicate answers.
FORMS = {
    "always": "yes, whatever the state (nothing to ask)",
    "own top chip": "whether the square's top chip is the seat's own",
    "top face": "the face showing on the square's top chip",
    "empty square": "whether the square holds no chip",
    "holding, not excluded": "whether the seat holds a chip and is not excluded",
    "bag not empty": "whether the seat's bag holds a chip",
    "unused, one chip on the start square": "whether the option is unused and the start square holds one chip",
    "nobody's turn": "whether setup is over and nobody is to play",
}


def reads(form: str) -> Callable[[F], F]:
    """Declare that a predicate's answer is ``form`` of the state (one of ``FORMS``)."""
    if form not in FORMS:
        raise ValueError(f"no table form {form!r}")
    return fast_form(form)


def form_of(rule: Any) -> str | None:
    """The form an official rule's function declares, or None."""
    return declared_form(rule)
