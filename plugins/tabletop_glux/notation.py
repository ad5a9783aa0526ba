"""Glüx notation: ``FACE@SQUARE``, e.g. ``6@f7``; ``6@start`` uses the
once-per-game start-square option. In setup, ``6@a1`` (or ``6@start``, or
just ``6``) chooses the face of the start chip on one's start square.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tabletop import DECISION, Event, NotationError

from .events import Draw, Exclude, FirstPlayer, Place, Start

if TYPE_CHECKING:
    from .game import Glux
    from .state import State

_MOVE = re.compile(r"^\s*([1-6])\s*(?:@\s*([a-z][0-9]{1,2}|start))?\s*$", re.IGNORECASE)


def notate(game: Glux, decision: Event) -> str:
    """A decision as a player writes it (without the player's name)."""
    if isinstance(decision, Start):
        return f"{decision.face}@{game.board.name_of(game.start_squares[game.seats[decision.player]])}"
    if isinstance(decision, Place):
        return f"{decision.face}@{'start' if decision.start else decision.square}"
    text = game.rules.glux_notate(game=game, decision=decision)
    if text is not None:
        return text
    if decision.__class__ in game.turn.shapes:  # a core decision shape writes itself
        return decision.notation()  # type: ignore[attr-defined]
    raise TypeError(f"not a Glüx decision: {decision!r}")


def outcome(game: Glux, event: Event) -> str | None:
    """A chance outcome as a table records it: ``draw 2/5``, ``first ann``."""
    if isinstance(event, Draw):
        return f"draw {event.chip}"
    if isinstance(event, FirstPlayer):
        return f"first {event.starter}"
    return None


def sentence(game: Glux, event: Event, visible: bool) -> str:
    """Any event as a short line, e.g. ``alice 6@f7`` or ``bob draws a chip``."""
    if isinstance(event, Draw):
        return f"{event.player} draws {event.chip if visible else 'a chip'}"
    if isinstance(event, FirstPlayer):
        return f"{event.starter} is the start player"
    if isinstance(event, Exclude):
        return f"{event.player} is excluded (no placement left)"
    if isinstance(event, (Start, Place)):
        return f"{event.player} {notate(game, event)}"
    if event.origin == DECISION:
        if not visible:  # a decision its player keeps secret (a variant's shape declared ``secret``)
            from tabletop.model.shapes import redacted

            return f"{event.player} {redacted(event)}"  # type: ignore[attr-defined]
        # A decision a variant adds reads as its player writes it.
        text = game.rules.glux_notate(game=game, decision=event)
        if text is None and event.__class__ in game.turn.shapes:
            text = event.notation()  # type: ignore[attr-defined]
        if text is not None:
            return f"{event.player} {text}"  # type: ignore[attr-defined]
    from tabletop.model.shapes import Deal, Lot, redacted  # only a variant's event comes this far

    if isinstance(event, Deal):  # a variant's secret deal: its player's alone
        return f"{event.player} {event.notation() if visible else redacted(event)}"
    if isinstance(event, Lot):  # a variant's public draw: everyone's (``lucky c``)
        return event.notation()
    return f"{event.kind}"


def parse(game: Glux, text: str, player: str, state: State) -> Event:
    decision = game.rules.glux_parse(game=game, text=text, player=player, state=state)
    if decision is not None:
        return decision
    for shape in game.turn.shapes:  # a variant's decision of a core shape, taken by a step
        decision = shape.parse(text, player)
        if decision is not None:
            return decision
    m = _MOVE.match(text)
    if not m:
        raise NotationError(f"cannot read {text!r}: write FACE@SQUARE like 6@f7, or 6@start")
    face = int(m.group(1))
    where = (m.group(2) or "").lower()
    seat = game.seats[player]
    start = game.board.name_of(game.start_squares[seat])
    if not state.began:
        if where not in ("", "start", start):
            raise NotationError(f"in setup the start chip goes on {start}: write {face}@{start}")
        return Start(player, face)
    if not where:
        raise NotationError(f"cannot read {text!r}: say where, like {face}@f7 or {face}@start")
    if where == "start":
        return Place(player, start, face, start=True)
    return Place(player, where, face)
