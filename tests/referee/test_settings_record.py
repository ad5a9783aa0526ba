"""Issue 27 part 5: the referee's settings are a typed record (every key of
``referee.json`` a field with its type and default), read and written
exactly as the file always was: the files the referee wrote before the
record read back and are written again byte for byte, the record writes
them the same at every step of a game, an old file without the keys
added since plays on, and a bad value is one line naming the file and the
key, exit 2."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tabletop.base.errors import UsageError
from tabletop.referee import settings
from tabletop.referee.referee import Referee

from .conftest import ANN, game_copy, plain_registry_cached
from .settings_scenario import FILES, SCENARIOS

WRITTEN_BEFORE = sorted(FILES.glob("*.json"))


def _written(record: settings.Settings) -> str:
    """The file as the referee writes it."""
    return json.dumps(record.to_json(), indent=2, sort_keys=True) + "\n"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_each_step_of_a_game_writes_the_file_the_referee_wrote_before(name, tmp_path, monkeypatch):
    """A game with every kind of record in it (votes, a conditional move, a
    pause, the late bot, civil disorder counted, a seat offered and claimed,
    a new secret, observers, settings changed, a draw, the end; and one
    against a bot in a seat): each file it writes is the one the referee
    wrote before its settings were a record, byte for byte."""
    kept = SCENARIOS[name](tmp_path, plain_registry_cached(), monkeypatch)
    before = sorted(FILES.glob(f"{name}-*.json"))
    assert len(kept) == len(before)
    for (step, text), path in zip(kept, before):
        assert text == path.read_text(), (step, path.name)


@pytest.mark.parametrize("path", WRITTEN_BEFORE, ids=[p.stem for p in WRITTEN_BEFORE])
def test_a_file_written_before_reads_and_is_written_back_as_it_was(path):
    text = path.read_text()
    record = settings.read(json.loads(text), path)
    assert _written(record) == text
    # The converter, the reference, reads the same record and writes the same object.
    converter = settings.converter()
    assert converter.structure(json.loads(text), settings.Settings) == record
    assert converter.unstructure(record) == record.to_json()


#: What the first referee kept (before the game master, time zones, pictures,
#: votes, observers and the rest), and what a file without each key means.
FIRST_KEYS = ("game_id", "game", "referee", "smtp", "deadline", "remind", "late_bot", "grace", "players", "seen", "due")
DEFAULTS = {
    "smtp_security": "auto",
    "ca_file": None,
    "master": None,
    "pictures": "png",
    "vote_majority": "all",
    "civil_disorder": None,
    "substitutes": [],
    "created": None,
    "thread": None,
    "accepted": [],
    "guesses": {},
    "played": {},
    "answered": {},
    "alerted": {},
    "paused": None,
    "ended": None,
}


def test_an_old_file_without_the_keys_added_since_plays_on(tmp_path):
    """A file as the first referee wrote it (no master, no time zones, no
    tags on the secrets, none of the keys added since): it reads, a move
    plays, and it is written back with each value it had and, for each key
    it lacked, what its absence meant; the keys a game gains when first
    needed come only when needed."""
    game = game_copy(tmp_path, plain_registry_cached(), None)
    now = game.settings()
    old = {key: now[key] for key in FIRST_KEYS}
    old["players"] = {
        name: {"address": data["address"], "secret": {k: data["secret"][k] for k in ("salt", "scrypt")}, "mailed": 0}
        for name, data in now["players"].items()
    }
    (game.path / "referee.json").write_text(json.dumps(old))
    record = Referee.open(plain_registry_cached(), game.path).settings
    assert record.to_json() == {**old, **DEFAULTS}
    assert "played 1" in game.receive(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    after = game.settings()
    for key in ("game_id", "game", "referee", "smtp", "deadline", "remind", "late_bot", "grace"):
        assert after[key] == old[key], key
    assert {k: v for k, v in after.items() if k not in old and k not in ("votes", "observers", "conditionals")} == {
        **DEFAULTS,
        "accepted": after["accepted"],
        "played": after["played"],
    }
    assert len(after["played"]) == 1 and after["accepted"] == list(after["played"])
    assert "tag" in after["players"]["ann"]["secret"]  # given at its first match, as before
    assert after["players"]["ben"]["secret"] == old["players"]["ben"]["secret"]


BAD = [
    ("deadline", "soon", "deadline: "),
    ("grace", True, "grace: "),
    ("paused", "yesterday", "paused: "),
    ("smtp", None, "smtp: "),
    ("seen", "<a@b>", "seen: "),
    ("colour", "blue", "unknown key 'colour'"),
    ("players", {"ann": {"address": ANN, "secret": {"salt": "00"}, "mailed": 0}}, "players['ann'].secret.scrypt: "),
    ("players", {"ann": {"address": ANN, "secret": {"salt": "0", "scrypt": "0"}, "mailed": "2"}}, ".mailed: "),
    ("votes", {"draw": {"ann": 2.5}}, "votes['draw']['ann']: "),
]


@pytest.mark.parametrize(("key", "value", "said"), BAD, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(BAD)])
def test_a_bad_value_in_the_file_is_one_line_naming_it_and_the_key(cli, tmp_path, key, value, said):
    game = game_copy(tmp_path, plain_registry_cached(), None)
    data = game.settings()
    data[key] = value
    written = json.dumps(data)
    (game.path / "referee.json").write_text(written)
    (tmp_path / "in.eml").write_bytes(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    log = game.log()
    for command in (("status", "g"), ("receive", "g", "in.eml"), ("tick", "g")):
        result = cli("pbem", *command, plugins=False)
        assert result.exit_code == 2, (command, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in result.output, result.output
        assert lines[0].startswith("tabletop: g/referee.json: ") and said in lines[0], lines[0]
    assert (game.path / "referee.json").read_text() == written and game.log() == log


def test_a_file_that_is_not_an_object_or_lacks_a_key_is_one_line_too():
    for data, said in (([], "settings are not a JSON object"), ({"game_id": "g"}, "game: required field missing")):
        with pytest.raises(UsageError) as caught:
            settings.read(data, Path("g/referee.json"))
        assert str(caught.value).startswith("g/referee.json: ") and said in str(caught.value)


#: Values of every JSON kind, put in place of each value of a file in turn.
KINDS = ("text", 7, 7.5, True, None, [], {}, ["text"], {"k": "text"})


def _places(value, path=()):
    """Every place in a JSON value (a path of keys and indices), itself included."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:2]):
            yield from _places(inner, (*path, index))


def _at(data, path):
    for step in path:
        data = data[step]
    return data


def _put(data, path, value):
    data = copy.deepcopy(data)
    *above, last = path
    where = data
    for step in above:
        where = where[step]
    where[last] = value
    return data


def test_the_records_own_check_accepts_exactly_what_the_converter_accepts():
    """The record's validators (made from its types, no cattrs) and the
    project's converter agree on every value of every kind in every place
    of a file with conditional moves, votes and observers in it, on the
    file without each key, and with a key more in each object."""
    import cattrs

    base = json.loads((FILES / "table-05.json").read_text())  # a vote and a conditional move kept
    base["offers"] = json.loads((FILES / "table-13.json").read_text())["offers"]
    base["held_notes"] = ["for all", {"": "for all", "ann": "yours"}]
    converter = settings.converter()
    tried = 0
    variants = [{k: v for k, v in base.items() if k != key} for key in base]
    variants += [_put(base, path, kind) for path in _places(base) if path for kind in KINDS]
    variants += [_put(base, (*path, "extra"), "text") for path in _places(base) if isinstance(_at(base, path), dict)]
    for data in variants:
        try:
            settings.Settings(**data)
            fast = True
        except TypeError:
            fast = False
        try:
            converter.structure(data, settings.Settings)
            reference = True
        except (cattrs.BaseValidationError, TypeError):
            reference = False
        assert fast == reference, data
        tried += 1
    assert tried > 1000
