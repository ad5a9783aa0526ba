"""What a Glüx house rule that keeps memory costs: self-play speed under
``glux-lucky-chip`` (``variants/house_rules/glux_lucky_chip.py``, which
wraps ``glux_memo``), as a ratio to the official rules, measured in the
same process, round by round, interleaved.

    python bench/glux_memo.py [--rounds 5] [--games 100] [--players 4]

Rates are per second of this process's CPU time (``time.process_time``);
each round plays the same seeds on both sides.
"""

from __future__ import annotations

from pathlib import Path

from glux_wrapped import compare  # bench/ is this script's folder: on the path

SIDES = {"official": (), "glux-lucky-chip": ("glux-lucky-chip",)}
LUCKY = Path(__file__).resolve().parent.parent / "variants" / "house_rules" / "glux_lucky_chip.py"


def main() -> None:
    compare(SIDES, LUCKY, rounds=5, games=100)


if __name__ == "__main__":
    main()
