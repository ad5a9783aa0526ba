"""Trust finding 15: an IMAP server that answers wrongly, without end, too
slowly or too much. Each poll ends in bounded time and memory with one line
naming the server and what was wrong (exit 2); nothing is lost (the mail
not yet fetched waits for the next poll); IDLE never keeps ``watch`` past
``--max-time``. The misbehaving servers are written in hostile_imap.py; the
mail that costs too much through a real server is tried on dovecot."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from .conftest import game_copy, plain_registry_cached, raw_mail
from .hostile_imap import hostile


class Run:
    """A finished tabletop process: exit code, output, seconds taken and its peak memory (MiB)."""

    def __init__(self, code: int, out: str, err: str, seconds: float, peak: float) -> None:
        self.returncode, self.stdout, self.stderr, self.seconds, self.peak = code, out, err, seconds, peak


#: tabletop, noting its own peak memory as it ends (VmHWM: the process's
#: own, where getrusage would count what the parent held when it forked).
MEASURED = """
import atexit, os, sys
def peak():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                with open(os.environ["PEAK_FILE"], "w") as out:
                    out.write(line.split()[1])
atexit.register(peak)
from tabletop.cli import main
main(sys.argv[1:], prog_name="tabletop")
"""


def start(*args: str, cwd, password: str = "imap-secret", hook: str = ""):
    """tabletop started with ``args``; ``hook``: code run first (a
    :data:`tabletop.referee.faults.hook` set, to learn where it is)."""
    peak = tempfile.NamedTemporaryFile(delete=False)
    peak.close()
    env = {**os.environ, "TABLETOP_IMAP_PASSWORD": password, "PYTHONPATH": os.pathsep.join(sys.path)}
    env["PEAK_FILE"] = peak.name
    env.pop("TABLETOP_PLUGINS", None)
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    code = hook + MEASURED
    proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, stdout=out, stderr=err, env=env)
    return proc, out, err, peak.name


def announcing(point: str, path) -> str:
    """A hook that makes the file ``path`` once the process reaches the fault point ``point``."""
    return (
        "from tabletop.referee import faults\n"
        f"def _reached(name, path={str(path)!r}):\n"
        f"    if name == {point!r}:\n"
        "        open(path, 'a').close()\n"
        "faults.hook = _reached\n"
    )


def reached(path, started, timeout: float = 60) -> None:
    """Wait until the process made the file ``path`` (it reached a state);
    the test fails if the process ends first, or reaches nothing in ``timeout`` s."""
    proc = started[0]
    ends = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            pytest.fail(f"ended ({proc.returncode}) before it made {path.name}")
        if time.monotonic() > ends:
            proc.kill()
            pytest.fail(f"did not make {path.name} in {timeout} s")
        time.sleep(0.05)


def finish(started, timeout: float = 60) -> Run:
    """Waits for the process (killed after ``timeout`` s, and the test fails), with its own peak memory."""
    proc, out, err, peak = started
    began = time.monotonic()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"still running after {timeout} s: {' '.join(proc.args[3:])}")
    texts = []
    for file in (out, err):
        file.seek(0)
        texts.append(file.read().decode("utf-8", "replace"))
        file.close()
    with open(peak) as file:
        kib = file.read().strip()
    os.unlink(peak)
    return Run(proc.returncode, texts[0], texts[1], time.monotonic() - began, int(kib or 10**9) / 1024)


def tabletop(*args: str, cwd, timeout: float = 60, **kw) -> Run:
    return finish(start(*args, cwd=cwd, **kw), timeout)


@pytest.fixture
def game(tmp_path):
    return game_copy(tmp_path, plain_registry_cached(), None)


@pytest.fixture
def server():
    servers = []

    def make(mode: str = "", bad_uids=()):
        made = hostile(mode, bad_uids)
        servers.append(made)
        return made

    yield make
    for made in servers:
        made.stop()


def one_line_about(run: Run, server, *words: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    assert f"127.0.0.1:{server.port}" in lines[0], lines[0]
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("mode", ["bad-search", "not-imap"])
def test_a_search_answer_that_is_not_numbers_is_one_line(game, server, mode):
    """Trust finding 15: '* SEARCH 1 2 x7', or a line that is no IMAP at all,
    is one line naming the server, exit 2."""
    bad = server(mode)
    bad.add(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    log = game.log()
    run = tabletop("pbem", "poll", "g", "--imap", bad.url(), cwd=game.path.parent)
    one_line_about(run, bad, "SEARCH")
    assert game.log() == log


def baseline(game, server) -> Run:
    """A poll of one small mail from a server that behaves: the memory a poll needs."""
    good = server()
    good.add(raw_mail("someone@example.net", ["hello"]))
    run = tabletop("pbem", "poll", "g", "--imap", good.url(), cwd=game.path.parent)
    assert run.returncode == 0, run.stderr
    return run


def test_an_endless_answer_ends_soon_in_bounded_memory(game, server, tmp_path):
    """Trust finding 15: a SEARCH answer without end (4,096 lines at a time,
    as fast as they are read) stops the poll within seconds, without growing."""
    base = baseline(game_copy(tmp_path / "base", plain_registry_cached(), None), server)
    endless = server("endless")
    run = tabletop("pbem", "poll", "g", "--imap", endless.url(), cwd=game.path.parent, timeout=60)
    one_line_about(run, endless, "SEARCH")
    assert run.seconds < 30 and run.peak < base.peak + 30, (run.seconds, run.peak, base.peak)


def test_a_trickled_answer_ends_at_max_time_and_frees_the_next_poll(game, server):
    """Trust finding 15: an answer that comes a byte at a time and never ends
    stops the poll at its --max-time (bounded time over the whole poll, so
    poll.lock is not held for ever); a poll started meanwhile (cron's next)
    waits at most its own --max-time for the lock."""
    slow = server("trickle")
    first = start("pbem", "poll", "g", "--imap", slow.url(), "--max-time", "6s", cwd=game.path.parent)
    assert slow.searched.wait(30)  # the first poll holds poll.lock
    second = tabletop("pbem", "poll", "g", "--imap", slow.url(), "--max-time", "1s", cwd=game.path.parent)
    run = finish(first, timeout=40)
    one_line_about(run, slow, "SEARCH")
    assert run.seconds < 6 + 10, run.seconds
    assert second.returncode == 1 and "poll.lock" in second.stderr, second.stderr
    assert second.seconds < 1 + 10


def test_a_literal_larger_than_asked_is_refused_and_nothing_is_lost(game, server, tmp_path):
    """Trust finding 15: a mail announced small whose body comes as a 64 MiB
    literal is not read (the poll stops at the literal's size, exit 2); the
    mail before it was handled, and the mail itself is handled by the next
    poll once the server is mended."""
    base = baseline(game_copy(tmp_path / "base", plain_registry_cached(), None), server)
    bad = server("big-literal", bad_uids=(2,))
    bad.add(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    bad.add(raw_mail("stranger@example.net", ["hello"]))
    run = tabletop("pbem", "poll", "g", "--imap", bad.url(), cwd=game.path.parent)
    one_line_about(run, bad, "FETCH")
    assert run.peak < base.peak + 30, (run.peak, base.peak)
    assert "played 1 decision(s) of ann" in run.stdout and game.events() == 3
    bad.mode = ""
    again = tabletop("pbem", "poll", "g", "--imap", bad.url(), cwd=game.path.parent)
    assert again.returncode == 0, again.stderr
    assert "stranger@example.net" in again.stdout and "1 message(s) handled." in again.stdout


def test_a_uid_the_box_lacks_makes_no_later_mail_skipped(game, server):
    """Trust finding 15: SEARCH names UID 999999, which FETCH does not find:
    the mails that come after are still handled."""
    lying = server("missing-uid")
    lying.add(raw_mail("stranger@example.net", ["hello"]))
    first = tabletop("pbem", "poll", "g", "--imap", lying.url(), cwd=game.path.parent)
    assert first.returncode == 0, first.stderr
    lying.add(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    second = tabletop("pbem", "poll", "g", "--imap", lying.url(), cwd=game.path.parent)
    assert second.returncode == 0, second.stderr
    assert "played 1 decision(s) of ann" in second.stdout and game.events() == 3


def test_idle_never_keeps_watch_past_max_time(game, server):
    """Trust finding 15: a server that never ends IDLE (untagged lines after
    DONE, never the tagged answer) does not keep watch past --max-time."""
    stuck = server("idle-forever")
    run = tabletop(
        "pbem", "watch", "g", "--imap", stuck.url(), "--every", "1s", "--max-time", "4s",
        cwd=game.path.parent, timeout=60,
    )  # fmt: skip
    assert run.seconds < 4 + 10, run.seconds
    assert run.returncode == 0 and run.stdout.rstrip().endswith("stopped."), (run.stdout, run.stderr)


def test_a_strangers_huge_headers_cost_little_memory_through_dovecot(tmp_path, dovecot):
    """Trust finding 15: a stranger's mail with 40 MB of headers, on a real
    IMAP server: the poll reads no more of it than the referee keeps (its
    first 256 KiB), its memory no more than a small mail's poll and 30 MiB;
    the stranger is answered that the mail is too large, and the next mail
    is played."""
    from .dovecot import PASSWORD

    small = game_copy(tmp_path / "small", plain_registry_cached(), None)
    dovecot.deliver(raw_mail("someone@example.net", ["hello"]))
    base = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=small.path.parent, password=PASSWORD)
    assert base.returncode == 0, base.stderr
    game = game_copy(tmp_path / "big", plain_registry_cached(), None)
    junk = b"".join(b"X-Junk-%d: %s\r\n" % (i, b"j" * 90) for i in range(400_000))
    huge = b"From: stranger@example.net\r\nTo: ref@example.org\r\nSubject: hi\r\nMessage-ID: <huge@x>\r\n"
    dovecot.deliver(huge + junk + b"\r\ngame: g\r\n")
    dovecot.deliver(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    run = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=game.path.parent, password=PASSWORD)
    assert run.returncode == 0, run.stderr
    assert run.peak < base.peak + 30, (run.peak, base.peak)
    assert "too large" in run.stdout and "played 1 decision(s) of ann" in run.stdout


def test_sigterm_still_stops_watch(game, server, tmp_path):
    """watch on a server that behaves still stops cleanly on SIGTERM, sent
    once it has polled and waits for mail (however slow its start)."""
    good = server()
    waiting = tmp_path / "waiting"
    started = start(
        "pbem",
        "watch",
        "g",
        "--imap",
        good.url(),
        "--every",
        "1s",
        cwd=game.path.parent,
        hook=announcing("watch-waiting", waiting),
    )
    reached(waiting, started)
    started[0].send_signal(signal.SIGTERM)
    run = finish(started, timeout=30)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("stopped."), (run.stdout, run.stderr)


def test_sigterm_at_start_up_stops_watch_as_usual(game, server, tmp_path):
    """A SIGTERM the moment watch starts (as soon as its own code runs,
    before the referee and the mail modules load, before any connection)
    ends it as usual: its one line, exit 0, nothing read."""
    good = server()
    loaded = tmp_path / "loaded"
    hook = (
        "import os, signal, sys\n"
        "from tabletop.referee import faults\n"
        f"def _start(name, path={str(loaded)!r}):\n"
        "    if name == 'watch-signals':\n"
        "        with open(path, 'w') as out:\n"
        "            out.write(' '.join(sorted(sys.modules)))\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "faults.hook = _start\n"
    )
    run = finish(start("pbem", "watch", "g", "--imap", good.url(), cwd=game.path.parent, hook=hook), timeout=60)
    assert run.returncode == 0 and run.stdout == "stopped.\n", (run.stdout, run.stderr)
    modules = set(loaded.read_text().split())
    assert "tabletop.cli.pbem.watch" in modules
    assert not {"tabletop.referee.referee", "tabletop.referee.imap", "imaplib", "smtplib"} & modules
    assert not (game.path / "imap.json").exists()
