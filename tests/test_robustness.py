"""Whatever a log says, replay answers with a TabletopError or succeeds: never
another exception (which would be a traceback for the user)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import TabletopError
from tabletop.play.engine import Replay
from tabletop.testing import HOSTILE_VALUES, value_replaced

from .conftest import REPLAYS, Cli

LOGS = [REPLAYS / "glux" / "three-players.jsonl", REPLAYS / "glyph_chess" / "two-players-random.jsonl"]
SCALARS = st.one_of(
    st.integers(-3, 200),
    st.text(max_size=4),
    st.booleans(),
    st.none(),
    st.sampled_from(["a1", "g7", "z9", "S", "E", "K", "swap", "blaze", "1/6", "ann", "ben", "cat"]),
)
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=4))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.parent.name)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_mangled_event_is_refused_in_words(registry, tmp_path, log, data):
    lines = log.read_text().splitlines()
    index = data.draw(st.integers(1, min(len(lines) - 1, 200)))
    event = json.loads(lines[index])
    payload = event["payload"]
    if payload and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(payload)))
        payload[key] = data.draw(VALUES)
    else:
        event["kind"] = data.draw(
            st.sampled_from(
                [
                    "move",
                    "cast",
                    "place",
                    "draw",
                    "roll",
                    "escape",
                    "discard",
                    "reroll",
                    "start",
                    "exclude",
                    "pass",
                    "glimpse",
                    "seal",
                    "reveal",
                ]
            )
        )
    lines[index] = json.dumps(event)
    path = tmp_path / "mangled.jsonl"
    path.write_text("\n".join(lines[: index + 1]) + "\n")
    try:
        Replay(registry, path).run()
    except TabletopError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path))


# -- every reading command on mangled logs, in-process ---------------------------
FUZZ_LOGS = [
    REPLAYS / "glux" / "two-players.jsonl",
    REPLAYS / "glyph_chess" / "two-players-random.jsonl",
    REPLAYS / "glyph_chess" / "advanced-setup.jsonl",
]
HOSTILE = st.sampled_from(HOSTILE_VALUES)


def _mangle(data: st.DataObject, text: bytes) -> bytes:
    lines = text.split(b"\n")[:-1]
    how = data.draw(st.sampled_from(["byte", "cut", "line", "value", "header", "bom", "crlf"]))
    if how == "byte":
        raw = bytearray(text)
        for _ in range(data.draw(st.integers(1, 4))):
            at = data.draw(st.integers(0, len(raw) - 1))
            raw[at] = data.draw(st.integers(0, 255))
        return bytes(raw)
    if how == "cut":
        return text[: data.draw(st.integers(0, len(text)))]
    if how == "line":
        i = data.draw(st.integers(0, len(lines) - 1))
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i] if data.draw(st.booleans()) else lines[i]
        if data.draw(st.booleans()):
            del lines[data.draw(st.integers(0, len(lines) - 1))]
        return b"".join(line + b"\n" for line in lines)
    if how in ("value", "header"):
        i = 0 if how == "header" else data.draw(st.integers(1, len(lines) - 1))
        line = lines[i].decode()
        # Replace one JSON value (after a colon) with a hostile one.
        colons = [k for k, c in enumerate(line) if c == ":"]
        at = data.draw(st.sampled_from(colons))
        lines[i] = value_replaced(line, at + 1, data.draw(HOSTILE)).encode("utf-8", "surrogatepass")
        return b"".join(line + b"\n" for line in lines)
    if how == "bom":
        return b"\xef\xbb\xbf" + text
    return text.replace(b"\n", b"\r\n")


def _one_line_naming(result, path: Path) -> None:
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code:
        message = result.stderr.strip()
        assert "\n" not in message and message.startswith(f"tabletop: {path}"), message


@settings(
    max_examples=int(os.environ.get("TABLETOP_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_every_reading_command_on_a_mangled_log(tmp_path_factory, data):
    """No byte sequence gives a traceback, a second line, another exit code,
    a changed file or a long run, in any reading command."""
    folder = tmp_path_factory.mktemp("fuzz")
    source = data.draw(st.sampled_from(FUZZ_LOGS))
    path = folder / "mangled.jsonl"
    path.write_bytes(_mangle(data, source.read_bytes()))
    (folder / "good.jsonl").write_bytes(source.read_bytes())
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    cli = Cli(folder)
    start = time.process_time()  # the work done, which other work on the machine does not change
    for argv in (
        ["replay", path],
        ["replay", path, "--json"],
        ["replay", path, "--step", "--as", "ann"],
        ["moves", path],
        ["verify", path],
        ["render", path],
        ["render", path, "--format", "svg"],
        ["diff", path, folder / "good.jsonl"],
        ["play", path, "zzz"],
    ):
        result = cli(*argv, plugins=False)
        if argv[0] == "diff" and result.exit_code == 1 and not result.stderr:
            continue  # the logs differ: a finding, not an error
        _one_line_naming(result, path)
    many = cli("replay", folder, plugins=False)
    assert many.exit_code in (0, 1, 2) and not many.stderr, many.output
    assert f"ok {folder / 'good.jsonl'}" in many.stdout
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert time.process_time() - start < 30


def _json(text: str) -> bool:
    from tabletop.log import jsonline

    return _outcome(jsonline.loads, text) != "LogFormatError"


def _outcome(call, *args):
    try:
        return call(*args)
    except TabletopError as exc:
        return type(exc).__name__


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_fast_decoding_path_agrees_with_the_plain_one(registry, data):
    """decode_line (orjson, the repeated-line cache, the quick structure) gives
    what the plain reading gives, or refuses what it refuses, line after line."""
    from tabletop.host.registry import Codec
    from tabletop.log import jsonline

    source = data.draw(st.sampled_from(FUZZ_LOGS))
    game = json.loads(source.read_text().splitlines()[0])["game"]
    codec = Codec(registry.games.values())
    for line in source.read_text().splitlines()[1 : data.draw(st.integers(2, 40))]:
        event = json.loads(line)
        change = data.draw(st.sampled_from(["none", "seq", "kind", "player", "payload-player", "field"]))
        if change == "seq":
            event["seq"] = data.draw(st.one_of(st.integers(-5, 2**70), st.just(int("9" * 30))))
        elif change == "kind":
            event["kind"] = data.draw(
                st.one_of(st.just(["draw"]), st.just({"k": 1}), st.integers(), st.text(max_size=3))
            )
        elif change == "player":
            event["player"] = data.draw(VALUES)
        elif change == "payload-player":
            event.setdefault("payload", {})["player"] = data.draw(st.sampled_from(["ann", "ben", 1]))
        elif change == "field" and event.get("payload"):
            event["payload"][data.draw(st.sampled_from(sorted(event["payload"])))] = data.draw(VALUES)
        text = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
        fast = _outcome(codec.decode_line, game, text.encode())
        plain = (
            _outcome(lambda data: codec._decode(game, data), jsonline.loads(text)) if _json(text) else "LogFormatError"
        )
        assert fast == plain, text


def test_a_hostile_value_replaces_a_whole_json_value():
    line = '{"a":[1,{"b":2}],"c":{"d":"x,y"},"e":3}'
    assert value_replaced(line, 5, "null") == '{"a":null,"c":{"d":"x,y"},"e":3}'
    assert value_replaced(line, line.index('"e"') + 4, "[]") == '{"a":[1,{"b":2}],"c":{"d":"x,y"},"e":[]}'
    assert value_replaced(line, line.index('"b"') + 4, "1e999") == '{"a":[1,{"b":1e999}],"c":{"d":"x,y"},"e":3}'
