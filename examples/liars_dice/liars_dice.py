"""Liar's Dice loaded by path: ``tabletop --plugins examples/liars_dice ...``.

tabletop loads each ``.py`` file of a folder named with ``--plugins`` as a
module of its own, not as a package. This file puts its folder on the
import path, so that the package beside it, ``tabletop_liars_dice``, imports
as it would installed, and hands tabletop the package's hooks. Installed
(``pip install ./examples/liars_dice``), the package's entry points do this
and the file is not needed.
"""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from tabletop_liars_dice.plugin import register_bots, register_games  # noqa: E402

__all__ = ["register_bots", "register_games"]
