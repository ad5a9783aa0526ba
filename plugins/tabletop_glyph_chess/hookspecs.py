"""Glyph Chess's rule hooks: the points where a variant may change the rules,
grouped by the stage of the game they belong to.

Every hook is ``firstresult``: the first implementation that returns something
other than None decides; the official rule (beside the rule it implements, in
the module named after it) answers last. A hook may read the state it is given
(a :class:`~tabletop_glyph_chess.state.State` or a
:class:`~tabletop_glyph_chess.state.Work`, which read alike). Hooks that
*do* something (``glyph_strike``, ``glyph_eliminate``) get the state being
changed and change it in place, returning True.

``game`` is the :class:`~tabletop_glyph_chess.game.GlyphChess` instance: its
``geo`` (the board: ``neighbours``, ``rays``, ``step``, ``names``, ``center``),
``players`` and ``seats``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabletop import Event, Outcome, rulespec

if TYPE_CHECKING:
    from .payment import Payers
    from .spells import Spell
    from .steps import TurnStep

State = Any  # a State or a Work: both read alike
Game = Any  # the GlyphChess instance


# -- setup ---------------------------------------------------------------------
@rulespec(firstresult=True)
def glyph_secret_setup(players: int) -> bool | None:
    """Whether players choose the order of their pieces secretly (True) instead
    of shuffling their glyph cards (False)."""


@rulespec(firstresult=True)
def glyph_start_edges(game: Game, players: int) -> Sequence[Sequence[int]] | None:
    """For each seat, the 7 spots its scepter and glyph pieces start on, left
    to right as that player sees them (the scepter's spot is the 4th)."""


@rulespec(firstresult=True)
def glyph_first_player(players: int) -> int | None:
    """The seat that starts: it rolls all the dice and takes the first turn."""


@rulespec(firstresult=True)
def glyph_starting_coins(players: int, seat: int, first: int) -> int | None:
    """How many coins ``seat`` draws before the first turn (``first`` is the
    starting seat)."""


@rulespec(firstresult=True)
def glyph_coins(players: int) -> Sequence[int] | None:
    """How many coins of each glyph type (in ``GLYPHS`` order) each player's
    bag holds at the start."""


# -- the turn ------------------------------------------------------------------
@rulespec(firstresult=True)
def glyph_turn_steps(players: int) -> Mapping[str, TurnStep] | None:
    """The table of the steps of a turn (and of setup), by phase name."""


@rulespec(firstresult=True)
def glyph_rerollable(game: Game, state: State, seat: int) -> Sequence[int] | None:
    """Awakening: the dice (indices 0-4) ``seat`` may re-roll; none: the step passes."""


@rulespec(firstresult=True)
def glyph_hand_limit(players: int) -> int | None:
    """A player with fewer coins in hand than this draws one in the awakening step."""


@rulespec(firstresult=True)
def glyph_draws(game: Game, state: State, seat: int) -> bool | None:
    """Awakening: whether ``seat`` draws a coin now."""


# -- moving a piece --------------------------------------------------------------
@rulespec(firstresult=True)
def glyph_move_range(game: Game, state: State, seat: int, piece: str, source: int) -> int | None:
    """How many spots at most the ``piece`` (a letter) on ``source`` may move
    (0: it does not move by itself)."""


@rulespec(firstresult=True)
def glyph_move_cost(game: Game, state: State, seat: int, piece: str, distance: int) -> tuple[str, int] | None:
    """What moving ``piece`` ``distance`` spots costs: (cost kind, amount), a
    cost kind as in ``glyph_costs`` or ``"any-die"`` (that many dice of any face)."""


@rulespec(firstresult=True)
def glyph_move_directions(
    game: Game, state: State, seat: int, piece: str, source: int
) -> Mapping[str, Sequence[int]] | None:
    """The lines ``piece`` may move along from ``source``: direction name ->
    the spots in order, nearest first."""


@rulespec(firstresult=True)
def glyph_may_pass(game: Game, state: State, seat: int, piece: str, spot: int) -> bool | None:
    """Whether a moving ``piece`` of ``seat`` may pass over ``spot``."""


@rulespec(firstresult=True)
def glyph_may_land(game: Game, state: State, seat: int, piece: str, spot: int) -> bool | None:
    """Whether a moving ``piece`` of ``seat`` may end its move on ``spot``."""


# -- spells and paying -------------------------------------------------------------
@rulespec(firstresult=True)
def glyph_spells(players: int) -> Mapping[str, Spell] | None:
    """The table of spells, by name: each a :class:`~tabletop_glyph_chess.spells.Spell`.
    A wrapper adds a spell (a new decision with its notation) or replaces one."""


@rulespec(firstresult=True)
def glyph_costs() -> Mapping[str, str] | None:
    """What each spell costs, by spell name (``"swap"``, ``"blaze"``, ...):
    ``"item"`` (1 coin or die of the piece's type), ``"die"`` (1 die showing
    it), ``"die+x"`` (that die and X more items), ``"x"`` (X items)."""


@rulespec(firstresult=True)
def glyph_may_use_coins(game: Game, state: State, spot: int) -> bool | None:
    """Whether the piece on ``spot`` may be paid for with coins (officially:
    not in sight of an enemy seeress)."""


@rulespec(firstresult=True)
def glyph_payers(game: Game, state: State, seat: int, spot: int | None, kind: str) -> Payers | None:
    """What may pay one item of the payment type ``kind`` (a glyph letter)
    for ``seat``'s piece on ``spot`` (None: a payment by no piece), for every
    payment: moves, spells, the escape, a variant's own.

    Return a :class:`~tabletop_glyph_chess.payment.Payers`: ``faces``, the die
    faces that may pay, ``coins``, the coin types that may pay, and ``why``,
    why some coins may not (said when a player offers one). Officially: dice
    showing ``kind``; coins of ``kind`` and the wild ones
    (``glyph_wild_coins``), none when ``glyph_may_use_coins`` says no.
    Example, sight blocks only the seen piece's own coins::

        @rulehook
        def glyph_payers(self, game, state, seat, spot, kind):
            if spot is not None and not game.may_use_coins(game=game, state=state, spot=spot):
                return Payers(frozenset({kind}), game.wild(state, seat), "in sight of an enemy seeress")
    """


@rulespec(firstresult=True)
def glyph_wild_coins(state: State, seat: int) -> frozenset[str] | None:
    """The glyph types whose coins are wild for ``seat`` (pay for any type)."""


@rulespec(firstresult=True)
def glyph_parse(game: Game, text: str, player: str, state: State) -> Event | None:
    """A decision written in notation: a variant reads its own kind of
    decision (an event class it declares with ``Variant(events=...)``) and
    returns None for any other text."""


@rulespec(firstresult=True)
def glyph_notate(game: Game, decision: Event) -> str | None:
    """A decision in notation (what ``glyph_parse`` reads back)."""


# -- kills -------------------------------------------------------------------------
@rulespec(firstresult=True)
def glyph_strike(game: Game, state: State, spot: int, burn: bool) -> bool | None:
    """The piece on ``spot`` is killed (``burn``: incinerated). Change the
    state being changed (a Work) in place and return True."""


@rulespec(firstresult=True)
def glyph_escape_cost(game: Game, state: State, spot: int) -> str | None:
    """The payment type of the necromancer's escape (on ``spot``): it costs one
    coin that may pay for one item of that type (``glyph_payers``); ``""``:
    it cannot escape. Officially ``"N"`` (a necromancer coin or a wild one).
    Example, the escape is paid with a seeress coin::

        @rulehook
        def glyph_escape_cost(self, game, state, spot):
            return SEERESS
    """


@rulespec(firstresult=True)
def glyph_escape_coins(game: Game, state: State, spot: int) -> Sequence[str] | None:
    """The coins the owner of the attacked necromancer on ``spot`` may pay to
    escape (none: it cannot)."""


# -- the end -----------------------------------------------------------------------
@rulespec(firstresult=True)
def glyph_centre_wins(game: Game, state: State, seat: int) -> bool | None:
    """Whether ``seat`` wins as its turn begins."""


@rulespec(firstresult=True)
def glyph_eliminate(game: Game, state: State, seat: int) -> bool | None:
    """``seat``'s scepter fell. Change the state being changed in place
    (who is out, whose pieces leave, whether the game is over) and return True."""


@rulespec(firstresult=True)
def glyph_outcome(game: Game, state: State) -> Outcome | None:
    """The result: winners, and what decided the game."""
