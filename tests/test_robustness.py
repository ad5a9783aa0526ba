"""Whatever a log says, replay answers with a TabletopError or succeeds: never
another exception (which would be a traceback for the user)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import TabletopError
from tabletop.engine import Replay

from .conftest import REPLAYS

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
