"""Glyph Chess fidelity fingerprint: self-play logs from fixed seeds (random,
greedy and search bots; two and three players; with and without every
shipped house rule) hashed, and every legal set along them, so that a change
to the rules' code can be shown to play exactly the same games.

    python bench/glyph_fidelity.py > before.txt   # on the old code
    python bench/glyph_fidelity.py > after.txt    # on the new code
    diff before.txt after.txt                     # nothing: the same games

Each line: the case, then the SHA-256 of its logs and of the legal sets met
along them (plain path).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "variants" / "house_rules"
CASES = [
    ("random-2p", ["--seats", "2", "--games", "12"]),
    ("random-3p", ["--seats", "3", "--games", "8"]),
    ("greedy-2p", ["--seats", "2", "--games", "4", "--bot", "greedy"]),
    ("greedy-random-3p", ["--seats", "3", "--games", "3", "--bot", "greedy", "--bot", "random", "--bot", "greedy"]),
    ("mcts-2p", ["--seats", "2", "--games", "1", "--bot", "mcts:iterations=30", "--bot", "greedy"]),
    ("long-scepter", ["--seats", "2", "--games", "6", "--variant", "glyph-long-scepter"]),
    ("push", ["--seats", "2", "--games", "6", "--variant", "glyph-push", "--bot", "greedy", "--bot", "random"]),
    ("hand-limit", ["--seats", "3", "--games", "4", "--variant", "glyph-hand-limit:limit=7"]),
    ("advanced-setup", ["--seats", "2", "--games", "3", "--variant", "glyph-advanced-setup"]),
]


def main() -> None:
    plugins = [
        p
        for f in sorted(HOUSE.glob("glyph_*.py"))
        if f.stem in ("glyph_long_scepter", "glyph_push", "glyph_hand_limit")
        for p in ("--plugins", str(f))
    ]
    tabletop = str(Path(sys.executable).parent / "tabletop")
    for name, args in CASES:
        with tempfile.TemporaryDirectory() as out:
            cmd = [tabletop, *plugins, "selfplay", "glyph-chess", "--seed", f"fid-{name}", "-o", out, *args]
            subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
            digest = hashlib.sha256()
            for log in sorted(Path(out).iterdir()):
                digest.update(log.name.encode() + b"\0" + log.read_bytes())
            print(name, digest.hexdigest(), flush=True)


if __name__ == "__main__":
    main()
