"""A snapshot of a long log's folded state, kept beside it, so that ``moves``
and ``play`` need not replay the whole log each time.

The snapshot of ``game.jsonl`` is ``.game.jsonl.fold``: JSON, never code. It
holds the match after line N (the game's state, written and read by
:func:`encode` and :func:`decode`, which build nothing but tuples, plain
values and the classes of the game's own initial state), the chain head of
line N, the byte length of lines 1..N and their SHA-256. It is used only when
all of these hold, and otherwise ignored and written anew:

* it is authenticated: an HMAC with a key of this user's own (mode 0600 in
  the user's cache folder), so a snapshot written by anybody else, or edited,
  is not read;
* it was made for this log by this version of tabletop and of the game (the
  header line is part of what is hashed, and the versions are in the MAC'd
  text);
* the log still begins with exactly the bytes it was made from (the SHA-256
  of the prefix, read at disk speed: a rewritten history is never folded
  over).

The events after line N are then replayed and checked as ever. A snapshot is
written only after a replay that succeeded, for logs of at least
:data:`LONG` events, once :data:`EVERY` events have come since the last one;
a folder that cannot be written just has none.

The snapshot is a cache kept in a folder others may write to (a shared game
folder), and even reading commands (``moves``, ``watch``) write it, so its
name is never followed: it is read only when it is a regular file of this
user's own, and written as a new file of a fresh name in the same folder
(created exclusively, never through a link) that is then renamed over it. A
name that is a link, or a file of another user's, is left as it is and the
command goes on without a snapshot.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path
from typing import IO, Any

import attrs
import orjson

from ..base.errors import TabletopError
from ..host.registry import Registry
from ..log import chain, files
from .engine import Match, Replay

#: Logs shorter than this get no snapshot (replaying them is quick).
LONG = 1000
#: How many events past the snapshot make it worth writing a new one.
EVERY = 250
#: The largest snapshot read, in bytes.
MAX_SIZE = 64 << 20
FORMAT = 1


def path_of(log: Path) -> Path:
    """Where the snapshot of ``log`` is kept."""
    return log.with_name(f".{log.name}.fold")


def run(registry: Registry, log: Path, handle: IO[bytes] | None = None) -> Match:
    """The match after every event of ``log``, as :meth:`Replay.run` gives it,
    starting from the snapshot when one holds for this log."""
    log = Path(log)
    with contextlib.ExitStack() as stack:
        if handle is None:
            handle = stack.enter_context(files.open_regular(log))
        replay = Replay(registry, log, handle)
        after_header = handle.tell()
        found = _usable(registry, log, handle, replay)
        since = (0, 0, "")  # where the last snapshot ended: size, line, chain head
        if found is not None:
            replay, since = found
        else:
            handle.seek(after_header)  # the fresh replay reads on from its header
        start_seq = replay.match.seq
        match = replay.run()
        end = handle.tell()
        # A game the players agreed to end is over: nothing is left to fold on.
        if match.seq >= LONG and match.seq - start_seq >= EVERY and match.agreed is None:
            with contextlib.suppress(OSError, TabletopError, ValueError, TypeError):
                _write(registry, log, handle, match, (end, replay.lines), since)
        handle.seek(end)
        return match


# -- the state as JSON ----------------------------------------------------------


def encode(value: Any) -> Any:
    """``value`` as JSON: tuples as lists, attrs instances as their class's
    name and fields. Anything else raises TypeError (no snapshot then)."""
    if value is None or type(value) in (bool, int, str, float):
        return value
    if type(value) is tuple:
        return [encode(v) for v in value]
    if type(value) is frozenset:
        return {"frozenset": [encode(v) for v in value]}
    if attrs.has(type(value)):
        return {
            "class": _name(type(value)),
            "fields": [encode(getattr(value, f.name)) for f in attrs.fields(type(value))],
        }
    raise TypeError(f"cannot keep a {type(value).__name__} in a snapshot")


def decode(data: Any, classes: dict[str, type]) -> Any:
    """The value :func:`encode` gave ``data`` for; only ``classes`` are made."""
    if type(data) is list:
        return tuple(decode(v, classes) for v in data)
    if type(data) is dict:
        if "frozenset" in data:
            return frozenset(decode(v, classes) for v in data["frozenset"])
        cls = classes[data["class"]]  # KeyError: a class the game does not use
        return cls(*(decode(v, classes) for v in data["fields"]))
    return data


def classes_of(value: Any, found: dict[str, type] | None = None) -> dict[str, type]:
    """The attrs classes in ``value`` (the game's initial state): the only ones a snapshot may make."""
    found = {} if found is None else found
    if type(value) in (tuple, frozenset):
        for v in value:
            classes_of(v, found)
    elif attrs.has(type(value)):
        found[_name(type(value))] = type(value)
        for f in attrs.fields(type(value)):
            classes_of(getattr(value, f.name), found)
    return found


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


# -- reading and writing ----------------------------------------------------------


def _versions(registry: Registry, match: Match) -> str:
    from importlib.metadata import PackageNotFoundError, version

    game_module = type(match.game).__module__.split(".")[0]
    try:
        game_version = version(game_module.replace("_", "-"))
    except PackageNotFoundError:
        game_version = "?"
    from .. import __version__

    return f"tabletop {__version__}; {game_module} {game_version}; {_name(type(match.game))}"


def _key() -> bytes | None:
    """This user's snapshot key, made once; None when it cannot be kept."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tabletop"
    path = base / "snapshot.key"
    try:
        with files.open_regular(path) as handle:
            info = os.fstat(handle.fileno())
            if info.st_uid != os.geteuid() or info.st_mode & 0o077:
                return None  # a key others could read or write authenticates nothing
            key = handle.read(64)
        return key if len(key) == 32 else None
    except TabletopError:
        pass
    key = os.urandom(32)
    try:
        base.mkdir(parents=True, exist_ok=True, mode=0o700)
        files.write_new(path, key, mode=0o600)
    except (OSError, TabletopError):
        return None
    return key


def _prefix_hash(handle: IO[bytes], size: int) -> str:
    digest = hashlib.sha256()
    handle.seek(0)
    left = size
    while left > 0:
        block = handle.read(min(left, 1 << 20))
        if not block:
            break
        digest.update(block)
        left -= len(block)
    return digest.hexdigest()


def _usable(registry: Registry, log: Path, handle: IO[bytes], fresh: Replay) -> tuple[Replay, tuple] | None:
    """A replay that begins where the snapshot of ``log`` ends, if it holds,
    and where that is (size, line, chain head)."""
    raw = _read(path_of(log))
    if raw is None:
        return None
    key = _key()
    mac, _, text = raw.partition(b"\n")
    if key is None or len(raw) > MAX_SIZE or not hmac.compare_digest(mac, _mac(key, text)):
        return None
    try:
        data = orjson.loads(text)
        size, lineno = data["size"], data["lines"]
        if data["format"] != FORMAT or data["versions"] != _versions(registry, fresh.match):
            return None
        if os.fstat(handle.fileno()).st_size < size or _prefix_hash(handle, size) != data["sha256"]:
            return None  # the log was rewritten: its history is not the snapshot's
        state = decode(data["state"], classes_of(fresh.match.game.initial()))
        replay = Replay(registry, log, handle, start=(size, lineno))
        replay.match.restore(state, data["seq"], data["revealed"], data["seals"])
        return replay, (size, lineno, data["head"])
    except (KeyError, TypeError, ValueError, AttributeError, orjson.JSONDecodeError, TabletopError):
        return None


def _mac(key: bytes, text: bytes) -> bytes:
    return hmac.new(key, text, "sha256").hexdigest().encode()


def _write(
    registry: Registry, log: Path, handle: IO[bytes], match: Match, end: tuple[int, int], since: tuple[int, int, str]
) -> None:
    key = _key()
    if key is None:
        return
    state = match.state
    encoded = encode(state)
    if decode(orjson.loads(orjson.dumps(encoded)), classes_of(match.game.initial())) != state:
        return  # the game's state does not come back whole: it gets no snapshot
    size, lineno = end
    # The chain head goes on from the last snapshot's: only the new lines are hashed.
    old_size, old_lineno, head = since
    handle.seek(old_size)
    for _ in range(lineno - old_lineno):
        line = handle.readline().rstrip(b"\n")
        head = chain.step(head, line) if head else chain.first(line)
    data = {
        "format": FORMAT,
        "versions": _versions(registry, match),
        "lines": lineno,
        "size": size,
        "sha256": _prefix_hash(handle, size),
        "head": head,
        "seq": match.seq,
        "revealed": match.revealed,
        "seals": match.seals,
        "state": encoded,
    }
    text = orjson.dumps(data)
    _store(path_of(log), _mac(key, text) + b"\n" + text)


def _safe() -> bool:
    """Whether this system opens names without following links, relative to a folder."""
    return hasattr(os, "O_NOFOLLOW") and {os.open, os.stat, os.rename, os.unlink} <= os.supports_dir_fd


def _ours(info: os.stat_result) -> bool:
    return stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid()


def _read(path: Path) -> bytes | None:
    """The snapshot at ``path`` (at most :data:`MAX_SIZE` + 1 bytes), if it is a
    regular file of this user's own and no link."""
    if not _safe():
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not _ours(os.fstat(fd)):
            return None
        with os.fdopen(os.dup(fd), "rb") as snap:
            return snap.read(MAX_SIZE + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _store(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` whole, never writing through a link nor over
    another user's file (then nothing is written). An OSError is the caller's."""
    if not _safe():
        return
    folder = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        try:
            info = os.stat(path.name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            info = None
        if info is not None and not _ours(info):
            return  # a link, or another user's file: a cache is not worth touching it
        files.clean(path.parent, path.name)  # what a killed writer left, long ago
        tmp = f".{path.name}.{secrets.token_hex(8)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(tmp, flags, 0o600, dir_fd=folder)
        try:
            try:
                files.write_all(fd, data)
            finally:
                os.close(fd)
            # A rename replaces the name itself: a link planted there since is replaced, never followed.
            os.rename(tmp, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            raise
    finally:
        os.close(folder)
