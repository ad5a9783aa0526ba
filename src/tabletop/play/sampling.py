"""Uniform draws for the random bot, the same in every Python release.

:func:`below` is ``random.Random.randrange(n)`` as CPython draws it
(numbers of ``n.bit_length()`` bits from the generator until one is below
``n``), written out: only the generator's bits are promised to repeat, so
a seed repeats its self-played games whatever a release does to
``randrange``, and a turn is spared its checks.

:func:`drawn` is a uniform draw from a listing that need not be built: the
listing offers *slots*, some holding a legal decision and the others none
(a placement a house rule refuses, a move past a wall), each legal decision
in exactly one slot. A slot is drawn uniformly until one holds a decision,
so each decision is as likely as any other; after ``tries`` empty slots
the listing is built and one of its decisions drawn (as uniform: which
decision is drawn does not depend on which slots were empty). A listing
offering ``sample(rng)`` made so is drawn from by the core's random bot
(``tabletop.play.live.random_choice``).

:func:`sampled_by` declares of a step's ``legal`` the draw the core's random
bot makes from its listing, made without the listing: self-play on the fast
path (``Match.race``) then asks the step for the decision of a bot that
declares, with :func:`draws_uniformly`, that it draws as the random bot
does, instead of building a listing for the bot to draw from.

:func:`slotted` declares of a step's ``legal`` a space of *slots* that
covers its decisions without listing them: the core draws a slot, asks
the step's own check of the decision it holds, and draws again on a
refusal (:func:`slot_sampler`), so a rule that changes what is legal
(a house rule on the check) keeps the draw exact. Self-play, rollouts and
searches on the fast path draw the random bot's decision so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..base.declared import declare, declared

T = TypeVar("T")
L = TypeVar("L", bound=Callable[..., Any])


class NoDecision(ValueError):
    """A draw from a listing that holds no decision."""


#: Empty slots drawn in a row before a listing is built instead.
TRIES = 64


def below(rng: Any, n: int) -> int:
    """A number from 0 to ``n - 1``, each as likely, as ``rng.randrange(n)``
    draws it (``rng`` a ``random.Random``; ``n`` at least 1)."""
    bits = rng.getrandbits
    k = n.bit_length()
    index = bits(k)
    while index >= n:
        index = bits(k)
    return index


def drawn(
    rng: Any,
    total: int,
    slot: Callable[[int], T | None],
    listing: Sequence[T] | Callable[[], Sequence[T]],
    tries: int = TRIES,
) -> T:
    """One of ``listing``'s items, each as likely as any other: ``slot(i)``
    for ``i`` drawn below ``total`` until one is not None (each item is in
    exactly one slot), at most ``tries`` times; then an item of
    ``listing`` (or of ``listing()``, built only then). :class:`NoDecision`
    (a ValueError) when there is none."""
    if total:
        bits = rng.getrandbits
        size = total.bit_length()
        for _ in range(tries):
            index = bits(size)
            while index >= total:
                index = bits(size)
            found = slot(index)
            if found is not None:
                return found
    if callable(listing):
        listing = listing()
    n = len(listing)
    if not n:
        raise NoDecision("no legal decision to choose from")
    return listing[below(rng, n)]


def sampled_by(sampler: Callable[[Any, Any, str, Any], Any]) -> Callable[[L], L]:
    """Declare of a step's ``legal(game, state, player)``:
    ``sampler(game, state, player, rng)`` is the decision the core's random
    bot (``tabletop.play.live.random_choice``) draws with ``rng`` from that
    listing, the same numbers drawn, or None when the listing is empty.
    A test holds the two to each other (``tests/glux/test_fast.py`` for
    Glüx's placements).

    As with ``tabletop.model.steps.decided_by``, the declaration holds for the
    function it decorates alone: a wrapper around it, or a step whose
    ``legal`` is another (a decision added with ``TurnStep.adding``),
    declares nothing, and the random bot draws from the listing."""

    def declaring(legal: L) -> L:
        return declare(legal, "tabletop_sampled_by", sampler)

    return declaring


#: ``slots(game, state, player)``: how many slots, and the decision a slot holds.
Slots = Callable[[Any, Any, str], "tuple[int, Callable[[int], Any]]"]


def slotted(slots: Slots) -> Callable[[L], L]:
    """Declare of a step's ``legal(game, state, player)`` a space of slots
    that covers its listing: ``slots(game, state, player)`` gives ``(total,
    slot)``, and ``slot(i)`` for ``i`` below ``total`` is a decision of
    ``player`` or None. Every decision of the listing is in exactly one
    slot, and a slot whose decision the step's check allows holds one of
    the listing's (a slot may hold a decision the check refuses: a bid too
    low, a move past a wall, a placement a house rule forbids).

    The core's random bot then draws without the listing
    (:func:`slot_sampler`): a slot uniformly, its decision when the step's
    check allows it, else another slot; after :data:`TRIES` refusals in a
    row, a decision of the listing. Each decision of the listing is as
    likely as any other. As with :func:`sampled_by`, the declaration holds
    for the function it decorates alone: a wrapper, or a step whose
    ``legal`` is another (a decision a house rule adds), declares nothing,
    and the bot draws from the listing."""

    def declaring(legal: L) -> L:
        return declare(legal, "tabletop_slotted", slots)

    return declaring


def declared_slots(legal: Any) -> Slots | None:
    """What ``legal`` declares with :func:`slotted`, or None."""
    return declared(legal, "tabletop_slotted")  # type: ignore[no-any-return]


def slot_sampler(
    slots: Slots,
    check: Callable[[Any, Any, Any], str | None],
    legal: Callable[[Any, Any, str], Sequence[T]],
    tries: int = TRIES,
) -> Callable[[Any, Any, str, Any], T | None]:
    """The random bot's draw in a step that declares ``slots``
    (:func:`slotted`), as :func:`sampled_by` takes it: a slot drawn
    uniformly until ``check(game, state, decision)`` allows the decision it
    holds, at most ``tries`` times; then a decision of ``legal``'s listing
    (built only then); None when there is none."""

    def sample(game: Any, state: Any, player: str, rng: Any) -> T | None:
        total, slot = slots(game, state, player)

        def allowed(index: int) -> T | None:
            found = slot(index)
            return found if found is not None and check(game, state, found) is None else None

        try:
            return drawn(rng, total, allowed, lambda: legal(game, state, player), tries)
        except NoDecision:
            return None

    return sample


def draws_uniformly(choose: L) -> L:
    """Declare of a bot's ``choose`` that it draws from a listing as the
    core's random bot does (a listing's ``sample(rng)``, else the item
    :func:`below` picks): a step's draw declared with :func:`sampled_by` may
    then stand in for it."""
    choose.tabletop_draws_uniformly = True  # type: ignore[attr-defined]
    return choose


def uniform(choose: Any) -> bool:
    """Whether ``choose`` is declared with :func:`draws_uniformly`."""
    return getattr(choose, "tabletop_draws_uniformly", False) is True


def declared_sampler(legal: Any) -> Callable[[Any, Any, str, Any], Any] | None:
    """What ``legal`` declares with :func:`sampled_by`, or None (see
    :func:`declared_slots` for a space of slots)."""
    return declared(legal, "tabletop_sampled_by")  # type: ignore[no-any-return]
