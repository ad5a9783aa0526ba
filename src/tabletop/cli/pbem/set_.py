"""``tabletop pbem set``: change a game's settings after init."""

from __future__ import annotations

import click

from ...base.errors import UsageError
from ...referee import referee
from ...referee.clock import duration
from ..common import pass_env
from .common import game_folder, pair, registry

_SETTABLE = {
    "smtp": str,
    "smtp_security": str,
    "ca_file": str,
    "referee": str,
    "master": str,
    "late_bot": str,
    "tz": "zone",
    "pictures": str,
    "deadline": "duration",
    "remind": "duration",
    "grace": "duration",
    "vote_majority": str,
    "civil_disorder": str,
    "substitutes": "list",
    "page_url": str,
}


@click.command(name="set")
@game_folder
@click.argument("settings", nargs=-1, required=True)
@pass_env
def set_(env, directory, settings):
    """Change settings after init: smtp, smtp_security, ca_file, referee,
    master, deadline, remind, grace, late_bot, pictures, tz (tz=NAME=ZONE),
    vote_majority, civil_disorder, substitutes (ADDRESS,ADDRESS), page_url (the turn pages'
    server, https://HOST) (KEY=VALUE; an empty VALUE clears an optional one).

    \b
    Example:
      tabletop pbem set duel smtp=mail.example.org:587 deadline=72h
    """
    changes = {}
    for item in settings:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in _SETTABLE:
            raise UsageError(f"'{item}': write KEY=VALUE with KEY one of {', '.join(_SETTABLE)}")
        if _SETTABLE[key] == "zone":
            changes[key] = pair(value, "tz", "tz=NAME=ZONE (an empty ZONE: UTC only)")
        elif _SETTABLE[key] == "list":
            changes[key] = [a.strip() for a in value.split(",") if a.strip()]
        elif _SETTABLE[key] == "duration":
            changes[key] = duration(value, key) if value else (0 if key == "grace" else None)
        else:
            changes[key] = value or None
    if changes.get("smtp", "") is None or changes.get("referee", "") is None:
        raise UsageError("smtp and referee cannot be cleared")
    for line in referee.Referee.open(registry(env, directory), directory).set(changes):
        click.echo(line)
