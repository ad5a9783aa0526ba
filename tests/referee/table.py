"""Helpers for the tests of what happens at the table beside the moves:
votes, seats changing hands, conditional moves."""

from __future__ import annotations

import email
import email.policy
import json
from email.message import EmailMessage
from pathlib import Path

import jsonschema

from .conftest import body

ROOT_DOCS = Path(__file__).resolve().parents[2] / "docs"


def parsed(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def queued(game, since: set[str]) -> list[EmailMessage]:
    """The mails queued since the outbox held the names ``since``, oldest first."""
    return [parsed(raw) for raw in game.queued_since(since)]


def to(mails: list[EmailMessage], address: str) -> list[str]:
    """The plain texts of the mails to ``address``."""
    return [body(m) for m in mails if address in str(m["To"])]


def log_lines(game) -> list[dict]:
    return [json.loads(line) for line in game.log().decode().splitlines()]


def check_schema(game) -> None:
    """Every line of the game's log matches the published schema, core payloads included."""
    schema = json.loads((ROOT_DOCS / "log-format.schema.json").read_text())
    lines = log_lines(game)
    jsonschema.Draft202012Validator({**schema, "oneOf": [{"$ref": "#/$defs/header"}]}).validate(lines[0])
    event = jsonschema.Draft202012Validator({**schema, "oneOf": [{"$ref": "#/$defs/event"}]})
    core = schema["$defs"]["payloads"]["core"]
    for line in lines[1:]:
        event.validate(line)
        if line["kind"] in core:
            jsonschema.Draft202012Validator(
                {**schema, "oneOf": [{"$ref": f"#/$defs/payloads/core/{line['kind']}"}]}
            ).validate(line["payload"])
            assert ("player" in line) == (core[line["kind"]]["x-player"] == "required"), line


def replayed(game):
    from tabletop.play.engine import Replay

    return Replay(game.registry, game.path / "game.jsonl").run()
