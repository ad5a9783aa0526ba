"""The steps of a turn (and of setup) as a table of core ``TurnStep``s: for
each step, the node it offers, the events it accepts and what they do, the
check, the listing, and what follows. The rule hook ``glux_turn_steps``
gives the table in force; the plain fold, the listing, the checking and the
fast path all read it (``game.py``, ``fast.py``).

=======  ===============================================  ============================
step     offers                                           follows
=======  ===============================================  ============================
setup    start chips drawn, their faces chosen, hand      place, once the start player
         chips drawn, then the start player               is drawn
place    the player's placements (none possible: the      draw (2nd phase), or the next
         start-square option, else an exclusion)          player's place, or over
draw     a chip from the player's bag (2nd phase), until  the next player's place, or over
         the hand is full (``glux_hand_size``)
refill   a chip from the player's bag, until the hand     place (the same player's)
         is full; no official rule leads here, a
         variant's decision may (``glux-put-back``)
over     nothing                                          -
=======  ===============================================  ============================

Which official step a state is in is read from the state itself (``began``,
``turn``, ``drawing``): the official states have no field of their own for
it, so every recorded game folds to the same states as before. A variant's
own step is named in the state's ``step`` (empty while in an official
step); ``TurnStep.follows`` leads into it and back out (:func:`set_step`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop import Event, Forced, Over, Turn, TurnStep, rulehook
from tabletop.base.caches import Bound
from tabletop.base.errors import quote
from tabletop.model.steps import decided_by
from tabletop.play.sampling import below, sampled_by

from . import decisions, setup, turn
from .events import EVENTS, Draw, Exclude, FirstPlayer, Place, Start
from .fast import PLAIN_ONLY
from .placement import place, placed_at
from .refusal import refuse
from .state import State, Work, hand_of, hand_size

if TYPE_CHECKING:
    from .game import Glux

SETUP, PLACE, DRAW, REFILL, OVER = "setup", "place", "draw", "refill", "over"
#: The official steps, read from the state (the state's ``step`` is empty in them).
READ_FROM_STATE = frozenset((SETUP, PLACE, DRAW, OVER))


def step_of(state: Any) -> str:
    """The name of the step ``state`` is in."""
    step = state.step
    if step:
        return step
    if state.drawing:  # only ever while someone's turn
        return DRAW
    if state.turn is not None:
        return PLACE
    return OVER if state.began else SETUP


def set_step(work: Work, name: str) -> None:
    """Go into step ``name``: an official step is read from the state, a
    variant's is named in ``work.step``."""
    work.step = "" if name in READ_FROM_STATE else name


def _over(game: Glux, state: Any) -> bool:
    asked = game.over_asked
    return asked is not None and bool(asked(game=game, state=state))


# -- setup ---------------------------------------------------------------------------
def _setup_apply(game: Glux, work: Work, event: Event) -> None:
    kind = type(event)
    if kind is Draw:
        turn.draw(game, work, event)  # type: ignore[arg-type]
    elif kind is Start:
        setup.start(game, work, event)  # type: ignore[arg-type]
    elif kind is FirstPlayer:
        setup.first_player(game, work, event)  # type: ignore[arg-type]
    else:
        raise TypeError(f"not a setup event: {event!r}")


def check(game: Glux, state: Any, decision: Event) -> str | None:
    """Why ``decision`` is illegal now (a placement, or a start chip's face), or
    None; the same in setup and in play, so each names what is wrong."""
    kind = type(decision)
    if kind is Place:
        if not state.began:
            return "the game is still being set up: choose the face of your start chip"
        seat = game.seats[decision.player]  # type: ignore[attr-defined]
        square = game.indices.get(decision.square)  # type: ignore[attr-defined]
        reach = state.reach  # kept by the fast path in self-play only
        if reach is not None and square is not None and not decision.start:  # type: ignore[attr-defined]
            hand = state.hands[seat]
            if (
                hand is not None
                and state.held is None
                and decision.face in game.chips.faces[hand]  # type: ignore[attr-defined]
                and reach[seat].get(square)
                and (game.placement.cover is None or not state.stacks[square])
            ):
                return None  # counted to, may land, has room; rule 4 has nothing to ask
        hand, face = state.hands[seat], decision.face  # type: ignore[attr-defined]
        if hand is None or state.held or face not in game.chips.faces[hand]:  # else a face of the one chip in hand
            if error := setup.hand_face_error(game.chips, hand_of(state, seat), face):
                return error
        if square is None:
            return f"{decision.square} is not a square of this board"  # type: ignore[attr-defined]
        return game.placement.error(state, seat, square, decision.face, decision.start)  # type: ignore[attr-defined]
    if kind is Start:
        return setup.check_start(game, state, decision)  # type: ignore[arg-type]
    # (A variant's own decision is checked by ``glux_check``, in the step that
    # takes it: :func:`with_variant_decisions`.)
    return f"{decision.kind} is not a decision"


def _setup_legal(game: Glux, state: Any, player: str) -> Sequence[Event]:
    return setup.legal_starts(game, state, game.seats[player], player)


SETUP_STEP = TurnStep(
    SETUP,
    setup.node,
    (Draw, Start, FirstPlayer),
    _setup_apply,
    check=check,
    legal=_setup_legal,
    asks=lambda game, state, player: f"choose the face of the start chip ({state.hands[game.seats[player]]})",
)


# -- place: the 1st phase ---------------------------------------------------------------
def _placer(game: Glux, state: Any) -> str | None:
    # The player at turn decides whenever any decision is legal (a placement,
    # the option, a variant's decision); only the end, when a rule in force
    # asks for it, may come first.
    return None if game.over_asked is not None else game.players[state.turn]


@decided_by(_placer, check)
def _place_node(game: Glux, state: Any):
    if game.over_asked is not None and _over(game, state):
        return Over()
    seat = state.turn
    placement = game.placement
    reach = state.reach
    if reach is not None:
        if reach[seat] and placement.cover is None:
            return game.decides[seat]
        squares = reach[seat]
    else:
        squares = placement.reachable(state, seat)
    rules = game.rules
    # With rule 4 read in its form, the start-square option is the cheaper
    # question; when rule 4 is asked, a square it need not be asked for.
    if (
        placement.option_open(state, seat) or placement.placeable(state, seat, squares)
        if placement.cover is None
        else placement.placeable(state, seat, squares) or placement.option_open(state, seat)
    ) or (game.variant_decisions and rules.glux_decisions(game=game, state=state, seat=seat)):
        return game.decides[seat]
    # "Important": no counting placement and the start-square option used.
    return Forced(forced(game, state, seat))


def forced(game: Glux, state: Any, seat: int) -> Event:
    """The event the rules force on ``seat``, stuck (``glux_stuck``). A
    variant's must be the stuck player's, and an exclusion, a placement the
    rules allow, or an event of a variant's own (applied by its step or by
    ``glux_apply``); else one line names it: the rules would force it again
    and again, or on someone else."""
    rules = game.rules
    event = rules.glux_stuck(game=game, state=state, seat=seat)
    if not rules.official("glux_stuck"):
        player = game.players[seat]
        if (
            getattr(event, "player", None) != player
            or type(event) in (Draw, Start, FirstPlayer)
            or (type(event) is Place and check(game, state, event) is not None)
        ):
            raise refuse(
                rules,
                "glux_stuck",
                f"gave {quote(game.format(event))} for {player}, who is stuck: an event of {player}'s, "
                "an exclusion, a placement the rules allow or a variant's own event",
            )
    return event


def _place_draw(game: Glux, state: Any, player: str, rng: Any) -> Event | None:
    """The decision the core's random bot draws with ``rng`` from
    ``_place_legal``'s listing, or None when there is none: the same
    placement, drawn from the reach the fast path keeps, without the
    listing while every chip may be covered (else ``Placement.drawn``)."""
    seat = game.seats[player]
    reach = state.reach
    placement = game.placement
    if reach is None or state.hands[seat] is None or state.turn != seat or state.drawing:
        listing = _place_legal(game, state, player)
        if not listing:
            return None
        from tabletop.play.live import random_choice  # the bot itself (the CLI imports it only to play)

        return random_choice(game, None, player, listing, rng)
    squares = sorted(reach[seat])
    made = state.fast.made[seat]
    if placement.cover is not None:
        return placement.drawn(state, seat, player, squares, made, rng)
    # The listing would be ``Placements`` of these: its draw (``sample``) is
    # the placement at the number drawn below its length, picked here
    # without the listing or a call to ``drawn`` (on every self-played turn).
    faces, option = placement.offer(state, seat, squares)
    n = len(faces) * len(squares)
    return placed_at(player, squares, placement.names, option, faces, made, below(rng, n)) if n else None


@sampled_by(_place_draw)
def _place_legal(game: Glux, state: Any, player: str) -> Sequence[Event]:
    seat = game.seats[player]
    if state.hands[seat] is None or state.turn != seat or state.drawing:
        return []
    placement = game.placement
    reach = state.reach
    if reach is not None:
        # Kept by the fast path (``fast.py``) once counted, with the events it made.
        return placement.listing(state, seat, player, sorted(reach[seat]), state.fast.made[seat])
    fast = state.fast
    if fast is not None:
        # The reach is counted, and kept from then on, while rules 1-3 are read as lines.
        squares = sorted(fast.count_reach(state)[seat] if placement.lines else set(placement.reachable(state, seat)))
        return placement.listing(state, seat, player, squares, fast.made[seat])
    squares = sorted(set(placement.reachable(state, seat)))
    return placement.listing(state, seat, player, squares)


def _place_asks(game: Glux, state: Any, player: str) -> str:
    hand = tuple(dict.fromkeys(hand_of(state, game.seats[player])))  # each kind once
    return f"place the {' or the '.join(hand) if hand else None} chip"


PLACE_STEP = TurnStep(PLACE, _place_node, (Place, Exclude), place, check=check, legal=_place_legal, asks=_place_asks)


# -- draw: the 2nd phase ------------------------------------------------------------------
def _draw_node(game: Glux, state: Any):
    if game.over_asked is not None and _over(game, state):
        return Over()
    seat = state.turn
    node = game.draws_by_bag[seat].get(tuple(state.bags[seat]))
    return node if node is not None else game.draw_node(state, seat)


DRAW_STEP = TurnStep(DRAW, _draw_node, (Draw,), turn.draw, check=check, asks=_place_asks)

OVER_STEP = TurnStep(OVER, lambda game, state: Over(), check=check, asks=_place_asks)


# -- refill: drawing the hand full in the middle of a turn (for a variant) ------------------
def _short(game: Glux, work: Any) -> bool:
    seat = work.turn
    return hand_size(work, seat) < game.hand_size and work.bag_size(seat) > 0


#: No official rule leads here: a variant whose decision takes chips from the
#: hand goes into it (``work.step = "refill"``) to draw the hand full again
#: (or the bag empty) before the player places.
REFILL_STEP = TurnStep(
    REFILL,
    _draw_node,
    (Draw,),
    turn.draw,
    follows=lambda game, work: None if _short(game, work) else PLACE,
    check=check,
    asks=_place_asks,
)

STEPS: dict[str, TurnStep] = {step.name: step for step in (SETUP_STEP, PLACE_STEP, DRAW_STEP, REFILL_STEP, OVER_STEP)}


# -- a variant's own events, by the decision hooks (plain path only) --------------------------
class _NotGlux(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, Event) and not isinstance(instance, EVENTS)


class VariantEvent(Event, metaclass=_NotGlux):
    """Any event of a class Glüx does not write: a variant's own (``isinstance``
    says so of it), of no origin itself. The steps take such events by the
    decision hooks (:func:`with_variant_decisions`)."""

    origin: ClassVar[str] = ""


def with_variant_decisions(table: Mapping[str, TurnStep]) -> dict[str, TurnStep]:
    """``table`` with every step also taking a variant's own events
    (:class:`VariantEvent`) by ``TurnStep.adding``, as a step of a
    variant's adds its decision: ``glux_decisions`` lists them after the
    placements (in the place step, to the player at turn), ``glux_check``
    checks them and ``glux_apply`` applies them (after ``glux_memo``, on the
    immutable state: ``decisions.applied``)."""
    return {
        name: step.adding(VariantEvent, _variant_decisions if name == PLACE else _none, _variant_check, _variant_apply)
        for name, step in table.items()
    }


def _none(game: Glux, state: Any, player: str) -> Sequence[Event]:
    return ()


def _variant_decisions(game: Glux, state: Any, player: str) -> Sequence[Event]:
    """The decisions variants add for ``player`` (``glux_decisions``) while
    they are at turn to place, each one they may take now (else one line
    names the variant)."""
    seat = game.seats[player]
    if not game.variant_decisions or state.hands[seat] is None or state.turn != seat or state.drawing:
        return ()
    extra = tuple(game.rules.glux_decisions(game=game, state=state, seat=seat))
    for decision in extra:
        if getattr(decision, "player", None) != player:
            why: str | None = "not theirs"
        else:
            why = (
                _variant_check(game, state, decision)
                if isinstance(decision, VariantEvent)
                else check(game, state, decision)
            )
        if why:
            raise refuse(
                game.rules,
                "glux_decisions",
                f"gave {quote(game.format(decision))} for {player}, who may not take it now ({why})",
            )
    return extra


def _variant_check(game: Glux, state: Any, decision: Event) -> str | None:
    reason = game.rules.glux_check(game=game, state=state, decision=decision)
    if reason is not None:
        return reason or None
    return f"{decision.kind} is not a decision"


def _variant_apply(game: Glux, work: Work, event: Event) -> None:
    # The hook makes a new state: the twin takes its fields.
    after = Work.thaw(decisions.applied(game, Work.freeze(work), event))
    for field in _FIELDS:
        setattr(work, field, getattr(after, field))


#: The fields of the state, which the twin holds too.
_FIELDS = tuple(field.name for field in attrs.fields(State))


@rulehook
def glux_turn_steps(players: int) -> Mapping[str, TurnStep]:
    return STEPS


#: Turns already made, by the identity of the table the hook gave (kept with
#: it, so that the identity stays its own) and whether a variant's decisions
#: are added to it (:func:`with_variant_decisions`).
_TURNS: dict[tuple[int, bool], tuple[Mapping[str, TurnStep], Turn]] = {}
#: The official table is one object and a variant's usually one too: a
#: process meets a few; more come from a variant that makes its table
#: afresh for each game, whose tables are not asked for again.
TURNS_KEPT = Bound(64)


def adds_decisions(rules: Any) -> bool:
    """Whether a variant in force implements the decision hooks
    (``PLAIN_ONLY``): then every step also takes its own events by them."""
    return not all(map(rules.official, PLAIN_ONLY))


def turn_of(table: Mapping[str, TurnStep], rules: Any = None) -> Turn:
    """The core's ``Turn`` of ``table`` (``glux_turn_steps``'s answer), made
    once per table: the steps answer on the state and on its twin
    (``state.Work``); an official step is read from the state
    (:func:`step_of`), a variant's named in it (:func:`set_step`). Every
    step's check names what is wrong with any decision (``check``), so none
    is screened by the classes the step takes. Where a variant implements
    the decision hooks (``PLAIN_ONLY``: ``glux_decisions``, ``glux_check``,
    ``glux_apply``, given the ``rules`` in force), every step also takes
    the variant's own events, by those hooks (:func:`with_variant_decisions`)."""
    adds = rules is not None and adds_decisions(rules)
    key = (id(table), adds)
    found = _TURNS.get(key)
    if found is not None and found[0] is table:
        return found[1]
    check_table(table, rules)
    steps = passing(with_variant_decisions(table) if adds else table, adds)
    made = Turn(steps, work=Work, phase=step_of, set_phase=set_step, screens=False)
    return TURNS_KEPT.keep(_TURNS, key, (table, made))[1]


# -- a variant's own event that ends the turn ------------------------------------------------
def passing(table: Mapping[str, TurnStep], adds: bool) -> Mapping[str, TurnStep]:
    """``table`` with the placement step honouring a variant's own event
    that ends the turn (its class's ``ends_turn: ClassVar[bool] = True``,
    the attribute that also counts the turn: ``turn_end.py``): once its
    effect is applied, if it left its player at turn in the placement step
    (not drawing, in no step of a variant's), the turn passes to the next
    seat by the game's own turn order (``glux_turn_order``; the game ends
    when nobody is left to place). An effect that leads on (into a draw,
    a variant's step) is left to lead on. ``table`` itself while the step
    takes no such event (the official table, most variants' tables):
    nothing is asked then. ``adds``: variants' events are taken by the
    decision hooks (:func:`with_variant_decisions`), any of which may end
    the turn."""
    place = table[PLACE]
    if not adds and not any(_ends_turn(cls) for cls in place.accepts):
        return table
    own = place.apply

    def apply(game: Glux, work: Work, event: Event) -> None:
        if own is not None:
            own(game, work, event)
        if _ends_turn(type(event)):
            end_turn(game, work, event)

    return {**table, PLACE: attrs.evolve(place, apply=apply)}


def _ends_turn(cls: type) -> bool:
    return cls not in EVENTS and bool(getattr(cls, "ends_turn", False))


def end_turn(game: Glux, work: Work, event: Event) -> None:
    """Pass the turn on after ``event``, a variant's own event that ends the
    turn, if its effect left its player at turn to place (:func:`passing`)."""
    seat = game.seats.get(getattr(event, "player", None))  # type: ignore[arg-type]
    if seat is not None and work.turn == seat and not work.drawing and not work.step:
        work.turn = game.turns.next(work, seat)


def check_table(table: Mapping[str, TurnStep], rules: Any = None) -> None:
    """The official steps must all be in a table in force, each step under
    its own name (one line naming the variant, given the ``rules`` in force)."""
    missing = sorted(READ_FROM_STATE - set(table))
    if missing:
        raise refuse(rules, "glux_turn_steps", f"gave a table with no step {', '.join(map(repr, missing))}")
    for name, step in table.items():
        if step.name != name:
            raise refuse(
                rules, "glux_turn_steps", f"gave the step {step.name!r} as {name!r}: a step is under its own name"
            )
