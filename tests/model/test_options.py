"""Options and variant parameters that refuse a bad value in one line naming
it (tabletop.model.options)."""

from __future__ import annotations

import pickle

import attrs
import pytest

from tabletop import UsageError
from tabletop.model.options import Number, between

from ..conftest import run_tabletop

DICE = Number("dice each player rolls", 1, 5, default=1)


def test_a_number_option_is_its_help_line_with_its_bounds():
    assert DICE == "dice each player rolls (from 1 to 5; default 1)"
    assert Number("faces", 2, 9) == "faces (from 2 to 9)"
    assert pickle.loads(pickle.dumps(DICE)).high == 5
    with pytest.raises(ValueError):
        Number("dice", 1, 5, default=9)


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("6", "6 is not a number from 1 to 5"),
        ("0", "0 is not"),
        ("two", "'two' is not a number"),
        ("9" * 40, "is not a number"),
    ],
)
def test_a_number_option_refuses_a_value_out_of_bounds_or_not_a_number(given, said):
    with pytest.raises(UsageError, match=f"^option 'dice': .*{said}"):
        DICE.read("dice", given)


def test_a_number_option_reads_and_checks():
    assert DICE.read("dice", " 3 ") == 3 and DICE.check("dice", 5) == 5
    for held in ("3", 3.0, True, None):
        with pytest.raises(UsageError, match="^option 'dice'"):
            DICE.check("dice", held)


def test_a_variant_parameter_out_of_bounds_is_one_line_naming_the_variant(tmp_path):
    @attrs.frozen
    class Limit:
        limit: int = attrs.field(default=5, validator=between(1, 9))

    assert Limit(9).limit == 9
    with pytest.raises(UsageError, match="parameter 'limit': 10 is not a number from 1 to 9"):
        Limit(10)
    (tmp_path / "limit.py").write_text(
        "import attrs\n"
        "from tabletop import Variant, hookimpl, rulehook\n"
        "from tabletop.model.options import between\n\n\n"
        "@attrs.frozen\n"
        "class HandLimit:\n"
        "    limit: int = attrs.field(default=5, validator=between(1, 9))\n\n"
        "    @rulehook\n"
        "    def glyph_hand_limit(self, players):\n"
        "        return self.limit\n\n\n"
        "@hookimpl\n"
        "def register_variants():\n"
        "    return [Variant('hand-limit', 'glyph-chess', 'draw up to LIMIT coins', HandLimit)]\n"
    )
    done = run_tabletop(
        "--plugins",
        "limit.py",
        "new",
        "glyph-chess",
        "--players",
        "a,b",
        "--variant",
        "hand-limit:limit=-3",
        "-o",
        "g.jsonl",
        cwd=tmp_path,
    )
    assert done.returncode == 2 and not (tmp_path / "g.jsonl").exists()
    assert done.stderr.strip() == "tabletop: variant 'hand-limit': parameter 'limit': -3 is not a number from 1 to 9"
