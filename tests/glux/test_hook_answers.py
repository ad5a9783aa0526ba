"""Answers of the right type that Glüx cannot use are refused in one line.

A house rule's answer may pass the type its hook declares and still make no
game: a seat or a player that does not exist, a direction that goes
nowhere, a step under another's name, no winner. Each is refused where Glüx
takes it, naming the variant, the file and line of its implementation, the
hook and what it answered (exit 2), and no file is written: a header-time
rule when the game is made (``new``), a per-move or final-scoring rule
when a game meets it (``selfplay``).
"""

from __future__ import annotations

from pathlib import Path

HOUSE = """from tabletop import Variant, hookimpl, rulehook
from tabletop_glux import Draw, Exclude, Place


class Rules:
{rules}


@hookimpl
def register_variants():
    return [Variant("glux-odd", "glux", "answers Glüx cannot use", Rules())]
"""

#: Every player is stuck at once: no count lands on the board but from a1 to m9.
FAR = """
    @rulehook
    def glux_directions(self):
        return ((12, 8),)
"""


def house(tmp_path: Path, rules: str, hook: str) -> str:
    """The house rule ``rules`` (methods of its class) written to a file, and
    ``FILE:LINE`` of its implementation of ``hook``, as the one line names it."""
    path = tmp_path / "house.py"
    text = HOUSE.format(rules=rules)
    path.write_text(text)
    lines = text.splitlines()
    line = lines.index(next(line for line in lines if line.strip().startswith(f"def {hook}(")))
    return f"{path}:{line}"  # the decorator's line, one above the def (counted from 1)


def refused(cli, tmp_path: Path, rules: str, hook: str, made: bool) -> tuple[str, str]:
    """The output of ``new`` (``made``: the game is made, a header-time rule)
    or a self-played game under the house rule, and where its ``hook`` is;
    the command must exit 2 and write nothing."""
    where = house(tmp_path, rules, hook)
    plugins = ("--plugins", str(tmp_path / "house.py"))
    if made:
        result = cli(
            *plugins, "new", "glux", "--players", "ann,ben", "--variant", "glux-odd", "-o", "g.jsonl", plugins=False
        )
        assert not (tmp_path / "g.jsonl").exists()
    else:
        result = cli(
            *plugins, "selfplay", "glux", "--seats", "2", "--variant", "glux-odd", "-o", "games", plugins=False
        )
        assert not list(tmp_path.glob("games/*"))
    assert result.exit_code == 2, result.output
    return result.output, where


def test_glux_directions_a_step_of_nothing_is_refused_not_counted_forever(cli, tmp_path):
    rules = """
    @rulehook
    def glux_directions(self):
        return ((1, 0), (0, 0))
"""
    output, where = refused(cli, tmp_path, rules, "glux_directions", made=True)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_directions gave ((1, 0), (0, 0)): one or more directions "
        "(column step, row step) are needed, each once, none (0, 0), each less than 13 columns and 9 rows\n"
    )


def test_glux_turn_order_seats_that_do_not_exist_are_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_turn_order(self, seat):
        return (7, 9)
"""
    output, where = refused(cli, tmp_path, rules, "glux_turn_order", made=True)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_turn_order gave (7, 9) after seat 0 (ann): "
        "each other seat (0 to 1) once, then 0 itself or nothing\n"
    )


def test_glux_who_may_start_a_player_not_in_the_game_is_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_who_may_start(self, players):
        return ("nobody",)
"""
    output, where = refused(cli, tmp_path, rules, "glux_who_may_start", made=True)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_who_may_start gave ('nobody',): "
        "one or more of the players (ann, ben) are needed, each once\n"
    )


def test_glux_turn_steps_an_empty_table_names_the_file_and_line(cli, tmp_path):
    rules = """
    @rulehook
    def glux_turn_steps(self, players):
        return {}
"""
    output, where = refused(cli, tmp_path, rules, "glux_turn_steps", made=True)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_turn_steps gave a table with no step "
        "'draw', 'over', 'place', 'setup'\n"
    )


def test_glux_stack_height_of_no_chip_is_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_stack_height(self, players):
        return 0
"""
    output, where = refused(cli, tmp_path, rules, "glux_stack_height", made=True)
    assert output == f"tabletop: {where}: variant 'glux-odd': glux_stack_height gave 0: a square holds 1 chip or more\n"


def test_glux_may_land_nowhere_is_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_may_land(self, game, seat, square):
        return seat != 1
"""
    output, where = refused(cli, tmp_path, rules, "glux_may_land", made=True)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_may_land answered False for ben (seat 1) on every square: "
        "they could never place\n"
    )


def test_glux_draw_after_placing_from_an_empty_bag_is_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_draw_after_placing(self, seat):
        return True
"""
    output, where = refused(cli, tmp_path, rules, "glux_draw_after_placing", made=False)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_draw_after_placing answered True for p2-random, "
        "whose bag is empty: no chip to draw\n"
    )


def test_glux_stuck_an_event_of_another_player_is_refused_not_forced_forever(cli, tmp_path):
    rules = (
        FAR
        + """
    @rulehook
    def glux_stuck(self, game, seat):
        return Exclude(game.players[1 - seat])
"""
    )
    output, where = refused(cli, tmp_path, rules, "glux_stuck", made=False)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_stuck gave 'p1-random is excluded (no placement left)' "
        "for p2-random, who is stuck: an event of p2-random's, an exclusion, a placement the rules allow "
        "or a variant's own event\n"
    )


def test_glux_decisions_a_decision_of_nobody_is_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_decisions(self, game, state, seat):
        return (Exclude("nobody"),)
"""
    output, where = refused(cli, tmp_path, rules, "glux_decisions", made=False)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_decisions gave 'nobody is excluded (no placement left)' "
        "for p2-random, who may not take it now (not theirs)\n"
    )


def test_glux_room_pips_of_nobody_are_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_room_pips(self, room):
        return {"nobody": 5}
"""
    output, where = refused(cli, tmp_path, rules, "glux_room_pips", made=False)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_room_pips gave 'nobody' in room A: "
        "only the players (p1-random, p2-random) score\n"
    )


def test_glux_score_room_points_for_nobody_are_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_score_room(self, room):
        return {"nobody": 4}
"""
    output, where = refused(cli, tmp_path, rules, "glux_score_room", made=False)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_score_room gave 'nobody' in room A: "
        "only the players (p1-random, p2-random) score\n"
    )


def test_glux_winners_nobody_is_refused_not_accepted(cli, tmp_path):
    rules = """
    @rulehook
    def glux_winners(self, points):
        return ("nobody",)
"""
    output, where = refused(cli, tmp_path, rules, "glux_winners", made=False)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_winners gave ('nobody',): "
        "one or more of the players (p1-random, p2-random) are needed, each once\n"
    )


def test_glux_tiebreak_no_winner_among_the_tied_is_refused(cli, tmp_path):
    rules = """
    @rulehook
    def glux_winners(self, points):
        return tuple(points)

    @rulehook
    def glux_tiebreak(self, tied):
        return ()
"""
    output, where = refused(cli, tmp_path, rules, "glux_tiebreak", made=False)
    assert output == (
        f"tabletop: {where}: variant 'glux-odd': glux_tiebreak gave no player: "
        "one or more of the tied (p1-random, p2-random) are needed, each once\n"
    )
