"""Robustness figures: hostile logs, command lines and failing disks.

    python bench/robustness.py [--logs 300] [--seed 1]

In one run it:
1. mangles LOGS copies of the recorded games (bytes flipped, lines cut,
   swapped or dropped, a value replaced by a hostile one, a byte-order mark,
   CR LF) and runs every reading command on each, in-process: counts runs,
   tracebacks, messages of more than one line or not naming the file, exit
   codes other than 0/1/2, and files changed;
2. runs a list of hostile command lines (bad options, non-UTF-8 bytes, huge
   counts, FIFOs, /dev/zero, impossible outputs) as real processes: counts
   tracebacks and files left behind;
3. makes every write path fail (an I/O error on fsync, a file-size limit) and
   counts files changed;
4. measures the worst time and peak memory of `replay` and `verify` (each in
   a process of its own) over logs under 1 MB built to be expensive: the
   largest board and radius the bounds allow, long games, a header just over
   each bound, deep nesting, huge numbers, a 1 MB line.

The results are reported in docs/robustness.md.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from unittest import mock

from click.testing import CliRunner

from tabletop import Registry, get_plugin_manager
from tabletop.cli import main
from tabletop.log.logfile import create
from tabletop.play.live import selfplay
from tabletop.testing import HOSTILE_VALUES, value_replaced

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
READING = [
    ["replay", "{f}"],
    ["replay", "{f}", "--json"],
    ["replay", "{f}", "--step", "--as", "ann"],
    ["moves", "{f}"],
    ["verify", "{f}"],
    ["render", "{f}"],
    ["render", "{f}", "--format", "svg"],
    ["diff", "{f}", "{good}"],
    ["play", "{f}", "zzz"],
]


def progress(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


def mangle(rng: random.Random, text: bytes) -> bytes:
    lines = text.split(b"\n")[:-1]
    how = rng.choice(["byte", "cut", "line", "value", "header", "bom", "crlf"])
    if how == "byte":
        raw = bytearray(text)
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    if how == "cut":
        return text[: rng.randrange(len(text) + 1)]
    if how == "line":
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        if rng.random() < 0.5:
            del lines[rng.randrange(len(lines))]
        return b"".join(line + b"\n" for line in lines)
    if how in ("value", "header"):
        i = 0 if how == "header" else rng.randrange(1, len(lines))
        line = lines[i].decode()
        at = rng.choice([k for k, c in enumerate(line) if c == ":"])
        lines[i] = value_replaced(line, at + 1, rng.choice(HOSTILE_VALUES)).encode("utf-8", "surrogatepass")
        return b"".join(line + b"\n" for line in lines)
    if how == "bom":
        return b"\xef\xbb\xbf" + text
    return text.replace(b"\n", b"\r\n")


def invoke(argv: list[str]):
    """One in-process run: (exit code, stderr, traceback or None)."""
    try:
        result = CliRunner().invoke(main, argv, catch_exceptions=True)
    except Exception as exc:  # pragma: no cover - the runner itself failed
        return None, "", repr(exc)
    trace = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = f"{type(result.exception).__name__}: {result.exception}"
    return result.exit_code, result.stderr, trace


def mangled_logs(count: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    sources = sorted(REPLAYS.rglob("*.jsonl"))
    totals: Counter[str] = Counter({"tracebacks": 0, "bad exit": 0, "bad message": 0, "changed": 0})
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in range(count):
            source = rng.choice(sources)
            path = folder / f"m{n}.jsonl"
            good = folder / "good" / source.name
            good.parent.mkdir(exist_ok=True)
            good.write_bytes(source.read_bytes())
            path.write_bytes(mangle(rng, source.read_bytes()))
            before = path.read_bytes()
            for template in READING:
                argv = [a.format(f=path, good=good) for a in template]
                start = time.perf_counter()
                code, err, trace = invoke(argv)
                worst = max(worst, time.perf_counter() - start)
                totals[argv[0]] += 1
                totals["runs"] += 1
                if trace:
                    totals["tracebacks"] += 1
                    progress(f"TRACEBACK {argv}: {trace}")
                if code not in (0, 1, 2):
                    totals["bad exit"] += 1
                message = err.strip()
                if code and not (argv[0] == "diff" and code == 1 and not message):
                    if "\n" in message or not message.startswith(f"tabletop: {path}"):
                        totals["bad message"] += 1
                        progress(f"MESSAGE {argv}: {message[:200]!r}")
                if path.read_bytes() != before:
                    totals["changed"] += 1
            if n % 50 == 49:
                progress(f"{n + 1} mangled logs")
        code, err, trace = invoke(["replay", str(folder)])
        totals["replay DIR"] += 1
        totals["runs"] += 1
        totals["tracebacks"] += bool(trace)
    totals["worst ms"] = round(worst * 1000)
    return dict(totals)


def hostile_command_lines() -> dict[str, int]:
    """Bad command lines as real processes (bytes argv: not all are UTF-8)."""
    totals: Counter[str] = Counter({"tracebacks": 0, "bad exit or message": 0, "files left": 0})
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        (cwd / "a-file").write_text("")
        os.mkfifo(cwd / "fifo.jsonl")
        good = REPLAYS / "glux" / "two-players.jsonl"
        (cwd / "g.jsonl").write_bytes(good.read_bytes())
        argvs: list[list[bytes | str]] = [
            ["new", "glux", "--players", b"ann\xff,ben", "-o", "x.jsonl"],
            ["new", "glux", "--players", "ann,ben", "--seed", b"s\xff", "-o", "x.jsonl"],
            ["new", "glux", "--players", "," * 120_000, "-o", "x.jsonl"],
            ["new", "glux", "--players", "a\u200b,b", "-o", "x.jsonl"],
            ["new", "glux", "--players", "a\x07,b", "-o", "x.jsonl"],
            ["new", "glux", "--players", "a,a", "-o", "x.jsonl"],
            ["new", "glux", "--players", "a,b", "--option", "board=/dev/zero", "-o", "x.jsonl"],
            ["new", "glux", "--players", "a,b", "--option", "board=fifo.jsonl", "-o", "x.jsonl"],
            ["new", "glux", "--players", "a,b", "--option", "board=a-file", "-o", "x.jsonl"],
            ["new", "glyph-chess", "--players", "a,b", "--option", "position=/dev/zero", "-o", "x.jsonl"],
            ["new", "glyph-chess", "--players", "a,b", "--option", "position=fifo.jsonl", "-o", "x.jsonl"],
            ["new", "glyph-chess", "--players", "a,b", "--option", "radius=" + "9" * 5000, "-o", "x.jsonl"],
            ["new", "glyph-chess", "--players", "a,b", "--option", "radius=13", "-o", "x.jsonl"],
            ["new", "glyph-chess", "--players", "a,b", "--option", "radius", "-o", "x.jsonl"],
            ["new", "glux", "--players", "a,b", "-o", "a-file/x.jsonl"],
            ["new", "glux", "--players", "a,b", "-o", "/proc/x.jsonl"],
            ["new", "glux", "--players", "a,b", "-o", "g.jsonl"],
            ["new", "glux", "--players", "a,b", "--seed", "1", "--sealed", "-o", "x.jsonl"],
            ["new", "glux", "--players", "a,b", "--seed", "s" * 1000, "-o", "x.jsonl"],
            ["new", "glux"],
            ["new"],
            ["selfplay", "glux", "--seats", "1000000000"],
            ["selfplay", "glux", "--seats", "x"],
            ["selfplay", "glux", "--seats", "2", "--games", "0"],
            ["selfplay", "glux", "--seats", "2", "-o", "a-file"],
            ["selfplay", "glux", "--seats", "2", "-o", "/proc/out"],
            ["selfplay", "glux", "--seats", "2", "--seed", b"\xff"],
            ["selfplay", "glux", "--seats", "2", "--bot", "nobody"],
            ["replay"],
            ["replay", "fifo.jsonl"],
            ["replay", "/dev/zero"],
            ["replay", "/nonexistent/x.jsonl"],
            ["replay", "g.jsonl", "--until", "-1"],
            ["replay", "g.jsonl", "--as", "x" * 120_000],
            ["replay", "g.jsonl", "--frobnicate"],
            ["replay", b"bad\xffname.jsonl"],
            ["replay", "new\nline.jsonl"],
            ["moves", "fifo.jsonl"],
            ["verify", "fifo.jsonl"],
            ["verify", "g.jsonl", "--head", "x" * 10_000],
            ["diff", "fifo.jsonl", "g.jsonl"],
            ["render", "g.jsonl", "-o", "a-file/b.svg"],
            ["render", "g.jsonl", "-o", "/proc/b.svg"],
            ["render", "g.jsonl", "--format", "png"],
            ["play", "fifo.jsonl", "1"],
            ["play", "g.jsonl", "x" * 120_000],
            ["play", "g.jsonl", "1", "--player", "zoe"],
            ["play", "g.jsonl", "1", "--seed-file", "/dev/zero"],
            ["games", "--nope"],
            ["no-such-command"],
        ]
        for argv in argvs:
            before = sorted(os.listdir(cwd))
            result = subprocess.run(
                [sys.executable, "-m", "tabletop", *argv], cwd=cwd, capture_output=True, timeout=120
            )
            totals["command lines"] += 1
            err = result.stderr.decode("utf-8", "replace")
            if "Traceback" in err:
                totals["tracebacks"] += 1
                progress(f"TRACEBACK {argv!r:.80}: {err.strip().splitlines()[-1]}")
            if result.returncode not in (0, 1, 2) or len(err.strip().splitlines()) > 1:
                totals["bad exit or message"] += 1
                progress(f"MESSAGE {argv!r:.80}: {result.returncode} {err.strip()[:200]!r}")
            if result.returncode and sorted(os.listdir(cwd)) != before:
                totals["files left"] += 1
            for name in set(os.listdir(cwd)) - set(before):
                with contextlib.suppress(OSError):
                    (cwd / name).unlink()
    return dict(totals)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


WRITES = [
    ["new", "glux", "--players", "a,b", "--seed", "1", "-o", "n.jsonl"],
    ["new", "glux", "--players", "a,b", "--sealed", "-o", "n.jsonl"],
    ["play", "g.jsonl", "6@a1", "--player", "ann"],
    ["render", "g.jsonl", "-o", "board.svg"],
    ["selfplay", "glux", "--seats", "2", "--games", "3", "-o", "out"],
]


def write_faults() -> dict[str, int]:
    """Every write path with fsync failing at each call in turn, and under a
    file-size limit: the files changed by a failure."""
    totals: Counter[str] = Counter({"tracebacks": 0, "files changed": 0})
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        old = os.getcwd()
        os.chdir(cwd)
        try:
            for argv in WRITES:
                for after in range(0, 8):
                    for name in os.listdir(cwd):
                        path = cwd / name
                        if path.is_dir():
                            for inner in path.iterdir():
                                inner.unlink()
                            path.rmdir()
                        else:
                            path.unlink()
                    invoke(["new", "glux", "--players", "ann,ben", "--seed", "7", "-o", "g.jsonl"])
                    (cwd / "board.svg").write_text("the old picture")
                    before = snapshot(cwd)
                    calls = []

                    def fsync(fd, calls=calls, after=after):
                        calls.append(fd)
                        if len(calls) > after:
                            raise OSError(errno.EIO, "Input/output error")

                    with mock.patch.object(os, "fsync", fsync):
                        code, err, trace = invoke(argv)
                    totals["fsync faults"] += 1
                    totals["tracebacks"] += bool(trace)
                    if code == 0:
                        break
                    if snapshot(cwd) != before or sorted(os.listdir(cwd)) != sorted(before):
                        totals["files changed"] += 1
                        progress(f"CHANGED {argv} after {after} syncs")
            for argv in WRITES:
                for name in ("n.jsonl", "n.jsonl.seed", "board.svg"):
                    with contextlib.suppress(OSError):
                        (cwd / name).unlink()
                (cwd / "board.svg").write_text("the old picture")
                before = snapshot(cwd)

                def limited():
                    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))

                result = subprocess.run(
                    [sys.executable, "-m", "tabletop", *argv], cwd=cwd, capture_output=True, preexec_fn=limited
                )
                totals["size-limit faults"] += 1
                totals["tracebacks"] += b"Traceback" in result.stderr
                if result.returncode and snapshot(cwd) != before:
                    totals["files changed"] += 1
        finally:
            os.chdir(old)
    return dict(totals)


def expensive_logs(folder: Path) -> dict[str, Path]:
    """Logs under 1 MB built to cost as much as the bounds allow, and some
    just over a bound."""
    registry = Registry(get_plugin_manager())
    logs: dict[str, Path] = {}

    def write(name: str, lines: list[str]) -> None:
        path = folder / f"{name}.jsonl"
        path.write_text("".join(line + "\n" for line in lines))
        assert path.stat().st_size < 1 << 20, name
        logs[name] = path

    def game(name: str, game: str, n: int, options: dict, seed: str = "1") -> None:
        bots = [registry.bot("random", game)] * n
        header, _, events = selfplay(registry, game, [f"p{i}" for i in range(1, n + 1)], bots, seed, (), options)
        path = folder / f"{name}.jsonl"
        create(path, registry.codec.log(header, events))
        logs[name] = path

    # The largest board the bounds allow: 26 x 26 squares, start squares for 4.
    rows = "".join(f"{r}  " + " ".join(chr(65 + (c // 3) % 26) if (r + c) % 4 else "." for c in range(26)) + "\n"
                   for r in range(26, 0, -1))  # fmt: skip
    board = folder / "big.txt"
    board.write_text("middle: E\nstart 2: a1 z26\nstart 3: a1 z26 a26\nstart 4: a1 z26 a26 z1\n" + rows)
    game("glux 26x26 board, 4 players", "glux", 4, {"board": str(board)})
    game("glux 4 players", "glux", 4, {})
    for seed in "12345":
        game(f"glyph radius 12, 3 players ({seed})", "glyph-chess", 3, {"radius": "12"}, seed)
    longest = max((n for n in logs if n.startswith("glyph radius 12")), key=lambda n: logs[n].stat().st_size)
    for name in [n for n in logs if n.startswith("glyph radius 12") and n != longest]:
        del logs[name]
    game("glyph radius 6, 2 players", "glyph-chess", 2, {})
    header = {"tabletop": 1, "game": "glyph-chess", "players": ["a", "b"], "options": {}, "randomness": {"seed": "1"}}
    for radius in (13, 1000, 3000):
        write(f"glyph radius {radius} (over)", [json.dumps({**header, "options": {"radius": radius}})])
    tall = "".join(f"{r}  " + " ".join("A" for _ in range(26)) + "\n" for r in range(2000, 0, -1))
    glux = {**header, "game": "glux"}
    write("glux 26x2000 board (over)", [json.dumps({**glux, "options": {"board": {"file": "b", "text": tall}}})])
    near = tall[: 64 * 1024 - 200]
    write("glux 64 KiB board (over)", [json.dumps({**glux, "options": {"board": {"file": "b", "text": near}}})])
    write("players 60000 (over)", [json.dumps({**header, "players": [f"p{i}" for i in range(60_000)]})])
    write("seed 900 KB (over)", [json.dumps({**header, "randomness": {"seed": "s" * 900_000}})])
    line = json.dumps(header)
    write("nested 1,000 deep", [line, '{"seq":1,"kind":"roll","payload":{"die":' + "[" * 1000 + "]" * 1000 + "}}"])
    write("5,000-digit number", [line, '{"seq":' + "9" * 5000 + ',"kind":"roll","payload":{}}'])
    write("a line of 1 MB (over)", [line, "x" * ((1 << 20) - len(line) - 10)])
    return logs


#: Runs tabletop and records its peak resident memory (VmHWM: the high-water
#: mark of this process's own memory, which, unlike ru_maxrss, does not
#: inherit the parent's size across fork and exec).
CHILD = """
import atexit, os, sys

def report():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                with open(os.environ["TABLETOP_BENCH_HWM"], "w") as out:
                    out.write(line.split()[1])

atexit.register(report)
from tabletop.cli import main
main(sys.argv[1:], prog_name="tabletop")
"""


def measure(path: Path | None, command: str) -> tuple[float, float, int]:
    """Seconds and peak megabytes of one ``tabletop COMMAND PATH`` process."""
    argv = [command] if path is None else [command, str(path)]
    with tempfile.NamedTemporaryFile() as hwm:
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-c", CHILD, *argv],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "TABLETOP_BENCH_HWM": hwm.name},
        )
        seconds = time.perf_counter() - start
        kb = int(Path(hwm.name).read_text() or 0)
    return seconds, kb / 1024, result.returncode


def worst_cases() -> list[tuple[str, int, str, float, float, float, int]]:
    """Per log and command: the process's seconds and peak MB, and the seconds
    of the command's own work (in-process, without starting Python)."""
    rows = []
    start = min(measure(None, "--version")[0] for _ in range(3))
    rows.append(("(start-up: tabletop --version)", 0, "", start, 0.0, measure(None, "--version")[1], 0))
    with tempfile.TemporaryDirectory() as tmp:
        logs = expensive_logs(Path(tmp))
        logs = {"(a recorded 2-player game)": REPLAYS / "glux" / "two-players.jsonl", **logs}
        for name, path in logs.items():
            for command in ("replay", "verify"):
                seconds, mb, code = measure(path, command)
                began = time.perf_counter()
                invoke([command, str(path)])
                work = time.perf_counter() - began
                rows.append((name, path.stat().st_size, command, seconds, work, mb, code))
                progress(f"{name} {command}: {seconds:.2f} s ({work:.2f} s of work), {mb:.0f} MB, exit {code}")
    return rows


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=300, help="mangled logs (each run through 9 commands)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parts", default="1234", help="which parts to run (default all: 1234)")
    args = parser.parse_args()
    if "1" in args.parts:
        print("1. Mangled logs through every reading command (in-process):")
        print("  ", mangled_logs(args.logs, args.seed))
    if "2" in args.parts:
        print("2. Hostile command lines (real processes):")
        print("  ", hostile_command_lines())
    if "3" in args.parts:
        print("3. Write faults:")
        print("  ", write_faults())
    if "4" not in args.parts:
        return
    print("4. Worst time and memory (one process per run):")
    print(f"   {'log':<34} {'bytes':>9} {'command':<8} {'process s':>9} {'work s':>7} {'peak MB':>7} exit")
    for name, size, command, seconds, work, mb, code in worst_cases():
        print(f"   {name:<34} {size:>9,} {command:<8} {seconds:>9.2f} {work:>7.2f} {mb:>7.0f} {code}")


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    main_()
