"""Results folders on a real Dask LocalCluster: workers that see the folder
write their parts into it; workers that do not (here: the command runs in
a mount namespace of its own, where the folder's name is bound to another
folder, as on a cluster whose machines have their own disks) send each
part's bytes back and the command writes them. The rows are those of the
process pool either way, and a run whose cluster is gone continues on
another cluster."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.many import parts
from tabletop.many.runs import Run, play
from tabletop.many.simulation import Plan

from .test_interrupt import environment, finish
from .test_parts import RUN, rows

distributed = pytest.importorskip("distributed")
pytest.importorskip("pyarrow")

UNSHARE = shutil.which("unshare")


def cluster():
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, protocol="tcp"
    )


def test_dask_workers_that_see_the_folder_write_their_parts(tmp_path):
    plan = Plan(game="glux", players=2, bots=("random", "greedy"), seed="dask")
    with cluster() as here:
        done = play(
            Run(arms=(plan,), games=40, results=tmp_path / "study", scheduler=here.scheduler_address, per_batch=6)
        )
        # A results file on Dask: its rows come back, and the command appends them.
        text = play(Run(arms=(plan,), games=40, results=tmp_path / "d.csv", scheduler=here.scheduler_address))
    assert done.written_by_workers == 7 and done.written_here == 0
    assert text.written_here > 0 and text.written_by_workers == 0
    pool = play(Run(arms=(plan,), games=40, results=tmp_path / "pool", workers=2, per_batch=9))
    assert pool.written_by_workers == 5
    assert rows(tmp_path / "study") == rows(tmp_path / "pool")
    play(Run(arms=(plan,), games=40, results=tmp_path / "p.csv", workers=2))
    assert (tmp_path / "d.csv").read_bytes() == (tmp_path / "p.csv").read_bytes()
    assert done.summaries[0].as_json() == pool.summaries[0].as_json()


def _namespaces_work(tmp_path: Path) -> bool:
    if UNSHARE is None:
        return False
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    probe = f"mount --bind {tmp_path / 'a'} {tmp_path / 'b'} && true"
    done = subprocess.run([UNSHARE, "--mount", "--propagation", "private", "sh", "-c", probe], capture_output=True)
    return done.returncode == 0


def apart(args: list[str], mine: Path, seen: Path) -> list[str]:
    """``tabletop ARGS`` run where the folder ``seen`` is ``mine`` for the
    command only: in a mount namespace of its own, ``mine`` bound over
    ``seen``. The cluster's workers, outside it, see ``seen`` as it is."""
    words = " ".join(f"'{w}'" for w in [sys.executable, "-m", "tabletop", *args])
    return [
        UNSHARE,
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        f"mount --bind '{mine}' '{seen}' && exec {words}",
    ]


def test_dask_workers_that_do_not_see_the_folder_send_their_parts_back(tmp_path):
    """No filesystem shared with the workers: each part comes back as bytes.
    The cluster then goes away mid-run: one line says what is kept, and the
    same command on a new cluster finishes the run."""
    if not _namespaces_work(tmp_path):
        pytest.skip("needs mount namespaces (unshare) to give the command a folder the workers do not see")
    mine, seen = tmp_path / "command", tmp_path / "workers"
    mine.mkdir()
    seen.mkdir()
    (seen / "study").mkdir()  # the workers' own folder of that name: not the command's
    args = [*RUN, "--batch", "10", "--results", f"{seen}/study/"]
    with cluster() as first:
        proc = subprocess.Popen(
            apart([*args, "--games", "1500", "--scheduler", first.scheduler_address], mine, seen),
            cwd=tmp_path,
            env=environment(),
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + 120
            while len(list((mine / "study").glob("part-*.parquet"))) < 5:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline
                time.sleep(0.05)
            assert not list((seen / "study").iterdir())  # no worker wrote there
        except BaseException:
            proc.kill()
            proc.wait()
            raise
    # The cluster is gone (its scheduler and workers stopped) while the run goes on.
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # pragma: no cover - only when the test fails
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    kept = parts.read_manifest(mine / "study")["games"]
    assert err.startswith("tabletop: the Dask cluster stopped answering")
    assert f"{kept} of 1500 games are in {seen}/study; the same command on a cluster continues them" in err
    assert kept >= 50 and not parts.unlisted(mine / "study")
    with cluster() as second:
        again = subprocess.run(
            apart([*args, "--games", "1500", "--scheduler", second.scheduler_address], mine, seen),
            cwd=tmp_path,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert again.returncode == 0, again.stderr
    assert f"resuming: {kept:,} of 1,500 games already in {seen}/study" in again.stderr
    assert not list((seen / "study").iterdir())
    finish([*RUN, "--games", "1500", "--workers", "2", "--results", "pool/"], tmp_path)
    assert rows(mine / "study") == rows(tmp_path / "pool")
