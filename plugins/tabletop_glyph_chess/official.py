"""The official rules of Glyph Chess: every rule hook's default
implementation, each kept beside the rule it implements and gathered here."""

from __future__ import annotations

from .awakening import glyph_draws, glyph_hand_limit, glyph_rerollable
from .escape import glyph_escape_coins, glyph_escape_cost
from .kills import glyph_strike
from .memo import glyph_memo
from .movement import (
    glyph_landing,
    glyph_may_land,
    glyph_may_pass,
    glyph_move_cost,
    glyph_move_costs,
    glyph_move_directions,
    glyph_move_range,
    glyph_passing,
)
from .notation import glyph_notate, glyph_parse
from .payment import glyph_payers, glyph_wild_coins
from .scepter import glyph_centre_wins, glyph_eliminate
from .setup import (
    glyph_coins,
    glyph_dice,
    glyph_first_player,
    glyph_secret_setup,
    glyph_start_edges,
    glyph_starting_coins,
)
from .sight import glyph_may_use_coins
from .spells import COSTS, glyph_costs, glyph_more_spells, glyph_spells
from .steps import glyph_turn_steps
from .turn_end import glyph_turn_end
from .victory import glyph_game_over, glyph_outcome

#: Every official rule, by hook name.
OFFICIAL = {
    f.__name__: f
    for f in (
        glyph_secret_setup,
        glyph_start_edges,
        glyph_first_player,
        glyph_starting_coins,
        glyph_coins,
        glyph_dice,
        glyph_turn_steps,
        glyph_turn_end,
        glyph_rerollable,
        glyph_hand_limit,
        glyph_draws,
        glyph_move_range,
        glyph_move_costs,
        glyph_move_cost,
        glyph_move_directions,
        glyph_passing,
        glyph_landing,
        glyph_may_pass,
        glyph_may_land,
        glyph_spells,
        glyph_more_spells,
        glyph_costs,
        glyph_may_use_coins,
        glyph_wild_coins,
        glyph_payers,
        glyph_parse,
        glyph_notate,
        glyph_memo,
        glyph_strike,
        glyph_escape_cost,
        glyph_escape_coins,
        glyph_centre_wins,
        glyph_eliminate,
        glyph_game_over,
        glyph_outcome,
    )
}

__all__ = ["COSTS", "OFFICIAL", *OFFICIAL]
