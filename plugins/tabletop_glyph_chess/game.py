"""The Glyph Chess game: a short adapter from tabletop's game contract to the
rules, which live in modules named after them (see docs/glyph-chess.md)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from itertools import count, permutations
from typing import Any

from tabletop import Chance, Decide, Event, Game, Hidden, Outcome, Turn
from tabletop.base.caches import Bound
from tabletop.model.shapes import seen

from . import (
    about,
    actions,
    bots,
    escape,
    evaluation,
    hookspecs,
    memo,
    movement,
    notation,
    official,
    payment,
    position,
    render,
    resignation,
    setup,
    sight,
    spells,
    steps,
    turn_end,
    victory,
)
from .context import ByOccupant, Stops
from .events import EVENTS, Draw, Glimpse, Roll, Shuffle
from .fast import Fast, IndexedChance
from .hexes import board
from .pieces import GLYPHS, NAMES
from .state import ACT, DISCARD, State, Work, evolve, freeze, thaw


@functools.lru_cache(maxsize=256)
def _shuffles(player: str) -> IndexedChance:
    """The 720 orders of a player's glyph cards: made once per player name in
    a process (every game of a folder of logs shares them)."""
    return IndexedChance(tuple(Shuffle(player, order) for order in permutations(GLYPHS)))


#: A header-time rule function -> its number (a number is never given twice).
RULE_NUMBERS: dict = {}
_NUMBERS = count()
#: The official rules and each variant's are a few functions; more come
#: from a variant that makes its rule afresh for each game, whose number
#: is not asked for again.
RULE_NUMBERS_KEPT = Bound(1024)


def rule_number(rule: Any) -> int:
    """The number of a header-time rule function: the same function, the
    same number; never another function's."""
    number = RULE_NUMBERS.get(rule)
    if number is None:
        number = RULE_NUMBERS_KEPT.keep(RULE_NUMBERS, rule, next(_NUMBERS))
    return number


#: (player, coins of each type in the bag) -> the chance node of a draw.
DRAW_NODES: dict = {}
#: A bag holds 0 to 2 coins of each of 6 types (729 bags) per player
#: name: a run meets a few names (a tournament's, a few dozen).
DRAW_NODES_KEPT = Bound(16_384)


#: (landing rule, passing rule) -> their tables by seat and piece
#: (:meth:`GlyphChess.landing_table` ...).
OCCUPANT_TABLES: dict = {}
#: A process meets the official rules and a few variants' (each pair's
#: tables are some hundreds of entries); more only from a variant that
#: makes its rules afresh for each game.
OCCUPANT_TABLES_KEPT = Bound(64)


def occupant_tables(landing: Any, passing: Any) -> dict:
    """The tables compiled from these header-time rules by what stands on a
    spot: shared by every game whose rules are these very functions (the
    official ones; a variant that makes its rule afresh for each game has
    tables of its own)."""
    tables = OCCUPANT_TABLES.get((landing, passing))
    if tables is None:
        tables = OCCUPANT_TABLES_KEPT.keep(OCCUPANT_TABLES, (landing, passing), {})
    return tables


class GlyphChess(Game, about=about):
    # The title, description, players and options are written once, in
    # ``about``, which ``tabletop games`` reads without importing the game.
    name = "glyph-chess"
    events = EVENTS
    turn_ends = turn_end.turn_ends  # a turn is counted by its action
    rule_specs = hookspecs
    official_rules = official

    @classmethod
    def normalize_options(cls, options: Mapping[str, str], players: Sequence[str]) -> dict[str, Any]:
        normalized = super().normalize_options(options, players)
        if "radius" in normalized:
            normalized["radius"] = position.read_radius(normalized["radius"])
        if "position" in normalized:
            normalized["position"] = position.read_file(normalized["position"])
        return cls.check_options(normalized, players)

    @classmethod
    def check_options(cls, options: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        options = super().check_options(options, players)
        position.check_options(options, players)
        return options

    def __init__(self, players: Sequence[str], options: Mapping[str, Any], rules: Any) -> None:
        super().__init__(players, options, rules)
        n = len(self.players)
        self.seats = {p: i for i, p in enumerate(self.players)}
        self.geo = board(position.radius_of(options))
        # The rules in force (``tabletop.Rules``), resolved once: the official
        # function itself when no variant changes a rule (a plain call), else
        # the chain of the variants' and the official one.
        r = rules
        self.may_use_coins = r.glyph_may_use_coins
        self.payers = r.glyph_payers
        self.may_land = r.glyph_may_land
        self.may_pass = r.glyph_may_pass
        # Landing and passing: header-time rules by what is on the spot,
        # compiled into a table per seat and piece; the per-move hooks are
        # asked spot by spot only when a variant changes them.
        self.spots = range(self.geo.size)
        #: Spots -> their names, for the spells' options (made once each).
        self.spot_names = actions.spot_names(self.geo.names)
        self.longest_line = max(len(ray) for rays in self.geo.ray_lists for ray in rays)
        self._landing, self._passing = r.glyph_landing(players=n), r.glyph_passing(players=n)
        # Landing, passing and both, for each seat: piece -> its table.
        tables = occupant_tables(self._landing, self._passing)
        self._rows = tuple(tuple(tables.setdefault((what, seat), {}) for seat in range(n)) for what in range(3))
        self.landing_by_occupant = rules.form("glyph_may_land") == movement.BY_OCCUPANT
        #: Move costs by piece and distance (``glyph_move_costs``); the
        #: per-move ``glyph_move_cost`` is asked move by move only when a
        #: variant changes it.
        self.move_costs = r.glyph_move_costs(players=n)
        self.move_costs_fixed = rules.form("glyph_move_cost") == movement.COST_BY_DISTANCE
        #: The number of these move costs among every game's (the ways to pay
        #: for moves are remembered under it: another rule, another number).
        self.move_costs_number = rule_number(self.move_costs)
        self.passing_by_occupant = rules.form("glyph_may_pass") == movement.BY_OCCUPANT
        # What may pay (``glyph_payers``) and whether a piece may use coins
        # (``glyph_may_use_coins``): while no variant changes them, a listing
        # reads the official payers by kind, sight worked out once for all
        # the seat's pieces (see Context._paying).
        self.payers_by_table = rules.form("glyph_payers") == payment.BY_KIND
        self.coins_by_sight = rules.form("glyph_may_use_coins") == sight.OUT_OF_SIGHT
        # A move's range and directions: while no variant changes them, the
        # header-time tables by piece (movement.reach) and by spot (the rays).
        self.reach_by_piece = rules.form("glyph_move_range") == movement.RANGE_BY_PIECE
        self.reaches = {piece: movement.reach(self.geo, piece) for piece in NAMES}
        self.directions_by_spot = rules.form("glyph_move_directions") == movement.THE_BOARDS_LINES
        #: For each seat, spot -> its lines with each move's fields (shared
        #: by every game on the board, see movement.named_lines).
        self.move_lines = tuple(movement.lines_of(self.geo, p) for p in self.players)
        self.escape_coins = r.glyph_escape_coins
        self.centre_wins = r.glyph_centre_wins
        wild = r.glyph_wild_coins
        self.wild = lambda state, seat: wild(game=self, state=state, seat=seat)
        # A variant's answers to these per-move hooks are looked at where
        # they are taken (the official ones, known good, are taken as they are).
        if not rules.official("glyph_payers"):
            self.payers = payment.checked_payers(rules)
        if not rules.official("glyph_wild_coins"):
            self.wild = payment.checked_wild(self, wild)
        if not rules.official("glyph_escape_coins"):
            self.escape_coins = escape.checked_coins(self)
        self.variant_answers = {
            name for name in ("glyph_rerollable", "glyph_outcome", "glyph_notate") if not rules.official(name)
        }
        self.edges = tuple(tuple(e) for e in r.glyph_start_edges(game=self, players=n))
        self.first = r.glyph_first_player(players=n)
        self.spells = dict(r.glyph_spells(players=n))
        # A gathering hook: every variant's answer, in a list (asked of the
        # rules themselves, not of the official function alone).
        more = rules.glyph_more_spells(players=n) or ()
        for added in more:
            self.spells.update(added)
        costs = dict(r.glyph_costs())
        if not all(map(rules.official, ("glyph_spells", "glyph_more_spells", "glyph_costs"))):
            spells.check(self, more, costs)
        #: Each spell's cost: (cost kind, payment type or None for the caster's).
        self.costs = {
            name: payment.cost_of(f"the cost of {name}", costs.get(name, spell.cost))
            for name, spell in self.spells.items()
        }
        self.by_caster: dict[str, list] = {}
        for spell in self.spells.values():
            self.by_caster.setdefault(spell.caster, []).append(spell)
        #: For each caster's kind, its spells as a listing reads them:
        #: (options, name, cost kind, payment type, the X that must be paid
        #: for any target to be, or None: ``payment.NEEDED``, the bound its
        #: options declare or None: ``spells.most_of``), in the order of
        #: ``by_caster``.
        self.casting = {
            caster: tuple(
                (
                    spell.options,
                    spell.name,
                    *self.costs[spell.name],
                    payment.NEEDED.get(self.costs[spell.name][0]),
                    spells.most_of(spell.options),
                )
                for spell in theirs
            )
            for caster, theirs in self.by_caster.items()
        }
        self.secret_setup = bool(r.glyph_secret_setup(players=n))
        self.hand_limit = r.glyph_hand_limit(players=n)
        self.dice = setup.dice(self)
        setup.check(self)
        #: The turn the core runs (``tabletop.Turn``): the table of steps in
        #: force (``steps.py``) on the state's twin (``state.Work``). Every
        #: step's check names what is wrong with any decision, and an
        #: arrangement is refused in every step after setup
        #: (``steps.arranged``); a step lists its decisions whoever asks, so
        #: the node is asked first whose they are.
        table = r.glyph_turn_steps(players=n)
        if not rules.official("glyph_turn_steps"):
            steps.check(self, table)
        # What variants remember, asked before every step's effect
        # (``glyph_memo``), and an end a variant adds, asked whenever the game
        # waits (``glyph_game_over``): the table as it is while no variant
        # implements them.
        table = victory.ending(memo.remembering(table, rules), rules)
        #: A variant's rule at the end of a turn (``glyph_turn_end``), or None:
        #: the official one does nothing, and is not asked.
        self.turn_end = None if rules.official("glyph_turn_end") else r.glyph_turn_end
        self.turn = Turn(table, work=Work, screens=False, screen=steps.arranged, guarded=True)
        #: The table of steps in force, by phase.
        self.steps = self.turn.table
        # Nodes asked for again and again, made once.
        self.shuffles = tuple(_shuffles(p) for p in self.players)
        self.rolls = tuple(Chance(tuple(Roll(d + 1, f) for f in GLYPHS)) for d in range(self.dice))
        self.decides = tuple(Decide((p,)) for p in self.players)
        self.draws = tuple(tuple(Draw(p, g) for g in GLYPHS) for p in self.players)
        payment.check_move_costs(self)

    def landing_table(self, seat: int, piece: str) -> dict:
        """What stands on a spot -> whether ``seat``'s ``piece`` may land there
        (``glyph_landing``, worked out once per occupant for these rules)."""
        row = self._rows[0][seat]
        table = row.get(piece)
        if table is None:
            table = row[piece] = ByOccupant(self._landing, seat, piece)
        return table

    def passing_table(self, seat: int, piece: str) -> dict:
        """What stands on a spot -> whether ``seat``'s ``piece`` may pass over it (``glyph_passing``)."""
        row = self._rows[1][seat]
        table = row.get(piece)
        if table is None:
            table = row[piece] = ByOccupant(self._passing, seat, piece)
        return table

    def stop_table(self, seat: int, piece: str) -> dict:
        """What stands on a spot -> ``seat``'s ``piece``'s way along a line
        there (:data:`~tabletop_glyph_chess.context.LANDS` and
        :data:`~tabletop_glyph_chess.context.PASSES`), from :meth:`landing_table`
        and :meth:`passing_table`: one look-up per spot for a move's line."""
        row = self._rows[2][seat]
        table = row.get(piece)
        if table is None:
            table = row[piece] = Stops(self.landing_table(seat, piece), self.passing_table(seat, piece))
        return table

    def draw_node(self, seat: int, counts: tuple[int, ...]) -> Chance:
        """The draw of a coin by ``seat`` from a bag of ``counts`` coins of
        each type: made once per player name and counts in a process."""
        key = (self.players[seat], counts)
        node = DRAW_NODES.get(key)
        if node is None:
            node = DRAW_NODES_KEPT.keep(DRAW_NODES, key, Chance(self.draws[seat], counts))
        return node

    def rerollable(self, state: Any, seat: int) -> tuple[int, ...]:
        """The dice ``seat`` may re-roll in its awakening step."""
        dice = tuple(self.rules.glyph_rerollable(game=self, state=state, seat=seat))
        if "glyph_rerollable" in self.variant_answers and (
            len(set(dice)) < len(dice) or not all(0 <= d < self.dice for d in dice)
        ):
            raise self.rules.refuse("glyph_rerollable", f"gave {dice!r}: dice 0 to {self.dice - 1}, each once")
        return dice

    # -- the contract ------------------------------------------------------------
    def initial(self) -> State:
        start = self.option_values.get("position")
        if start is not None:
            return self.settle(position.build(self.geo, self.players, start, self.dice))
        from .setup import initial

        return initial(self)

    def settle(self, state: State) -> State:
        """``state`` moved on past the steps that need no event."""
        work = thaw(state)
        self.turn.settle(self, work)
        return freeze(work)

    def outcome(self, state: State) -> Outcome:
        outcome = self.rules.glyph_outcome(game=self, state=state)
        if "glyph_outcome" in self.variant_answers:
            strangers = [p for p in (*outcome.winners, *outcome.scores) if p not in self.seats]
            if strangers:
                raise self.rules.refuse("glyph_outcome", f"named {strangers[0]!r}, who is no player of this game")
        return outcome

    def fast(self) -> Fast:
        """The fused, mutable fast path (see :mod:`~tabletop_glyph_chess.fast`)."""
        return Fast(self)

    # -- for learning programs (the OpenSpiel and PettingZoo adapters) ----------
    def planes(self) -> Any:
        """The observation as named planes (``planes.py``)."""
        from .planes import planes

        return planes(self)

    def most_words(self) -> None:
        """None: the rules end a game only with a win (docs/rulings.md), so
        the adapters stop one at their own limit (``tabletop.base.limits``)."""
        return None

    # -- views and text ------------------------------------------------------
    def view(self, state: State, player: str | None) -> State:
        """Others' coins show as a count only: their hand is ``Hidden("coins", n)``;
        their bag and hand together are public (all coins less the used ones).
        The seeress sees the hand she glimpsed while she picks from it."""
        if player is None:
            return state
        seat = self.seats[player]
        glimpsed = state.target if state.phase == DISCARD and state.turn == seat else None
        # A hand hidden already (the view of a view) keeps its bag as the first view made it.
        shown = [i in (seat, glimpsed) or isinstance(h, Hidden) for i, h in enumerate(state.hands)]
        hands = tuple(h if shown[i] else Hidden("coins", sum(h)) for i, h in enumerate(state.hands))
        bags = tuple(
            b if shown[i] else tuple(x + y for x, y in zip(b, state.hands[i])) for i, b in enumerate(state.bags)
        )
        return evolve(state, hands=hands, bags=bags, memo=state.memo.seen_by(player))

    def resign(self, state: State, player: str) -> State:
        return resignation.resign(self, state, player)

    def sees(self, event: Event, player: str | None) -> bool:
        if player is None:
            return True
        if isinstance(event, Draw):
            return event.player == player
        if isinstance(event, Glimpse):
            return player in (event.player, event.target)
        # A variant's own decision says who may see it (a secret shape: its player alone).
        return seen(event, player)

    def determinize(self, view: State, player: str, rng: Any) -> State:
        from .determinize import determinize

        return determinize(self, view, player, rng)

    def evaluate(self, state: State) -> dict[str, float] | None:
        """Chances of winning as the search bot judges them
        (see :mod:`~tabletop_glyph_chess.evaluation`)."""
        return evaluation.evaluate(self, state)

    def prefer(self, state: State, player: str, options: Sequence[Event], rng: Any) -> Event | None:
        """The greedy bot's choice, for a search bot to try first."""
        if state.phase != ACT:
            return None
        return bots.best(self, state, player, options, rng)

    def format(self, event: Event, viewer: str | None = None) -> str:
        return notation.sentence(self, event, self.sees(event, viewer))

    def notate(self, decision: Event) -> str:
        if "glyph_notate" in self.variant_answers:
            text = self.rules.glyph_notate(game=self, decision=decision)
            if not text.strip() or "\n" in text:
                raise self.rules.refuse(
                    "glyph_notate", f"gave {text!r} for {type(decision).__name__}: one line, not empty"
                )
            return text
        return notation.notate(self, decision)

    def parse(self, text: str, player: str, state: State) -> Event:
        if not self.rules.official("glyph_parse"):
            return self.rules.glyph_parse(game=self, text=text, player=player, state=state)
        return notation.parse(self, text, player, state)

    def notate_outcome(self, outcome: Event) -> str | None:
        return notation.outcome(self, outcome)

    def render(self, state: State, viewer: str | None = None, color: bool = False) -> str:
        return render.board_text(self, state, color)

    def describe(self, state: State, viewer: str | None = None) -> dict[str, str]:
        return render.facets(self, state)
