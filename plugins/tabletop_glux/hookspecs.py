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
  (squares, names; ``game.board.rooms``, a ``tuple[str, ...]``: each
  square's room letter by index, ``.`` off the rooms), ``game.players``,
  ``game.seats``, ``game.start_squares`` (a ``tuple[int, ...]``: each
  seat's start square, by index, in seat order), ``game.start_owner`` and
  ``game.rules``.
- ``state``: the :class:`~tabletop_glux.State` asked about. Read it, never
  change it. During a fast replay it is a mutable copy with the same fields.
- ``seat``: a player's seat number (0 is the first player in the header);
  ``square``: a square's index on ``game.board`` (``game.board.name_of``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabletop import Event, Memo, header_rule, move_rule

if TYPE_CHECKING:
    from tabletop import TurnStep

    from .state import State

# -- setup ---------------------------------------------------------------


@header_rule
def glux_chips(players: int) -> Mapping[str, tuple[int, ...]] | None:
    """The kinds of chip, by name, each with the faces it may show (lowest
    first, each 1 to 6 pips), in the order bags count them. Officially
    ``{"1/6": (1, 6), "2/5": (2, 5), "3/4": (3, 4)}``. A kind's name is how
    logs and notation write it (``draw 2/5``): 1 to 16 characters, no space
    or comma. A chip placed shows one of its faces, chosen by its player,
    and counts and scores that face from then on; in a hand of several
    chips, a face is placed with the first kind (in this order) showing it.
    Asked once when the game is made, before ``glux_bag``, which is told the
    answer; ``game.chips`` holds the table made of both (``kinds``,
    ``faces``, ``index``, ``bag``). Example, a chip that shows any face::

        class Joker:
            @rulehook(wrapper=True)
            def glux_chips(self, players):
                return {**(yield), "joker": (1, 2, 3, 4, 5, 6)}
    """


@header_rule
def glux_bag(players: int, chips: Mapping[str, tuple[int, ...]]) -> Mapping[str, int] | None:
    """The chips in each player's bag at setup, by kind; ``chips`` holds the
    kinds in force (``glux_chips``), a kind left out is not in the bag.
    Officially 8 of each kind (``"1/6"``, ``"2/5"``, ``"3/4"``).

    Example::

        class SmallBags:
            @rulehook
            def glux_bag(self, players):
                return {"1/6": 4, "2/5": 4, "3/4": 4}
    """


@header_rule
def glux_start_squares(board: Any, players: int) -> Sequence[str] | None:
    """The start squares (names such as ``"a1"``) in seat order, one per player.

    Example::

        class MiddleStarts:
            @rulehook
            def glux_start_squares(self, board, players):
                return ["f5", "h5"] if players == 2 else None
    """


@header_rule
def glux_hand_size(players: int) -> int | None:
    """How many chips a player holds in hand (1 to 6): drawn at the end of
    setup, and drawn back to after each placement (the 2nd phase draws until
    the hand is full or the bag empty). A player places a face of any chip in
    hand (``state.hand(seat)``: every chip held). Asked once when the game is
    made. None: the next rule decides (officially one chip). Example::

        @rulehook
        def glux_hand_size(self, players):
            return 2
    """


@header_rule
def glux_who_may_start(players: tuple[str, ...]) -> tuple[str, ...] | None:
    """The players the start player is drawn from (each equally likely).

    Example::

        class FirstSeatStarts:
            @rulehook
            def glux_who_may_start(self, players):
                return players[:1]
    """


# -- a turn: place, then draw ----------------------------------------------


@header_rule
def glux_turn_steps(players: int) -> Mapping[str, TurnStep] | None:
    """The table of the steps of setup and of a turn, by name (``setup``,
    ``place``, ``draw``, ``over``): each ``tabletop.TurnStep`` says what node
    it offers, which events it accepts and what they do (on the mutable
    state), how it checks and lists a decision, and which step follows when
    it needs no event (docs/hooks.md, "A turn as a table of steps"). Asked
    once when the game is made; the plain fold, the listing, the checking and
    the fast path all read the table. The official steps are read from the
    state; a variant's own step is named in ``state.step``. A wrapper adds or
    changes a step with ``attrs.evolve``. Example, the draw of the 2nd phase
    announced in words::

        @rulehook(wrapper=True)
        def glux_turn_steps(self, players):
            table = dict((yield))
            draw = table["draw"]
            table["draw"] = attrs.evolve(draw, asks=lambda game, state, player: "wait for your draw")
            return table
    """


@header_rule
def glux_turn_order(game: Any, seat: int) -> tuple[int, ...] | None:
    """The seats, in order, that may take the turn after ``seat``
    (the first of them still placing plays); ``seat`` itself may come last.
    Asked once per seat when the game is made. None: the next rule decides
    (officially clockwise, ``seat`` last). Example, counter-clockwise::

        @rulehook
        def glux_turn_order(self, game, seat):
            n = len(game.players)
            return tuple((seat - step) % n for step in range(1, n + 1))
    """


@move_rule
def glux_draw_after_placing(game: Any, state: Any, seat: int) -> bool | None:
    """Whether ``seat``, having just placed, draws a chip now (2nd phase).

    Example::

        class NoSecondPhase:
            @rulehook
            def glux_draw_after_placing(self, seat):
                return False
    """


# -- placement: rules 1 to 6 -------------------------------------------------


@move_rule
def glux_counts_from(game: Any, state: Any, seat: int, square: int) -> bool | None:
    """Rule 1: whether ``seat`` may count from the chips on ``square``.

    Example::

        class CountFromAnyChip:
            @rulehook
            def glux_counts_from(self, state, square):
                return bool(state.stacks[square])
    """


@header_rule
def glux_directions() -> tuple[tuple[int, int], ...] | None:
    """Rule 2: the directions (column step, row step) in which a placement is counted.

    Example::

        class Diagonals:
            @rulehook(wrapper=True)
            def glux_directions(self):
                directions = yield
                return tuple(directions) + ((1, 1), (1, -1), (-1, -1), (-1, 1))
    """


@move_rule
def glux_distance(game: Any, state: Any, square: int) -> int | None:
    """Rule 2: how many squares the chips on ``square`` count (0: none).

    Example::

        class CountTheUnderside:
            @rulehook
            def glux_distance(self, state, square):
                return 7 - state.stacks[square][-1][1]
    """


@move_rule
def glux_may_pass(game: Any, state: Any, seat: int, square: int) -> bool | None:
    """Rule 3: whether a count by ``seat`` may pass over ``square`` on its way.

    Example::

        class OwnChipsLetPass:
            @rulehook
            def glux_may_pass(self, state, seat, square):
                stack = state.stacks[square]
                return not stack or stack[-1][0] == seat
    """


@move_rule
def glux_may_cover(game: Any, state: Any, seat: int, square: int, face: int, chip: str) -> bool | None:
    """Rule 4: whether ``seat`` may place its ``chip`` (the kind in
    hand, ``"2/5"``) showing ``face`` on top of the chips on ``square``.
    Asked only where it can matter: ``square`` holds chips, has room for one
    more (rule 5), may be landed on (rule 6) and is counted to (or is the
    start square, for the start-square option), once for each face; once
    for both faces when no implementation in force takes ``face`` (the
    official one takes neither ``face`` nor ``chip``). None: the next rule
    decides (officially yes). Example, cover only a chip showing fewer pips::

        @rulehook
        def glux_may_cover(self, state, square, face):
            return state.stacks[square][-1][1] < face
    """


@header_rule
def glux_stack_height(players: int) -> int | None:
    """Rule 5: how many chips a square may hold.

    Example::

        class HighStacks:
            @rulehook
            def glux_stack_height(self, players):
                return 3
    """


@header_rule
def glux_may_land(game: Any, seat: int, square: int) -> bool | None:
    """Rule 6: whether ``seat`` may place on ``square`` at all
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


@move_rule
def glux_start_option(game: Any, state: Any, seat: int) -> bool | None:
    """Rule 7: whether ``seat`` may place on its start square without counting now.

    Example::

        class OptionAlwaysOpen:
            @rulehook
            def glux_start_option(self, game, state, seat):
                return len(state.stacks[game.start_squares[seat]]) == 1
    """


@move_rule
def glux_stuck(game: Any, state: Any, seat: int) -> Event | None:
    """ "Important": the event the rules force when ``seat`` must place and
    cannot (by counting or by the start-square option).

    Example::

        class StuckPlayersPass:
            @rulehook
            def glux_stuck(self, game, seat):
                return Pass(game.players[seat])  # a RULES event of the variant's own
    """


@move_rule
def glux_still_placing(game: Any, state: Any, seat: int) -> bool | None:
    """Whether ``seat`` still takes turns (holds a chip, is not excluded).

    Example::

        class ThreeChipsEach:
            @rulehook
            def glux_still_placing(self, state, seat):
                return state.hands[seat] is not None and not state.excluded[seat] and len(state.tops[seat]) < 4
    """


@move_rule
def glux_game_over(game: Any, state: Any) -> bool | None:
    """Whether the game has ended (and final scoring is due).

    Example::

        class SuddenEnd:
            @rulehook
            def glux_game_over(self, state):
                return any(h is None and not state.bag_size(s) for s, h in enumerate(state.hands))
    """


# -- scoring -----------------------------------------------------------------


@move_rule
def glux_room_pips(game: Any, state: Any, room: str) -> Mapping[str, int] | None:
    """Per-game (final scoring). The pips that count in ``room``, by player (only players with pips there).

    Example::

        class CoveredChipsCount:
            @rulehook
            def glux_room_pips(self, game, state, room):
                pips = {}
                for square in game.room_squares[room]:
                    for seat, face in state.stacks[square]:
                        pips[game.players[seat]] = pips.get(game.players[seat], 0) + face
                return pips
    """


@move_rule
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


@move_rule
def glux_winners(game: Any, state: Any, points: Mapping[str, int], middle: Mapping[str, int]) -> tuple[str, ...] | None:
    """Per-game (final scoring). Victory: the players leading on victory
    points (several when tied; a tie is then put to ``glux_tiebreak``).
    ``points`` holds each player's victory points, ``middle`` each player's
    pips in the middle room (``game.board.middle``); ``state`` is the final
    state.

    Example::

        class FewestPointsWin:
            @rulehook
            def glux_winners(self, points):
                least = min(points.values())
                return tuple(p for p, vp in points.items() if vp == least)
    """


@move_rule
def glux_tiebreak(
    game: Any, state: Any, tied: tuple[str, ...], points: Mapping[str, int], middle: Mapping[str, int]
) -> tuple[str, ...] | None:
    """Per-game (final scoring). Who of the ``tied`` leaders wins (several: a shared victory).
    ``middle`` holds each player's pips in the middle room; ``game`` and the
    final ``state`` are there for any other tiebreak.

    Example, the fewer chips on top, the better::

        class FewestTopChips:
            @rulehook(wrapper=True)
            def glux_tiebreak(self, game, state, tied):
                tied = yield
                fewest = min(len(state.tops[game.seats[p]]) for p in tied)
                return tuple(p for p in tied if len(state.tops[game.seats[p]]) == fewest)
    """


@move_rule
def glux_final_scores(game: Any, state: Any, scores: Mapping[str, int]) -> Mapping[str, int] | None:
    """Per-game (final scoring). The final score as a whole: ``scores``
    holds each player's victory points, the rooms' points summed
    (``glux_score_room``), and the answer is every player's final score,
    which victory (``glux_winners``) and its tiebreak are then told as
    ``points``. ``state`` is the final state, its memo included: a rule
    that scores what a variant remembered answers here. Asked only while a
    variant implements it (the official rules keep ``scores`` as they are);
    the answer must give a score to every player of the game and to nobody
    else. None: the next rule decides. Below, a bonus of 3 VP to whoever
    has the most chips on top (``variants/house_rules/glux_final_bonus.py``).

    Example::

        class MostChipsBonus:
            @rulehook(wrapper=True)
            def glux_final_scores(self, game, state, scores):
                scores = dict((yield))
                chips = {p: len(state.tops[game.seats[p]]) for p in scores}
                most = max(chips.values())
                return {p: vp + 3 * (chips[p] == most) for p, vp in scores.items()}
    """


# -- what variants remember and the decisions they add -------------------------


@move_rule
def glux_memo(game: Any, state: Any, event: Event, memo: Memo) -> Memo | None:
    """A variant's memory. What the variants remember as ``event`` takes
    effect: asked before the effect, with ``state`` the state before it and
    ``memo`` its memory (``state.memo``, a :class:`tabletop.Memo`); the answer
    is the memory the event's effect starts from. It is asked on the state
    both paths change (the fast path's mutable one in self-play and whole
    replays, the same fields), so a variant keeping memory keeps the fast
    path. Implement it as a wrapper (``memo = yield``) and change only your
    own entry (``remember(memo, name, value)``, or ``remember(memo, name,
    value, player=...)`` for what only that player may know), so that
    several variants combine.

    Example::

        from tabletop_glux import recall, remember

        class CountCovers:
            @rulehook(wrapper=True)
            def glux_memo(self, game, state, event, memo):
                memo = yield
                if event.kind == "place" and state.stacks[game.board.indices[event.square]]:
                    memo = remember(memo, "count-covers", recall(state, "count-covers", 0) + 1)
                return memo
    """


@move_rule
def glux_check(game: Any, state: Any, decision: Event) -> str | None:
    """A variant's decisions. Why a decision of a kind a variant adds is illegal now; ``""`` when it
    is legal; None when it is not this variant's kind.

    Example::

            @rulehook
            def glux_check(self, state, decision):
                if isinstance(decision, RedrawChip):
                    return "once per game" if recall(state, "glux-redraw") else ""
    """


@move_rule
def glux_apply(game: Any, state: Any, event: Event) -> State | None:
    """A variant's decisions. The state after an event of a kind a variant adds (a new state; never
    change ``state``); None when it is not this variant's kind.

    Example::

            @rulehook
            def glux_apply(self, state, event):
                if isinstance(event, RedrawChip):
                    return attrs.evolve(state, drawing=True, memo=remember(state.memo, "glux-redraw", True))
    """


@move_rule
def glux_decisions(game: Any, state: Any, seat: int) -> tuple[Event, ...] | None:
    """A variant's decisions. Decisions a variant adds to what ``seat`` may do now (listed after the
    placements). Implement it as a wrapper: ``found = yield``, then add yours.

    Example::

        class Redraw:
            @rulehook(wrapper=True)
            def glux_decisions(self, game, state, seat):
                found = yield
                return (*found, RedrawChip(game.players[seat]))
    """


@move_rule
def glux_notate(game: Any, decision: Event) -> str | None:
    """A variant's decisions. A decision of a kind a variant adds, as its player writes it
    (a decision of a core shape, ``tabletop.model.shapes``, writes itself: no implementation is needed).

    Example::

            @rulehook
            def glux_notate(self, decision):
                if isinstance(decision, RedrawChip):
                    return "redraw"
    """


@move_rule
def glux_parse(game: Any, text: str, player: str, state: Any) -> Event | None:
    """A variant's decisions. The decision ``text`` means, when it is written in a variant's notation; else None.

    Example::

            @rulehook
            def glux_parse(self, text, player):
                if text.strip() == "redraw":
                    return RedrawChip(player)
    """
