"""The official rules: each rule hook's default, kept beside the rule it
implements and gathered here to register as one plugin (the game's
``official_rules``)."""

from __future__ import annotations

from .bidding import liars_dice_bids
from .call import liars_dice_wild
from .roll import liars_dice_dice
from .steps import liars_dice_turn_steps

__all__ = ["liars_dice_bids", "liars_dice_dice", "liars_dice_turn_steps", "liars_dice_wild"]
