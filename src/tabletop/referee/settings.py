"""The referee's settings: the bounds it keeps and the record of one game
(:class:`Settings`, kept as ``referee.json``). What the organiser asks for
at ``init`` and at every ``set`` is checked by :mod:`.asked`.

The record has a field for every key of the file, each with its type and
its default: what a file written before the key existed means by leaving
it out. Some keys come into the file only when first needed (a vote cast,
a seat offered, an observer's list): their field is None until then, and
a field at None of these is no key in the file (:func:`once_needed`), so
the file reads exactly as it always did.

The project's converter (cattrs: a value of exactly its type, no key not
known) is the reference for reading and writing the file. A file that is
right is read by the record's own validators, made from the same types,
without importing cattrs (``pbem receive`` starts as fast as before); a
file that is not is read by the converter, whose words name the key at
fault in one line. The values are JSON's own, so the record is written as
its fields are; the converter writes the same (tests/referee/test_settings_record.py).
"""

from __future__ import annotations

import functools
import re
import types
import typing
from pathlib import Path
from typing import Any, TypedDict, Union

import attrs

from ..base.errors import UsageError

#: A seed is at most 256 characters (the header's bound): 4 KiB is plenty.
MAX_SEED = 4096

#: How many legal decisions a mail lists before it says how many more there are.
LISTED = 40
#: At most this many in the full list a player may ask for.
LISTED_ALL = 10000
DAY = 86400
#: Answers a day to a known player's address for mails without a good secret.
ANSWERS_A_DAY = 5
#: Ids of mails from anyone kept to answer each once; of mails with a good secret, kept apart.
SEEN_KEPT = 5000
ACCEPTED_KEPT = 20000
#: Former holders of seats remembered (their old secret told that the seat passed on).
FORMER_KEPT = 50
#: Wrong secrets checked (each check costs a deliberately slow hash) from one
#: sender an hour, and for one player a day; past these, no secret is checked.
GUESSES_AN_HOUR = 5
GUESSES_A_DAY = 30
HOUR = 3600
#: How far the mail server's clock may be behind the referee's (seconds):
#: a mail is older than the game only if it arrived this long before it began.
CLOCKS_DIFFER = 600
#: The board in each view: "png" (a PNG picture, and the SVG beside it; needs
#: the png extra, else the SVG alone), or "svg" (the SVG alone).
PICTURES = ("png", "svg")
GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")


# -- the record ---------------------------------------------------------------------
#: A moment (seconds since the epoch): the clock's float, or a whole second,
#: each kept as it was given (a file says 1800000000 or 1800000000.5).
Number = Union[int, float]
#: A note about a change: the same for all, or ``{"": for all, PLAYER: theirs}`` (:mod:`.letters`).
Note = Union[str, dict[str, str]]


class _Hashed(TypedDict):
    salt: str
    scrypt: str


class Stored(_Hashed, total=False):
    """A secret as kept (:mod:`.passwords`); one stored before tags has no ``tag`` until it is next matched."""

    tag: str


class _Seat(TypedDict):
    address: str
    secret: Stored
    #: The last event mailed to the player.
    mailed: int


class Player(_Seat, total=False):
    """A seat: who plays it (an address, or ``bot:SPEC``), their secret, their time zone, the deadlines they missed."""

    tz: str | None
    missed: int
    disorder: bool


class Due(TypedDict):
    """Whose decision is due since when (:mod:`.clock`), and who was reminded or told they are late."""

    seq: int
    since: dict[str, Number]
    reminded: list[str]
    late: list[str]


#: One step of a conditional move (:mod:`.conditionals`): ``if`` is each other player's decision it answers.
Step = TypedDict("Step", {"if": dict[str, str], "said": str, "then": str})


class Chain(TypedDict):
    line: int
    steps: list[Step]


class Watcher(TypedDict):
    """An observer (:mod:`.observers`) and the last event mailed to them."""

    address: str
    mailed: int


class Offer(TypedDict):
    """A seat offered to a substitute (:mod:`.seats`), with the claim token's hash."""

    seat: str
    address: str
    token: Stored
    key: str
    time: Number


class Former(TypedDict):
    """Who held a seat before it passed to another (``replace``, a
    substitute's claim): their address and their old secret's hash, so
    that a mail with that secret is told the seat passed on (:mod:`.seats`)."""

    seat: str
    address: str
    secret: Stored
    time: Number


class Pending(TypedDict):
    """A new secret still to mail (a crash came between its hash and its mail)."""

    player: str
    secret: str
    key: str
    replaced: str


def _later() -> Any:
    """A field whose key comes into the file when first needed: None until then."""
    return attrs.field(default=None, metadata={"once_needed": True})


def _typed(record: Any, field: attrs.Attribute, value: Any) -> None:
    if not fits(value, field.type):
        raise TypeError(f"{field.name}: not of its type ({_shown(field.type)})")


def _checked(cls: type, fields: list[attrs.Attribute]) -> list[attrs.Attribute]:
    return [field.evolve(validator=_typed) for field in fields]


@attrs.define(field_transformer=_checked)
class Settings:
    """One game's settings and mail state, as ``referee.json`` keeps them;
    each field checked against its type when set."""

    game_id: str
    game: str
    referee: str
    smtp: str
    players: dict[str, Player]
    smtp_security: str | None = "auto"
    ca_file: str | None = None
    deadline: int | None = None
    remind: int | None = None
    late_bot: str | None = None
    grace: int = 0
    master: str | None = None
    pictures: str = "png"
    vote_majority: str = "all"
    civil_disorder: int | None = None
    substitutes: list[str] = attrs.Factory(list)
    #: When the game began (mail that reached a shared mailbox before is not its).
    created: Number | None = None
    thread: str | None = None
    #: Ids of mails answered, and of mails with a good secret (kept apart: only players add to it).
    seen: list[str] = attrs.Factory(list)
    accepted: list[str] = attrs.Factory(list)
    #: Wrong secrets counted (``from:SENDER`` an hour, ``for:PLAYER`` a day): ``[window, count]``.
    guesses: dict[str, list[int]] = attrs.Factory(dict)
    #: The mails played, each with the last event it made.
    played: dict[str, int] = attrs.Factory(dict)
    #: Answers to an address, alerts to a player, today: ``[day, count]``.
    answered: dict[str, list[int]] = attrs.Factory(dict)
    alerted: dict[str, list[int]] = attrs.Factory(dict)
    due: Due | None = None
    paused: Number | None = None
    ended: Number | None = None
    master_secret: Stored | None = _later()
    #: Who paused the game: "vote" or "master".
    paused_by: str | None = _later()
    #: Votes cast, by kind: player -> the events in the log when they voted (:mod:`.votes`).
    votes: dict[str, dict[str, int]] | None = _later()
    conditionals: dict[str, list[Chain]] | None = _later()
    offers: list[Offer] | None = _later()
    observers: list[Watcher] | None = _later()
    #: Notes of changes whose mails wait for a bot's decision (:mod:`.bots`).
    held_notes: list[Note] | None = _later()
    pending_secrets: list[Pending] | None = _later()
    #: Former holders of seats that passed on, the last :data:`FORMER_KEPT`.
    former: list[Former] | None = _later()
    #: The address of the game's turn pages (``tabletop pbem serve``), linked from every mail (:mod:`.pages`).
    page_url: str | None = _later()

    def to_json(self) -> dict[str, Any]:
        """The file's object: every field, but those once needed and not yet."""
        return {name: value for name, later in _FIELDS if (value := getattr(self, name)) is not None or not later}

    def update(self, values: dict[str, Any], where: object) -> None:
        """Set the fields ``values`` names (keys of the file, values as it
        holds them: a journal's records); one line naming ``where`` and the key otherwise."""
        for key, value in values.items():
            if key not in _NAMES:
                raise UsageError(f"unknown key '{key[:40]}' of the referee's settings", where=str(where))
            try:
                setattr(self, key, value)
            except TypeError as exc:
                raise UsageError(str(exc), where=str(where)) from None


attrs.resolve_types(Settings)
_FIELDS = tuple((f.name, bool(f.metadata.get("once_needed"))) for f in attrs.fields(Settings))
_NAMES = frozenset(name for name, _ in _FIELDS)
_REQUIRED = frozenset(f.name for f in attrs.fields(Settings) if f.default is attrs.NOTHING)


def once_needed() -> tuple[str, ...]:
    """The keys that come into the file when first needed."""
    return tuple(name for name, later in _FIELDS if later)


def read(data: Any, where: Path | str) -> Settings:
    """The record ``data`` (the file's JSON) holds; one line naming the file
    ``where`` and the key at fault otherwise (exit 2)."""
    if type(data) is dict and _REQUIRED <= data.keys() <= _NAMES:
        try:
            return Settings(**data)
        except TypeError:
            pass
    raise UsageError(why(data), where=str(where))


def why(data: Any) -> str:
    """What is wrong with ``data`` as the referee's settings, in the converter's words (the first fault)."""
    if type(data) is not dict:
        return "the referee's settings are not a JSON object"
    import cattrs

    try:
        converter().structure(data, Settings)
    except cattrs.BaseValidationError as exc:
        said = cattrs.transform_error(exc, format_exception=_words)[0]
        what, _, path = said.rpartition(" @ ")
        key = path.removeprefix("$").lstrip(".")
        extra = re.fullmatch(r"extra fields found \((.*)\)", what)
        if extra:
            return f"unknown key {extra.group(1)[:60]!r}" + (f" in {key}" if key else "")
        return f"{key}: {what}" if key else what
    except TypeError as exc:  # a validator's, the converter having read every part
        return str(exc)
    return "not the referee's settings"


def _words(exc: BaseException, hint: Any) -> str:
    from cattrs.v import format_exception

    if isinstance(exc, TypeError) and str(exc).startswith("invalid value for type"):
        return str(exc)  # the record's own hooks say which type
    return format_exception(exc, hint)


# -- types checked without the converter ----------------------------------------------
_PLAIN = (str, int, bool, float)


def fits(value: Any, hint: Any) -> bool:
    """Whether ``value``, read from JSON, is exactly of the type ``hint``
    (no bool for an int, no int for a str, a list for a list): what the
    converter accepts."""
    return _checker(hint)(value)


@functools.cache
def _checker(hint: Any) -> Any:
    if hint is Any:
        return lambda value: True
    if hint is type(None):
        return lambda value: value is None
    if hint in _PLAIN:
        return lambda value: type(value) is hint
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        parts = tuple(_checker(arg) for arg in args)
        return lambda value: any(part(value) for part in parts)
    if origin is list:
        item = _checker(args[0])
        return lambda value: type(value) is list and all(map(item, value))
    if origin is dict:
        key, item = _checker(args[0]), _checker(args[1])
        return lambda value: type(value) is dict and all(key(k) and item(v) for k, v in value.items())
    if typing.is_typeddict(hint):
        keys = {name: _checker(kind) for name, kind in typing.get_type_hints(hint).items()}
        required = hint.__required_keys__

        def record(value: Any) -> bool:
            if type(value) is not dict or not required <= value.keys():
                return False
            return all(name in keys and keys[name](item) for name, item in value.items())

        return record
    raise TypeError(f"the referee's settings have no check for {hint!r}")


def _shown(hint: Any) -> str:
    """A type as the file's reader would name it: ``int | float | None``."""
    if typing.get_origin(hint) in (Union, types.UnionType):
        return " | ".join(_shown(arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return "None"
    return hint.__name__ if isinstance(hint, type) else str(hint).replace("typing.", "")


@functools.cache
def converter() -> Any:
    """The converter for the record: the project's (strict about types and
    extra keys), strict about lists and moments too, and writing a field
    once needed only once set."""
    from cattrs.errors import IterableValidationError, IterableValidationNote
    from cattrs.gen import make_dict_unstructure_fn, override

    from ..host.registry import make_converter

    made = make_converter()

    def is_number(hint: Any) -> bool:
        return typing.get_origin(hint) in (Union, types.UnionType) and float in typing.get_args(hint)

    def number(value: Any, hint: Any) -> Any:
        if not fits(value, hint):
            raise TypeError(f"invalid value for type, expected {_shown(hint)}")
        return value

    def note(value: Any, hint: Any) -> Any:
        if type(value) is str:
            return value
        return made.structure(value, dict[str, str])

    def strict_list(hint: Any) -> Any:
        item = typing.get_args(hint)[0]

        def structure(value: Any, _: Any) -> list:
            if type(value) is not list:
                raise TypeError(f"expected a list, not {type(value).__name__}")
            done, errors = [], []
            for index, one in enumerate(value):
                try:
                    done.append(made.structure(one, item))
                except Exception as exc:  # noqa: BLE001 - gathered as cattrs gathers them
                    exc.__notes__ = [*getattr(exc, "__notes__", []), IterableValidationNote(f"@ {index}", index, item)]
                    errors.append(exc)
            if errors:
                raise IterableValidationError(f"While structuring {hint!r}", errors, hint)
            return done

        return structure

    made.register_structure_hook_func(is_number, number)
    made.register_structure_hook(Note, note)
    made.register_structure_hook_factory(lambda hint: typing.get_origin(hint) is list, strict_list)
    later = {name: override(omit_if_default=True) for name in once_needed()}
    made.register_unstructure_hook(Settings, make_dict_unstructure_fn(Settings, made, **later))
    return made
