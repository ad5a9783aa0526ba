"""Every recorded game under replays/ matches the published JSON Schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from ..conftest import REPLAYS, ROOT

SCHEMA = json.loads((ROOT / "docs" / "log-format.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(SCHEMA)
LOGS = sorted(REPLAYS.rglob("*.jsonl"))


def validator(pointer: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": pointer}]})


HEADER = validator("#/$defs/header")
EVENT = validator("#/$defs/event")


def check_line(game: str, line: dict) -> None:
    EVENT.validate(line)
    payloads = SCHEMA["$defs"]["payloads"]
    group = "core" if line["kind"] in payloads["core"] else game
    assert line["kind"] in payloads[group], f"no payload schema for {game} {line['kind']}"
    validator(f"#/$defs/payloads/{group}/{line['kind']}").validate(line["payload"])
    player = payloads[group][line["kind"]]["x-player"]
    assert ("player" in line) == (player == "required"), line


def test_there_are_recorded_games():
    assert len(LOGS) >= 8


@pytest.mark.parametrize("log", LOGS, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_recorded_game_matches_the_schema(log):
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    HEADER.validate(lines[0])
    for line in lines[1:]:
        check_line(lines[0]["game"], line)


def test_every_event_kind_of_every_game_has_a_payload_schema(registry):
    payloads = SCHEMA["$defs"]["payloads"]
    for game, kinds in registry.codec.kinds.items():
        if game == "pile":  # the test-only game is not published
            continue
        for kind in kinds:
            assert kind in payloads.get(game, {}) or kind in payloads["core"], (game, kind)


def test_the_schema_rejects_a_bad_line():
    with pytest.raises(jsonschema.ValidationError):
        EVENT.validate({"seq": 0, "kind": "place", "player": "a", "payload": {"square": "f7", "face": 6}})
    with pytest.raises(jsonschema.ValidationError):
        check_line("glux", {"seq": 3, "kind": "draw", "player": "a", "payload": {"chip": "2, 6"}})
    with pytest.raises(jsonschema.ValidationError):
        HEADER.validate({"tabletop": 1, "game": "glux", "players": ["a", "a"]})
