"""Glyph Chess's rule hooks: the points where a variant may change the rules,
grouped by the stage of the game they belong to, each of one family:

- **header-time parameters** (no state among their arguments): asked once,
  when a game is made from its header, and compiled into the game's tables
  (the steps, the spells and their costs, the edges, the hand limit);
- **per-move rules**: asked during play, only where they can matter (a
  landing hook for a spot a piece could land on, the payers for a piece
  that could pay); the first answer that is not None decides;
- **gathering hooks**: every variant in force contributes (not firstresult):
  the answers are gathered.

The official rule (beside the rule it implements, in the module named after
it, gathered in ``official.py``) answers last. A hook may read the state it
is given (a :class:`~tabletop_glyph_chess.state.State` or a
:class:`~tabletop_glyph_chess.state.Work`, which read alike). Hooks that *do*
something (``glyph_strike``, ``glyph_eliminate``, ``glyph_turn_end``) get
the state being changed and change it in place. Three are asked only where
a variant implements them, and cost the official game nothing:
``glyph_turn_end`` (as a turn ends), ``glyph_memo`` (before each event's
effect) and ``glyph_game_over`` (whenever the game waits).

``game`` is the :class:`~tabletop_glyph_chess.game.GlyphChess` instance: its
``geo`` (the board, :class:`~tabletop_glyph_chess.hexes.HexBoard`:
``neighbours``, ``rays``, ``line``, ``step``, ``beyond``, ``between``,
``distance``, ``names``, ``spot``, ``center``), ``players``, ``seats``,
``spells``, ``costs`` and ``hand_limit``. Spots are board indices, ``seat``
0 (gold), 1 (silver) or 2 (bronze), ``piece`` a letter (``K S I E F N U M``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabletop import Event, Memo, Outcome, gathering_rule, header_rule, move_rule

if TYPE_CHECKING:
    from tabletop import TurnStep

    from .payment import Payers
    from .spells import Spell

State = Any  # a State or a Work: both read alike
Game = Any  # the GlyphChess instance


# -- setup ---------------------------------------------------------------------
@header_rule
def glyph_secret_setup(players: int) -> bool | None:
    """Whether players arrange their own edge in secret (True) instead of
    shuffling their glyph cards (False, official). ``players`` is the number
    of players. When True, each player's ``arrange`` decision is sealed:
    logged as a commitment until everyone has chosen, then revealed. The
    variant ``glyph-advanced-setup`` implements it.

    Example::

        class AdvancedSetup:
            @rulehook
            def glyph_secret_setup(self, players):
                return True
    """


@header_rule
def glyph_start_edges(game: Game, players: int) -> Sequence[Sequence[int]] | None:
    """For each seat, the 7 spots its scepter and glyph pieces start on, left
    to right as that player sees them (with shuffled cards the scepter takes
    the 4th). Official: the middle of opposite edges (2 players) or of every
    other edge (3).

    Example::

        class CloseQuarters:
            @rulehook
            def glyph_start_edges(self, game, players):
                rows = ("b2 b3 b4 b5 b6 b7 b8", "l8 l7 l6 l5 l4 l3 l2")
                return [[game.geo.spot(n) for n in row.split()] for row in rows[:players]]
    """


@header_rule
def glyph_first_player(players: int) -> int | None:
    """The seat that starts: it rolls all the dice and takes the first turn.
    Official: 0, the first player named in the header.

    Example::

        class SilverStarts:
            @rulehook
            def glyph_first_player(self, players):
                return 1
    """


@header_rule
def glyph_starting_coins(players: int, seat: int, first: int) -> int | None:
    """How many coins ``seat`` draws before the first turn (``first`` is the
    starting seat). Official: 0 for the starter, 1 for the next, 2 for the third.

    Example::

        class RichStart:
            @rulehook
            def glyph_starting_coins(self, players, seat, first):
                return 2
    """


@header_rule
def glyph_coins(players: int) -> Sequence[int] | None:
    """How many coins of each glyph type (in ``GLYPHS`` order: S I E F N U)
    each player's bag holds at the start. Official: 2 of each.

    Example::

        class ThreeOfEach:
            @rulehook
            def glyph_coins(self, players):
                return (3,) * 6
    """


@header_rule
def glyph_dice(players: int) -> int | None:
    """How many glyph dice the players share, 1 to 9. Official: 5. The
    state holds that many (``state.dice``), the starting player rolls them
    all, ``roll`` events number them 1 to N and payments name them ``D1``
    to ``DN``; any other count is refused when the game is made.

    Example::

        class SixDice:
            @rulehook
            def glyph_dice(self, players):
                return 6
    """


# -- the turn ------------------------------------------------------------------
@header_rule
def glyph_turn_steps(players: int) -> Mapping[str, TurnStep] | None:
    """The table of the steps of a turn and of setup, by phase (``setup``,
    ``rolling``, ``awaken``, ``draw``, ``act``, ``escape``, ``glimpse``,
    ``discard``, ``over``). Each ``TurnStep`` says what node it offers, what
    events it accepts and what they do, and what follows when it needs no
    event (``tabletop.TurnStep``, docs/hooks.md). A wrapper changes a step with ``attrs.evolve``.

    Example::

        class NoReroll:
            @rulehook(wrapper=True)
            def glyph_turn_steps(self, players):
                table = dict((yield))
                # The awakening never waits for a re-roll: straight on to the draw.
                table["awaken"] = attrs.evolve(table["awaken"], follows=lambda game, work: "draw")
                return table
    """


@move_rule
def glyph_rerollable(game: Game, state: State, seat: int) -> Sequence[int] | None:
    """The dice (indices from 0, one less than their numbers) ``seat`` may
    re-roll in its awakening step; none: the step passes. Official: the dice
    showing a type of one of its dead pieces.

    Example::

        class NoRerolls:
            @rulehook
            def glyph_rerollable(self, game, state, seat):
                return ()  # no re-rolls at all
    """


@header_rule
def glyph_hand_limit(players: int) -> int | None:
    """A player holding fewer coins than this draws one in the awakening
    step. Official: 5.

    Example::

        class BigHands:
            @rulehook
            def glyph_hand_limit(self, players):
                return 7
    """


@move_rule
def glyph_draws(game: Game, state: State, seat: int) -> bool | None:
    """Whether ``seat`` draws a coin in its awakening step now. Official: when
    holding fewer coins than the hand limit and there is something to draw.

    Example::

        class NoDrawWhenAhead:
            @rulehook
            def glyph_draws(self, game, state, seat):
                if sum(state.hands[seat]) >= 3:
                    return False
    """


@move_rule
def glyph_turn_end(game: Game, state: State, seat: int) -> str | None:
    """What happens as ``seat``'s turn ends: asked once the reset roll is
    done (the dice spent re-rolled) and the turn has passed (``state.turn``
    is the next player still in, ``state.spent`` empty), before the next
    player's awakening; for every turn, the last of a player who resigned on
    it included (``state.eliminated[seat]``). ``state`` is the ``Work``: a
    rule changes it in place (as ``glyph_strike`` does) and returns the
    step that follows, or None for the next player's awakening. A coin owed
    (``state.owed[seat] += 1``, then ``"draw"``) is drawn by the draw step,
    which then leads to the awakening; another ``state.turn`` is another
    player's turn. Asked only when a variant implements it (the official
    rule does nothing), on every path: the plain fold, the fast path,
    resigning.

    Example (draw a coin at the end of your own turn)::

        class CoinAtTurnEnd:
            @rulehook
            def glyph_turn_end(self, game, state, seat):
                if not state.eliminated[seat] and (any(state.bags[seat]) or any(state.used[seat])):
                    state.owed[seat] += 1
                    return "draw"
    """


# -- moving a piece --------------------------------------------------------------
@move_rule
def glyph_move_range(game: Game, state: State, seat: int, piece: str, source: int) -> int | None:
    """How many spots at most ``piece`` on ``source`` may move (0: it does
    not move by itself). Official: the scepter 1, minions 0, glyph pieces as
    far as they can pay (a table by piece, which the listing reads while no
    variant implements this hook; a variant's is asked piece by piece).

    Example::

        class LongScepter:
            @rulehook
            def glyph_move_range(self, game, state, seat, piece, source):
                if piece == "K":
                    return 2
    """


@header_rule
def glyph_move_costs(players: int) -> Callable[[str, int], tuple] | None:
    """The cost of moves by piece and distance, as a function ``costs(piece,
    distance)`` answering as ``glyph_move_cost`` does: compiled with the ways
    to pay, and asked by ``glyph_move_cost``'s official rule. A rule that
    depends on the piece and distance alone is faster here; one that depends
    on the position is ``glyph_move_cost``. Official: the scepter
    ``("any-die", distance)``, glyph pieces ``("x", distance)``.

    Example (every move costs one item more)::

        class Toll:
            @rulehook(wrapper=True)
            def glyph_move_costs(self, players):
                official = yield
                def costs(piece, distance):
                    kind, amount, *rest = official(piece, distance)
                    return (kind, amount + 1, *rest) if kind == "x" else (kind, amount, *rest)
                return costs
    """


@move_rule
def glyph_move_cost(
    game: Game, state: State, seat: int, piece: str, distance: int
) -> tuple[str, int] | tuple[str, int, str] | None:
    """What moving ``piece`` ``distance`` spots costs: ``(cost kind, amount)``
    paid in items of the piece's own type, or ``(cost kind, amount, payment
    type)`` paid in items of another type (a glyph letter: what may pay one
    item of it is ``glyph_payers``). Officially the answer of the header-time
    ``glyph_move_costs``. Cost kinds: ``"x"`` (that many items),
    ``"item"``, ``"die"``, ``"die+x"``, ``"coin"`` (that many coins, never
    dice) and ``"any-die"`` (that many dice of any face, never coins; no
    type). Official: the scepter ``("any-die", 1)``, glyph pieces ``("x",
    distance)``. A cost of a kind or type that is not one is refused when the
    game is made (and whenever it is met), naming the hook: a minion that
    moves must say what pays for it.

    Example (minions step 1 spot for 1 summoner item)::

        class MinionSteps:
            @rulehook
            def glyph_move_range(self, game, state, seat, piece, source):
                if piece == "M":
                    return 1

            @rulehook
            def glyph_move_cost(self, game, state, seat, piece, distance):
                if piece == "M":
                    return "x", distance, "U"
    """


@move_rule
def glyph_move_directions(
    game: Game, state: State, seat: int, piece: str, source: int
) -> Mapping[str, Sequence[int]] | None:
    """The lines ``piece`` may move along from ``source``: direction name ->
    the spots in order, nearest first. Official: the six straight lines of
    ``game.geo.rays[source]`` (the board's table, which the listing reads
    while no variant implements this hook).

    Example::

        class SummonerForwardOnly:
            @rulehook
            def glyph_move_directions(self, game, state, seat, piece, source):
                if piece == "U":
                    return {"ne": game.geo.rays[source]["ne"], "nw": game.geo.rays[source]["nw"]}
    """


@header_rule
def glyph_passing(players: int) -> Callable[[int, str, Any], bool] | None:
    """The passing rule by what stands on a spot, as a function
    ``passes(seat, piece, there) -> bool`` (``there``: None for an empty
    spot, else ``(seat, letter)``): compiled into a table once per game and
    occupant, which listing and checking read; ``glyph_may_pass`` answers
    from it unless a variant changes that hook. Official: an empty spot; the
    force mage passes any piece; a summoner passes its own minions.

    Example (nothing passes an enemy scepter)::

        class ScepterWall:
            @rulehook(wrapper=True)
            def glyph_passing(self, players):
                official = yield
                return lambda seat, piece, there: official(seat, piece, there) and not (
                    there is not None and there[1] == "K" and there[0] != seat
                )
    """


@header_rule
def glyph_landing(players: int) -> Callable[[int, str, Any], bool] | None:
    """The landing rule by what stands on a spot, ``lands(seat, piece,
    there) -> bool``, as ``glyph_passing``; ``glyph_may_land`` answers from it
    unless a variant changes that hook. Official: not on a friendly piece (a
    summoner may land on its own minion, which leaves).

    Example (the scepter takes nothing)::

        class PeacefulScepter:
            @rulehook(wrapper=True)
            def glyph_landing(self, players):
                official = yield
                return lambda seat, piece, there: official(seat, piece, there) and (piece != "K" or there is None)
    """


@move_rule
def glyph_may_pass(game: Game, state: State, seat: int, piece: str, spot: int) -> bool | None:
    """Whether a moving ``piece`` of ``seat`` may pass over ``spot`` (on its
    way, not its landing): asked for moves and for the force mage's blast.
    Official: the table of ``glyph_passing`` for what stands on the spot. A
    variant's answer may depend on the state, the seat, the piece and the
    spot (asked once per spot in a listing), not on where the piece comes
    from; a rule that depends on the occupant alone is faster as
    ``glyph_passing``.

    Example::

        class Jumpers:
            @rulehook
            def glyph_may_pass(self, game, state, seat, piece, spot):
                if piece == "N":
                    return True  # the necromancer passes through pieces too
    """


@move_rule
def glyph_may_land(game: Game, state: State, seat: int, piece: str, spot: int) -> bool | None:
    """Whether ``piece`` of ``seat`` may end a move, or a step, on ``spot``:
    asked for moves, each step of a blaze (``piece`` ``"E"``), each minion of
    a march (``"M"``) and the blast's landing (``"F"``). Official: the table
    of ``glyph_landing`` for what stands on the spot. Asked once per spot in
    a listing (see ``glyph_may_pass``).

    Example (no piece but a scepter lands on the centre)::

        class Sanctuary:
            @rulehook
            def glyph_may_land(self, game, state, seat, piece, spot):
                if spot == game.geo.center and piece != "K":
                    return False
    """


# -- spells and paying -------------------------------------------------------------
@header_rule
def glyph_spells(players: int) -> Mapping[str, Spell] | None:
    """The table of spells, by name, in the order ``moves`` lists them: each a
    :class:`~tabletop_glyph_chess.spells.Spell` (caster, cost, ``check``,
    ``effect``, ``options(ctx)``, notation, what it attacks for bots). A
    wrapper adds a spell (a new kind of decision: ``cast`` events with its
    name, written ``NAME SPOT ...``) or replaces one (to change a spell's
    targets, replace its ``check`` and ``options``, e.g. with
    ``attrs.evolve``). Every spell is listed by the same generator, so a new
    or wrapped spell is as fast as an official one.

    Example::

        class NoSwaps:
            @rulehook(wrapper=True)
            def glyph_spells(self, players):
                table = dict((yield))
                del table["swap"]
                return table
    """


@gathering_rule
def glyph_more_spells(players: int) -> Mapping[str, Spell] | None:
    """Spells a variant adds, by name: every variant in force contributes
    (not firstresult), and each spell is added after the table of
    ``glyph_spells`` (a name already there is replaced). Two variants that
    each add a spell this way combine without knowing of each other.

    Example::

        class Push:
            @rulehook
            def glyph_more_spells(self, players):
                return {"push": Spell("push", "F", "die", check, effect, options, "push g5 g6 / D2")}
    """


@header_rule
def glyph_costs() -> Mapping[str, str | tuple[str, str]] | None:
    """What each spell costs, by spell name (``swap``, ``replica``,
    ``foresee``, ``blaze``, ``blast``, ``revive``, ``march``, ``summon``): a
    cost kind, paid in items of the caster's type, or ``(cost kind, payment
    type)``. Kinds: ``"item"`` (1 coin or die of the type, or a wild coin),
    ``"die"`` (exactly 1 die showing the type), ``"die+x"`` (that die and X
    items more), ``"x"`` (X items), ``"coin"`` (X coins, never dice). A kind
    or type that is not one is refused when the game is made. Official: the
    table of RULINGS (see glyph-chess.md). A spell missing from the table
    costs what its ``Spell`` says.

    Example::

        class CheapReplica:
            @rulehook(wrapper=True)
            def glyph_costs(self):
                costs = dict((yield))
                costs["replica"] = "item"  # a coin may pay for the replica too
                return costs
    """


@move_rule
def glyph_payers(game: Game, state: State, seat: int, spot: int | None, kind: str) -> Payers | None:
    """What may pay one item of the payment type ``kind`` (a glyph letter)
    for ``seat``'s piece on ``spot`` (None: a payment by no piece), for every
    payment: moves, spells, the necromancer's escape, a variant's own.

    Return a :class:`~tabletop_glyph_chess.payment.Payers`: ``faces``, the die
    faces that may pay; ``coins``, the coin types that may pay; ``why``, why
    some coins may not (said when a player offers one). Officially: dice
    showing ``kind``; coins of ``kind`` and the wild ones
    (``glyph_wild_coins``), none when ``glyph_may_use_coins`` says no
    ("in sight of an enemy seeress"). While no variant implements this hook,
    a listing reads the official answer by kind, asking the wild types once
    per listing; a variant's is asked piece by piece.

    Example (sight blocks the piece's own coins only: wild coins still pay)::

        class WildSight:
            @rulehook
            def glyph_payers(self, game, state, seat, spot, kind):
                if spot is not None and not game.may_use_coins(game=game, state=state, spot=spot):
                    wild = frozenset(game.wild(state, seat)) - {kind}
                    return Payers(frozenset({kind}), wild, "in sight of an enemy seeress")
    """


@move_rule
def glyph_may_use_coins(game: Game, state: State, spot: int) -> bool | None:
    """Whether the piece on ``spot`` may be paid for with coins at all (the
    official ``glyph_payers`` asks it, for moves, spells and the escape).
    Official: not when in sight of an enemy seeress (the first piece in one
    of her six directions), judged as things stand (FAQ Q11). While no
    variant implements this hook (nor ``glyph_payers``), a listing works
    sight out once for all the seat's pieces; a variant's is asked piece by
    piece.

    Example::

        class BlindSeeress:
            @rulehook
            def glyph_may_use_coins(self, game, state, spot):
                return True
    """


@move_rule
def glyph_wild_coins(game: Game, state: State, seat: int) -> frozenset[str] | None:
    """The glyph types whose coins are wild for ``seat`` (they pay for any
    type; the official ``glyph_payers`` asks it). Official: the types of its
    dead pieces. (An implementation may leave ``game`` out, as any hook's
    argument.)

    Example::

        class NoWildCoins:
            @rulehook
            def glyph_wild_coins(self, state, seat):
                return frozenset()
    """


# -- a variant's own decisions ----------------------------------------------------
@move_rule
def glyph_parse(game: Game, text: str, player: str, state: State) -> Event | None:
    """A decision of ``player`` written in notation. A variant returns its own
    event (a class it declares with ``Variant(events=...)``) for its own words
    and None for anything else; the official rule reads the notation of
    glyph-chess.md, and a decision of a core shape (``tabletop.model.shapes``)
    that a step of the turn takes, and raises ``NotationError`` for text it
    cannot read. A shape's decision needs no implementation of this hook.

    Example::

        class Resting:
            @rulehook
            def glyph_parse(self, game, text, player, state):
                return Rest(player) if text.strip() == "rest" else None
    """


@move_rule
def glyph_notate(game: Game, decision: Event) -> str | None:
    """A decision as its player writes it (what ``glyph_parse`` reads back):
    ``moves`` lists decisions this way and the log's lines read with it. A
    decision of a core shape (``tabletop.model.shapes``) writes itself: it needs
    no implementation of this hook.

    Example::

        class Resting:
            @rulehook
            def glyph_notate(self, game, decision):
                return "rest" if isinstance(decision, Rest) else None
    """


# -- what a variant remembers -----------------------------------------------------
@move_rule
def glyph_memo(game: Game, state: State, event: Event, memo: Memo) -> Memo | None:
    """A variant's memory (as Glüx's ``glux_memo``). What the variants
    remember as ``event`` takes effect: asked before the effect, with
    ``state`` the state before it (the ``Work`` both paths change) and
    ``memo`` its memory (``state.memo``, a :class:`tabletop.Memo`); the answer
    is the memory the event's effect starts from. Every event a step takes
    is told (rolls and draws too: ``game.turn_ends(event)`` is True for the
    one action of a turn). Implement it as a wrapper (``memo = yield``) and
    change only your own entry (``remember(memo, name, value)``, with
    ``player=...`` for what only that player may know), so that several
    variants combine; read it anywhere with ``recall(state, name,
    default)``. Asked only when a variant implements it (the official rule
    remembers nothing), on the plain and the fast path alike.

    Example (count the turns played)::

        class CountTurns:
            @rulehook(wrapper=True)
            def glyph_memo(self, game, state, event, memo):
                memo = yield
                if game.turn_ends(event):  # a move, a spell or a pass: one turn more
                    memo = remember(memo, "turns", recall(state, "turns", 0) + 1)
                return memo
    """


# -- kills -------------------------------------------------------------------------
@move_rule
def glyph_strike(game: Game, state: State, spot: int, burn: bool) -> bool | None:
    """The piece on ``spot`` is taken (``burn``: incinerated by the
    elementalist), by a move, a blaze step, a march or a blast. Change the
    ``Work`` in place and return True. Official (``kills.py``): the piece
    leaves the board; a scepter eliminates its owner; a glyph piece is killed
    or burnt (an illusionist only when both its pieces are gone); a summoner
    takes its minions along.

    Example::

        class Trophies:
            @rulehook
            def glyph_strike(self, game, state, spot, burn):
                taken = recall(state, "trophies", 0)
                remember(state, "trophies", taken + 1)  # then the official rule goes on
    """


@move_rule
def glyph_escape_cost(game: Game, state: State, spot: int) -> str | tuple[str, str] | None:
    """What the attacked necromancer's escape costs (it is on ``spot``):
    one item, a payment type (a glyph letter: one coin that may pay one item
    of that type, ``glyph_payers``, as every payment), or ``(cost kind,
    payment type)``: ``"coin"`` (a coin, as a type alone says), ``"item"``
    (a coin or a die that may pay), ``"die"`` (a die showing the type,
    never a coin) or ``"any-die"`` (any die). ``""``: it cannot escape.
    Whenever the cost in force can be paid, the owner is asked; a die is
    written ``escape D2`` and spent as a move spends one (the reset step
    re-rolls it). Official: ``"N"`` (a necromancer coin or a wild one,
    none in an enemy seeress's sight).

    Example::

        class DieEscape:
            @rulehook
            def glyph_escape_cost(self, game, state, spot):
                return "item", "N"  # a necromancer or wild coin, or a die showing N
    """


@move_rule
def glyph_escape_coins(game: Game, state: State, spot: int) -> Sequence[str] | None:
    """What the owner of the attacked necromancer on ``spot`` may pay to
    escape: coin letters, and dice (``"D2"``) where the cost allows one;
    none: it is taken. Official: every way to pay ``glyph_escape_cost``
    with what ``glyph_payers`` lets pay (of alike dice, the lowest-numbered).

    Example::

        class NoEscape:
            @rulehook
            def glyph_escape_coins(self, game, state, spot):
                return []
    """


# -- the end -----------------------------------------------------------------------
@move_rule
def glyph_centre_wins(game: Game, state: State, seat: int) -> bool | None:
    """Whether ``seat`` wins as its turn begins. Official: its scepter is on
    the centre.

    Example::

        class CentreOrNextToIt:
            @rulehook
            def glyph_centre_wins(self, game, state, seat):
                near = (game.geo.center, *game.geo.neighbours[game.geo.center])
                return any(state.board[s] == (seat, "K") for s in near)
    """


@move_rule
def glyph_eliminate(game: Game, state: State, seat: int) -> bool | None:
    """``seat``'s scepter fell. Change the ``Work`` in place (``eliminated``,
    the board, and, when the game ends, ``phase = "over"`` and ``winner``)
    and return True. Official (``scepter.py``): the player is out, all their
    pieces leave the board, and the last player remaining wins.

    Example::

        class SuddenDeath:
            @rulehook
            def glyph_eliminate(self, game, state, seat):
                # The first scepter taken ends the game: its taker wins.
                state.eliminated[seat] = True
                state.phase, state.winner = "over", state.turn
                state.steps.clear()
                return True
    """


@move_rule
def glyph_game_over(game: Game, state: State) -> bool | None:
    """Whether the game has ended (as Glüx's ``glux_game_over``). Asked
    whenever the game comes to wait for an event (after each event's effect
    and the steps that need none, on the ``Work`` both paths change, in the
    step that waits), only when a variant implements it; True ends the game
    there (``phase`` ``"over"``), and ``glyph_outcome`` gives its result
    (officially, with no ``winner``, nobody wins: wrap it to name winners).
    Official: only a win ends the game (a scepter on the centre, the last
    player standing), which goes to ``over`` itself.

    Example (the game ends after 40 turns)::

        class TurnLimit:
            @rulehook(wrapper=True)
            def glyph_memo(self, game, state, event, memo):
                memo = yield
                return remember(memo, "turns", recall(state, "turns", 0) + 1) if game.turn_ends(event) else memo

            @rulehook
            def glyph_game_over(self, game, state):
                if recall(state, "turns", 0) >= 40:
                    return True
    """


@move_rule
def glyph_outcome(game: Game, state: State) -> Outcome | None:
    """The result of a game (or the standings of one not over), computed
    from the whole state: scores, winners (several: a shared victory) and a
    note saying what decided it. It is the one place a result comes from:
    replay, ``stats``, ``simulate``, the referee, the bots' search and the
    learning adapters all ask it. It is told the game and the whole state,
    memo included, so a rule that scores what a variant remembered (a
    secret dealt at setup, the order players fell in) is a wrapper here.
    Official (``victory.py``): 1 for the winner, 0 for the others.

    Example (players score by the order they fell in, the winner most)::

        class Placings:
            @rulehook(wrapper=True)
            def glyph_eliminate(self, game, state, seat):
                done = yield
                remember(state, "fallen", (*recall(state, "fallen", ()), seat))
                return done

            @rulehook(wrapper=True)
            def glyph_outcome(self, game, state):
                outcome = yield
                fallen = recall(state, "fallen", ())
                scores = {p: (fallen.index(s) if s in fallen else len(fallen)) for s, p in enumerate(game.players)}
                return Outcome(scores, outcome.winners, outcome.note)
    """
