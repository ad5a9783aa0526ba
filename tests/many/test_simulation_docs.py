"""docs/simulation.md's commands run as written (with --games 2), and its
Python example runs; the Dask cluster commands are left to a real cluster."""

from __future__ import annotations

import re
import shlex

import pytest

from ..conftest import ROOT, Cli

PAGE = ROOT / "docs" / "simulation.md"
#: Commands that need something the tests do not start (a cluster at
#: 10.0.0.5, an install), or that run a benchmark.
ELSEWHERE = ("dask ", "pip install", "--scheduler tcp://10.0.0.5", "bench/million.py", "# on ")


def commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", PAGE.read_text(), re.S)
    # A command continued on the next line (a trailing backslash) is one command.
    lines = [line for block in blocks for line in block.replace("\\\n", " ").splitlines() if line.strip()]
    return [c for c in lines if c.startswith("tabletop ") and not any(e in c for e in ELSEWHERE)]


def test_the_pages_commands_run(tmp_path, monkeypatch):
    # In this process (click's runner), from a folder holding the repository's house rules.
    (tmp_path / "variants").symlink_to(ROOT / "variants")
    monkeypatch.delenv("TABLETOP_PLUGINS", raising=False)
    cli = Cli(tmp_path)
    # The logs and results file the stats examples read.
    prepare = "tabletop simulate glux --seats 2 --bot greedy --games 3 --workers 1 -o games --results games.csv"
    runnable = [c for c in commands() if not c.startswith("tabletop simulate GAME")]
    assert len(runnable) >= 8
    for command in [prepare, *runnable]:
        command = re.sub(r"--games \d+", "--games 2", command)
        command = command.replace("a.jsonl b.jsonl old/", "games/glux-00001.jsonl games/glux-00002.jsonl games/")
        words = shlex.split(command.split(" #")[0])[1:]
        into = None
        if ">" in words:
            words, into = words[: words.index(">")], words[words.index(">") + 1]
        done = cli(*words, plugins=False)
        assert done.exit_code == 0, f"{command}\n{done.stderr}"
        if into is not None:
            (tmp_path / into).write_text(done.stdout)


def python_blocks(word: str) -> list[str]:
    return [c for c in re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S) if word in c]


def test_the_pages_python_example_runs(tmp_path, monkeypatch):
    (code,) = python_blocks('results=Path("study.csv")')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TABLETOP_PLUGINS", raising=False)
    exec(compile(code.replace("games=200", "games=4"), "simulation.md", "exec"), {})
    assert (tmp_path / "study.csv").read_text().count("\n") == 2 + 4


def test_the_slurm_recipe_runs_on_a_local_cluster(tmp_path, monkeypatch):
    """The SLURM recipe as written, on a real Dask LocalCluster standing in
    for the batch jobs (no SLURM here): the study reaches the workers with
    its house rules, writes its folder and prints its table. Its arguments
    are checked against dask-jobqueue's own where that is installed."""
    import inspect
    import sys
    import types

    distributed = pytest.importorskip("distributed")
    from tabletop.many import parts

    (code,) = python_blocks("SLURMCluster")
    started = []

    def slurm_cluster(**kwargs):
        try:
            from dask_jobqueue import SLURMCluster
        except ImportError:
            pass
        else:
            inspect.signature(SLURMCluster).bind(**kwargs)
        assert kwargs["processes"] == kwargs["cores"], "one single-threaded worker process per core"
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        )
        started.append(cluster)
        # Its two workers stand for the jobs scale() would submit.
        return types.SimpleNamespace(scheduler_address=cluster.scheduler_address, scale=lambda **_: None)

    monkeypatch.setitem(sys.modules, "dask_jobqueue", types.SimpleNamespace(SLURMCluster=slurm_cluster))
    (tmp_path / "variants").symlink_to(ROOT / "variants")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TABLETOP_PLUGINS", raising=False)
    small = code.replace("1_000_000_000", "40").replace("per_batch=10_000", "per_batch=10")
    assert small != code
    found: dict = {}
    try:
        exec(compile(small, "simulation.md", "exec"), found)
    finally:
        for cluster in started:
            cluster.close()
    assert found["done"].games == 40 and found["done"].written_by_workers == 4
    assert parts.read_manifest(tmp_path / "study")["run"]["arms"] == [["glux-room-points"]]
