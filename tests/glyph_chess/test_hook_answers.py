"""A house rule whose hooks answer values of the right type that the game
cannot use (a spot off the board, a seat that is none, a cost of nothing,
a spell named like another decision) is refused in one line naming the
variant, its file and line, the hook and what it answered: exit 2, no file
written. One test per hook, named after it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

HEAD = """import attrs

from tabletop import Outcome, Variant, hookimpl, rulehook
from tabletop_glyph_chess import Payers
from tabletop_glyph_chess.spells import SPELLS


class Rule:
"""
TAIL = """

@hookimpl
def register_variants():
    return [Variant("house", "glyph-chess", "a house rule of the test", Rule())]
"""


def house(tmp_path: Path, body: str) -> Path:
    """A house rule file: the class ``Rule`` holding ``body``, registered as
    the variant ``house`` (a file of its own for each body: a process loads
    a plugin file once)."""
    path = tmp_path / f"house{len(list(tmp_path.glob('house*.py')))}.py"
    path.write_text(HEAD + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + TAIL)
    return path


def where(path: Path, hook: str) -> str:
    """``FILE:LINE`` of the hook's implementation in the house rule (its decorator's line)."""
    lines = path.read_text().splitlines()
    line = next(i for i, text in enumerate(lines) if text.strip().startswith(f"def {hook}("))
    return f"{path}:{line}"


def refused(cli, tmp_path: Path, body: str, *command: str, hook: str, problem: str, prefix: str = "") -> None:
    """The command with the house rule refuses it in the one line expected, exit 2."""
    path = house(tmp_path, body)
    result = cli("--plugins", path, *command, plugins=False)
    assert result.exit_code == 2, result.output
    assert result.stderr == f"tabletop: {prefix}{where(path, hook)}: variant 'house': {hook} {problem}\n"


def new(cli, tmp_path: Path, body: str, hook: str, problem: str, *options: str) -> None:
    """``new`` with the house rule is refused; no log is written."""
    command = ("new", "glyph-chess", "--players", "ann,ben", "--variant", "house", "--seed", "1", *options)
    refused(cli, tmp_path, body, *command, "-o", "g.jsonl", hook=hook, problem=problem)
    assert not (tmp_path / "g.jsonl").exists()


def selfplay(cli, tmp_path: Path, body: str, hook: str, problem: str) -> None:
    """``selfplay`` with the house rule is refused as soon as it is met (a
    per-move hook, asked as the game is played); no log is written."""
    command = ("selfplay", "glyph-chess", "--seats", "2", "--variant", "house", "--games", "2", "-o", "out")
    refused(cli, tmp_path, body, *command, hook=hook, problem=problem)
    assert not list(tmp_path.glob("out/*"))


# -- setup -----------------------------------------------------------------------------
def test_glyph_start_edges_spots_off_the_board_or_shared_are_refused(cli, tmp_path):
    off = """
    @rulehook
    def glyph_start_edges(self, game, players):
        return [[999, 1, 2, 3, 4, 5, 6], [100, 101, 102, 103, 104, 105, 106]]
    """
    new(cli, tmp_path, off, "glyph_start_edges", "gave spot 999: the board's spots are 0 to 126")
    shared = """
    @rulehook
    def glyph_start_edges(self, game, players):
        return [[0, 1, 2, 3, 4, 5, 6], [6, 7, 8, 9, 10, 11, 12]]
    """
    new(cli, tmp_path, shared, "glyph_start_edges", "gave spot 6 (a7) twice")


def test_glyph_first_player_a_seat_that_is_none_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_first_player(self, players):
        return -1
    """
    new(cli, tmp_path, body, "glyph_first_player", "gave -1: the seats are 0 to 1")


def test_glyph_starting_coins_more_than_the_bag_holds_are_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_starting_coins(self, players, seat, first):
        return 1000
    """
    new(cli, tmp_path, body, "glyph_starting_coins", "gave 1000 for seat 0: 0 to the 12 coins of the bag")


def test_glyph_coins_a_bag_of_too_few_types_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_coins(self, players):
        return (2, 2, 2)
    """
    new(cli, tmp_path, body, "glyph_coins", "gave (2, 2, 2): a bag holds 0 to 99 coins of each of 6 types")


def test_glyph_hand_limit_a_negative_limit_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_hand_limit(self, players):
        return -5
    """
    new(cli, tmp_path, body, "glyph_hand_limit", "gave -5: a hand limit is 0 or more coins")


# -- the turn ----------------------------------------------------------------------------
def test_glyph_turn_steps_a_table_without_a_phase_is_refused(cli, tmp_path):
    body = """
    @rulehook(wrapper=True)
    def glyph_turn_steps(self, players):
        table = dict((yield))
        del table["draw"]
        return table
    """
    problem = "gave a table without draw (the game's steps lead to every phase)"
    new(cli, tmp_path, body, "glyph_turn_steps", problem)


def test_glyph_rerollable_a_die_the_game_does_not_share_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_rerollable(self, game, state, seat):
        return (-1, 0)
    """
    new(cli, tmp_path, body, "glyph_rerollable", "gave (-1, 0): dice 0 to 4, each once")


def test_glyph_draws_a_draw_from_nothing_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_coins(self, players):
        return (0,) * 6

    @rulehook
    def glyph_starting_coins(self, players, seat, first):
        return 0

    @rulehook
    def glyph_draws(self, game, state, seat):
        return True
    """
    new(cli, tmp_path, body, "glyph_draws", "said ann draws with no coin in the bag or used")


# -- moving a piece ------------------------------------------------------------------------
def test_glyph_move_range_a_negative_range_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_move_range(self, game, state, seat, piece, source):
        if piece == "S":
            return -2
    """
    problem = "gave -2 for the seeress: a range is 0 (it does not move) or more"
    selfplay(cli, tmp_path, body, "glyph_move_range", problem)


def test_glyph_move_costs_a_move_for_nothing_is_refused(cli, tmp_path):
    body = """
    @rulehook(wrapper=True)
    def glyph_move_costs(self, players):
        official = yield
        return lambda piece, distance: ("x", 0) if piece == "S" else official(piece, distance)
    """
    problem = "for the seeress: a move costs 1 item or more (it gave ('x', 0) for a move of 1)"
    new(cli, tmp_path, body, "glyph_move_costs", problem)


def test_glyph_move_cost_a_cost_of_no_kind_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_move_cost(self, game, state, seat, piece, distance):
        if piece == "S":
            return "gold", distance
    """
    problem = (
        "for the seeress: 'gold' is not a cost kind (cost kinds: any-die, coin, die, die+x, item, x)"
        " (it gave ('gold', 1) for a move of 1)"
    )
    new(cli, tmp_path, body, "glyph_move_cost", problem)


def test_glyph_move_directions_a_line_off_the_board_or_standing_still_is_refused(cli, tmp_path):
    off = """
    @rulehook
    def glyph_move_directions(self, game, state, seat, piece, source):
        if piece == "S":
            return {"up": (-1,)}
    """
    selfplay(cli, tmp_path, off, "glyph_move_directions", "gave a line 'up' from a7 holding -1: off the board")
    still = """
    @rulehook
    def glyph_move_directions(self, game, state, seat, piece, source):
        if piece == "S":
            return {"stay": (source,)}
    """
    selfplay(cli, tmp_path, still, "glyph_move_directions", "gave a line 'stay' from a7 holding 6: the piece's own")


# -- spells and paying ----------------------------------------------------------------------
def test_glyph_spells_a_spell_under_another_name_or_a_notation_word_is_refused(cli, tmp_path):
    renamed = """
    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        return {**(yield), "hop": SPELLS["swap"]}
    """
    problem = "gave the spell 'hop': it is named 'swap' (a spell is listed under its own name)"
    new(cli, tmp_path, renamed, "glyph_spells", problem)
    clash = """
    @rulehook(wrapper=True)
    def glyph_spells(self, players):
        return {**(yield), "escape": attrs.evolve(SPELLS["swap"], name="escape")}
    """
    problem = "gave the spell 'escape': a spell's name is a lower-case word the notation reads as no other decision"
    new(cli, tmp_path, clash, "glyph_spells", problem)


def test_glyph_more_spells_a_spell_named_pass_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_more_spells(self, players):
        return {"pass": attrs.evolve(SPELLS["swap"], name="pass")}
    """
    problem = "gave the spell 'pass': a spell's name is a lower-case word the notation reads as no other decision"
    new(cli, tmp_path, body, "glyph_more_spells", problem)


def test_glyph_costs_a_cost_for_no_spell_is_refused(cli, tmp_path):
    body = """
    @rulehook(wrapper=True)
    def glyph_costs(self):
        return {**(yield), "swapp": "item"}
    """
    spells = "swap, replica, foresee, blaze, blast, revive, march, summon"
    new(cli, tmp_path, body, "glyph_costs", f"gave a cost for 'swapp', which is no spell (spells: {spells})")


def test_glyph_payers_a_coin_type_that_is_none_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_payers(self, game, state, seat, spot, kind):
        if kind == "E":
            return Payers(frozenset({kind}), frozenset({"Q"}))
    """
    problem = "gave 'Q' for E: 'Q' is not a payment type (a cost is paid in items of a glyph type: S, I, E, F, N, U)"
    selfplay(cli, tmp_path, body, "glyph_payers", problem)


def test_glyph_wild_coins_a_coin_type_that_is_none_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_wild_coins(self, game, state, seat):
        return frozenset({"Z"})
    """
    problem = "gave 'Z': 'Z' is not a payment type (a cost is paid in items of a glyph type: S, I, E, F, N, U)"
    selfplay(cli, tmp_path, body, "glyph_wild_coins", problem)


def test_glyph_notate_an_empty_decision_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_notate(self, game, decision):
        return ""
    """
    path = house(tmp_path, body)
    made = cli(
        "--plugins",
        path,
        "new",
        "glyph-chess",
        "--players",
        "ann,ben",
        "--variant",
        "house",
        "-o",
        "g.jsonl",
        plugins=False,
    )
    assert made.exit_code == 0, made.output
    log = (tmp_path / "g.jsonl").read_bytes()
    result = cli("--plugins", path, "moves", "g.jsonl", plugins=False)
    assert result.exit_code == 2
    problem = "gave '' for Move: one line, not empty"
    assert result.stderr == f"tabletop: {where(path, 'glyph_notate')}: variant 'house': glyph_notate {problem}\n"
    assert (tmp_path / "g.jsonl").read_bytes() == log


# -- the necromancer's escape ----------------------------------------------------------------
def escape_refused(cli, tmp_path: Path, body: str, hook: str, problem: str) -> None:
    """ann's seeress takes ben's necromancer, who holds an N coin: the escape
    is asked, the house rule's answer refused; the log is as it was."""
    start = {
        "turn": "ann",
        "dice": ["S", "E", "E", "N", "U"],
        "pieces": {"ann": {"a4": "K", "g3": "S"}, "ben": {"m4": "K", "g4": "N"}},
        "hands": {"ann": ["S"], "ben": ["N"]},
    }
    (tmp_path / "start.json").write_text(json.dumps(start))
    path = house(tmp_path, body)
    made = cli(
        "--plugins", path, "new", "glyph-chess", "--players", "ann,ben", "--variant", "house",
        "--seed", "1", "--option", "position=start.json", "-o", "g.jsonl", plugins=False,
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert cli("--plugins", path, "play", "g.jsonl", "skip", plugins=False).exit_code == 0
    log = (tmp_path / "g.jsonl").read_bytes()
    move = "g3-g4 / S"
    refused(cli, tmp_path, body, "play", "g.jsonl", move, hook=hook, problem=problem, prefix=f"g.jsonl: '{move}': ")
    assert (tmp_path / "g.jsonl").read_bytes() == log


def test_glyph_escape_cost_a_type_that_is_none_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_escape_cost(self, game, state, spot):
        return "Z"
    """
    problem = "gave 'Z': 'Z' is not a payment type (a cost is paid in items of a glyph type: S, I, E, F, N, U)"
    escape_refused(cli, tmp_path, body, "glyph_escape_cost", problem)


def test_glyph_escape_coins_a_die_the_game_does_not_share_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_escape_coins(self, game, state, spot):
        return ["N", "D9"]
    """
    problem = "gave 'D9': a coin letter (S I E F N U) or a die D1 to D5"
    escape_refused(cli, tmp_path, body, "glyph_escape_coins", problem)


# -- the end ----------------------------------------------------------------------------------
def test_glyph_outcome_a_winner_who_is_no_player_is_refused(cli, tmp_path):
    body = """
    @rulehook
    def glyph_centre_wins(self, game, state, seat):
        return True

    @rulehook(wrapper=True)
    def glyph_outcome(self, game, state):
        outcome = yield
        return Outcome({"zed": 1}, ("zed",), outcome.note) if outcome.winners else outcome
    """
    selfplay(cli, tmp_path, body, "glyph_outcome", "named 'zed', who is no player of this game")


def test_glyph_wild_coins_refused_when_new_shows_the_first_decision_leaves_no_log(cli, tmp_path):
    """``new`` asks what comes next before it writes the log: a per-move
    hook refused there leaves no file."""
    body = """
    @rulehook
    def glyph_wild_coins(self, game, state, seat):
        return frozenset({"Z"})
    """
    problem = "gave 'Z': 'Z' is not a payment type (a cost is paid in items of a glyph type: S, I, E, F, N, U)"
    new(cli, tmp_path, body, "glyph_wild_coins", problem)
