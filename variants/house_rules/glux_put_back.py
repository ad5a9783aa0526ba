"""glux-put-back: once per game, at the start of a turn, a player may put
back chips in hand, choosing which kinds (a subset, written ``putback 2/5``
or ``putback 1/6,3/4``), draw as many, and then place as usual. With a hand
of one chip the only subset is that chip: put it back, or place at once.

A decision added to the placement step (``glux_turn_steps``,
``TurnStep.adding``) in the core's subset shape (``tabletop.Subset``); its
effect leads into the ``refill`` step, which draws the hand full again. It
stays on the fast path (it needs no hook of the plain path only).

Load it with ``tabletop --plugins variants/house_rules/glux_put_back.py``
and enable it with ``--variant glux-put-back`` (with ``glux-two-chips``, a
hand of two).
"""

from typing import ClassVar

import attrs

from tabletop import Subset, Variant, hookimpl, rulehook
from tabletop_glux import recall, remember

NAME = "glux-put-back"


@attrs.frozen
class PutBack(Subset):
    kind: ClassVar[str] = "putback"


def items(game, state, player):  # each kind in hand, once; none but at the start of an unused turn
    seat = game.seats[player]
    used = state.turn != seat or seat in recall(state, NAME, ())
    return () if used else game.chips.in_hand(state.hand(seat))


def options(game, state, player):
    return PutBack.options(player, items(game, state, player), least=1)


def error(game, state, decision):
    return PutBack.error(decision, items(game, state, decision.player), least=1)


def put_back(game, work, event):
    seat = game.seats[event.player]
    for kind in [kind for kind in work.hand(seat) if kind in event.items]:
        work.put_back(seat, kind, game.chips)
    # Put back once; then the refill step draws the hand full again before the placement.
    work.memo, work.step = remember(work.memo, NAME, (*recall(work, NAME, ()), seat)), "refill"


class PutBackOnce:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        table = dict((yield))
        table["place"] = table["place"].adding(PutBack, options, error, put_back)
        return table


@hookimpl
def register_variants():
    return [Variant(NAME, "glux", "once per game: put back some chips, draw as many", PutBackOnce(), (PutBack,))]
