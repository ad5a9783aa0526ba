"""The snapshot of a long log: used when it holds, never trusted over the log."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop import start
from tabletop.base.errors import IllegalEventError
from tabletop.play import snapshot
from tabletop.play.engine import Replay


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def long_log(folder: Path, registry, events: int) -> Path:
    """A Pile game of ``events`` events, not over: every player takes one stone a turn."""
    table = start("pile", ["ann", "bob"], options={"stones": str(events * 2)}, seed="long", registry=registry)
    while len(table.events) < events:
        who = table.deciding[0]
        table.play(table.legal(who)[0], who)
    return table.save(folder / "long.jsonl")


def same(a, b) -> bool:
    return a.state == b.state and a.seq == b.seq and a.node == b.node and a.seals == b.seals


def test_a_long_log_gets_a_snapshot_that_the_next_run_starts_from(tmp_path, registry, monkeypatch):
    log = long_log(tmp_path, registry, snapshot.LONG + 10)
    first = snapshot.run(registry, log)
    snap = snapshot.path_of(log)
    assert snap.exists() and snap.name == ".long.jsonl.fold" and snap.stat().st_mode & 0o077 == 0
    data = json.loads(snap.read_bytes().split(b"\n", 1)[1])
    from tabletop.log import chain

    lines = log.read_bytes().splitlines()
    assert data["head"] == chain.head_of(lines[: data["lines"]]) and data["lines"] == len(lines)
    # The next run replays nothing before the snapshot's end: the lines before it are not decoded.
    decoded = []
    real = registry.codec.decode_line
    monkeypatch.setattr(registry.codec, "decode_line", lambda g, t: decoded.append(t) or real(g, t))
    again = snapshot.run(registry, log)
    assert decoded == [] and same(again, first) and same(again, Replay(registry, log).run())


def test_events_after_the_snapshot_are_replayed_and_checked(tmp_path, registry, cli):
    log = long_log(tmp_path, registry, snapshot.LONG + 10)
    snapshot.run(registry, log)
    assert cli("play", log, "2").exit_code == 0
    assert same(snapshot.run(registry, log), Replay(registry, log).run())
    # An illegal line appended after the snapshot is still refused, naming its line.
    lines = log.read_text().splitlines()
    bad = json.loads(lines[-1])
    bad["seq"] += 1
    bad["payload"]["stones"] = 99
    log.write_text("\n".join(lines + [json.dumps(bad)]) + "\n")
    result = cli("moves", log)
    assert result.exit_code == 1 and f"long.jsonl:{len(lines) + 1}" in result.stderr


def test_a_rewritten_history_is_replayed_from_the_start(tmp_path, registry):
    log = long_log(tmp_path, registry, snapshot.LONG + 10)
    before = snapshot.run(registry, log)
    # An early decision changed (a line of the same length, still legal): the snapshot no longer holds.
    log.write_text(log.read_text().replace('"stones":1,', '"stones":2,', 1))
    after = snapshot.run(registry, log)
    assert after.state != before.state and same(after, Replay(registry, log).run())
    # Made illegal: refused, naming the line, as without a snapshot.
    log.write_text(log.read_text().replace('"stones":1,', '"stones":9,', 1))
    with pytest.raises(IllegalEventError, match=r"long.jsonl:\d+"):
        snapshot.run(registry, log)


def test_a_snapshot_written_by_someone_else_is_not_read(tmp_path, registry, monkeypatch):
    log = long_log(tmp_path, registry, snapshot.LONG + 10)
    truth = snapshot.run(registry, log)
    snap = snapshot.path_of(log)
    mac, text = snap.read_bytes().split(b"\n", 1)
    data = json.loads(text)
    forged_state = data["state"]
    forged_state["fields"][0] = 1  # a pile of one stone left
    forged = json.dumps({**data, "state": forged_state}).encode()
    snap.write_bytes(mac + b"\n" + forged)  # the old MAC: not this text's
    assert same(snapshot.run(registry, log), truth)
    # Another user's key (or none readable) makes every snapshot a stranger's.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    snap.write_bytes(mac + b"\n" + text)
    assert same(snapshot.run(registry, log), truth)


def test_a_short_log_gets_no_snapshot_and_an_unwritable_folder_is_fine(tmp_path, registry, cli):
    short = long_log(tmp_path, registry, 20)
    snapshot.run(registry, short)
    assert not snapshot.path_of(short).exists()
    folder = tmp_path / "ro"
    folder.mkdir()
    log = long_log(folder, registry, snapshot.LONG + 10)
    folder.chmod(0o555)
    try:
        assert same(snapshot.run(registry, log), Replay(registry, log).run())
    finally:
        folder.chmod(0o755)


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4).map(tuple) | st.frozensets(st.integers(), max_size=4),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(values)
def test_plain_values_come_back_whole(value):
    assert snapshot.decode(json.loads(json.dumps(snapshot.encode(value))), {}) == value


def test_glux_and_glyph_states_come_back_whole(registry):
    for game, players in (("glux", ["ann", "ben", "cat"]), ("glyph-chess", ["ann", "ben"])):
        table = start(game, players, seed="s", registry=registry)
        table.run("random")
        classes = snapshot.classes_of(table.match.game.initial())
        encoded = json.loads(json.dumps(snapshot.encode(table.state)))
        assert snapshot.decode(encoded, classes) == table.state


def test_only_the_games_own_classes_are_made():
    with pytest.raises(KeyError):
        snapshot.decode({"class": "os.system", "fields": ["true"]}, {})


def test_a_planted_link_is_never_written_through(tmp_path, registry, cli):
    """Trust finding 9: another user links the snapshot's name to a file of
    theirs outside the folder; ``moves`` (a reading command), ``play`` and
    hot-seat play leave that file as it was, and still answer."""
    (tmp_path / "game").mkdir()
    log = long_log(tmp_path / "game", registry, snapshot.LONG + 10)
    expected = cli("moves", log, "--json").stdout
    link = snapshot.path_of(log)
    link.unlink()
    victim = tmp_path / "precious"
    victim.write_bytes(b"not a snapshot\n")
    victim.chmod(0o644)
    link.symlink_to(victim)
    for command, typed in ((("moves", log), None), (("play", log, "1"), None), (("play", log), "quit\n")):
        result = cli(*command, input=typed)
        assert result.exit_code == 0, result.output
        assert victim.read_bytes() == b"not a snapshot\n" and victim.stat().st_mode & 0o777 == 0o644
        assert link.is_symlink() and link.resolve() == victim
    assert json.loads(expected)["moves"] and cli("moves", log, "--json").stdout != expected  # played on
    assert same(snapshot.run(registry, log), Replay(registry, log).run())
    assert sorted(p.name for p in log.parent.iterdir() if p.name.startswith(".")) == [link.name]  # no temporary left


def test_a_snapshot_owned_by_another_user_is_left_alone(tmp_path, registry):
    """Trust finding 9: a snapshot file that is not this user's (a hard link
    to someone else's file, or theirs) is neither read nor written."""
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    log = long_log(tmp_path, registry, snapshot.LONG + 10)
    snap = snapshot.path_of(log)
    snap.write_bytes(b"theirs\n")
    os.chown(snap, 65534, 65534)  # nobody's
    assert same(snapshot.run(registry, log), Replay(registry, log).run())
    assert snap.read_bytes() == b"theirs\n" and snap.stat().st_uid == 65534
