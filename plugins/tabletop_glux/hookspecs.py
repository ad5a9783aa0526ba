"""Glüx's rule hooks: every rule of the rulebook a group might change.

Grouped by the part of the rulebook they belong to, and by family, named at
the start of each docstring:

- *Header-time*: asked once when a game is made from its header (no
  ``state``); the answers are kept as tables.
- *Per-move*: asked during play, only where the answer can matter; an
  official one may declare a table form (``forms.py``) that the generator
  reads instead of asking it; a variant's or a wrapped one is asked.
- *Per-game (final scoring)*: asked once, on the final state.
- *A variant's decisions* and *memory*: for the events a variant adds.

The official rules implement every hook, each beside its rule (``setup.py``, ``turn.py``,
``placement.py``, ``start_option.py``, ``exclusion.py``, ``end.py``,
``scoring.py``, ``memo.py``, ``decisions.py``); ``official.py`` gathers them.
A variant implements a hook to change that rule: its answer is tried first,
and returning None leaves the question to the rules after it (in the end the
official one). ``@rulehook(wrapper=True)`` adjusts the answer of the rules in
force instead (``answer = yield``).

Arguments, all passed by keyword; an implementation takes only those it needs:

- ``game``: the :class:`~tabletop_glux.Glux` being played: ``game.board``
  (squares, rooms, names), ``game.players``, ``game.seats``,
  ``game.start_squares``, ``game.start_owner`` and ``game.rules``.
- ``state``: the :class:`~tabletop_glux.State` asked about. Read it, never
  change it. During a fast replay it is a mutable copy with the same fields.
- ``seat``: a player's seat number (0 is the first player in the header);
  ``square``: a square's index on ``game.board`` (``game.board.name_of``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop import Event, Memo, rulespec

# -- setup ---------------------------------------------------------------


@rulespec(firstresult=True)
def glux_bag(players: int) -> Mapping[str, int] | None:
    """Header-time. The chips in each player's bag at setup, by kind (``"1/6"``, ``"2/5"``, ``"3/4"``)."""


@rulespec(firstresult=True)
def glux_start_squares(board: Any, players: int) -> Sequence[str] | None:
    """Header-time. The start squares (names such as ``"a1"``) in seat order, one per player."""


@rulespec(firstresult=True)
def glux_who_may_start(players: tuple[str, ...]) -> tuple[str, ...] | None:
    """Header-time. The players the start player is drawn from (each equally likely)."""


# -- a turn: place, then draw ----------------------------------------------


@rulespec(firstresult=True)
def glux_turn_order(game: Any, seat: int) -> tuple[int, ...] | None:
    """Header-time. The seats, in order, that may take the turn after ``seat``
    (the first of them still placing plays); ``seat`` itself may come last.
    Asked once per seat when the game is made. None: the next rule decides
    (officially clockwise, ``seat`` last). Example, counter-clockwise::

        @rulehook
        def glux_turn_order(self, game, seat):
            n = len(game.players)
            return tuple((seat - step) % n for step in range(1, n + 1))
    """


@rulespec(firstresult=True)
def glux_draw_after_placing(game: Any, state: Any, seat: int) -> bool | None:
    """Per-move. Whether ``seat``, having just placed, draws a chip now (2nd phase)."""


# -- placement: rules 1 to 6 -------------------------------------------------


@rulespec(firstresult=True)
def glux_counts_from(game: Any, state: Any, seat: int, square: int) -> bool | None:
    """Per-move. Rule 1: whether ``seat`` may count from the chips on ``square``."""


@rulespec(firstresult=True)
def glux_directions() -> tuple[tuple[int, int], ...] | None:
    """Header-time. Rule 2: the directions (column step, row step) in which a placement is counted."""


@rulespec(firstresult=True)
def glux_distance(game: Any, state: Any, square: int) -> int | None:
    """Per-move. Rule 2: how many squares the chips on ``square`` count (0: none)."""


@rulespec(firstresult=True)
def glux_may_pass(game: Any, state: Any, seat: int, square: int) -> bool | None:
    """Per-move. Rule 3: whether a count by ``seat`` may pass over ``square`` on its way."""


@rulespec(firstresult=True)
def glux_may_cover(game: Any, state: Any, seat: int, square: int, face: int, chip: str) -> bool | None:
    """Per-move. Rule 4: whether ``seat`` may place its ``chip`` (the kind in
    hand, ``"2/5"``) showing ``face`` on top of the chips on ``square``.
    Asked only where it can matter: ``square`` holds chips, has room for one
    more (rule 5), may be landed on (rule 6) and is counted to (or is the
    start square, for the start-square option), once for each face. None: the
    next rule decides (officially yes). Example, cover only a chip showing
    fewer pips::

        @rulehook
        def glux_may_cover(self, state, square, face):
            return state.stacks[square][-1][1] < face
    """


@rulespec(firstresult=True)
def glux_stack_height(players: int) -> int | None:
    """Header-time. Rule 5: how many chips a square may hold."""


@rulespec(firstresult=True)
def glux_may_land(game: Any, seat: int, square: int) -> bool | None:
    """Header-time. Rule 6: whether ``seat`` may place on ``square`` at all
    (by counting or by the start-square option). Asked once per seat and
    square when the game is made, so it may read only the game
    (``game.board``, ``game.start_owner``, ``game.players``). None: the next
    rule decides (officially: not on another player's start square). Example,
    never in the middle room::

        @rulehook
        def glux_may_land(self, game, square):
            return False if game.board.rooms[square] == game.board.middle else None
    """


# -- the start-square option, exclusion and the end ---------------------------


@rulespec(firstresult=True)
def glux_start_option(game: Any, state: Any, seat: int) -> bool | None:
    """Per-move. Rule 7: whether ``seat`` may place on its start square without counting now."""


@rulespec(firstresult=True)
def glux_stuck(game: Any, state: Any, seat: int) -> Event | None:
    """Per-move. "Important": the event the rules force when ``seat`` must place and
    cannot (by counting or by the start-square option)."""


@rulespec(firstresult=True)
def glux_still_placing(game: Any, state: Any, seat: int) -> bool | None:
    """Per-move. Whether ``seat`` still takes turns (holds a chip, is not excluded)."""


@rulespec(firstresult=True)
def glux_game_over(game: Any, state: Any) -> bool | None:
    """Per-move. Whether the game has ended (and final scoring is due)."""


# -- scoring -----------------------------------------------------------------


@rulespec(firstresult=True)
def glux_room_pips(game: Any, state: Any, room: str) -> Mapping[str, int] | None:
    """Per-game (final scoring). The pips that count in ``room``, by player (only players with pips there)."""


@rulespec(firstresult=True)
def glux_score_room(
    game: Any, state: Any, room: str, pips: Mapping[str, int], players: int
) -> Mapping[str, int] | None:
    """Per-game (final scoring). Victory points won in ``room`` (its letter),
    by player. ``pips`` holds every player with more than 0 pips there;
    ``players`` is the number of players; ``game.board.middle`` names the
    middle room and ``game.room_squares[room]`` its squares; ``state`` is the
    final state. None: the next rule decides (officially 4 VP first, 2 VP
    second, no second place with two players: ``rank_room``). Example, the
    middle room scores double::

        @rulehook(wrapper=True)
        def glux_score_room(self, game, room):
            points = yield
            if room != game.board.middle:
                return points
            return {player: 2 * vp for player, vp in points.items()}
    """


@rulespec(firstresult=True)
def glux_winners(points: Mapping[str, int], middle: Mapping[str, int]) -> tuple[str, ...] | None:
    """Per-game (final scoring). Victory: the players leading on victory points (several when tied; a
    tie is then put to ``glux_tiebreak``)."""


@rulespec(firstresult=True)
def glux_tiebreak(
    tied: tuple[str, ...], points: Mapping[str, int], middle: Mapping[str, int]
) -> tuple[str, ...] | None:
    """Per-game (final scoring). Who of the ``tied`` leaders wins (several: a shared victory).
    ``middle`` holds each player's pips in the middle room."""


# -- what variants remember and the decisions they add -------------------------


@rulespec(firstresult=True)
def glux_memo(game: Any, state: Any, event: Event, memo: Memo) -> Memo | None:
    """A variant's memory. The variants' memory after ``event``: ``state`` is the state before it,
    ``memo`` the memory as the event left it (a :class:`tabletop.Memo`).
    Implement it as a wrapper (``memo = yield``) and change only your own
    entry (``remember(memo, name, value)``, or ``remember(memo, name,
    value, player=...)`` for what only that player may know), so that
    several variants combine."""


@rulespec(firstresult=True)
def glux_check(game: Any, state: Any, decision: Event) -> str | None:
    """A variant's decisions. Why a decision of a kind a variant adds is illegal now; ``""`` when it
    is legal; None when it is not this variant's kind."""


@rulespec(firstresult=True)
def glux_apply(game: Any, state: Any, event: Event) -> Any | None:
    """A variant's decisions. The state after an event of a kind a variant adds (a new state; never
    change ``state``); None when it is not this variant's kind."""


@rulespec(firstresult=True)
def glux_decisions(game: Any, state: Any, seat: int) -> tuple[Event, ...] | None:
    """A variant's decisions. Decisions a variant adds to what ``seat`` may do now (listed after the
    placements). Implement it as a wrapper: ``found = yield``, then add yours."""


@rulespec(firstresult=True)
def glux_notate(game: Any, decision: Event) -> str | None:
    """A variant's decisions. A decision of a kind a variant adds, as its player writes it."""


@rulespec(firstresult=True)
def glux_parse(game: Any, text: str, player: str, state: Any) -> Event | None:
    """A variant's decisions. The decision ``text`` means, when it is written in a variant's notation; else None."""
