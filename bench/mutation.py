"""Mutation testing of a game's rule modules with cosmic-ray, on a sample.

    python bench/mutation.py glux [--sample 40] [--seed 1] [--keep DIR]
    python bench/mutation.py glyph-chess [--sample 40] [--seed 1] [--keep DIR]

Each mutant changes one thing in one rule module: a comparison, a number,
``and``/``or``, or ``True``/``False`` (cosmic-ray's operators of those
kinds). For each mutant in a random sample the game's own tests run
(``tests/glux`` or ``tests/glyph_chess``, stopping at the first failure); a mutant the tests do not
fail survives. It prints the score and every survivor (file, line, what
changed), which docs/testing.md records with the reason each survives.

It works on a copy of the source in a temporary folder (cosmic-ray changes
files on disk, one mutant at a time), so the work tree is never touched and
other runs are not disturbed. Needs cosmic-ray (``pip install -e
".[bench]"``). Mutants run one after another: on a 2-core machine, 40
mutants take some 10-20 minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: For each game: its rule modules and the tests run against each mutant.
GAMES = {
    "glux": {
        "modules": [
            "plugins/tabletop_glux/placement.py",
            "plugins/tabletop_glux/scoring.py",
            "plugins/tabletop_glux/start_option.py",
            "plugins/tabletop_glux/exclusion.py",
            "plugins/tabletop_glux/turn.py",
            "plugins/tabletop_glux/setup.py",
            "plugins/tabletop_glux/end.py",
            "plugins/tabletop_glux/steps.py",
        ],
        "tests": "tests/glux",
    },
    "glyph-chess": {
        "modules": [
            "plugins/tabletop_glyph_chess/movement.py",
            "plugins/tabletop_glyph_chess/payment.py",
            "plugins/tabletop_glyph_chess/context.py",
            "plugins/tabletop_glyph_chess/actions.py",
            "plugins/tabletop_glyph_chess/sight.py",
            "plugins/tabletop_glyph_chess/escape.py",
            "plugins/tabletop_glyph_chess/kills.py",
            "plugins/tabletop_glyph_chess/scepter.py",
            "plugins/tabletop_glyph_chess/awakening.py",
            "plugins/tabletop_glyph_chess/victory.py",
            "plugins/tabletop_glyph_chess/spells/blast.py",
            "plugins/tabletop_glyph_chess/spells/blaze.py",
            "plugins/tabletop_glyph_chess/spells/foresee.py",
            "plugins/tabletop_glyph_chess/spells/march.py",
            "plugins/tabletop_glyph_chess/spells/replica.py",
            "plugins/tabletop_glyph_chess/spells/revive.py",
            "plugins/tabletop_glyph_chess/spells/summon.py",
            "plugins/tabletop_glyph_chess/spells/swap.py",
        ],
        # The rules' own tests first, so that a killed mutant fails fast.
        "tests": " ".join(
            f"tests/glyph_chess/{name}.py"
            for name in (
                "test_paying",
                "test_spell_landings",
                "test_moves",
                "test_spells",
                "test_faq",
                "test_rule_hooks",
                "test_turn",
                "test_victory",
                "test_setup",
                "test_new_reach",
                "test_house_rules",
                "test_legal_sets",
                "test_fast",
                "test_variant_and_hooks",
                "test_text",
                "test_commands",
                "test_bots",
                "test_evaluation",
                "test_geometry_and_examples",
            )
        ),
    },
}

#: The kinds of change made (cosmic-ray operator names start with these).
KINDS = (
    "core/ReplaceComparisonOperator_",
    "core/NumberReplacer",
    "core/ReplaceAndWithOr",
    "core/ReplaceOrWithAnd",
    "core/ReplaceTrueWithFalse",
    "core/ReplaceFalseWithTrue",
)


def copy_tree(into: Path) -> None:
    """Every file git knows of in the work tree (docs and replays included:
    tests read them), as it is now."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--sample", type=int, default=40, help="how many mutants to run (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for one mutant's tests")
    parser.add_argument("--keep", type=Path, help="keep the copy and the session in this folder")
    args = parser.parse_args()
    try:
        from cosmic_ray.work_db import WorkDB, use_db
        from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult
    except ImportError:
        print('bench/mutation.py needs cosmic-ray: pip install -e ".[bench]"', file=sys.stderr)
        return 2
    game = GAMES[args.game]
    work = args.keep or Path(tempfile.mkdtemp(prefix="mutation-"))
    work.mkdir(parents=True, exist_ok=True)
    copy_tree(work)
    python = sys.executable
    config = work / "cosmic-ray.toml"
    modules = ", ".join(f'"{m}"' for m in game["modules"])
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = [{modules}]\n"
        f"timeout = {args.timeout}\n"
        "excluded-modules = []\n"
        f'test-command = "{python} -m pytest -x -q -p no:cacheprovider {game["tests"]}"\n\n'
        '[cosmic-ray.distributor]\nname = "local"\n'
    )
    session = work / "session.sqlite"
    env = dict(os.environ)
    # The copy's packages come first, before the installed work tree's.
    env["PYTHONPATH"] = os.pathsep.join(str(work / p) for p in ("plugins", "src", "variants"))
    cosmic = [python, "-m", "cosmic_ray.cli"]
    # The unchanged copy must pass, or every mutant would count as killed.
    tests = [python, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *game["tests"].split()]
    unchanged = subprocess.run(tests, cwd=work, env=env, capture_output=True, text=True)
    if unchanged.returncode != 0:
        tail = "\n".join(unchanged.stdout.splitlines()[-15:])
        print(f"{tail}\nthe tests fail on the unchanged copy in {work}: fix that first", file=sys.stderr)
        return 1
    subprocess.run([*cosmic, "init", str(config), str(session)], cwd=work, env=env, check=True)
    with use_db(str(session), WorkDB.Mode.open) as db:
        items = sorted(db.pending_work_items, key=lambda item: item.job_id)
        chosen = [item for item in items if item.mutations[0].operator_name.startswith(KINDS)]
        random.Random(args.seed).shuffle(chosen)
        if args.sample:
            chosen = chosen[: args.sample]
        keep = {item.job_id for item in chosen}
        db.set_multiple_results(
            [item.job_id for item in items if item.job_id not in keep], WorkResult(worker_outcome=WorkerOutcome.SKIPPED)
        )
    print(f"{len(chosen)} mutants of {len(items)} ({args.game}), in {work}", flush=True)
    subprocess.run([*cosmic, "exec", str(config), str(session)], cwd=work, env=env, check=True)
    killed, survivors = 0, []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if item.job_id not in keep:
                continue
            if result.test_outcome == TestOutcome.SURVIVED:
                survivors.append((item, result))
            else:
                killed += 1
    total = killed + len(survivors)
    print(f"\n{args.game}: {killed} of {total} mutants killed ({100 * killed / max(total, 1):.0f}%)")
    for item, result in sorted(
        survivors, key=lambda s: (str(s[0].mutations[0].module_path), s[0].mutations[0].start_pos)
    ):
        mutation = item.mutations[0]
        changed = [line for line in (result.diff or "").splitlines() if line.startswith(("+", "-"))]
        changed = [line for line in changed if not line.startswith(("+++", "---"))]
        print(f"  survived: {mutation.module_path}:{mutation.start_pos[0]} {mutation.operator_name}")
        for line in changed:
            print(f"      {line.strip()}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
