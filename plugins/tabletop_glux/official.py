"""The official rules of Glüx: every rule hook's default implementation.

Each lives beside the rule it implements; this module gathers them, so that
they register as one plugin (the game's ``official_rules``).
"""

from __future__ import annotations

from .chips import glux_chips
from .decisions import glux_apply, glux_check, glux_decisions, glux_notate, glux_parse
from .end import glux_game_over, glux_still_placing
from .exclusion import glux_stuck
from .memo import glux_memo
from .placement import (
    glux_counts_from,
    glux_directions,
    glux_distance,
    glux_may_cover,
    glux_may_land,
    glux_may_pass,
    glux_stack_height,
)
from .scoring import glux_final_scores, glux_room_pips, glux_score_room, glux_tiebreak, glux_winners, rank_room
from .setup import glux_bag, glux_hand_size, glux_start_squares, glux_who_may_start
from .start_option import glux_start_option
from .steps import glux_turn_steps
from .turn import glux_draw_after_placing, glux_turn_order

__all__ = [
    "glux_apply",
    "glux_bag",
    "glux_check",
    "glux_chips",
    "glux_counts_from",
    "glux_decisions",
    "glux_directions",
    "glux_final_scores",
    "glux_distance",
    "glux_draw_after_placing",
    "glux_game_over",
    "glux_hand_size",
    "glux_may_cover",
    "glux_may_land",
    "glux_may_pass",
    "glux_memo",
    "glux_notate",
    "glux_parse",
    "glux_room_pips",
    "glux_score_room",
    "glux_stack_height",
    "glux_start_option",
    "glux_start_squares",
    "glux_still_placing",
    "glux_stuck",
    "glux_tiebreak",
    "glux_turn_order",
    "glux_turn_steps",
    "glux_who_may_start",
    "glux_winners",
    "rank_room",
]
